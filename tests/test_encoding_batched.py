"""skat_env.encoding.batched: the batched encoder gives, for every seat of every game, exactly
the single-game observation (encode(player_view(game, seat))), through whole games, deals
restarted, batches larger than its chunk, and into a given buffer."""

from __future__ import annotations

import numpy as np
import pytest

from skat_env import vector
from skat_env.core.game import Game
from skat_env.encoding.batched import encode_batch
from skat_env.encoding.observation import OBS_SIZE, encode
from skat_env.encoding.view import player_view


def expected(games: list[Game], seats: np.ndarray) -> np.ndarray:
    return np.stack([encode(player_view(g, int(s))) for g, s in zip(games, seats, strict=True)])


@pytest.mark.slow
@pytest.mark.parametrize("batch, seed", [(7, 0), (1100, 1)])  # 1100 > a chunk (1024 rows)
def test_every_seat_of_every_game_equals_the_single_game_encoder(batch, seed):
    state = vector.init(batch, seed=seed)
    games = [Game([int(c) for c in state.deal[b]], int(state.dealer[b])) for b in range(batch)]
    rng = np.random.default_rng(seed)
    steps = 40 if batch < 100 else 3
    for _ in range(steps):
        for offset in range(3):
            seats = (state.to_act + offset) % 3  # the seat to act and both others
            np.testing.assert_array_equal(encode_batch(state, seats), expected(games, seats))
        actions = vector.random_actions(state, rng)
        for g, a in zip(games, actions, strict=True):
            g.step(int(a))
        vector.step(state, actions)
        for b in np.flatnonzero(state.terminated):  # the slot starts its next deal
            games[b] = Game([int(c) for c in state.deal[b]], int(state.dealer[b]))


def test_writes_into_a_given_buffer():
    state = vector.init(5, seed=3)
    out = np.full((5, OBS_SIZE), 7.0, np.float32)
    seats = np.array([0, 1, 2, 0, 1])
    assert encode_batch(state, seats, out=out) is out
    np.testing.assert_array_equal(out, encode_batch(state, seats))
