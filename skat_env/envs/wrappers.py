"""PettingZoo's ``OrderEnforcingWrapper``, with the hot attributes read directly.

``skat_v0.env()`` is the raw environment in PettingZoo's ``OrderEnforcingWrapper`` (call-order
errors before ``reset()``, the warning for a step after everyone left). Illegal moves and
malformed actions are the raw env's own business (``illegal_action``, one vocabulary for every
env), so PettingZoo's ``TerminateIllegalWrapper`` (a fixed -1 penalty) and
``AssertOutOfBoundsWrapper`` (an ``AssertionError``) are not used.

The wrapper reaches the raw env's attributes through ``BaseWrapper.__getattr__``, which runs
only after a normal lookup has failed: every read of ``agent_selection``, ``terminations`` and
the like would raise and catch an ``AttributeError``, a dozen times per step in an RL loop.
The subclass here adds properties that read those attributes from the raw env in one hop;
the values and the behaviour are PettingZoo's, except that a refused ``reset`` changes nothing
(the env is marked reset only once the raw env's reset succeeded), that ``step``, ``last``,
``observe`` and ``state`` before ``reset()`` raise the raw env's ``RuntimeError`` ("call reset()
first") instead of PettingZoo's ``AssertionError``, and that it copies: ``clone()``
and ``copy.copy`` give an independent wrapped env in the same position, as ``copy.deepcopy``
and ``pickle`` do.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .aec import _NO_RESET

# Attributes every AEC loop reads at each step; the wrapper only ever reads them.
HOT_ATTRIBUTES = (
    "agent_selection", "agents", "terminations", "truncations", "rewards", "infos",
    "_cumulative_rewards",
)  # fmt: skip
# OrderEnforcingWrapper refuses these before the first reset (its __getattr__ says so).
_GUARDED = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents")
)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, hot attributes read directly.

    The guarded ones read through ``_live``, which exists only once ``reset()`` has
    succeeded: before that the property raises ``AttributeError`` and Python falls back to
    the wrapper's ``__getattr__``, which raises PettingZoo's own "cannot be accessed before
    reset"."""

    def __init__(self, env: AECEnv):
        self._raw = env.unwrapped
        super().__init__(env)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)  # raises before changing anything
        self._has_reset = True
        self._has_updated = True
        self._live = self._raw

    # Before reset() these raise the raw env's RuntimeError, not PettingZoo's AssertionError.
    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise RuntimeError(_NO_RESET)
        super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise RuntimeError(_NO_RESET)
        out: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return out

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            raise RuntimeError(_NO_RESET)
        return super().observe(agent)

    def state(self) -> Any:
        if not self._has_reset:
            raise RuntimeError(_NO_RESET)
        return super().state()

    def clone(self) -> OrderEnforcingWrapper:
        """An independent wrapped env in the same position (see ``raw_env.clone``)."""
        if self.env is not self._raw:
            raise TypeError("clone() needs the wrapper directly around the raw env")
        other = type(self)(self._raw.clone())
        other._has_reset = self._has_reset
        other._has_updated = self._has_updated
        if "_live" in self.__dict__:
            other._live = other._raw
        return other

    __copy__ = clone


for _name in HOT_ATTRIBUTES:
    _source = "_live" if _name in _GUARDED else "_raw"
    setattr(OrderEnforcingWrapper, _name, property(attrgetter(f"{_source}.{_name}")))


def wrap(env: AECEnv) -> OrderEnforcingWrapper:
    """``env`` in PettingZoo's ``OrderEnforcingWrapper`` (the fast subclass above)."""
    return OrderEnforcingWrapper(env)


__all__ = ["HOT_ATTRIBUTES", "OrderEnforcingWrapper", "wrap"]
