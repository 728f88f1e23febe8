"""Per-seat rewards of a finished game, and the reward policy for illegal moves: the reward
modes every environment offers.

``zero_sum``: the declarer gets the list score (+value, -2 x value, overbid rule), each
defender minus half of it. ``list``: the declarer's list score, defenders 0 (a score sheet).
``seeger_fabian``: tournament points of all three seats. A thrown-in deal pays 0 to all.

Illegal moves in the environments: ``illegal_action`` is ``"terminate"`` (the default
everywhere: the game ends, the offender gets ``illegal_reward``, the others 0; what
Gymnasium's and PettingZoo's checkers, which sample unmasked actions, expect) or ``"raise"``
(an :class:`~skat_env.core.validation.IllegalMoveError`, the state untouched);
``illegal_reward`` defaults to :func:`worst_reward` of the reward mode and may not be better
than it, so cheating never pays. The rules engine (:class:`~skat_env.core.game.Game`)
always raises.
"""

from __future__ import annotations

from typing import Any

from .game import Result
from .scoring import Flags, seeger_fabian
from .tables import BASE_VALUES, BID_VALUES
from .validation import check_choice, check_real

REWARD_MODES = ("zero_sum", "list", "seeger_fabian")
ILLEGAL_ACTIONS = ("terminate", "raise")  # the first is the default of every env


def side_rewards(
    reward_mode: str, score: Flags, sf_declarer: Flags, sf_defender: Flags
) -> tuple[Flags, Flags]:
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
    assert d is not None  # a played game has a declarer
    sf = result.seeger_fabian
    decl, other = side_rewards(reward_mode, result.score, sf[d], sf[(d + 1) % 3])
    out = [float(other)] * 3
    out[d] = float(decl)
    return out[0], out[1], out[2]


def worst_reward(reward_mode: str) -> float:
    """The lowest reward any seat can get from a played game under ``reward_mode``: the
    declarer overbidding the highest bid (264) in the suit whose next multiple is largest
    (diamonds/hearts: 270), lost, doubled; Seeger-Fabian adds the loss penalty."""
    check_choice("reward_mode", reward_mode, REWARD_MODES)
    worst_value = max(-(-BID_VALUES[-1] // base) * base for base in BASE_VALUES)
    score = -2 * worst_value
    if reward_mode == "seeger_fabian":
        return float(seeger_fabian(score, False)[0])
    return float(score)  # zero_sum, list: the declarer loses more than any defender


def check_illegal(illegal_action: Any, illegal_reward: Any, reward_mode: str) -> tuple[str, float]:
    """The illegal-move policy as ``(illegal_action, illegal_reward)``; ``illegal_reward``
    ``None`` means :func:`worst_reward`. A penalty better than the worst game outcome would
    pay an agent to cheat, so it is refused."""
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
    worst = worst_reward(reward_mode)
    if illegal_reward is None:
        return illegal_action, worst
    reward = check_real(illegal_reward, "illegal_reward")
    if reward > worst:
        raise ValueError(
            f"illegal_reward must be at most {worst:g}, the worst game outcome under "
            f"reward_mode={reward_mode!r} (else an illegal move pays better than a lost "
            f"game), got {reward:g}; None chooses {worst:g}"
        )
    return illegal_action, reward


__all__ = [
    "ILLEGAL_ACTIONS",
    "REWARD_MODES",
    "check_illegal",
    "rewards_of",
    "side_rewards",
    "worst_reward",
]
