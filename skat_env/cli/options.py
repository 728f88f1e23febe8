"""What the command-line tools share: the usage error, the tournament option block, parsing a
dataclass of settings, and agent specs resolved for training (opponents, teachers).

Specs are resolved here, in the front ends, by the registry: the training and recording
libraries below the players take policies, not spec strings.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from pathlib import Path
from typing import Any

from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.agents.specs import split_items
from skat_env.envs.policy import Policy


class UsageError(Exception):
    """Bad input: printed as a one-line message, exit status 2."""


#: the largest ``--seed`` (NumPy, Python and torch all accept 0..2**32-1; training adds its
#: step count to the seed, so half of that range is kept free)
MAX_SEED = 2**31 - 1


def count_arg(text: str) -> int:
    """The argparse type of a count that must be positive (games, deals, rounds)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return n


def seed_arg(text: str) -> int:
    """The argparse type of every ``--seed``: an integer in 0..MAX_SEED."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be an integer in 0..{MAX_SEED}, got {text!r}")
    return seed


def add_tournament_options(ap: argparse.ArgumentParser, deals: int, json_default: str) -> None:
    """The options every tournament front end shares (``skat-evaluate``, ``skat-league``):
    deals, seed, workers, bootstrap resamples, output files, progress bar."""
    ap.add_argument("--deals", type=int, default=deals, help=f"deals to play (default {deals})")
    ap.add_argument("--seed", type=seed_arg, default=0, help="seed of deals and agents (default 0)")
    ap.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    ap.add_argument("--bootstrap", type=int, default=2000,
                    help="bootstrap resamples for the intervals (default 2000)")  # fmt: skip
    ap.add_argument("--json", type=Path, default=None,
                    help=f"JSON file (default: new {json_default})")  # fmt: skip
    ap.add_argument("--plot", type=Path, default=None,
                    help="PNG plot (default: the JSON path with .png)")  # fmt: skip
    ap.add_argument("--no-plot", action="store_true", help="write no plot")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")


KINDS = {"bool": bool, "int": int, "float": float, "str": str}  # field types a flag can have


class _Parser(argparse.ArgumentParser):
    """Reports a bad flag or value as :class:`UsageError` (one line, exit status 2) instead of
    argparse's usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The description and epilog as written (paragraphs, example commands), defaults shown."""


def parse_dataclass(cls: type, argv: list[str] | None, prog: str, description: str,
                    epilog: str | None = None) -> tuple[Any, set[str]]:  # fmt: skip
    """An instance of the dataclass ``cls`` from ``argv`` (one ``--flag`` per field), and the
    names of the flags given explicitly. A field's metadata gives its ``help``, its argparse
    ``group`` (a title; groups appear in field order) and optionally its ``choices`` and
    ``metavar``. A bad flag or value raises :class:`UsageError`."""

    def build(suppress: bool) -> argparse.ArgumentParser:
        p = _Parser(prog=prog, description=description, epilog=epilog,
                    formatter_class=_HelpFormatter)  # fmt: skip
        groups: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            title = f.metadata.get("group")
            target = p if title is None else groups.setdefault(title, p.add_argument_group(title))
            flag = "--" + f.name.replace("_", "-")
            default = argparse.SUPPRESS if suppress else f.default
            kind = KINDS[f.type if isinstance(f.type, str) else f.type.__name__]
            extra: dict[str, Any] = {"default": default, "help": f.metadata.get("help")}
            if kind is bool:  # --flag, and --no-flag where the default is on
                extra["action"] = argparse.BooleanOptionalAction if f.default else "store_true"
            else:
                extra.update(type=kind, choices=f.metadata.get("choices"),
                             metavar=f.metadata.get("metavar"))  # fmt: skip
            target.add_argument(flag, **extra)
        return p

    values = vars(build(False).parse_args(argv))
    given = set(vars(build(True).parse_args(argv)))
    return cls(**values), given


def training_agent(spec: str, seed: int = 0, role: str = "opponent") -> Policy:
    """The agent a spec names, as an opponent or teacher of training; :class:`UsageError`
    for a bad spec, an agent that needs a person, or one that sees every card."""
    try:
        agent = make_agent(spec, seed=seed)
    except AgentSpecError as e:
        raise UsageError(f"bad {role}: {e}") from None
    if agent.interactive:
        raise UsageError(f"{role} {spec!r} needs a person at the terminal; it cannot train")
    if agent.perfect_information:
        raise UsageError(f"{role} {spec!r} sees every card; it is a benchmark bound, not a "
                         f"training {role}")  # fmt: skip
    return agent


def parse_opponents(text: str) -> dict[str, float]:
    """``"random:0.3,heuristic:0.4,self:0.3"`` -> normalised weights (a missing weight is 1).

    Specs are checked with the registry now (:class:`UsageError` with its message), so a typo
    fails before any training."""
    weights: dict[str, float] = {}
    for item in spec_list(text):
        spec, weight = item, 1.0
        head, _, tail = item.rpartition(":")
        if head and _is_number(tail):
            spec, weight = _unbracket(head), float(tail)
        if not math.isfinite(weight) or weight < 0:
            raise UsageError(f"opponent weight must be a non-negative number: {item!r}")
        if spec != "self":
            training_agent(spec)
        weights[spec] = weights.get(spec, 0.0) + weight
    total = sum(weights.values())
    if not weights or total <= 0:
        raise UsageError(f"--opponents needs at least one positive weight, got {text!r}")
    return {k: v / total for k, v in weights.items() if v > 0}


def pool_members(text: str) -> list[str]:
    """The member specs of an opponent pool (``--opponents pool:MEMBER,...``; ``self``: the
    snapshots, ``best``: the best model so far, anything else an agent spec checked by the
    registry), in order; :class:`UsageError` for a bad spec, a weight (the pool weighs its
    members itself) or a repeat."""
    specs = spec_list(text)
    if not specs:
        raise UsageError(f"an opponent pool needs at least one member, got {text!r}")
    if len(set(specs)) < len(specs):
        raise UsageError(f"the opponent pool names a member twice: {text!r}")
    for spec in specs:
        head, _, tail = spec.rpartition(":")
        if head and _is_number(tail):
            raise UsageError(f"pool members take no weights (the pool sets them): {spec!r}")
        if spec not in ("self", "best"):
            training_agent(spec, role="pool member")
    return specs


def opponent_policies(weights: dict[str, float], seed: int) -> dict[str, Any]:
    """The policy of every opponent spec in ``weights`` (``self`` is the learner's slots)."""
    return {spec: training_agent(spec, seed) for spec in weights if spec != "self"}


def spec_list(text: str) -> list[str]:
    """Comma-separated agent specs; a spec with commas of its own goes in brackets
    (``[pimc:fast,worlds=2]:0.3,heuristic`` -> ``[pimc:fast,worlds=2]:0.3``, ``heuristic``)."""
    try:
        items = split_items(text)
    except AgentSpecError as e:
        raise UsageError(str(e)) from None
    return [_unbracket(s.strip()) for s in items if s.strip()]


def _unbracket(spec: str) -> str:
    """``[pimc:fast,worlds=2]`` -> ``pimc:fast,worlds=2`` (other specs as they are)."""
    return spec[1:-1] if spec.startswith("[") and spec.endswith("]") else spec


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


__all__ = [
    "UsageError",
    "add_tournament_options",
    "opponent_policies",
    "parse_dataclass",
    "parse_opponents",
    "pool_members",
    "training_agent",
]
