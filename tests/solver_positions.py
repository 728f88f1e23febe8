"""Positions and their exact answers for the double-dummy solver, replayed by
tests/test_search_solver.py.

Three sets: full deals right after the declaration (the threshold answers of every first
card, whether 31, 61 and 90 points are reachable, and on half of them the exact value),
endgames from trick 4 to 6 (exact values of every card and the exact value), and a few
hundred random positions of every game kind with one to six tricks left (the exact value and
the exact value of every card). The answers are exact, so a correct solver never needs them
re-recorded; to add positions:

    python tests/solver_positions.py         # rewrites tests/data/solver_positions.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from skat_env.core.game import Game
from skat_env.core.tables import GAME_NAMES
from skat_env.search import Position, Solver

RECORD = Path(__file__).parent / "data" / "solver_positions.json"
FIELDS = ("game", "declarer", "hands", "leader", "trick", "declarer_points", "defender_points",
          "declarer_tricks", "defender_tricks")  # fmt: skip


def hand_game(rng: np.random.Generator, game: int, cards: int) -> Game:
    """A random deal, forehand's hand game ``game``, then ``cards`` random legal cards."""
    g = Game.random(rng)
    for m in ["18", "pass", "pass", "hand", GAME_NAMES[game]]:
        g.play(m)
    for _ in range(cards):
        if g.is_over:  # a null game can end early
            break
        g.step(int(rng.choice(g.legal_actions())))
    return g


def deal_position(seed: int, played: int) -> Position:
    """A random full deal, a random suit or grand game, then ``played`` random cards."""
    rng = np.random.default_rng(seed)
    return Position.from_game(hand_game(rng, int(rng.integers(0, 5)), played))


def random_position(seed: int) -> Position:
    """Any game kind, one to six tricks left, zero to two cards in the current trick."""
    rng = np.random.default_rng(seed)
    game, tricks_left, extra = (
        int(rng.integers(0, 6)),
        int(rng.integers(1, 7)),
        int(rng.integers(0, 3)),
    )
    g = hand_game(rng, game, (10 - tricks_left) * 3 + extra)
    return random_position(seed + 10_000) if g.is_over else Position.from_game(g)


def to_json(p: Position) -> list:
    return [list(v) if isinstance(v, tuple) else v for v in (getattr(p, f) for f in FIELDS)]


def from_json(row: list) -> Position:
    return Position(
        **{f: tuple(v) if isinstance(v, list) else v for f, v in zip(FIELDS, row, strict=True)}
    )


def _moves(moves: dict[int, int | bool]) -> dict[str, int]:
    return {str(c): int(v) for c, v in moves.items()}


def record() -> dict[str, list[dict]]:
    s = Solver(tt_bits=18)
    full = []
    for seed in range(8):
        p = deal_position(seed, 0)
        row = {"position": to_json(p), "best_moves_61": _moves(s.best_moves(p, 61)),
               "reaches": {str(t): s.reaches(p, t) for t in (31, 61, 90)}}  # fmt: skip
        if seed % 2 == 0:
            row["solve"] = s.solve(p)
        full.append(row)
    endgames = []
    for seed in range(8):
        p = deal_position(100 + seed, 9 + seed % 3 * 4 + seed % 2)
        endgames.append({"position": to_json(p), "best_moves": _moves(s.best_moves(p)),
                         "solve": s.solve(p)})  # fmt: skip
    rand = []
    for seed in range(300):
        p = random_position(seed)
        rand.append({"position": to_json(p), "best_moves": _moves(s.best_moves(p)),
                     "solve": s.solve(p)})  # fmt: skip
    return {"full_deals": full, "endgames": endgames, "random": rand}


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORD
    out.write_text(json.dumps(record(), separators=(",", ":")) + "\n")
    print(f"wrote {out}")
