"""The AEC env's incremental observation rows equal the encoder's output after every move."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env import skat_v0
from skat_env.core.game import BIDDING, DONE, Game
from skat_env.core.moves import PASS
from skat_env.encoding.observation import action_mask, encode
from skat_env.encoding.tracker import ObservationTracker
from skat_env.encoding.view import player_view


def _random_move(game: Game, rng: random.Random) -> int:
    """A uniformly random legal move, except in the auction: pass a third of the time,
    else the lowest bid or hold (so that null games and passed-in deals come up)."""
    legal = game.legal_actions()
    if game.phase == BIDDING:
        return PASS if rng.random() < 0.35 else legal[0]
    return legal[rng.randrange(len(legal))]


def _play_checked(seed: int, history: bool, read: str) -> Game:
    """Play one random game through a tracker; after every move compare the rows read
    (``all`` seats, only the seat ``to_act``, or a random subset) with ``encode``."""
    rng = random.Random(seed)
    game = Game.random(np.random.default_rng(seed), dealer=seed % 3)
    tracker = ObservationTracker(history)
    tracker.reset(game)
    while True:
        if read == "all":
            seats = [0, 1, 2]
        elif read == "to_act":
            seats = [game.to_act] if game.to_act >= 0 else [0, 1, 2]
        else:
            seats = rng.sample([0, 1, 2], rng.randrange(4))
        for seat in seats:
            view = player_view(game, seat)
            np.testing.assert_array_equal(
                tracker.observation(seat), encode(view, history), err_msg=f"{game} seat {seat}"
            )
            np.testing.assert_array_equal(tracker.mask(seat), action_mask(view.legal_mask))
        if game.phase == DONE:
            return game
        move = _random_move(game, rng)
        seat, phase = game.to_act, game.phase
        game.step(move)
        tracker.moved(seat, move, phase)


@pytest.mark.slow
@pytest.mark.parametrize("history", [False, True], ids=["default", "history"])
@pytest.mark.parametrize("read", ["all", "to_act", "some"])
def test_rows__equal_encode_after_every_move_of_many_games(history, read):
    contracts = Counter()
    for seed in range(200):
        game = _play_checked(seed, history, read)
        c = game.contract
        contracts["passed in" if c is None else c.name().split()[0]] += 1
        if c is not None:
            contracts.update(f for f in ("hand", "ouvert") if getattr(c, f))
    # the games covered every family, hand games, ouvert games and passed-in deals
    for kind in ("clubs", "spades", "hearts", "diamonds", "grand", "null", "hand", "ouvert"):
        assert contracts[kind] > 0, contracts
    assert contracts["passed in"] > 0, contracts


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), history=st.booleans())
def test_rows__equal_encode_property(seed, history):
    _play_checked(seed, history, "some")


def test_reset__mid_game_encodes_from_the_view():
    """A tracker started on a game in progress encodes each row when it is read."""
    rng = random.Random(5)
    game = Game.random(np.random.default_rng(5))
    for _ in range(12):
        game.step(rng.choice(game.legal_actions()))
    tracker = ObservationTracker()
    tracker.reset(game)
    for seat in range(3):
        np.testing.assert_array_equal(tracker.observation(seat), encode(player_view(game, seat)))


def test_observation__is_a_copy_the_caller_may_keep():
    tracker = ObservationTracker()
    game = Game.random(np.random.default_rng(0))
    tracker.reset(game)
    seat = game.to_act
    tracker.observation(seat)[:] = 0.5  # the caller scribbles on what it got
    tracker.mask(seat)[:] = 1
    view = player_view(game, seat)
    np.testing.assert_array_equal(tracker.observation(seat), encode(view))
    np.testing.assert_array_equal(tracker.mask(seat), action_mask(view.legal_mask))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["default", "history"])
def test_env__observations_equal_encode_at_every_step(mode):
    """Through the public API: every agent's observation at every step of random play."""
    env = skat_v0.raw_env(observation_mode=mode)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        env.reset()
        for agent in env.agent_iter():
            for a in env.agents:
                view = env.view(a)
                obs = env.observe(a)
                np.testing.assert_array_equal(obs["observation"], encode(view, mode == "history"))
                np.testing.assert_array_equal(obs["action_mask"], action_mask(view.legal_mask))
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(rng.choice(legal)))
