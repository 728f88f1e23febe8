"""Agents by spec string: ``random``, ``heuristic``, ``heuristic:margin=-1``, ``human``,
``ppo`` (the bundled model), ``ppo:path/to/model.zip``, ``rllib:checkpoint_dir[#module]``.
Used by ``evaluate.py`` and ``train.py``."""

from __future__ import annotations

from .base import Agent

SPECS = (
    "random",
    "heuristic",
    "heuristic:margin=X (X shifts its bidding thresholds; negative is bolder)",
    "learned[:OPTIONS] (learned contract decisions, the heuristic's card play; options "
    "margin=X, skats=N, model=PATH|heuristic|search, nulls=0|1, auction=0|1; also "
    "heuristic:contracts=learned)",
    "human",
    "ppo (the bundled model)",
    "ppo:PATH (a MaskablePPO model.zip, or its weights as .npz)",
    "rllib:PATH[#MODULE] (a policy exported by train_rllib.py)",
    "oracle (sees every card: an upper bound for benchmarks, not a fair player; needs numba)",
    "pimc[:OPTIONS] (search player; options fast, play_only, worlds=N, seconds=S, "
    "bid_worlds=N, infer=0|1, dinfer=0|1|partner|both, dtemp=T, pool=N, dtie=X, cap=S|off, "
    "droll=K, pinfer=0|1, ppen=X, dclose=M, close=M, slip=X, second=N, dsecond=N, dfrom=K, "
    "dlead=K, "
    "slack=X, ouvert=0|1, bidder=SPEC (default learned:model=search,margin=5; search: "
    "the search's own contract decisions), comma-separated)",
)


class AgentSpecError(ValueError):
    """An agent spec that names no agent or points at an unusable file."""


def _error(spec: str, why: str) -> AgentSpecError:
    return AgentSpecError(f"{why} (agent spec {spec!r}); valid specs: {', '.join(SPECS)}")


def make_agent(spec: str | Agent, seed: int | None = None) -> Agent:
    """The agent a spec string names (an :class:`Agent` is returned as it is)."""
    if isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str):
        raise _error(repr(spec), "an agent is a spec string or an Agent")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        from .random_agent import RandomAgent

        return RandomAgent(seed)
    if kind == "learned" or kind == "heuristic" and arg == "contracts=learned":
        from .contracts import make_learned

        try:
            return make_learned("" if kind == "heuristic" else arg, name=spec)
        except ValueError as e:
            raise _error(spec, str(e)) from None
    if kind == "heuristic":
        from .heuristic import HeuristicAgent

        return HeuristicAgent(_margin(spec, arg))
    if kind == "human" and not arg:
        from .human import HumanAgent

        return HumanAgent()
    if kind == "ppo":
        if spec != "ppo" and not arg:
            raise _error(spec, "ppo: needs a model path (plain ppo is the bundled model)")
        from .ppo import PPOAgent

        try:
            return PPOAgent(arg or None)
        except (OSError, ValueError) as e:
            raise _error(spec, str(e)) from None
    if kind == "rllib":
        if not arg:
            raise _error(spec, "rllib needs a checkpoint path")
        from .rllib_agent import RLlibAgent

        try:
            return RLlibAgent(arg)
        except (OSError, ValueError) as e:
            raise _error(spec, str(e)) from None
    if kind == "oracle" and not arg:
        try:
            from .oracle import OracleAgent
        except ImportError as e:
            why = f"oracle needs the search extra, pip install 'skat-env[search]' ({e})"
            raise _error(spec, why) from None
        return OracleAgent()
    if kind == "pimc":
        try:
            from .pimc import PimcAgent, parse_options
        except ImportError as e:
            why = f"pimc needs the search extra, pip install 'skat-env[search]' ({e})"
            raise _error(spec, why) from None

        try:
            options = parse_options(arg)
            bidder = None
            if options.bidder and not options.play_only:
                bidder = make_agent(options.bidder, seed)
            return PimcAgent(seed, options, name=spec, bidder=bidder)
        except ValueError as e:
            raise _error(spec, str(e)) from None
    raise _error(spec, "unknown agent")


def _margin(spec: str, arg: str) -> float:
    if not arg:
        return 0.0
    key, _, value = arg.partition("=")
    if key != "margin":
        raise _error(spec, f"unknown heuristic option {key!r}")
    try:
        return float(value)
    except ValueError:
        raise _error(spec, f"margin must be a number, got {value!r}") from None


def check_spec(spec: str | Agent) -> None:
    """Raise :class:`AgentSpecError` now for a spec :func:`make_agent` would refuse."""
    make_agent(spec)


__all__ = ["SPECS", "AgentSpecError", "check_spec", "make_agent"]
