"""Agents by spec string (``heuristic:margin=-1``, ``ppo:path/to/model.zip``, ``pimc:fast``):
the kinds and their options are the table of :mod:`.specs` (``docs/agents.md``). Used by the
tournaments, the training command, the web app and the benchmarks."""

from __future__ import annotations

from .base import Agent
from .specs import AgentSpecError, help_lines, parse_spec

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
        return parsed.kind.build(parsed, seed)
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


def check_spec(spec: str | Agent) -> None:
    """Raise :class:`AgentSpecError` now for a spec :func:`make_agent` would refuse."""
    make_agent(spec)


__all__ = ["SPECS", "AgentSpecError", "check_spec", "make_agent"]
