"""Checks of user input shared by every entry point (engine, AEC env, Gymnasium envs, batched
engine): one function per kind of input, so one rule and one message per kind.

The rule for numbers: seats, action ids, counts are integers, Python or NumPy (a 0-d integer
array counts), never ``bool``; anything else is refused with a ``TypeError`` naming what is
allowed, out-of-range values with a ``ValueError``. A refused value changes nothing: every
check runs before the caller touches its state. Callers test the common case (a plain
``int`` in range) inline first, so the checks cost nothing on the hot path.

The illegal-move policy of the environments (``illegal_action``, ``illegal_reward``) is reward
policy and lives in :mod:`.rewards`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .moves import NUM_MOVES


class IllegalMoveError(ValueError):
    """A move outside the legal set or not a move id; the game state is unchanged."""


class DealError(ValueError):
    """A malformed deal (or dealer); nothing was dealt."""


def _type_name(value: Any) -> str:
    return type(value).__name__


def as_int(value: Any, what: str) -> int:
    """``value`` as a Python int if it is an integer (Python, NumPy, 0-d integer array; not
    bool); else ``TypeError`` saying that ``what`` must be an integer."""
    if type(value) is int:
        return value
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value[()]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise TypeError(
        f"{what} must be an integer (Python or NumPy int, not bool), "
        f"got {value!r} ({_type_name(value)})"
    )


def check_seat(value: Any, what: str, error: type[ValueError] = ValueError) -> int:
    """A seat 0, 1 or 2 as a plain int (dealer, learner seat); ``error`` when out of range."""
    if type(value) is int and 0 <= value <= 2:
        return value
    try:
        seat = as_int(value, what)
    except TypeError:
        raise TypeError(
            f"{what} must be seat 0, 1 or 2 (an integer, Python or NumPy, not bool), "
            f"got {value!r} ({_type_name(value)})"
        ) from None
    if not 0 <= seat <= 2:
        raise error(f"{what} must be seat 0, 1 or 2, got {seat}")
    return seat


def check_action(action: Any, who: str = "") -> int:
    """A move id 0..120 as a plain int; ``TypeError`` for a non-integer, ``IllegalMoveError``
    for an integer that is not a move id. Whether it is *legal* is the game's question."""
    prefix = f"{who}: " if who else ""
    try:
        move = as_int(action, f"{prefix}an action (a move id 0..{NUM_MOVES - 1})")
    except TypeError:
        raise TypeError(
            f"{prefix}an action is a move id, an integer 0..{NUM_MOVES - 1} (Python or NumPy "
            f"int, not bool), got {action!r} ({_type_name(action)})"
        ) from None
    if not 0 <= move < NUM_MOVES:
        raise IllegalMoveError(f"{prefix}{move} is not a move id (0..{NUM_MOVES - 1})")
    return move


def check_seed(seed: Any) -> int | None:
    """A shuffle seed: ``None`` or a non-negative integer (not bool), as a plain int."""
    if seed is None or type(seed) is int and seed >= 0:
        return seed
    return check_count(seed, "seed", minimum=0)


def check_count(value: Any, what: str, minimum: int = 1) -> int:
    """A count (number of games, envs) of at least ``minimum``, as a plain int."""
    n = as_int(value, what)
    if n < minimum:
        raise ValueError(f"{what} must be at least {minimum}, got {n}")
    return n


def check_choice(what: str, value: Any, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed`` (strings), else ``ValueError`` listing them."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def check_real(value: Any, what: str) -> float:
    """A finite real number (int or float, Python or NumPy; not bool) as a Python float."""
    ok = isinstance(value, (int, float, np.integer, np.floating))
    if not ok or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be a real number, got {value!r} ({_type_name(value)})")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{what} must be finite, got {x}")
    return x


def check_options(options: Any, known: Sequence[str]) -> dict[str, Any]:
    """Reset options as a dict (``None``: empty); ``ValueError`` naming unknown keys."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict or None, got {_type_name(options)}")
    unknown = [k for k in options if k not in known]
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {sorted(map(str, unknown))}; known: {', '.join(known)}"
        )
    return options


__all__ = [
    "DealError",
    "IllegalMoveError",
    "as_int",
    "check_action",
    "check_choice",
    "check_count",
    "check_options",
    "check_real",
    "check_seat",
    "check_seed",
]
