"""Agent specs: every player kind and its options, declared once in :data:`KINDS`.

A spec names a kind and, after a colon, its options: comma-separated ``name=value`` items and
flags (``heuristic:margin=-1``, ``pimc:fast,worlds=8``). An option whose value is itself an
agent spec takes it in brackets (``pimc:bidder=[learned:model=search,margin=5]``; brackets may
be left out when the inner spec has no comma: ``pimc:bidder=heuristic``). ``ppo`` and
``rllib`` take a file path instead of options (``ppo:models/ppo_skat.zip``).

The parser (:func:`parse_spec`), the one-line errors, the ``--help`` lines (:data:`SPECS` in
:mod:`.registry`) and ``docs/agents.md`` all come from this table::

    python -m skat_env.agents > docs/agents.md     # regenerate the page
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .contracts import MARGIN, SKATS
from .ppo import RELEASES

#: where every kind's options are listed (named by every spec error)
WHERE = "docs/agents.md, or python -m skat_env.agents"
#: option types: their value syntax in help texts
METAVARS = {"int": "N", "float": "X", "bool": "0|1", "flag": "", "spec": "SPEC", "path": "PATH"}


class AgentSpecError(ValueError):
    """An agent spec that names no agent, an unknown or ill-typed option, or an unusable file."""


@dataclass(frozen=True)
class Option:
    """One option of a kind: ``type`` is int, float, bool (0|1), flag (no value: on when
    named), spec (an agent spec), path (a file, or one of ``choices`` by name) or choice (one
    of ``choices``). ``low`` is a number's least value; ``none`` is the word for "no value"
    (``cap=off``); a flag's ``sets`` are the values it presets (explicit options win)."""

    name: str
    type: str
    help: str
    default: Any = None
    low: float | None = None
    choices: tuple[str, ...] = ()
    none: str = ""
    sets: Mapping[str, Any] = field(default_factory=dict)
    metavar: str = ""

    @property
    def syntax(self) -> str:
        """``name=VALUES`` as the help shows it (``fast`` for a flag)."""
        if self.type == "flag":
            return self.name
        metavar = self.metavar or METAVARS.get(self.type, "")
        values = [*self.choices, *filter(None, [metavar])]
        return f"{self.name}={'|'.join([*values, *filter(None, [self.none])])}"

    @property
    def allowed(self) -> str:
        """The values accepted, in words (``an integer >= 1``, ``0 or 1``, ...)."""
        if self.type in ("choice", "path", "spec"):
            what = {"path": ["a file path"], "spec": ["an agent spec"]}.get(self.type, [])
            names = [*self.choices, *what]
            return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        if self.type == "bool":
            return "0 or 1"
        word = {"int": "an integer", "float": "a number"}.get(self.type, "a value")
        bound = [f">= {self.low:g}"] if self.low is not None else []
        return " ".join([word, *bound, *([f"or {self.none}"] if self.none else [])])

    def convert(self, raw: str) -> Any:
        """The typed value of ``raw``; ValueError saying what is allowed."""
        if self.none and raw == self.none:
            return None
        if self.type in ("int", "float"):
            try:
                x = int(raw) if self.type == "int" else float(raw)
            except ValueError:
                raise ValueError(self.allowed) from None
            if not math.isfinite(x) or self.low is not None and x < self.low:
                raise ValueError(self.allowed)
            return x
        if self.type == "bool":
            if raw not in ("0", "1"):
                raise ValueError(self.allowed)
            return raw == "1"
        if self.type == "choice" and raw not in self.choices:
            raise ValueError(self.allowed)
        if not raw:
            raise ValueError(self.allowed)
        return _nested(raw) if self.type == "spec" and raw not in self.choices else raw


@dataclass(frozen=True)
class Kind:
    """An agent kind: its one-line summary and options (:mod:`.registry` builds its player).
    ``path``: the kind takes one positional file path instead of options (``ppo:PATH``);
    ``needs``: the package extra it needs, if any; ``removed``: options it no longer has."""

    name: str
    summary: str
    options: tuple[Option, ...] = ()
    path: Option | None = None
    needs: str = ""
    removed: tuple[str, ...] = ()  # options measured not to help (docs/experiments.md)

    @property
    def usage(self) -> str:
        """``pimc[:OPTIONS]``, ``ppo[:PATH]``, ``rllib:PATH[#MODULE]`` or ``random``."""
        if self.path is not None:  # its named choices are in the option's table
            metavar = self.path.metavar or METAVARS[self.path.type]
            optional = self.path.default is not None
            return f"{self.name}[:{metavar}]" if optional else f"{self.name}:{metavar}"
        return f"{self.name}[:OPTIONS]" if self.options else self.name

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


@dataclass(frozen=True)
class Spec:
    """A parsed spec: its kind, the text as written and every option's value."""

    kind: Kind
    text: str
    values: Mapping[str, Any]


def parse_spec(text: str) -> Spec:
    """The kind and typed option values of ``text``; :class:`AgentSpecError` (one line) for an
    unknown kind or option, a bad value or a missing path."""
    name, colon, arg = text.partition(":")
    kind = KINDS.get(name)
    if kind is None:
        raise AgentSpecError(
            f"unknown agent {name!r}{_did_you_mean(name, KINDS)}; agents: {', '.join(KINDS)} "
            f"(their options: {WHERE})"
        )
    if kind.path is not None:
        if colon and not arg or kind.path.default is None and not arg:
            raise AgentSpecError(f"{name} needs a path: {kind.usage} (in {text!r})")
        return Spec(kind, text, {kind.path.name: arg or kind.path.default})
    given: dict[str, Any] = {}
    try:
        items = split_items(arg)
    except AgentSpecError as e:
        raise AgentSpecError(f"{e} (in {text!r})") from None
    for item in items:
        key, eq, raw = item.partition("=")
        option = kind.option(key)
        if option is None:
            raise AgentSpecError(_unknown_option(kind, key, text))
        if key in given:
            raise AgentSpecError(f"{name} option {key} given twice (in {text!r})")
        if option.type == "flag" and eq or option.type != "flag" and not eq:
            raise AgentSpecError(f"{name} option {key} is written {option.syntax} (in {text!r})")
        try:
            given[key] = True if option.type == "flag" else option.convert(raw)
        except AgentSpecError as e:
            raise AgentSpecError(f"{name} option {key}: {e}; in {text!r}") from None
        except ValueError as e:
            why = f"{name} option {key} must be {e}, got {raw!r}"
            raise AgentSpecError(f"{why} (in {text!r})") from None
    values = kind.defaults()
    for option in kind.options:
        if option.name in given:
            values.update(option.sets)  # presets first: explicit options win
    values.update(given)
    return Spec(kind, text, values)


def split_items(arg: str) -> list[str]:
    """``arg`` split at the commas outside brackets (``a=1,b=[c:d,e]`` -> two items)."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(arg):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            raise AgentSpecError(f"unbalanced ']' in agent options {arg!r}")
        if ch == "," and depth == 0:
            items.append(arg[start:i])
            start = i + 1
    if depth:
        raise AgentSpecError(f"unclosed '[' in agent options {arg!r}")
    return [x for x in [*items, arg[start:]] if x]


def _nested(raw: str) -> str:
    """A nested agent spec without its brackets, checked by the parser (its kind's options)."""
    inner = raw[1:-1] if raw.startswith("[") and raw.endswith("]") else raw
    if parse_spec(inner).kind.name in ("pimc", "human"):
        raise AgentSpecError(f"a nested agent is not pimc or human, got {inner!r}")
    return inner


def _did_you_mean(word: str, names: Mapping[str, object] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(names), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _unknown_option(kind: Kind, key: str, text: str) -> str:
    if key in kind.removed:
        return (f"{kind.name} option {key} was removed: it was measured not to help "
                f"(docs/experiments.md) (in {text!r})")  # fmt: skip
    names = tuple(o.name for o in kind.options)
    hint = _did_you_mean(key, names)
    if not hint and "bidder=" in text and "bidder=[" not in text:
        hint = " (a bidder spec with options goes in brackets: bidder=[learned:margin=5,nulls=0])"
    allowed = ", ".join(o.syntax for o in kind.options) or "none"
    return f"unknown {kind.name} option {key!r}{hint} (in {text!r}); options: {allowed}"


FAST = {"worlds": 4, "seconds": 0.1, "bid_worlds": 4}
# fmt: off
_KINDS = (
    Kind("random", "uniform over the legal moves (the floor every player must beat)"),
    Kind("heuristic", "hand-written rules for every phase", (
        Option("margin", "float", "shifts its bidding thresholds (negative is bolder)", 0.0),
        Option("contracts", "choice", "learned: the contract decisions of learned (the same "
               "player as the spec learned)", "heuristic", choices=("heuristic", "learned")),
    )),
    Kind("learned", "contract decisions by the learned contract model, the heuristic's card "
         "play", (
        Option("margin", "float", "bid while the expected score beats passing by this much "
               "(Seeger-Fabian points)", MARGIN),
        Option("skats", "int", "skats sampled per bidding evaluation", SKATS, low=1),
        Option("model", "path", "a saved contract model, or a bundled one: heuristic (learned "
               "from the heuristic's games), search (from the search player's)", "heuristic",
               choices=("heuristic", "search")),
        Option("nulls", "bool", "0: never declare null", True),
        Option("auction", "bool", "0: decide as if the bids were not known", True),
    )),
    Kind("ppo", "a trained MaskablePPO policy, played greedily; without a path the bundled "
         "model, with a date an earlier shipped one",
         path=Option("path", "path", "a model.zip or its weights as .npz, or an earlier shipped "
                     "model by its date", "", choices=tuple(RELEASES))),
    Kind("rllib", "a policy exported by train_rllib.py, played greedily",
         path=Option("path", "path", "a checkpoint directory (#MODULE picks a module: shared, "
                     "player_0..2) or a policy file", metavar="PATH[#MODULE]")),
    Kind("pimc", "the search player: perfect-information Monte Carlo over the double-dummy "
         "solver", (
        Option("fast", "flag", "a quick preset: " + ", ".join(f"{k}={v}" for k, v in FAST.items()),
               False, sets=FAST),
        Option("play_only", "flag", "the heuristic bids, takes the skat, discards and declares; "
               "the search plays the cards", False),
        Option("worlds", "int", "most sampled worlds per card decision", 32, low=1),
        Option("seconds", "float", "card-play budget: expected seconds per card decision (fewer "
               "worlds where a world costs more; the count is fixed by the position)", 3.5,
               low=0.001),
        Option("bid_worlds", "int", "worlds per bidding, skat and discard evaluation", 6, low=1),
        Option("cap", "float", "wall-clock cap in seconds per contract decision (off: none, "
               "fully deterministic)", 3.0, low=0.001, none="off"),
        Option("dinfer", "bool", "defenders weight worlds by how likely the declaration makes "
               "the declarer's cards, from trick 2 (0: uniform worlds, 2.5x faster)", True),
        Option("ouvert", "bool", "declare a hand game ouvert when every sampled world takes "
               "every trick", True),
        Option("bidder", "spec", "the agent that bids, takes the skat, discards and declares "
               "(search: the search itself; not pimc or human)",
               "learned:model=search,margin=5", choices=("search",)),
    ), needs="search", removed=("infer", "pinfer", "ppen", "droll", "dtie", "dclose", "close",
                                "slip", "second", "dsecond", "dlead", "dtemp", "pool", "dfrom",
                                "slack")),
    Kind("oracle", "sees every card: the double-dummy reference for card-play benchmarks, "
         "not a fair player", needs="search"),
    Kind("human", "you, in the terminal"),
)
# fmt: on
#: every agent kind by name, in the order the help and docs list them
KINDS: dict[str, Kind] = {k.name: k for k in _KINDS}


def help_lines() -> tuple[str, ...]:
    """One line per kind: ``usage (summary; options a=N, b=0|1)`` (the ``--help`` epilog)."""
    out = []
    for k in KINDS.values():
        options = f"; options {', '.join(o.syntax for o in k.options)}" if k.options else ""
        out.append(f"{k.usage} ({k.summary}{options})")
    return tuple(out)


def markdown() -> str:
    """docs/agents.md: every kind and option, generated from :data:`KINDS`."""
    lines = [
        "# Agents",
        "",
        "<!-- generated by `python -m skat_env.agents > docs/agents.md`; do not edit -->",
        "",
        "Whatever takes a player (`skat-evaluate --agents`, `skat-league --agents`,",
        "`skat-web --opponents`, the training opponents, `make_agent(spec)` in Python) takes an",
        "agent spec: a kind, then after a colon its options, comma-separated",
        "(`heuristic:margin=-1`, `pimc:fast,worlds=8`). An option whose value is an agent spec",
        "takes it in brackets when that spec has a comma",
        "(`pimc:bidder=[learned:model=search,margin=5]`). A preset flag such as `fast` sets",
        "several options; options named explicitly win over it. A bad spec is refused with one",
        "line that names what is wrong and what is allowed.",
        "",
        "| kind | what it is | needs |",
        "|---|---|---|",
    ]
    for k in KINDS.values():
        needs = f"`pip install 'skat-env[{k.needs}]'`" if k.needs else ""
        lines.append(f"| `{k.usage}` | {k.summary} | {needs} |")
    for k in KINDS.values():
        rows = [*([k.path] if k.path else []), *k.options]
        if not rows:
            continue
        lines += ["", f"## {k.name}", "", f"`{k.usage}`: {k.summary}.", ""]
        lines += ["| option | values | default | what it does |", "|---|---|---|---|"]
        for o in rows:
            lines.append(f"| `{o.name}` | {o.allowed if o.type != 'flag' else 'flag'} | "
                         f"{_shown(o)} | {o.help} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def _shown(o: Option) -> str:
    """An option's default as a spec writes it."""
    if o.type == "flag":
        return "off"
    if o.default is None:
        return "required" if o.type == "path" else f"`{o.none}`"
    if o.default == "":
        return "the bundled model"
    if o.type == "bool":
        return "`1`" if o.default else "`0`"
    text = f"{o.default:g}" if isinstance(o.default, float) else str(o.default)
    return f"`[{text}]`" if o.type == "spec" and "," in text else f"`{text}`"


__all__ = ["KINDS", "WHERE", "AgentSpecError", "Kind", "Option", "Spec", "help_lines",
           "markdown", "parse_spec", "split_items"]  # fmt: skip
