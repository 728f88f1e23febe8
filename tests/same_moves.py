"""The shipped players' moves on fixed deals: recorded once, replayed by tests/test_same_moves.py.

Each line-up seats one player against two ``heuristic`` copies, rotating its seat with the deal
so it bids, declares and defends. Refactoring a player must leave these moves as they were;
a deliberate change of play re-records them:

    python tests/same_moves.py            # rewrites tests/data/same_moves.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from skat_env.agents.registry import make_agent
from skat_env.core.game import Game
from skat_env.envs.policy import decide
from skat_env.tournament import deal_for

RECORD = Path(__file__).parent / "data" / "same_moves.json"
SEED = 2026
#: player spec -> deals played (fewer for the slow search)
LINEUPS = {"heuristic": 30, "learned": 24, "ppo": 24, "ppo:2026-12-05": 24, "ppo:2026-12-02": 24,
           "pimc:fast": 15, "pimc": 12}  # fmt: skip


def play(spec: str, index: int) -> list[int]:
    """The move ids of deal ``index`` with ``spec`` in seat ``index % 3``."""
    deal, dealer = deal_for(SEED, index)
    seat_of_player = index % 3
    specs = ["heuristic"] * 3
    specs[seat_of_player] = spec
    agents = [make_agent(s) for s in specs]
    for seat, agent in enumerate(agents):
        agent.reset(SEED * 1000 + index * 3 + seat)
    game = Game(deal, dealer)
    while not game.is_over:
        game.step(decide(agents[game.to_act], game, game.to_act))
    return [move for _, move in game.history]


def record() -> dict[str, list[list[int]]]:
    return {spec: [play(spec, i) for i in range(n)] for spec, n in LINEUPS.items()}


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORD
    out.write_text(json.dumps(record(), separators=(",", ":")) + "\n")
    print(f"wrote {out}")
