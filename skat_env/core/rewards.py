"""Per-seat rewards of a finished game: the reward modes every environment offers.

``zero_sum``: the declarer gets the list score (+value, -2 x value, overbid rule), each
defender minus half of it. ``list``: the declarer's list score, defenders 0 (a score sheet).
``seeger_fabian``: tournament points of all three seats. A thrown-in deal pays 0 to all.
"""

from __future__ import annotations

from .game import Result

REWARD_MODES = ("zero_sum", "list", "seeger_fabian")


def rewards_of(result: Result, reward_mode: str) -> tuple[float, float, float]:
    """Per-seat rewards of a finished game under a reward mode (passed in: all 0)."""
    if result.passed_in:
        return 0.0, 0.0, 0.0
    if reward_mode == "seeger_fabian":
        return tuple(float(x) for x in result.seeger_fabian)
    out = [0.0, 0.0, 0.0] if reward_mode == "list" else [-result.score / 2] * 3
    out[result.declarer] = float(result.score)
    return out[0], out[1], out[2]
