"""PettingZoo's standard AEC wrappers, with the hot attributes read directly.

``skat_v0.env()`` wraps the raw environment in PettingZoo's ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Those reach the wrapped env's
attributes through ``BaseWrapper.__getattr__``, which runs only after a normal lookup has
failed: every read of ``agent_selection``, ``terminations`` and the like raises and catches
an ``AttributeError`` in each layer, and an RL loop makes a dozen such reads per step.

The subclasses here add properties that read those attributes from the raw env in one
hop. None of PettingZoo's wrappers overrides them, so the values are the same; the
behaviour (illegal-move termination, bounds assertion, call-order errors) is PettingZoo's
own code. ``AssertOutOfBounds`` also skips ``Discrete.contains`` for a plain ``int``,
which it checks with the same comparison.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from gymnasium.spaces import Discrete
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

# Attributes every AEC loop reads at each step; the wrappers only ever read them.
HOT_ATTRIBUTES = (
    "agent_selection", "agents", "terminations", "truncations", "rewards", "infos",
    "_cumulative_rewards",
)  # fmt: skip
# OrderEnforcingWrapper refuses these before the first reset (its __getattr__ says so).
_GUARDED = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents")
)


def _with_direct_attributes(cls: type, guard: bool = False) -> type:
    """A subclass of PettingZoo wrapper ``cls`` whose hot attributes are properties that
    read the raw env (``operator.attrgetter``: one C call).

    With ``guard`` (``OrderEnforcingWrapper``) the guarded ones read through ``_live``,
    which exists only once ``reset()`` has been called: before that the property raises
    ``AttributeError``, and Python falls back to the wrapper's ``__getattr__``, which
    raises PettingZoo's own "cannot be accessed before reset"."""
    namespace: dict[str, Any] = {
        name: property(attrgetter(f"{'_live' if guard and name in _GUARDED else '_raw'}.{name}"))
        for name in HOT_ATTRIBUTES
    }

    def __init__(self, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        self._raw = env.unwrapped
        cls.__init__(self, env, *args, **kwargs)

    namespace["__init__"] = __init__
    if guard:

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self._live = self._raw
            cls.reset(self, seed=seed, options=options)

        namespace["reset"] = reset
    namespace["__doc__"] = f"PettingZoo's ``{cls.__name__}``, hot attributes read directly."
    namespace["__module__"] = __name__
    return type(cls.__name__, (cls,), namespace)


TerminateIllegalWrapper = _with_direct_attributes(wrappers.TerminateIllegalWrapper)
OrderEnforcingWrapper = _with_direct_attributes(wrappers.OrderEnforcingWrapper, guard=True)
_AssertOutOfBoundsBase = _with_direct_attributes(wrappers.AssertOutOfBoundsWrapper)


class AssertOutOfBoundsWrapper(_AssertOutOfBoundsBase):
    """PettingZoo's ``AssertOutOfBoundsWrapper``; a plain ``int`` is checked against the
    ``Discrete`` space by comparison, anything else by ``Discrete.contains`` as before."""

    def step(self, action: Any) -> None:
        space = self.action_space(self._raw.agent_selection)
        if type(action) is int and type(space) is Discrete:
            assert space.start <= action < space.start + space.n, "action is not in action space"
            self.env.step(action)
        else:
            super().step(action)


def wrap(env: AECEnv, illegal_reward: float) -> AECEnv:
    """``env`` in the three standard wrappers, innermost first, as PettingZoo's classic
    environments do."""
    env = TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)


__all__ = [
    "AssertOutOfBoundsWrapper",
    "OrderEnforcingWrapper",
    "TerminateIllegalWrapper",
    "wrap",
]
