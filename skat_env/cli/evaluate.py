"""Duplicate tournaments between Skat agents, scored Seeger-Fabian with bootstrap intervals.

    skat-evaluate --agents heuristic random random --deals 2000 --seed 0
    skat-evaluate --agents human heuristic heuristic --deals 1     # play in the terminal

(``python evaluate.py ...`` in a checkout is the same command.) Agents are spec strings
(``--help`` lists them all): random, heuristic, heuristic:margin=X, human, ppo (the bundled
model), ppo:PATH (a MaskablePPO model.zip), rllib:PATH (an exported RLlib policy),
pimc[:OPTIONS] (the search player). Three agents, one per seat. Duplicate (the default; off
when a human plays): every deal is played under every distinct seating of the three agents (3
rotations when two seats share an agent, 6 permutations for three different agents), so each
agent plays each deal's hands from every seat and the luck of the cards cancels. Deals and
dealers come from the seed, one independent stream per deal, so any --workers gives identical
results. Agents see only the acting player's observation (the PettingZoo env's).

Per agent: Seeger-Fabian points per game with a 95% bootstrap interval over deals, list
score per game, declarer share, declarer and defence win rates (also by contract family:
suit, grand, null), passed-in share, overbid rate, mean game value; and, for each pair of
agents, the per-deal difference of their Seeger-Fabian points with its interval. Written
as a table, a JSON file (every figure and the exact command) and a PNG plot.

Outputs go to results/evaluate-<agents>-<time>.json and .png unless --json names a file, so a
run never overwrites an earlier one. The tournament itself is the library module
:mod:`skat_env.tournament` (``evaluate([...], deals=2000, seed=0)``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from skat_env.agents.human import HumanQuit
from skat_env.agents.registry import SPECS
from skat_env.cli.options import add_tournament_options
from skat_env.cli.outputs import OutputPathError, command_line, output_paths, write_results
from skat_env.core.game import Game, IllegalMoveError
from skat_env.tournament import (
    EvaluationError,
    describe_game,
    evaluate,
    format_table,
    validate,
    write_plot,
)


def _parser(prog: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description=__doc__.split("\n\n")[0].strip(),
        epilog="Agent specs: " + "; ".join(SPECS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                    help="three agent specs, one per seat")  # fmt: skip
    add_tournament_options(ap, deals=1000, json_default="results/evaluate-AGENTS-TIME.json")
    ap.add_argument(
        "--duplicate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="play every deal under every seating (default: on, off for a human)",
    )
    return ap


def main(argv: Sequence[str] | None = None, prog: str = "skat-evaluate") -> int:
    """Run ``skat-evaluate`` (``prog`` names the command: ``evaluate.py`` for the script)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = _parser(prog).parse_args(argv)
    command = command_line(prog, argv)
    try:
        built = validate(args.agents, args.deals, args.workers, args.seed)
        if args.bootstrap < 1:
            raise EvaluationError(f"--bootstrap must be positive, got {args.bootstrap}")
        out, plot = output_paths(args.json, args.plot, args.no_plot, "evaluate", *args.agents)
        human = any(a.interactive for a in built)
        duplicate = (not human) if args.duplicate is None else args.duplicate
        report = _print_game if human else None
        if human:  # one instance per spec, so equal specs keep one label
            by_spec = dict(zip(args.agents, built, strict=True))
            built = [by_spec[s] for s in args.agents]
        results = evaluate(built if human else args.agents, args.deals, args.seed,
                           args.workers, duplicate, progress=not args.no_progress,
                           bootstrap=args.bootstrap, report=report)  # fmt: skip
    except (EvaluationError, OutputPathError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except IllegalMoveError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except HumanQuit:
        print("\nbye.")
        return 0
    results["command"] = command
    print(format_table(results))
    return write_results(results, out, plot, write_plot, prog)


def _print_game(game: Game, labels: list[str]) -> None:
    print("\n" + describe_game(game, labels))
