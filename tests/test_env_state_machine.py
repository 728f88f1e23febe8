"""Stateful tests of the AEC env (and of the learner-seat env): random mixes of legal moves,
illegal and malformed actions, good and bad resets, copies and pickles. After every operation
the env either did what was asked or refused with a clear error and changed nothing
(observations, masks, state, rewards, flags, the shuffle generator)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import COPIES
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from skat_env import skat_v0
from skat_env.core.game import DealError, IllegalMoveError, random_deal
from skat_env.encoding.observation import encode, observe
from skat_env.encoding.view import player_view
from skat_env.envs.single_agent import SkatSingleAgentEnv

AGENTS = ("player_0", "player_1", "player_2")
MALFORMED = [True, np.bool_(False), "18", 32.0, 32.5, None, [32], -1, 121, np.int64(500)]
BAD_OPTIONS = [
    {"deal": random_deal(1)[:31]},
    {"deal": [c + 0.5 for c in random_deal(1)]},
    {"deal": set(range(32))},
    {"deal": dict.fromkeys(range(32))},
    {"dealer": 3},
    {"dealer": 1.0},
    {"dealer": True},
    "dealer=1",
]


def snapshot(env) -> tuple:
    """Everything observable about the env, the next deals included."""
    raw = env.unwrapped
    rng = raw._rng.bit_generator.state if raw._rng is not None else raw._rng_state
    if raw.game is None:
        return ("no game", json.dumps(rng, sort_keys=True))
    views = []
    for agent in AGENTS:
        obs = env.observe(agent)
        views.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
    flags = [
        json.dumps(getattr(raw, name), sort_keys=True)
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos")
    ]
    return (
        raw.agent_selection, list(raw.agents), list(raw.game.history), raw._dealer,
        views, env.state().tobytes(), flags, json.dumps(rng, sort_keys=True),
    )  # fmt: skip


class EnvMachine(RuleBasedStateMachine):
    @initialize(
        wrapped=st.booleans(),
        mode=st.sampled_from(["terminate", "raise"]),
        reward_mode=st.sampled_from(["zero_sum", "list", "seeger_fabian"]),
    )
    def make(self, wrapped, mode, reward_mode):
        make = skat_v0.env if wrapped else skat_v0.raw_env
        self.env = make(illegal_action=mode, reward_mode=reward_mode)
        self.mode = mode

    # --- helpers ---
    @property
    def raw(self):
        return self.env.unwrapped

    def live(self) -> bool:
        """A game is running and its agent to act may move."""
        raw = self.raw
        return (
            raw.game is not None and bool(raw.agents) and not raw.terminations[raw.agent_selection]
        )

    def refused(self, errors, call) -> None:
        before = snapshot(self.env)
        with pytest.raises(errors) as info:
            call()
        assert str(info.value), "an error must say what is wrong"
        assert snapshot(self.env) == before

    # --- resets ---
    @rule(seed=st.none() | st.integers(0, 2**32 - 1), dealer=st.none() | st.integers(0, 2))
    def reset(self, seed, dealer):
        previous = self.raw._dealer
        options = None if dealer is None else {"dealer": dealer}
        self.env.reset(seed=seed, options=options)
        game = self.raw.game
        assert game.history == [] and list(self.raw.agents) == list(AGENTS)
        assert game.dealer == ((previous + 1) % 3 if dealer is None else dealer)
        assert not any(self.raw.terminations.values())

    @rule(seed=st.none() | st.integers(0, 2**32 - 1), options=st.sampled_from(BAD_OPTIONS))
    def bad_reset(self, seed, options):
        self.refused((DealError, TypeError, ValueError), lambda: self.env.reset(seed, options))

    # --- actions ---
    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def legal_move(self, data):
        raw = self.raw
        mask = raw.observe(raw.agent_selection)["action_mask"]
        action = data.draw(st.sampled_from(np.flatnonzero(mask).tolist()))
        cast = data.draw(st.sampled_from([int, np.int64, np.uint8, np.int16]))
        n = len(raw.game.history)
        self.env.step(cast(action))
        assert raw.game.history[n:] == [(raw.game.history[-1][0], action)]

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def illegal_move(self, data):
        raw = self.raw
        agent = raw.agent_selection
        mask = raw.observe(agent)["action_mask"]
        action = data.draw(st.sampled_from(np.flatnonzero(mask == 0).tolist()))
        if self.mode == "raise":
            self.refused(IllegalMoveError, lambda: self.env.step(action))
            return
        history = list(raw.game.history)
        self.env.step(action)
        assert raw.game.history == history  # never applied
        assert all(raw.terminations.values()) and raw.infos[agent]["illegal_action"]
        assert raw.rewards[agent] == raw.illegal_reward * raw.reward_scale
        assert sum(raw.rewards.values()) == raw.rewards[agent]

    @precondition(lambda self: self.raw.game is not None and self.raw.agents)
    @rule(action=st.sampled_from(MALFORMED))
    def malformed_action(self, action):
        errors = (TypeError, IllegalMoveError, ValueError)
        if not self.live() and action is None:
            return  # None is the dead agent's step
        self.refused(errors, lambda: self.env.step(action))

    @precondition(lambda self: self.raw.game is not None and not self.live() and self.raw.agents)
    @rule()
    def dead_step(self):
        n = len(self.raw.agents)
        self.env.step(None)
        assert len(self.raw.agents) == n - 1

    @precondition(lambda self: self.raw.game is None)
    @rule()
    def before_reset(self):
        for call in (lambda: self.env.step(0), self.env.last, lambda: self.env.observe("player_0")):
            self.refused(RuntimeError, call)

    # --- copies ---
    @rule(route=st.sampled_from(sorted(COPIES)), adopt=st.booleans())
    def copy_env(self, route, adopt):
        before = snapshot(self.env)
        clone = COPIES[route](self.env)
        assert snapshot(clone) == before
        if clone.unwrapped.game is not None:  # the copy moves on alone
            clone.reset()
            assert snapshot(self.env) == before
        if adopt:  # go on with a fresh copy of the original position
            self.env = COPIES[route](self.env)
            assert snapshot(self.env) == before

    # --- what must always hold ---
    @invariant()
    def observations_are_the_encoded_views(self):
        raw = getattr(self, "env", None) and self.raw
        if not raw or raw.game is None:
            return
        for seat, agent in enumerate(AGENTS):
            obs = raw.observe(agent)
            expected = encode(player_view(raw.game, seat), raw._history)
            np.testing.assert_array_equal(obs["observation"], expected)
            legal = raw.game.legal_mask() if raw.game.to_act == seat else 0
            if self.mode == "terminate" and all(raw.terminations.values()):
                continue  # an illegal move ended the game where it stood
            assert obs["action_mask"].tolist() == [legal >> m & 1 for m in range(121)]


TestEnvMachine = EnvMachine.TestCase
TestEnvMachine.settings = settings(max_examples=25, stateful_step_count=40, deadline=None)
TestEnvMachine.pytestmark = [pytest.mark.slow]  # 25 examples of 40 steps: seconds


def single_snapshot(env: SkatSingleAgentEnv) -> tuple:
    rng = json.dumps(env.np_random.bit_generator.state, sort_keys=True)
    if env.game is None:
        return ("no game", rng)
    obs = observe(env.game, env.seat)["observation"].tobytes()
    return (env.seat, list(env.game.history), env._ended, env.action_masks().tobytes(), obs, rng)


class SingleAgentMachine(RuleBasedStateMachine):
    """The same contract for the learner-seat Gymnasium env."""

    @initialize(mode=st.sampled_from(["terminate", "raise"]))
    def make(self, mode):
        self.env = SkatSingleAgentEnv(illegal_action=mode)
        self.env.reset(seed=0)
        self.mode = mode

    def refused(self, errors, call) -> None:
        before = single_snapshot(self.env)
        with pytest.raises(errors) as info:
            call()
        assert str(info.value)
        assert single_snapshot(self.env) == before

    @rule(seed=st.none() | st.integers(0, 2**32 - 1), seat=st.none() | st.integers(0, 2))
    def reset(self, seed, seat):
        obs, info = self.env.reset(seed=seed, options={"seat": seat})
        assert seat is None or info["seat"] == seat
        assert self.env.game.to_act == info["seat"] and self.env.action_masks().any()

    @rule(options=st.sampled_from([*BAD_OPTIONS[:-1], {"seat": 3}, {"seat": 0.0}, {"x": 1}]))
    def bad_reset(self, options):
        self.refused((DealError, TypeError, ValueError), lambda: self.env.reset(options=options))

    @precondition(lambda self: not self.env._ended)
    @rule(data=st.data(), legal=st.booleans())
    def move(self, data, legal):
        mask = self.env.action_masks()
        action = data.draw(st.sampled_from(np.flatnonzero(mask == legal).tolist()))
        if not legal and self.mode == "raise":
            self.refused(IllegalMoveError, lambda: self.env.step(action))
            return
        _, reward, done, _, info = self.env.step(action)
        assert np.isfinite(reward)
        assert info.get("illegal_action", False) == (not legal)
        assert done == (self.env._ended) and (done or reward == 0.0)

    @precondition(lambda self: not self.env._ended)
    @rule(action=st.sampled_from(MALFORMED))
    def malformed(self, action):
        self.refused((TypeError, IllegalMoveError), lambda: self.env.step(action))

    @rule(route=st.sampled_from(sorted(COPIES)))
    def copy_env(self, route):
        before = single_snapshot(self.env)
        clone = COPIES[route](self.env)
        assert single_snapshot(clone) == before
        clone.reset()
        assert single_snapshot(self.env) == before
        self.env = COPIES[route](self.env)


TestSingleAgentMachine = SingleAgentMachine.TestCase
TestSingleAgentMachine.settings = settings(max_examples=15, stateful_step_count=30, deadline=None)
