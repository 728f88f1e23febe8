"""Benchmark a policy against a fixed panel of unlike opponents (duplicate deals, both line-ups).

    skat-bench ppo                          # the shipped model against the current panel
    skat-bench ppo:results/run/model.zip --workers 2
    skat-bench heuristic --quick            # a smoke run: 1% of the deals
    skat-bench ppo --address auto           # Ray tasks on a running cluster
    skat-bench --leaderboard --workers 2    # the shipped players, best rating first
    skat-bench --list                       # the panel's opponents and deal sets
    skat-bench --compare old.json new.json  # new minus old, paired intervals

Per opponent and line-up (alone: the policy against two copies of the opponent; pair: two
copies of the policy against it): the margin (the policy's Seeger-Fabian points per game minus
the opponent's) with a 95% bootstrap interval over deals, and each side's declarer share and
declarer win rate. The rating is the mean margin over the rated opponents (all but random) and
both line-ups. Results are the same for any --workers and on a Ray cluster. Outputs go to a
new results/bench-<policy>-<time>.json and .png unless --json names a file. --compare takes two
such results (the same panel, opponents and deals) and prints the second minus the first per
opponent and for the rating, with paired intervals: the way to tell whether a new policy beats
an old one. The library is :mod:`skat_env.panel` (``run_panel(policy)`` also takes a Python
policy object or function).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from skat_env.agents.registry import SPECS
from skat_env.cli.outputs import OutputPathError, command_line, output_paths, write_results
from skat_env.core.game import IllegalMoveError
from skat_env.panel import (
    DEFAULT_PANEL,
    LEADERBOARD,
    PANELS,
    PanelError,
    compare,
    format_comparison,
    format_leaderboard,
    format_table,
    leaderboard,
    run_panel,
    select,
    write_plot,
)

QUICK_SCALE = 0.01  # --quick: 1% of every opponent's deals (at least 2 each)


def _parser(prog: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description=__doc__.split("\n\n")[0].strip(),
        epilog="Policy specs: " + "; ".join(SPECS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "policy",
        nargs="?",
        metavar="POLICY",
        help="the agent spec to benchmark (ppo, ppo:PATH, heuristic:margin=-1, ...)",
    )
    ap.add_argument(
        "--leaderboard",
        action="store_true",
        help=f"benchmark the shipped players ({', '.join(LEADERBOARD)}) instead",
    )
    ap.add_argument("--list", action="store_true", help="print the panel and exit")
    ap.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BASE", "OTHER"),
        help="print OTHER minus BASE, two JSON results of skat-bench on the same deals, with "
        "paired intervals, and exit",
    )
    ap.add_argument("--panel", default=DEFAULT_PANEL, choices=sorted(PANELS), help="panel version")
    ap.add_argument(
        "--only",
        nargs="+",
        default=(),
        metavar="NAME",
        help="play only these panel opponents (names as --list shows them)",
    )
    ap.add_argument(
        "--deals-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="scale every opponent's deal count (at least 2 deals each)",
    )
    ap.add_argument(
        "--quick", action="store_true", help=f"a smoke run: --deals-scale {QUICK_SCALE}"
    )
    ap.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    ap.add_argument(
        "--address",
        default=None,
        metavar="auto|HOST:PORT",
        help="run the games as tasks on this Ray cluster (needs skat-env[cluster])",
    )
    ap.add_argument(
        "--bootstrap",
        type=int,
        default=2000,
        help="bootstrap resamples for the intervals (default 2000)",
    )
    ap.add_argument(
        "--json",
        type=Path,
        default=None,
        help="JSON file (default: new results/bench-POLICY-TIME.json)",
    )
    ap.add_argument(
        "--plot", type=Path, default=None, help="PNG plot (default: the JSON path with .png)"
    )
    ap.add_argument("--no-plot", action="store_true", help="write no plot")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap  # fmt: skip


def main(argv: Sequence[str] | None = None, prog: str = "skat-bench") -> int:
    """Run ``skat-bench``; the exit status (2 for bad input, without a traceback)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = _parser(prog).parse_args(argv)
    try:
        if args.list:
            print(_panel_listing(args.panel))
            return 0
        if args.compare:
            if args.policy or args.leaderboard:
                raise PanelError("--compare reads two results; it takes no POLICY or --leaderboard")
            base, other = (_load(path) for path in args.compare)
            print(format_comparison(compare(base, other, args.bootstrap)))
            return 0
        return _run(args, command_line(prog, argv), prog)
    except (PanelError, OutputPathError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except IllegalMoveError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace, command: str, prog: str) -> int:
    if (args.policy is None) == (not args.leaderboard):
        raise PanelError("name one POLICY to benchmark, or --leaderboard (not both)")
    scale = QUICK_SCALE if args.quick else args.deals_scale
    select(args.panel, args.only, scale)  # bad names or scale fail before any output path
    players = list(LEADERBOARD) if args.leaderboard else [args.policy]
    words = ("leaderboard",) if args.leaderboard else ("bench", args.policy)
    out, plot = output_paths(args.json, args.plot, args.no_plot or args.leaderboard, *words)
    runs = []
    for player in players:
        runs.append(run_panel(player, args.panel, args.only, scale, args.workers, args.address,
                              args.bootstrap, progress=not args.no_progress))  # fmt: skip
        print(format_table(runs[-1]))
    if args.leaderboard:
        rows = leaderboard(runs)
        print(format_leaderboard(rows))
        results = {"leaderboard": rows, "runs": runs, "command": command}
        return write_results(results, out, None, write_plot, prog)
    results = {**runs[0], "command": command}
    return write_results(results, out, plot, write_plot, prog)


def _load(path: Path) -> dict:
    """A skat-bench JSON result (one policy's run)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise PanelError(f"cannot read {str(path)!r}: {e}") from None
    if isinstance(data, dict) and "leaderboard" in data:
        raise PanelError(f"{str(path)!r} is a leaderboard; compare two single runs")
    return data


def _panel_listing(version: str) -> str:
    panel = PANELS[version]
    lines = [f"panel {version}: opponent, spec, deals (seed), what it is"]
    for o in panel.opponents:
        rated = "" if o.rated else "; not rated"
        lines.append(f"  {o.name:<10} {o.spec:<20} {o.deals:>5} ({o.seed})  {o.what}{rated}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
