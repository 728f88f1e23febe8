"""Soak run: N random games through every env, games/s and peak memory of each.

    python benchmarks/bench_soak.py [--games 2000] [--seed 0] [--num-envs 64]
                                    [--envs raw_env env single vector]

Each env plays ``--games`` games of uniformly random legal play (the AEC envs through the
loop of ``loops.play_episode``; ``SkatSingleAgentEnv`` with random opponents; ``SkatVectorEnv``
with ``--num-envs`` games at once, until as many games have ended). Every game's rewards are
checked finite and every result JSON-serialisable. Two passes per env: one timed (CPU time,
``time.process_time``) for the rate, one under ``tracemalloc`` for the peak of traced memory
(Python and NumPy allocations) and what is still held after the run, so a leak shows as
memory that grows with ``--games``. The process's peak RSS is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):  # one thread: no idle BLAS pool
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from loops import play_episode  # noqa: E402

from skat_env import skat_v0  # noqa: E402
from skat_env.cli.options import seed_arg  # noqa: E402
from skat_env.envs.single_agent import SkatSingleAgentEnv  # noqa: E402
from skat_env.envs.vector_env import SkatVectorEnv  # noqa: E402

ENVS = ("raw_env", "env", "single", "vector")


def soak_aec(make: Callable, games: int, seed: int) -> int:
    """``games`` deals through an AEC env; returns the decisions."""
    env = make()
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for _ in range(games):
        env.reset()
        steps += play_episode(env, rng)
        json.dumps(env.unwrapped.game.result.to_dict())
    return steps


def soak_single(games: int, seed: int) -> int:
    env = SkatSingleAgentEnv()
    rng = np.random.default_rng(seed)
    steps = 0
    env.reset(seed=seed)
    for _ in range(games):
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        assert math.isfinite(reward)
        json.dumps(info["result"])
        env.reset()
    return steps


def soak_vector(games: int, seed: int, num_envs: int) -> int:
    env = SkatVectorEnv(num_envs)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    ended = steps = 0
    while ended < games:
        masks = env.action_masks()
        _, rewards, done, _, _ = env.step((rng.random(masks.shape) * masks).argmax(1))
        assert np.isfinite(rewards).all()
        ended += int(done.sum())
        steps += num_envs
    return steps


def runner(name: str, args: argparse.Namespace) -> Callable[[], int]:
    if name == "raw_env":
        return lambda: soak_aec(skat_v0.raw_env, args.games, args.seed)
    if name == "env":
        return lambda: soak_aec(skat_v0.env, args.games, args.seed)
    if name == "single":
        return lambda: soak_single(args.games, args.seed)
    return lambda: soak_vector(args.games, args.seed, args.num_envs)


def measure(run: Callable[[], int]) -> tuple[int, float, int, int]:
    """(decisions, CPU seconds, peak traced bytes, bytes still traced after the run)."""
    cpu = time.process_time()
    steps = run()
    cpu = time.process_time() - cpu
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    run()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return steps, cpu, peak - base, current - base


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per env")
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument("--num-envs", type=int, default=64, help="batch of the vector env")
    ap.add_argument("--envs", nargs="+", choices=ENVS, default=list(ENVS))
    args = ap.parse_args(argv)
    if args.games < 1 or args.num_envs < 1:
        print("error: --games and --num-envs must be at least 1", file=sys.stderr)
        return 2
    for name in args.envs:
        steps, cpu, peak, held = measure(runner(name, args))
        print(
            f"{name:8s} {args.games} games, {steps} decisions, {cpu:.2f}s CPU: "
            f"{args.games / cpu:,.0f} games/s, {steps / cpu:,.0f} decisions/s; "
            f"traced memory peak {peak / 2**20:.2f} MiB, held after {held / 2**10:.1f} KiB"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # KiB on Linux
    print(f"process peak RSS {rss:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
