"""Random masked play through the public AEC API: decision steps/s and games/s.

    python benchmarks/bench_env.py [--games 3000] [--rounds 5] [--seed 0] [--raw]
                                   [--history] [--no-openspiel]

Each decision reads the observation and the action mask (``env.last()``), draws a legal
action from the mask and steps, as an RL loop does. When ``open_spiel`` (pyspiel) is
importable, OpenSpiel's ``skat`` runs through the same loop in the same process (NumPy
observation tensor + legal-action mask each decision; chance nodes sampled, not counted)
and the ratio is printed. Single process, single thread. Rates use the process's CPU
time (``time.process_time``), which a busy shared machine disturbs less than wall time.
The runs alternate (ours, OpenSpiel, ours, ...) for ``--rounds`` rounds of the same deals;
each round is printed, then the best and the median round of each and their ratios:
the best round is the one the machine disturbed least.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):  # one thread: no idle BLAS pool
    os.environ.setdefault(_var, "1")

from loops import bench_openspiel, bench_skat_env  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="deals per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--raw", action="store_true", help="raw_env() instead of env()")
    ap.add_argument("--history", action="store_true", help='observation_mode="history"')
    ap.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel's skat")
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        print("error: --games and --rounds must be at least 1", file=sys.stderr)
        return 2
    label = f"skat_v0.{'raw_env' if args.raw else 'env'}({'history' if args.history else ''})"
    runners = {label: lambda: bench_skat_env(args.games, args.seed, args.raw, args.history)}
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: F401

            runners["open_spiel skat"] = lambda: bench_openspiel(args.games, args.seed)
        except ImportError:
            print("open_spiel not installed (pip install open-spiel): no comparison")
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for r in range(args.rounds):
        for name, run in runners.items():
            steps, cpu, wall = run()
            rates[name].append(steps / cpu)
            print(
                f"round {r + 1} {name}: {args.games} games, {steps} decisions, {cpu:.2f}s CPU "
                f"({wall:.2f}s wall): {args.games / cpu:,.0f} games/s, "
                f"{steps / cpu:,.0f} decision steps/s"
            )
    print(f"decision steps/s over {args.rounds} rounds of {args.games} games:")
    for name, rs in rates.items():
        print(f"  {name:28s} best {max(rs):9,.0f}   median {statistics.median(rs):9,.0f}")
    if len(rates) == 2:
        ours, theirs = rates.values()
        print(
            f"ratio ours / OpenSpiel: best {max(ours) / max(theirs):.2f}   "
            f"median {statistics.median(ours) / statistics.median(theirs):.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
