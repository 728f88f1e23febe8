"""Search: an exact double-dummy solver for Skat card play (needs numba, extra ``search``)."""

from .solver import (
    Position,
    PositionError,
    Solver,
    best_moves,
    default_solver,
    null_safe,
    reaches,
    reaches_all_tricks,
    reaches_tricks,
    solve,
)

__all__ = [
    "Position", "PositionError", "Solver", "best_moves", "default_solver", "null_safe",
    "reaches", "reaches_all_tricks", "reaches_tricks", "solve",
]  # fmt: skip
