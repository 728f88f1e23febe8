"""Copies of every env, in every phase, by every route: a copy continues exactly as the
original would, and apart from it (stepping one never moves the other)."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest
from helpers import COPIES

from skat_env import skat_v0
from skat_env.agents import HeuristicAgent, RandomAgent
from skat_env.core.game import DONE, PLAY, Game
from skat_env.core.records import dumps
from skat_env.envs.policy import Policy, RandomPolicy
from skat_env.envs.single_agent import SkatSingleAgentEnv
from skat_env.envs.vector_env import SkatVectorEnv


# --- the AEC env, raw and wrapped ---
def aec_fingerprint(env) -> list:
    """Everything an agent or a learner can read: whose turn, observations, masks, state,
    rewards, flags, infos."""
    raw = env.unwrapped
    out = [env.agent_selection, list(env.agents), raw.game.history if raw.game else None]
    for agent in env.possible_agents:
        obs = env.observe(agent)
        out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
    out.append(env.state().tobytes())
    for attr in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        out.append(json.dumps(getattr(env, attr), sort_keys=True))
    return out


def aec_play(env, rng: random.Random, steps: int) -> list:
    """``steps`` AEC steps of uniformly random legal play (resets at the end of a deal);
    returns the fingerprints seen."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            env.reset()
        else:
            obs, _, term, trunc, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.randrange(len(legal))]))
        seen.append(aec_fingerprint(env))
    return seen


def aec_at_phase(make, phase: int, seed: int = 0):
    """An env reset with ``seed`` and played randomly until ``phase`` (or the end)."""
    env = make()
    env.reset(seed=seed)
    rng = random.Random(seed)
    while env.unwrapped.game.phase < phase and env.agents:
        aec_play(env, rng, 1)
    return env


MAKERS = {"raw_env": skat_v0.raw_env, "env": skat_v0.env}


@pytest.mark.parametrize("route", COPIES)
@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize("phase", [0, PLAY, DONE])
def test_aec_copy__continues_identically_and_independently(maker, route, phase):
    original = aec_at_phase(MAKERS[maker], phase, seed=phase)
    clone = COPIES[route](original)
    assert type(clone) is type(original) and clone.unwrapped is not original.unwrapped
    assert aec_fingerprint(clone) == aec_fingerprint(original)
    # The copy runs ahead over this deal and the next ones; the original does not move.
    before = aec_fingerprint(original)
    ahead = aec_play(clone, random.Random(1), 120)
    assert aec_fingerprint(original) == before
    # The same choices on the original give the same positions, deals included (same seed
    # stream), and the copy does not move meanwhile.
    after_clone = aec_fingerprint(clone)
    assert aec_play(original, random.Random(1), 120) == ahead
    assert aec_fingerprint(clone) == after_clone


def test_aec_copy__before_reset_is_a_fresh_env_that_still_refuses():
    for make in MAKERS.values():
        for route in COPIES.values():
            c = route(make())
            with pytest.raises((RuntimeError, AttributeError), match="reset"):
                c.step(0)


def test_aec_copy__keeps_settings_and_a_copy_of_a_terminated_game():
    env = skat_v0.env(reward_mode="list", reward_scale=0.5, illegal_reward=-1000)
    env.reset(seed=2)
    env.step(95)  # "hold" before any bid: illegal, the game terminates
    for route in COPIES.values():
        c = route(env)
        raw = c.unwrapped
        assert (raw.reward_mode, raw.reward_scale, raw.illegal_reward) == ("list", 0.5, -1000.0)
        assert c.rewards == env.rewards and all(c.terminations.values())


def test_clone__is_much_cheaper_than_deepcopy():
    import timeit

    env = aec_at_phase(skat_v0.raw_env, PLAY)
    fast = min(timeit.repeat(env.clone, number=50, repeat=3))
    slow = min(timeit.repeat(lambda: copy.deepcopy(env), number=50, repeat=3))
    assert fast < slow / 3, (fast, slow)


# --- the single-agent env ---
def single_play(env: SkatSingleAgentEnv, rng: random.Random, steps: int) -> list:
    seen = []
    for _ in range(steps):
        if env._ended:
            obs, info = env.reset()
            seen.append(("reset", obs.tobytes(), info["seat"], env.game.history))
            continue
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
        seen.append((obs.tobytes(), reward, term, trunc, json.dumps(info, sort_keys=True)))
    return seen


SINGLE_OPPONENTS = {
    "random": lambda: None,
    "agents": lambda: [RandomAgent(3), HeuristicAgent()],
}


@pytest.mark.parametrize("route", COPIES)
@pytest.mark.parametrize("opponents", SINGLE_OPPONENTS)
def test_single_agent_copy__continues_identically_and_independently(route, opponents):
    original = SkatSingleAgentEnv(opponents=SINGLE_OPPONENTS[opponents]())
    original.reset(seed=5)
    single_play(original, random.Random(5), 7)
    clone = COPIES[route](original)
    assert clone.game.history == original.game.history
    before = (original.game.history.copy(), original.np_random.bit_generator.state)
    ahead = single_play(clone, random.Random(9), 60)
    assert (original.game.history, original.np_random.bit_generator.state) == before
    assert single_play(original, random.Random(9), 60) == ahead


# --- the vector env ---
def vector_play(env: SkatVectorEnv, rng: np.random.Generator, steps: int) -> list:
    seen = []
    for _ in range(steps):
        masks = env.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(1)
        obs, rew, term, trunc, info = env.step(actions)
        seen.append((obs.tobytes(), rew.tobytes(), term.tobytes(), info["result_score"].tobytes()))
    return seen


@pytest.mark.parametrize("route", COPIES)
def test_vector_env_copy__continues_identically_and_independently(route):
    original = SkatVectorEnv(4, opponents={"random": "random"})
    original.reset(seed=3)
    vector_play(original, np.random.default_rng(3), 5)
    clone = COPIES[route](original)
    before = original.state.obs.copy()
    ahead = vector_play(clone, np.random.default_rng(4), 40)
    np.testing.assert_array_equal(original.state.obs, before)
    assert vector_play(original, np.random.default_rng(4), 40) == ahead


# --- plain values whatever came in ---
def test_numpy_dealer__results_and_records_hold_plain_python_values():
    env = skat_v0.raw_env()
    env.reset(seed=1, options={"dealer": np.int64(0)})
    assert type(env.unwrapped.game.dealer) is int
    rng = random.Random(1)
    while not all(env.terminations.values()):
        aec_play(env, rng, 1)
    json.dumps(env.infos["player_0"]["result"])
    dumps(env.unwrapped.game)
    env.reset()  # the dealer rotates from a plain int
    assert type(env.unwrapped._dealer) is int
    game = Game(np.arange(32, dtype=np.int16), np.int8(1))
    assert type(game.dealer) is int and all(type(c) is int for c in game.deal)


# --- one policy protocol, one random policy ---
def test_agents_and_the_random_policy_satisfy_the_policy_protocol():
    assert isinstance(RandomAgent(0), Policy) and isinstance(HeuristicAgent(), Policy)
    assert isinstance(RandomAgent(0), RandomPolicy)


def test_random_policy__seeded_picklable_and_legal():
    obs = {"observation": np.zeros(3), "action_mask": np.zeros(121, np.int8)}
    obs["action_mask"][[4, 40, 96]] = 1
    a, b = RandomPolicy(7), pickle.loads(pickle.dumps(RandomPolicy(7)))
    moves = [a.act(obs) for _ in range(30)]
    assert moves == [b.act(obs) for _ in range(30)] and set(moves) == {4, 40, 96}
    masks = np.zeros((50, 121), np.int8)
    masks[:, 7] = masks[::2, 9] = 1
    acts = RandomPolicy(1).act_batch(None, masks)
    assert set(acts[1::2]) == {7} and set(acts[::2]) == {7, 9}
