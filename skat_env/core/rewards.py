"""Per-seat rewards of a finished game: the reward modes every environment offers.

``zero_sum``: the declarer gets the list score (+value, -2 x value, overbid rule), each
defender minus half of it. ``list``: the declarer's list score, defenders 0 (a score sheet).
``seeger_fabian``: tournament points of all three seats. A thrown-in deal pays 0 to all.
"""

from __future__ import annotations

from .game import Result

REWARD_MODES = ("zero_sum", "list", "seeger_fabian")


def side_rewards(reward_mode: str, score, sf_declarer, sf_defender) -> tuple:
    """(declarer's, each defender's) reward of a played game under a reward mode: the one
    definition, on Python numbers or NumPy arrays (the batched engine) elementwise."""
    if reward_mode == "seeger_fabian":
        return sf_declarer, sf_defender
    if reward_mode == "list":
        return score, 0 * score
    if reward_mode == "zero_sum":
        return score, -score / 2
    raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")


def rewards_of(result: Result, reward_mode: str) -> tuple[float, float, float]:
    """Per-seat rewards of a finished game under a reward mode (passed in: all 0)."""
    if result.passed_in:
        return 0.0, 0.0, 0.0
    d = result.declarer
    sf = result.seeger_fabian
    decl, other = side_rewards(reward_mode, result.score, sf[d], sf[(d + 1) % 3])
    out = [float(other)] * 3
    out[d] = float(decl)
    return out[0], out[1], out[2]
