"""Contract decisions alone: the same card player in every seat, only the bidding, skat,
discard and declaration differ, on duplicate deals in both line-ups.

    python benchmarks/bench_contracts.py --contracts learned heuristic --deals 1000 --seed 0
    python benchmarks/bench_contracts.py --cards pimc:fast --deals 100

``--contracts A B`` are the two contract deciders as agent specs whose card play is the
heuristic's (``learned[:OPTIONS]``, ``heuristic``, ``heuristic:margin=X``). With ``--cards
pimc[:OPTIONS]`` the search plays every card instead and the deciders become its bidders
(``pimc:...,bidder=learned`` against ``pimc:...,bidder=heuristic``; the decider ``search``
is the search player's own contract decisions, the plain ``pimc:...`` spec).

Line-up 1 is ``A B B``, line-up 2 ``B A A``, each under its three rotations on the same
deals (:func:`skat_env.tournament.evaluate`, same seed). Per line-up: A's Seeger-Fabian
points per game minus B's with the 95% bootstrap interval over deals, and each side's
SF/game, declarer share, declarer win rate, overbid rate and passed-in share. ``--json``
writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skat_env.agents.registry import AgentSpecError, check_spec  # noqa: E402
from skat_env.cli.options import seed_arg  # noqa: E402
from skat_env.tournament import EvaluationError, evaluate  # noqa: E402

FIGURES = ("sf_per_game", "declarer_share", "declarer_win_rate", "overbid_rate", "passed_in_share")


def specs(contracts: tuple[str, str], cards: str) -> tuple[str, str]:
    """The two agent specs: the deciders themselves (heuristic card play) or the search
    player with each as its bidder."""
    if cards == "heuristic":
        return contracts
    sep = "," if ":" in cards else ":"
    nested = [f"[{c}]" if "," in c else c for c in contracts]  # a spec with commas: brackets
    return tuple(cards if c == "search" else f"{cards}{sep}bidder={c}" for c in nested)  # type: ignore[return-value]


def lineups(a: str, b: str) -> list[list[str]]:
    """``A B B`` and ``B A A``."""
    return [[a, b, b], [b, a, a]]


def run(a: str, b: str, deals: int, seed: int, workers: int = 1, progress: bool = True,
        keep_games: bool = False) -> list[dict]:  # fmt: skip
    """Both line-ups on the same deals; per line-up the difference A - B and the figures."""
    out = []
    for agents in lineups(a, b):
        r = evaluate(agents, deals=deals, seed=seed, workers=workers, progress=progress,
                     keep_games=keep_games)  # fmt: skip
        comp = r["comparisons"][0]
        sign = 1.0 if comp["a"] == a else -1.0
        ci = comp["ci95"] and [sign * x for x in comp["ci95"]][:: int(sign)]  # None: 1 deal
        row = {"lineup": agents, "a_minus_b": sign * comp["sf_diff_per_game"], "ci95": ci,
               "agents": {k: {f: v[f] for f in FIGURES} for k, v in r["agents"].items()},
               "timing": r["timing"]}  # fmt: skip
        if keep_games:
            row["records"] = r["records"]
        out.append(row)
    return out


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def format_rows(rows: list[dict], a: str, b: str) -> str:
    lines = [f"A = {a}\nB = {b}"]
    for i, row in enumerate(rows, 1):
        ci = "[{:+.1f}, {:+.1f}]".format(*row["ci95"]) if row["ci95"] else "(no interval)"
        lines.append(f"line-up {i} ({' '.join(row['lineup'])}): A - B = "
                     f"{row['a_minus_b']:+.1f} SF/game {ci}")  # fmt: skip
        lines.append("   side  SF/game  declares  wins  overbid  passed-in")
        for name, tag in ((a, "A"), (b, "B")):
            f = row["agents"][name]
            lines.append(f"   {tag:4s} {f['sf_per_game']:8.1f}  {_pct(f['declarer_share'])}  "
                         f"{_pct(f['declarer_win_rate'])} {_pct(f['overbid_rate'])}   "
                         f"{_pct(f['passed_in_share'])}")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--contracts", nargs=2, default=["learned", "heuristic"], metavar="SPEC")
    ap.add_argument("--cards", default="heuristic", help="heuristic or pimc[:OPTIONS]")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None, help="write every figure here")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.cards != "heuristic" and not args.cards.startswith("pimc"):
        print("error: --cards is heuristic or pimc[:OPTIONS]", file=sys.stderr)
        return 2
    if args.deals < 1 or args.workers < 1:
        print("error: --deals and --workers must be positive", file=sys.stderr)
        return 2
    a, b = specs(tuple(args.contracts), args.cards)
    try:
        check_spec(a)
        check_spec(b)
        rows = run(a, b, args.deals, args.seed, args.workers, progress=not args.no_progress)
    except (AgentSpecError, EvaluationError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_rows(rows, a, b))
    if args.json is not None:
        cmd = "python benchmarks/bench_contracts.py " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        args.json.write_text(json.dumps({"command": cmd, "lineups": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
