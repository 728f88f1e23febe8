"""Evaluation throughput: games/s of random, heuristic and PPO play through evaluate.py's
loop (the PPO model batched across games and one game at a time, same run), and the
heuristic's mean time per move.

    python benchmarks/bench_eval.py [--deals 300] [--seed 0] [--model models/ppo_skat.zip]

Single process (``--workers 1``), duplicate seatings, observations exactly as the env gives
them (ViewAgents take the decoded-view fast path, others the lazy observation dict).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from skat_env.agents.base import observation_view
from skat_env.agents.heuristic import HeuristicAgent, estimate, null_danger, plan_pickup
from skat_env.agents.registry import make_agent
from skat_env.cli.options import count_arg, seed_arg
from skat_env.core.game import Game
from skat_env.encoding.observation import observe
from skat_env.encoding.view import player_view
from skat_env.tournament import evaluate

MODEL = Path(__file__).resolve().parent.parent / "models" / "ppo_skat.zip"

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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=count_arg, default=300)
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument("--model", type=Path, default=MODEL, help="PPO model for the ppo rows")
    args = ap.parse_args(argv)
    tables = [(" ".join(t), list(t)) for t in TABLES]
    if args.model.is_file():
        batched = make_agent(f"ppo:{args.model}")
        one_by_one = make_agent(f"ppo:{args.model}")
        one_by_one.deterministic = False  # envs.policy.batchable() is then False: game by game
        for agent in (batched, one_by_one):
            assert agent.policy is not None  # load both models before the clock starts
        tables += [
            ("ppo heuristic heuristic (batched)", [batched, "heuristic", "heuristic"]),
            ("ppo heuristic heuristic (one by one)", [one_by_one, "heuristic", "heuristic"]),
            ("ppo ppo ppo (batched)", [batched] * 3),
            ("ppo ppo ppo (one by one)", [one_by_one] * 3),
        ]
    for name, agents in tables:
        res = evaluate(agents, deals=args.deals, seed=args.seed, bootstrap=10)
        t = res["timing"]
        games = res["config"]["games"]
        print(f"{name:38s} {games:6d} games  {t['games_per_second']:7.0f} games/s")
    view_us, obs_us = per_move(100, args.seed)
    print(f"heuristic: {view_us:.0f} us/move from the view, {obs_us:.0f} us/move via act(obs)")


if __name__ == "__main__":
    main()
