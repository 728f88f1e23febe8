"""The page's snapshots (skat_env.web.state): the move log read off the history marks
exactly the moves made in the discard phase (checked against a replay), hidden to the
other seats until the end, and the trick a move completes."""

from __future__ import annotations

import random

import pytest

from skat_env.core.game import DISCARD, Game
from skat_env.web.state import completed_trick, move_log


def games(n: int) -> list[Game]:
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        game = Game.random(seed, dealer=seed % 3)
        while not game.is_over:
            game.step(rng.choice(game.legal_actions()))
        out.append(game)
    return out


@pytest.mark.parametrize("game", games(40))
def test_the_log_marks_the_discards_as_a_replay_does(game: Game) -> None:
    replayed = Game(game.deal, game.dealer)
    phases = []
    for _, move in game.history:
        phases.append(replayed.phase)
        replayed.step(move)
    for k in (len(game.history), len(game.history) // 2):
        prefix = Game(game.deal, game.dealer)
        for _, move in game.history[:k]:
            prefix.step(move)
        for viewer in (None, 0, 1, 2):
            log = move_log(prefix, viewer)
            assert [ev["kind"] == "discard" for ev in log] == [p == DISCARD for p in phases[:k]]
            for ev, (seat, _) in zip(log, game.history, strict=False):
                hidden = (
                    ev["kind"] == "discard" and viewer not in (None, seat) and not prefix.is_over
                )
                assert (ev["move"] is None) == hidden


def test_completed_trick_only_on_the_third_card() -> None:
    game = next(g for g in games(40) if len(g.plays) >= 3)
    first = len(game.history) - len(game.plays)
    prefix = Game(game.deal, game.dealer)
    for k, (_, move) in enumerate(game.history[: first + 4]):
        prefix.step(move)
        done = completed_trick(prefix, move)
        if k == first + 2:
            assert done is not None and [c["seat"] for c in done["cards"]] == [
                s for s, _ in game.plays[:3]
            ]
        else:
            assert done is None


def test_the_sample_holds_discards_and_hand_games() -> None:
    logs = [move_log(g, None) for g in games(40)]
    assert sum(any(ev["kind"] == "discard" for ev in log) for log in logs) >= 5
    assert sum(any(ev["kind"] == "hand" for ev in log) for log in logs) >= 5
