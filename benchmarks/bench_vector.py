"""Random masked play through the batched engine: decision steps/s per batch size, beside the
AEC env and (when pyspiel is importable) OpenSpiel's ``skat``, with the ratios.

    python benchmarks/bench_vector.py [--batch-sizes 256 1024 4096 16384] [--seconds 3]
                                      [--repeats 3] [--aec-games 1500] [--no-openspiel]

A decision step of the batched engine is one game's move inside ``vector.step``: each call
draws a uniformly random legal action per game from the legal set
(``vector.random_actions``), applies it, resets finished games and rebuilds every game's
legal mask (int8[121]) and observation (float32[450], the AEC env's default encoding), as
an RL loop needs. ``--no-obs`` also measures the engine without observations. The AEC env
and OpenSpiel run through the loop of ``benchmarks/bench_env.py`` (observation and mask
every decision). Single process, single thread (``OMP_NUM_THREADS=1``); rates use the
process's CPU time, which a busy shared machine disturbs less than wall time; each figure
is the best of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from skat_env import vector  # noqa: E402


def bench_vector(batch: int, seconds: float, observe: bool, seed: int = 0) -> tuple[int, float]:
    """Step a batch of ``batch`` games at random for about ``seconds`` of CPU time;
    returns (decision steps, CPU seconds)."""
    state = vector.init(batch, seed=seed, observe=observe)
    rng = np.random.default_rng(seed)
    for _ in range(20):  # warm-up: games in every phase
        vector.step(state, vector.random_actions(state, rng))
    steps, cpu0 = 0, time.process_time()
    while time.process_time() - cpu0 < seconds:
        for _ in range(10):
            vector.step(state, vector.random_actions(state, rng))
        steps += 10 * batch
    return steps, time.process_time() - cpu0


def best_rate(batch: int, seconds: float, repeats: int, observe: bool) -> float:
    return max(s / c for s, c in (bench_vector(batch, seconds, observe) for _ in range(repeats)))


def baselines(args) -> dict[str, float]:
    """Decision steps/s of the AEC env and OpenSpiel (benchmarks/loops.py, as bench_env.py)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import loops

    out = {}
    steps, cpu, _ = loops.bench_skat_env(args.aec_games, 0, raw=False, history=False)
    out["AEC env (skat_v0)"] = steps / cpu
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("pyspiel is not importable: OpenSpiel skipped (pip install open_spiel)")
        else:
            steps, cpu, _ = loops.bench_openspiel(args.aec_games, 0)
            out["OpenSpiel skat"] = steps / cpu
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch-sizes", type=int, nargs="+", default=[256, 1024, 4096, 16384])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--aec-games", type=int, default=1500)
    ap.add_argument("--no-openspiel", action="store_true")
    ap.add_argument("--no-obs", action="store_true", help="also measure without observations")
    args = ap.parse_args(argv)
    if min(args.batch_sizes) < 1 or args.seconds <= 0 or args.repeats < 1:
        print("error: batch sizes, --seconds and --repeats must be positive", file=sys.stderr)
        return 2
    base = baselines(args)
    for name, rate in base.items():
        print(f"{name:>24}: {rate:12,.0f} decision steps/s")
    head = f"{'batch':>7} {'steps/s':>12}" + "".join(f" {'x ' + n.split()[0]:>10}" for n in base)
    print("\nbatched engine (skat_env.vector), observation + mask every step")
    print(head)
    for batch in args.batch_sizes:
        rate = best_rate(batch, args.seconds, args.repeats, observe=True)
        ratios = "".join(f" {rate / r:10.1f}" for r in base.values())
        print(f"{batch:>7} {rate:12,.0f}{ratios}", flush=True)
    if args.no_obs:
        print("\nbatched engine without observations (mask, rewards, results only)")
        for batch in args.batch_sizes:
            rate = best_rate(batch, args.seconds, args.repeats, observe=False)
            print(f"{batch:>7} {rate:12,.0f}", flush=True)
    print(f"\nload average while measuring: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
