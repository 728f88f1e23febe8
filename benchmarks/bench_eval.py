"""Evaluation throughput: games/s of random and heuristic play through evaluate.py's loop,
and the heuristic's mean time per move.

    python benchmarks/bench_eval.py [--deals 300] [--seed 0]

Single process (``--workers 1``), duplicate seatings, observations exactly as the env gives
them (ViewAgents take the decoded-view fast path, others the lazy observation dict).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skat_env.agents.base import observation_view  # noqa: E402
from skat_env.agents.heuristic import HeuristicAgent, estimate, null_danger, plan_pickup  # noqa: E402

from skat_env.core.game import Game  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.encoding.view import player_view  # noqa: E402
from skat_env.tournament import evaluate  # noqa: E402

TABLES = (
    ("random", "random", "random"),
    ("heuristic", "random", "random"),
    ("heuristic", "heuristic", "heuristic"),
)


def per_move(games: int, seed: int) -> tuple[float, float]:
    """Heuristic microseconds per move: from the view, and through act(observe(...))."""
    agent = HeuristicAgent()
    views, obs = [], []
    for i in range(games):
        game = Game.random(seed + i, dealer=i % 3)
        while not game.is_over:
            views.append(observation_view(player_view(game, game.to_act)))
            obs.append(observe(game, game.to_act))
            game.step(agent.act_view(views[-1]))
    clear_caches()
    t0 = time.perf_counter()
    for v in views:
        agent.act_view(v)
    t1 = time.perf_counter()
    clear_caches()
    for o in obs:
        agent.act(o)
    t2 = time.perf_counter()
    return (t1 - t0) / len(views) * 1e6, (t2 - t1) / len(obs) * 1e6


def clear_caches() -> None:
    """Start cold: the hand-evaluation caches would otherwise remember the first pass."""
    for fn in (estimate, plan_pickup, null_danger):
        fn.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for table in TABLES:
        res = evaluate(list(table), deals=args.deals, seed=args.seed, bootstrap=10)
        t = res["timing"]
        games = res["config"]["games"]
        print(f"{' '.join(table):32s} {games:6d} games  {t['games_per_second']:7.0f} games/s")
    view_us, obs_us = per_move(100, args.seed)
    print(f"heuristic: {view_us:.0f} us/move from the view, {obs_us:.0f} us/move via act(obs)")


if __name__ == "__main__":
    main()
