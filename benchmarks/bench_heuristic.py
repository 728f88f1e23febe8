"""Decisions per second of the ``heuristic`` player: batched (``HeuristicAgent.act_batch``, the
rules compiled by numba into one loop over the batch) against row by row (``act`` per
observation: decode the view, then the same rules as plain Python) and per view (``act_view``
on views decoded beforehand: what the search player and tournaments call), on the same
decisions, in one run.

    OMP_NUM_THREADS=1 python benchmarks/bench_heuristic.py             # batch 1,024
    python benchmarks/bench_heuristic.py --batch 256 --steps 40

The decisions are the consecutive steps of ``--batch`` heuristic games on the batched engine
(every phase, in the proportions of real play). Both paths decide every row; the moves are
checked equal. numba's compilation is kept out of the timing (one warm-up call), and the
single-game heuristic's caches are cleared first and then used as in play (rows in step order).
Then the same comparison where training meets it: learner steps/s of a 256-game
``SkatVectorEnv`` whose opponents are the heuristic, batched or row by row.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from skat_env import vector  # noqa: E402
from skat_env.agents import heuristic  # noqa: E402
from skat_env.agents.base import view_of  # noqa: E402
from skat_env.agents.heuristic import HeuristicAgent  # noqa: E402
from skat_env.cli.options import seed_arg  # noqa: E402
from skat_env.envs.policy import act_rows  # noqa: E402
from skat_env.envs.vector_env import SkatVectorEnv  # noqa: E402


def record(batch: int, steps: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observations, masks) of ``steps`` consecutive steps of ``batch`` heuristic games."""
    agent = HeuristicAgent()
    state = vector.init(batch, seed=seed)
    out = []
    for _ in range(steps):
        out.append((state.obs.copy(), state.legal_mask.copy()))
        vector.step(state, agent.act_batch(state.obs, state.legal_mask))
    return out


def env_steps(opponent, games: int, steps: int) -> float:
    """Learner steps/s of a ``SkatVectorEnv`` of ``games`` games whose two other seats are all
    played by ``opponent`` (a batched policy); the learner moves at random."""
    env = SkatVectorEnv(games, opponents={"heuristic": opponent})
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(steps):
        masks = env.action_masks()
        env.step((rng.random(masks.shape) * masks).argmax(1))
    return games * steps / (time.perf_counter() - t)


def clear_caches() -> None:
    """Empty the single-game heuristic's caches (hand estimates, discard plans)."""
    for cached in (heuristic.estimate, heuristic.plan_pickup, heuristic.null_danger):
        cached.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=1024, help="games decided per call")
    ap.add_argument("--steps", type=int, default=30, help="consecutive steps of the games")
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument(
        "--env-steps", type=int, default=20, help="also time SkatVectorEnv steps (0: skip)"
    )
    args = ap.parse_args(argv)
    if args.batch < 1 or args.steps < 1 or args.env_steps < 0:
        ap.error("--batch and --steps must be at least 1, --env-steps at least 0")
    agent = HeuristicAgent()
    data = record(args.batch, args.steps, args.seed)  # also compiles (or loads) the kernel
    n = args.batch * args.steps

    t = time.perf_counter()
    batched = [agent.act_batch(obs, masks) for obs, masks in data]
    t_batched = time.perf_counter() - t

    clear_caches()
    t = time.perf_counter()
    rows = [
        [agent.act({"observation": o, "action_mask": m}) for o, m in zip(obs, masks, strict=True)]
        for obs, masks in data
    ]
    t_rows = time.perf_counter() - t
    if not all(np.array_equal(b, r) for b, r in zip(batched, rows, strict=True)):
        raise SystemExit("the batched moves differ from the single-game heuristic's")
    views = [view_of({"observation": o, "action_mask": m}) for obs, masks in data
             for o, m in zip(obs, masks, strict=True)]  # fmt: skip
    clear_caches()
    t = time.perf_counter()
    for view in views:
        agent.act_view(view)
    t_views = time.perf_counter() - t

    print(f"heuristic decisions/s, {args.steps} steps of {args.batch:,} games ({n:,} decisions)")
    print(f"  {'batched (act_batch)':<28}{n / t_batched:>12,.0f}   {t_batched * 1e6 / n:7.2f} us")
    print(f"  {'row by row (act)':<28}{n / t_rows:>12,.0f}   {t_rows * 1e6 / n:7.2f} us")
    print(f"  {'per view (act_view)':<28}{n / t_views:>12,.0f}   {t_views * 1e6 / n:7.2f} us")
    print(f"  batched / row by row: {t_rows / t_batched:.1f}x")
    if args.env_steps:
        agent.act_batch(*data[0])
        rows = lambda obs, masks: act_rows(agent, obs, masks)  # noqa: E731 (the old path)
        fast = env_steps(agent.act_batch, 256, args.env_steps)
        slow = env_steps(rows, 256, args.env_steps)
        print(f"SkatVectorEnv, 256 games, heuristic in both other seats, random learner: "
              f"learner steps/s {fast:,.0f} batched, {slow:,.0f} row by row "
              f"({fast / slow:.1f}x)")  # fmt: skip
    print(f"load average: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
