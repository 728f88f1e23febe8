"""The learned contract model's data and training (``python -m skat_env.cli.contracts``).

    python -m skat_env.cli.contracts generate results/contracts_data --deals 400000 --workers 2
    python -m skat_env.cli.contracts train results/contracts_data --out results/contracts.npz

``generate`` plays deals under chosen contracts with the heuristic's card play in every
seat (the declarer's opponents bid first, as the heuristic does: ``--auction``) and writes
a resumable dataset folder (run it again to complete or extend it; the
rows depend only on the seed). ``train`` fits the model on a dataset folder, writes it
(never over an existing file unless ``--force``) and its calibration plot (the model path
with ``.png``). Library: :mod:`skat_env.training.contract_data` and
:mod:`skat_env.training.contract_train`; format: ``docs/contracts.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from skat_env.cli.options import seed_arg
from skat_env.cli.outputs import command_line


def build_parser(prog: str = "python -m skat_env.cli.contracts") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0].strip())
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="play deals out and write (or complete) a dataset")
    g.add_argument("folder", type=Path)
    g.add_argument("--deals", type=int, default=400_000, help="deals (default 400000)")
    g.add_argument("--seed", type=seed_arg, default=0, help="seed of the deals (default 0)")
    g.add_argument("--shard-deals", type=int, default=2000, help="deals per shard (2000)")
    g.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    g.add_argument("--player", default="heuristic", help="card player spec (heuristic)")
    g.add_argument(
        "--auction",
        default="heuristic",
        help="agent spec the declarer's opponents bid by (heuristic); none: they pass at "
        "once and he declares at 18 (the format-1 datasets)",
    )
    g.add_argument("--no-progress", action="store_true")
    t = sub.add_parser("train", help="fit the model on a dataset folder")
    t.add_argument("folder", type=Path)
    t.add_argument(
        "--out",
        type=Path,
        default=Path("results/contracts.npz"),
        help="the model file (default results/contracts.npz; the shipped one is "
        "agents/models/contracts.npz)",
    )
    t.add_argument("--hidden", type=int, nargs="+", default=[96, 64], help="hidden sizes")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--seed", type=seed_arg, default=0)
    t.add_argument(
        "--init",
        type=Path,
        help="fine-tune this model (its sizes and scaling) "
        "instead of training a new one, e.g. on games of another card player",
    )
    t.add_argument("--lr", type=float, default=2e-3, help="Adam learning rate (2e-3)")
    t.add_argument("--force", action="store_true", help="overwrite an existing model file")
    return ap


def _positive(name: str, value: int) -> None:
    if type(value) is not int or value < 1:
        raise ValueError(f"--{name} must be a positive integer, got {value!r}")


def main(argv: Sequence[str] | None = None, prog: str = "python -m skat_env.cli.contracts") -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = build_parser(prog).parse_args(argv)
    try:
        if args.command == "generate":
            return _generate(args)
        return _train(args, command_line(prog, argv))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _generate(args: argparse.Namespace) -> int:
    from skat_env.agents.registry import check_spec
    from skat_env.training.contract_data import generate

    for name in ("deals", "shard_deals", "workers"):
        _positive(name.replace("_", "-"), getattr(args, name))
    check_spec(args.player)
    bidder = "" if args.auction == "none" else args.auction
    if bidder:
        check_spec(bidder)
    t0 = time.perf_counter()
    manifest = generate(args.folder, args.seed, args.deals, args.shard_deals, args.workers,
                        args.player, progress=not args.no_progress, bidder=bidder)  # fmt: skip
    print(f"{manifest['deals']} deals in {args.folder} ({time.perf_counter() - t0:.0f} s)")
    return 0


def _train(args: argparse.Namespace, command: str) -> int:
    from skat_env.training.contract_data import load
    from skat_env.training.contract_train import plot_calibration, train

    _positive("epochs", args.epochs)
    for h in args.hidden:
        _positive("hidden", h)
    if args.out.exists() and not args.force:
        raise ValueError(f"{args.out} exists; pass --force to overwrite it")
    if args.out.parent.exists() and not args.out.parent.is_dir():
        raise ValueError(f"{args.out.parent} is not a folder")
    if not 0 < args.lr < 1:
        raise ValueError(f"--lr must be in (0, 1), got {args.lr}")
    init = None
    if args.init is not None:
        from skat_env.agents.contract_model import ContractModel

        init = ContractModel.load(args.init)  # ValueError for a file that is not a model
    data = load(args.folder)
    manifest = json.loads((args.folder / "dataset.json").read_text())
    meta = {"command": command,
            "dataset": {k: manifest.get(k, "") for k in ("seed", "card_player", "auction")},
            "deals": int(data["deal"].max()) + 1}  # fmt: skip
    if init is not None:
        meta["init"] = {"path": str(args.init), "command": init.meta.get("command", "")}
    model = train(data, tuple(args.hidden), args.epochs, args.seed, lr=args.lr, meta=meta,
                  init=init)  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    plot = args.out.with_suffix(".png")
    plot_calibration(model.meta["calibration"], plot, f"contract model ({len(data['deal'])} games)")
    print(json.dumps({k: {x: v[x] for x in ("rows", "brier", "base_rate_brier", "log_loss")}
                      for k, v in model.meta["calibration"].items()}, indent=1))  # fmt: skip
    print(f"wrote {args.out} and {plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
