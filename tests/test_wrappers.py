"""env(): PettingZoo's standard wrappers, with the hot attributes read directly."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers as pz

from skat_env import skat_v0
from skat_env.core.moves import MOVE_NAMES
from skat_env.envs.wrappers import HOT_ATTRIBUTES


def test_env__is_pettingzoos_three_wrappers_around_the_raw_env():
    env = skat_v0.env()
    assert isinstance(env, pz.OrderEnforcingWrapper)
    assert isinstance(env.env, pz.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, pz.TerminateIllegalWrapper)
    assert isinstance(env.unwrapped, skat_v0.raw_env)


@pytest.mark.parametrize("name", ["agent_selection", "agents", "terminations", "rewards", "infos"])
def test_before_reset__reading_state_raises_pettingzoos_error(name):
    env = skat_v0.env()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        getattr(env, name)


def test_private_attributes__stay_hidden_as_in_pettingzoo():
    env = skat_v0.env()
    env.reset(seed=0)
    with pytest.raises(AttributeError, match="private attribute"):
        env._tracker  # noqa: B018


def test_hot_attributes__equal_the_raw_env_in_every_layer_during_play():
    env = skat_v0.env()
    env.reset(seed=1)
    rng = random.Random(1)
    layers = [env, env.env, env.env.env]
    for _ in range(5):
        env.reset()
        for _agent in env.agent_iter():
            for layer in layers:
                for name in HOT_ATTRIBUTES:
                    assert getattr(layer, name) is getattr(env.unwrapped, name), name
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
        assert env.agents == [] and env.unwrapped.agents == []


@pytest.mark.parametrize("action", [121, -1, np.int64(200)])
def test_out_of_bounds_action__asserts(action):
    env = skat_v0.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="not in action space"):
        env.step(action)


def test_numpy_action__goes_through_discrete_contains():
    env = skat_v0.env()
    env.reset(seed=0)
    legal = np.flatnonzero(env.last()[0]["action_mask"])
    before = env.agent_selection
    env.step(np.int64(legal[0]))
    assert env.agent_selection != before or env.unwrapped.game.history


def test_illegal_action__terminates_with_penalty_then_agents_leave():
    env = skat_v0.env()
    env.reset(seed=3)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(MOVE_NAMES.index("hold"))  # nobody may hold before a bid
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1 and sum(env.rewards.values()) == -1
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_step_after_everyone_left__warns_as_in_pettingzoo(caplog):
    env = skat_v0.env()
    env.reset(seed=0, options={"deal": " ".join(skat_v0.action_to_move(i) for i in range(32))})
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    env.step(None)
    assert "called after all agents are terminated" in caplog.text
