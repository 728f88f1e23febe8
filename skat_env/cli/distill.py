"""Record a teacher's decisions for behaviour cloning (distillation from search).

    python -m skat_env.cli.distill --teacher pimc --games 2000 --out data/pimc
    skat-train --init data:data/pimc                # clone those decisions, then PPO

The command line over :mod:`skat_env.training.distill` (the shards, their format and
resumption are described there): the teacher is an agent spec, resolved here by the registry.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.core.rewards import REWARD_MODES
from skat_env.training.distill import write_shards

PROG = "python -m skat_env.cli.distill"


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", default="pimc", help="agent spec of the teacher")
    ap.add_argument("--games", type=int, default=1000, help="games to record in all")
    ap.add_argument("--out", type=Path, required=True, help="folder of the shards")
    ap.add_argument("--seed", type=int, default=0, help="shard k plays the deals of seed + k")
    ap.add_argument("--shard-games", type=int, default=50, help="games per shard")
    ap.add_argument("--reward-mode", default="seeger_fabian", choices=REWARD_MODES)
    ap.add_argument("--workers", type=int, default=1, help="parallel processes")
    ap.add_argument("--contracts-only", action="store_true",
                    help="keep only the decisions before the first card (bidding, skat, "
                    "discard, declaration): to distil a teacher's contract decisions")  # fmt: skip
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.games < 1 or args.shard_games < 1 or args.workers < 1:
        ap.error("--games, --shard-games and --workers must be at least 1")
    try:
        teacher = make_agent(args.teacher, seed=0)
    except AgentSpecError as e:
        ap.error(str(e))
    if teacher.interactive:
        ap.error(f"teacher {args.teacher!r} needs a person at the terminal")
    make_teacher = functools.partial(make_agent, args.teacher, seed=0)  # picklable: per worker
    paths = write_shards(make_teacher, args.teacher, args.games, args.out, args.seed,
                         args.shard_games, args.reward_mode, progress=not args.no_progress,
                         workers=args.workers, contracts_only=args.contracts_only)  # fmt: skip
    print(f"{len(paths)} shards of {args.shard_games} games in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
