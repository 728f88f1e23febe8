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
import os
import sys
from collections.abc import Sequence

from skat_env.agents.registry import SPECS
from skat_env.cli.options import add_tournament_options
from skat_env.cli.outputs import OutputPathError, command_line, output_paths, write_results
from skat_env.core.game import IllegalMoveError
from skat_env.league import LeagueError, format_table, league, validate, write_plot

DEFAULT_AGENTS = ("random", "heuristic", "ppo:models/ppo_skat.zip")


def build_parser(prog: str = "skat-league") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description=__doc__.split("\n\n")[0].strip(),
        epilog="Agent specs: " + "; ".join(SPECS),
    )
    ap.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS), metavar="SPEC",
                    help="two or more different agent specs (default: %(default)s)")  # fmt: skip
    add_tournament_options(ap, deals=500, json_default="results/league-TIME.json")
    return ap


def main(argv: Sequence[str] | None = None, prog: str = "skat-league") -> int:
    """Run ``skat-league`` (``prog`` names the command: ``league.py`` for the script)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = build_parser(prog).parse_args(argv)
    try:
        validate(args.agents, args.deals, args.workers, args.bootstrap, args.seed)
        out, plot = output_paths(args.json, args.plot, args.no_plot, "league")
        results = league(args.agents, args.deals, args.seed, args.workers,
                         progress=not args.no_progress, bootstrap=args.bootstrap)  # fmt: skip
    except (LeagueError, OutputPathError, IllegalMoveError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1 if isinstance(e, IllegalMoveError) else 2
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    results["command"] = command_line(prog, argv)
    print(format_table(results))
    return write_results(results, out, plot, write_plot, prog)


if __name__ == "__main__":
    sys.exit(main())
