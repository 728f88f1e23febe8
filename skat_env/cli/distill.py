"""Record a teacher's decisions for behaviour cloning (distillation from search).

    python -m skat_env.cli.distill --teacher pimc --games 2000 --out data/pimc
    python -m skat_env.cli.distill --teacher pimc:fast --student ppo --out data/dagger
    skat-train --init data:data/pimc                # clone those decisions, then PPO

The command line over :mod:`skat_env.training.distill` (the shards, their format and
resumption are described there): the teacher and the student are agent specs, resolved here
by the registry.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.cli.options import seed_arg
from skat_env.cluster import ClusterError
from skat_env.core.rewards import REWARD_MODES
from skat_env.training.distill import Labelling, write_shards

PROG = "python -m skat_env.cli.distill"


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", default="pimc", help="agent spec of the teacher (%(default)s)")
    ap.add_argument("--student", default=None, metavar="SPEC",
                    help="agent spec of a student that plays while the teacher labels its "
                    "decisions (DAgger), e.g. ppo or ppo:runs/x/final_model.zip; without it "
                    "the teacher plays")  # fmt: skip
    ap.add_argument(
        "--beta",
        type=float,
        default=0.0,
        help="with --student: the share of moves the teacher plays (%(default)s)",
    )
    ap.add_argument("--games", type=int, default=1000, help="games to record in all")
    ap.add_argument("--out", type=Path, required=True, help="folder of the shards")
    ap.add_argument("--seed", type=seed_arg, default=0, help="shard k plays the deals of seed + k")
    ap.add_argument("--shard-games", type=int, default=50, help="games per shard")
    ap.add_argument("--reward-mode", default="seeger_fabian", choices=REWARD_MODES)
    ap.add_argument("--workers", type=int, default=1, help="parallel processes")
    ap.add_argument("--address", default=None, metavar="auto|HOST:PORT",
                    help="run the shards as Ray tasks on this cluster (pip install "
                    "'skat-env[cluster]')")  # fmt: skip
    ap.add_argument("--contracts-only", action="store_true",
                    help="keep only the decisions before the first card (bidding, skat, "
                    "discard, declaration): to distil a teacher's contract decisions")  # fmt: skip
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def _check_spec(ap: argparse.ArgumentParser, flag: str, spec: str) -> None:
    try:
        agent = make_agent(spec, seed=0)
    except AgentSpecError as e:
        ap.error(f"{flag}: {e}")
    if agent.interactive:
        ap.error(f"{flag} {spec!r} needs a person at the terminal")


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.games < 1 or args.shard_games < 1 or args.workers < 1:
        ap.error("--games, --shard-games and --workers must be at least 1")
    if not 0.0 <= args.beta <= 1.0:
        ap.error(f"--beta must be between 0 and 1, got {args.beta}")
    if args.beta and args.student is None:
        ap.error("--beta mixes the teacher into a student's play: give --student too")
    _check_spec(ap, "--teacher", args.teacher)
    student = None
    if args.student is not None:
        _check_spec(ap, "--student", args.student)
        student = functools.partial(make_agent, args.student, seed=0)
    labelling = Labelling(
        functools.partial(make_agent, args.teacher, seed=0),  # picklable: built per worker
        args.teacher,
        args.reward_mode,
        args.contracts_only,
        student,
        args.student or "",
        args.beta,
    )
    try:
        run = write_shards(labelling, args.games, args.out, args.seed, args.shard_games,
                           progress=not args.no_progress, workers=args.workers,
                           address=args.address)  # fmt: skip
    except ClusterError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    print(f"{len(run.paths)} shards of {args.shard_games} games in {args.out}")
    if run.written:
        print(f"labelled {run.decisions:,} decisions in {run.written} new shards: "
              f"{run.per_cpu_second:.1f} per CPU second")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
