"""Random masked play through the public AEC API: decision steps/s and games/s.

    python benchmarks/bench_env.py [--games 3000] [--rounds 5] [--seed 0] [--raw | --both]
                                   [--history] [--no-openspiel]

Each decision reads the observation and the action mask (``env.last()``), draws a legal
action from the mask and steps, as an RL loop does. ``--raw`` times ``raw_env()``, the
default ``env()`` (PettingZoo's wrappers), ``--both`` the two in one run. When
``open_spiel`` (pyspiel) is importable, OpenSpiel's ``skat`` runs through the same loop in
the same process (observation tensor + legal-action mask each decision; chance nodes
sampled, not counted), both ways: its NumPy observer (``make_observation``, ``set_from``,
``.tensor``), the reference the ratios are quoted against, and ``observation_tensor()``
(a fresh Python list per decision). Single process, single thread. Rates use the process's CPU
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

from loops import OPENSPIEL_OBSERVERS, bench_openspiel, bench_skat_env  # noqa: E402

from skat_env.cli.options import seed_arg  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="deals per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=seed_arg, default=0)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--raw", action="store_true", help="raw_env() instead of env()")
    which.add_argument("--both", action="store_true", help="raw_env() and env() in one run")
    ap.add_argument("--history", action="store_true", help='observation_mode="history"')
    ap.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel's skat")
    ap.add_argument(
        "--python-skat",
        action="store_true",
        help="also our engine as the OpenSpiel game python_skat (its NumPy observer)",
    )
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        print("error: --games and --rounds must be at least 1", file=sys.stderr)
        return 2
    mode = "history" if args.history else ""
    runners = {}
    for raw in (True, False) if args.both else (args.raw,):
        label = f"skat_v0.{'raw_env' if raw else 'env'}({mode})"
        runners[label] = lambda raw=raw: bench_skat_env(args.games, args.seed, raw, args.history)
    ours = list(runners)
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("open_spiel not installed (pip install open-spiel): no comparison")
        else:
            for kind, what in OPENSPIEL_OBSERVERS.items():
                runners[f"open_spiel skat, {what}"] = lambda kind=kind: bench_openspiel(
                    args.games, args.seed, kind
                )
            if args.python_skat:
                runners["open_spiel python_skat, NumPy observer"] = lambda: bench_openspiel(
                    args.games, args.seed, "numpy", "python_skat"
                )
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
        print(f"  {name:44s} best {max(rs):9,.0f}   median {statistics.median(rs):9,.0f}")
    for mine in ours:
        for theirs in (name for name in rates if name not in ours):
            a, b = rates[mine], rates[theirs]
            print(
                f"{mine} / {theirs}: best {max(a) / max(b):.2f}   "
                f"median {statistics.median(a) / statistics.median(b):.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
