"""Agents by spec string (``heuristic:margin=-1``, ``ppo:path/to/model.zip``, ``pimc:fast``):
the kinds and their options are the table of :mod:`.specs` (``docs/agents.md``). Used by the
tournaments, the training command, the web app and the benchmarks."""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .specs import AgentSpecError, Spec, help_lines, parse_spec

#: one line per agent kind with its options (the ``--help`` epilogs), from the table
SPECS = help_lines()


def make_agent(spec: str | Agent, seed: int | None = None) -> Agent:
    """The agent a spec string names (an :class:`Agent` is returned as it is)."""
    if isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str):
        raise AgentSpecError(f"an agent is a spec string or an Agent, got {spec!r}")
    parsed = parse_spec(spec)
    try:
        return BUILDERS[parsed.kind.name](parsed, seed)
    except ImportError as e:
        extra = parsed.kind.needs
        if not extra:
            raise AgentSpecError(f"{e} (in {spec!r})") from None
        why = f"{parsed.kind.name} needs the {extra} extra, pip install 'skat-env[{extra}]'"
        raise AgentSpecError(f"{why} ({e})") from None
    except AgentSpecError:
        raise
    except (OSError, ValueError) as e:  # an unusable model file
        raise AgentSpecError(f"{e} (in {spec!r})") from None


# Each builder imports its player when it is built (pimc and oracle need numba).
def _random(spec: Spec, seed: int | None) -> Agent:
    from .random_agent import RandomAgent

    return RandomAgent(seed)


def _heuristic(spec: Spec, seed: int | None) -> Agent:
    if spec.values["contracts"] == "learned":
        if spec.values["margin"]:
            raise AgentSpecError(f"margin is the heuristic's own; with contracts=learned write "
                                 f"learned:margin=X (in {spec.text!r})")  # fmt: skip
        return _learned(parse_spec("learned"), seed, name=spec.text)
    from .heuristic import HeuristicAgent

    return HeuristicAgent(spec.values["margin"])


def _learned(spec: Spec, seed: int | None, name: str = "") -> Agent:
    from .contracts import learned_agent

    return learned_agent(spec.values, name=name or spec.text)


def _ppo(spec: Spec, seed: int | None) -> Agent:
    from .ppo import PPOAgent

    return PPOAgent(spec.values["path"] or None)


def _rllib(spec: Spec, seed: int | None) -> Agent:
    from .rllib_agent import RLlibAgent

    return RLlibAgent(spec.values["path"])


def _pimc(spec: Spec, seed: int | None) -> Agent:
    from .pimc import PimcAgent, options_of

    options = options_of(spec.values)
    bidder = None
    if options.bidder and not options.play_only:
        bidder = make_agent(options.bidder, seed)
    return PimcAgent(seed, options, name=spec.text, bidder=bidder)


def _oracle(spec: Spec, seed: int | None) -> Agent:
    from .oracle import OracleAgent

    return OracleAgent()


def _human(spec: Spec, seed: int | None) -> Agent:
    from .human import HumanAgent

    return HumanAgent()


#: the builder of each kind of the table (``specs.KINDS``), by name
BUILDERS: dict[str, Callable[[Spec, int | None], Agent]] = {
    "random": _random, "heuristic": _heuristic, "learned": _learned, "ppo": _ppo,
    "rllib": _rllib, "pimc": _pimc, "oracle": _oracle, "human": _human,
}  # fmt: skip


def check_spec(spec: str | Agent) -> None:
    """Raise :class:`AgentSpecError` now for a spec :func:`make_agent` would refuse."""
    make_agent(spec)


__all__ = ["BUILDERS", "SPECS", "AgentSpecError", "check_spec", "make_agent"]
