"""PettingZoo's own checkers on the wrapped and the raw environment."""

import warnings

import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as check_state
from pettingzoo.test.state_test import test_state_space as check_state_space

from skat_env import skat_v0


@pytest.fixture(autouse=True)
def _quiet():
    # The checkers warn about Dict observations (as for every classic env) and about the
    # unknown reset option they pass on purpose.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("make", [skat_v0.env, skat_v0.raw_env], ids=["env", "raw_env"])
@pytest.mark.parametrize("mode", ["default", "history"])
def test_api_test__passes(make, mode):
    api_test(make(observation_mode=mode), num_cycles=200)


@pytest.mark.parametrize("make", [skat_v0.env, skat_v0.raw_env], ids=["env", "raw_env"])
def test_seed_test__passes(make):
    seed_test(make, num_cycles=200)


@pytest.mark.parametrize("make", [skat_v0.env, skat_v0.raw_env], ids=["env", "raw_env"])
def test_state_space__is_a_box(make):
    check_state_space(make())


@pytest.mark.parametrize("make", [skat_v0.env, skat_v0.raw_env], ids=["env", "raw_env"])
def test_state_test__passes(make):
    # state_test samples unmasked actions: both envs end the game on an illegal one (the
    # default illegal_action="terminate").
    check_state(make(), num_cycles=50)
