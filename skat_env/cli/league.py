"""Rate agents against each other: every pair on the same duplicate deals (``skat-league``).

    skat-league --agents random heuristic ppo:models/ppo_skat.zip --deals 500 --seed 0
    python league.py --help

For each pair (A, B) every deal is played with the line-ups A B B and B A A, each under its 3
rotations (6 games per deal). Prints the leaderboard (least-squares ratings over the pairs'
Seeger-Fabian margins, 95% bootstrap intervals over deals) and the pair margins, and writes a
JSON file with every figure and the command, and a PNG plot. Outputs go to a new
results/league-<time>.json and .png unless --json names a file, so a run never overwrites an
earlier one. The library is :mod:`skat_env.league`.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from skat_env.agents.registry import SPECS
from skat_env.cli.outputs import OutputPathError, check_writable, new_output
from skat_env.core.game import IllegalMoveError
from skat_env.league import LeagueError, format_table, league, validate, write_plot

DEFAULT_AGENTS = ("random", "heuristic", "ppo:models/ppo_skat.zip")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="skat-league",
        description=__doc__.split("\n\n")[0].strip(),
        epilog="Agent specs: " + "; ".join(SPECS),
    )
    ap.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS), metavar="SPEC",
                    help="two or more different agent specs (default: %(default)s)")  # fmt: skip
    ap.add_argument("--deals", type=int, default=500, help="deals per pair (default 500)")
    ap.add_argument("--seed", type=int, default=0, help="seed of deals and agents (default 0)")
    ap.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    ap.add_argument("--bootstrap", type=int, default=2000,
                    help="bootstrap resamples for the intervals (default 2000)")  # fmt: skip
    ap.add_argument("--json", type=Path, default=None,
                    help="JSON file (default: new results/league-TIME.json)")  # fmt: skip
    ap.add_argument("--plot", type=Path, default=None,
                    help="PNG plot (default: the JSON path with .png)")  # fmt: skip
    ap.add_argument("--no-plot", action="store_true", help="write no plot")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = build_parser().parse_args(argv)
    given = sys.argv[1:] if argv is None else list(argv)
    try:
        validate(args.agents, args.deals, args.workers, args.bootstrap)
        out = args.json or new_output("league")
        plot = None if args.no_plot else (args.plot or out.with_suffix(".png"))
        for path, named in ((out, args.json), (plot, args.plot or args.json)):
            if path is not None:
                check_writable(path, create_parent=named is None)
        results = league(args.agents, args.deals, args.seed, args.workers,
                         progress=not args.no_progress, bootstrap=args.bootstrap)  # fmt: skip
    except (LeagueError, OutputPathError, IllegalMoveError) as e:
        print(f"skat-league: error: {e}", file=sys.stderr)
        return 1 if isinstance(e, IllegalMoveError) else 2
    except KeyboardInterrupt:
        print("\nskat-league: interrupted", file=sys.stderr)
        return 130
    results["command"] = "skat-league " + " ".join(shlex.quote(a) for a in given)
    print(format_table(results))
    try:
        out.write_text(json.dumps(results, indent=2) + "\n")
        if plot is not None:
            write_plot(results, plot)
    except OSError as e:
        print(f"skat-league: error: cannot write results: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}" + (f" and {plot}" if plot is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
