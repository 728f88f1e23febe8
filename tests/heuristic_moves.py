"""The ``heuristic`` player's moves on seeded games, recorded once and replayed by
tests/test_heuristic.py: a change to the rules that changes a move fails there.

Four line-ups of three heuristic players: plain play, and three that reach rare states (a
share of the moves made at random, declarations forced to null, bolder and more cautious
bidding). Every decision's move is recorded, including those the random moves replace. A
deliberate change of play re-records them:

    python tests/heuristic_moves.py          # rewrites tests/data/heuristic_moves.json
"""

from __future__ import annotations

import base64
import json
import random
import sys
from pathlib import Path

from skat_env.agents.heuristic import HeuristicAgent
from skat_env.core.game import DECLARE, Game
from skat_env.core.moves import MOVE_INDEX
from skat_env.encoding.view import player_view, without_history

RECORD = Path(__file__).parent / "data" / "heuristic_moves.json"
GAMES = 80
#: name -> (margin, share of random moves, share of declarations forced to null)
LINEUPS = {
    "plain": (0.0, 0.0, 0.0),
    "explore": (0.0, 0.25, 0.4),
    "bold": (-1.5, 0.2, 0.0),
    "cautious": (1.0, 0.2, 0.1),
}
NULLS = (MOVE_INDEX["null"], MOVE_INDEX["null ouvert"])


def play(name: str) -> bytes:
    """The heuristic's move at every decision of the line-up's games, one byte each."""
    margin, explore, nulls = LINEUPS[name]
    agent = HeuristicAgent(margin)
    rng = random.Random(name)
    moves = []
    for i in range(GAMES):
        game = Game.random(seed=i, dealer=i % 3)
        while not game.is_over:
            move = agent.act_view(without_history(player_view(game, game.to_act)))
            moves.append(move)
            if rng.random() < explore:
                move = rng.choice(game.legal_actions())
            if game.phase == DECLARE and rng.random() < nulls:
                move = rng.choice([m for m in NULLS if game.legal_mask() >> m & 1] or [move])
            game.step(move)
    return bytes(moves)


def record() -> dict[str, str]:
    return {name: base64.b64encode(play(name)).decode() for name in LINEUPS}


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORD
    out.write_text(json.dumps(record(), indent=0) + "\n")
    print(f"wrote {out}")
