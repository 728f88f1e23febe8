"""env(): PettingZoo's standard wrappers, with the hot attributes read directly."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils import wrappers as pz

from skat_env import DealError, IllegalMoveError, skat_v0
from skat_env.core.moves import MOVE_NAMES
from skat_env.envs.wrappers import HOT_ATTRIBUTES


def test_env__is_pettingzoos_order_enforcing_wrapper_around_the_raw_env():
    env = skat_v0.env()
    assert isinstance(env, pz.OrderEnforcingWrapper)
    assert env.env is env.unwrapped and isinstance(env.unwrapped, skat_v0.raw_env)
    assert env.unwrapped.illegal_action == "terminate"


@pytest.mark.parametrize("name", ["agent_selection", "agents", "terminations", "rewards", "infos"])
def test_before_reset__reading_state_raises_pettingzoos_error(name):
    env = skat_v0.env()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        getattr(env, name)


def test_refused_reset__leaves_the_wrapper_not_reset():
    env = skat_v0.env()
    with pytest.raises(DealError):
        env.reset(options={"deal": "CJ SJ"})
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.agents  # noqa: B018


def test_private_attributes__stay_hidden_as_in_pettingzoo():
    env = skat_v0.env()
    env.reset(seed=0)
    with pytest.raises(AttributeError, match="private attribute"):
        env._tracker  # noqa: B018


def test_hot_attributes__equal_the_raw_env_during_play():
    env = skat_v0.env()
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(5):
        env.reset()
        for _agent in env.agent_iter():
            for name in HOT_ATTRIBUTES:
                assert getattr(env, name) is getattr(env.unwrapped, name), name
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
        assert env.agents == [] and env.unwrapped.agents == []


@pytest.mark.parametrize("action", [121, -1, np.int64(200)])
def test_out_of_range_action__raises_as_the_raw_env_and_changes_nothing(action):
    env = skat_v0.env()
    env.reset(seed=0)
    before = env.last()[0]
    with pytest.raises(IllegalMoveError, match="not a move id"):
        env.step(action)
    assert not any(env.terminations.values())
    np.testing.assert_array_equal(env.last()[0]["observation"], before["observation"])


@pytest.mark.parametrize("action", [True, np.bool_(False), 32.0, "32", None])
def test_non_integer_action__is_a_type_error(action):
    env = skat_v0.env()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="move id, an integer 0..120"):
        env.step(action)
    assert not env.unwrapped.game.history


@pytest.mark.parametrize("cast", [int, np.int64, np.uint64, np.int8])
def test_integer_actions__of_any_integer_type_are_played(cast):
    env = skat_v0.env()
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    env.step(cast(legal))
    assert env.unwrapped.game.history[0][1] == legal


@pytest.mark.parametrize(
    "mode, scale, penalty",
    [("zero_sum", 1.0, -540.0), ("list", 0.01, -5.4), ("seeger_fabian", 1.0, -590.0)],
)
def test_illegal_action__terminates_with_the_worst_outcome_then_agents_leave(mode, scale, penalty):
    env = skat_v0.env(reward_mode=mode, reward_scale=scale)
    env.reset(seed=3)
    agent = env.agent_selection
    env.step(MOVE_NAMES.index("hold"))  # nobody may hold before a bid
    assert all(env.terminations.values())
    assert env.rewards[agent] == pytest.approx(penalty)
    assert sum(env.rewards.values()) == pytest.approx(penalty)
    assert env.infos[agent]["illegal_action"] is True
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
