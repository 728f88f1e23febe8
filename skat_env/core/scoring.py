"""Matadors, multiplier levels, game value, overbid, list and Seeger-Fabian scores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tables import BASE_VALUES, GRAND, NULL, NULL_VALUES, TRUMP_ORDER

Flags = Any  # a Python int/bool or a NumPy array: the kernels below work elementwise on both
WIN_POINTS = 61  # the declarer needs 61 of 120 card points
SCHNEIDER_POINTS = 90  # a side with 90+ has made the other schneider
SF_WIN_BONUS, SF_LOSS_PENALTY, SF_DEFENDER_BONUS = 50, 50, 40


def matadors(game: int, cards: int) -> int:
    """Signed matadors over the declarer's twelve cards: +N "with N", -N "without N"."""
    order = TRUMP_ORDER[game]
    holds_top = bool(cards >> order[0] & 1)
    n = 0
    for card in order:
        if bool(cards >> card & 1) != holds_top:
            break
        n += 1
    return n if holds_top else -n


@dataclass(frozen=True, slots=True)
class Contract:
    """A declared game. Announcement flags are normalised: ouvert (suit/grand) implies
    hand and schwarz announced; schwarz announced implies schneider announced."""

    game: int
    hand: bool = False
    schneider: bool = False  # announced
    schwarz: bool = False  # announced
    ouvert: bool = False

    @property
    def is_null(self) -> bool:
        return self.game == NULL

    def name(self) -> str:
        """Readable name, e.g. ``"clubs hand schneider"``, ``"null ouvert hand"``."""
        from .tables import GAME_NAMES

        parts = [GAME_NAMES[self.game]]
        if self.is_null:
            parts += ["ouvert"] * self.ouvert + ["hand"] * self.hand
            return " ".join(parts)
        parts += ["hand"] * self.hand
        if self.ouvert:
            parts.append("ouvert")
        elif self.schwarz:
            parts.append("schwarz")
        elif self.schneider:
            parts.append("schneider")
        return " ".join(parts)


def null_value(contract: Contract) -> int:
    return NULL_VALUES[(contract.hand, contract.ouvert)]


def multiplier(contract: Contract, matadors_: int, schneider: bool, schwarz: bool) -> int:
    """Matadors + game + each level that applies (RULES.md 'Game value')."""
    c = contract
    level: int = level_kernel(
        matadors_, c.hand, c.schneider, c.schwarz, c.ouvert, schneider, schwarz
    )
    return level


def level_kernel(
    mats: Flags,
    hand: Flags,
    ann_schneider: Flags,
    ann_schwarz: Flags,
    ouvert: Flags,
    schneider: Flags,
    schwarz: Flags,
) -> Flags:
    """The multiplier from 0/1 flags (ints or NumPy arrays): with/without N matadors, game,
    hand, schneider (made, announced), schwarz (made, announced), ouvert."""
    return (
        abs(mats) + 1 + hand + (schneider | ann_schneider) + ann_schneider
        + (schwarz | ann_schwarz) + ann_schwarz + ouvert
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Outcome:
    """What scoring decides: win/loss, value, overbid and the declarer's list score."""

    won: bool
    matadors: int
    game_value: int  # value computed after play (null: the fixed value)
    overbid: bool
    score: int  # declarer's list score: +value, -2 x value, overbid rule
    schneider_level: bool  # schneider counted in the value from play
    schwarz_level: bool


def outcome_kernel(is_null: Flags, base: Flags, null_value: Flags, hand: Flags,
                   ann_schneider: Flags, ann_schwarz: Flags, ouvert: Flags, bid: Flags,
                   mats: Flags, declarer_points: Flags, declarer_tricks: Flags,
                   defender_points: Flags, defender_tricks: Flags,
                   ended_early: Flags) -> tuple[Flags, ...]:  # fmt: skip
    """The scoring rules as arithmetic on 0/1 flags: the one definition, used by
    :func:`score_game` on Python ints and by the batched engine on NumPy arrays (elementwise).

    ``base`` is the game's base value (any non-zero number for null), ``null_value`` the
    null contract's fixed value (ignored otherwise), ``mats`` the signed matadors. Returns
    :class:`Outcome`'s fields in order: won, matadors, game_value, overbid, score,
    schneider_level, schwarz_level.
    """
    dp, dt, early = declarer_points, declarer_tricks, ended_early
    plain = 1 - is_null
    # a declarer whose loss ended the game early counts as schneider / schwarz if it applies
    schneider = (
        (dp >= SCHNEIDER_POINTS)
        | (defender_points >= SCHNEIDER_POINTS)
        | (early & (dp <= 120 - SCHNEIDER_POINTS))
    )
    schwarz = (dt == 10) | (defender_tricks == 10) | (early & (dt == 0))
    value = base * level_kernel(mats, hand, ann_schneider, ann_schwarz, ouvert, schneider, schwarz)
    won = (
        (1 - early)
        * (dp >= WIN_POINTS)
        * (1 - ann_schneider * (dp < SCHNEIDER_POINTS))
        * (1 - ann_schwarz * (dt < 10))
    )
    overbid = value < bid
    lost_value = -(-bid // base) * base  # smallest multiple of the base value >= the bid
    score = overbid * (-2 * lost_value) + (1 - overbid) * (won * value - (1 - won) * 2 * value)
    won = won * (1 - overbid)
    null_won = dt == 0  # null: won without a trick, fixed value
    null_score = null_won * null_value - (1 - null_won) * 2 * null_value
    return (
        is_null * null_won + plain * won,
        plain * mats,
        is_null * null_value + plain * value,
        plain * overbid,
        is_null * null_score + plain * score,
        plain * schneider,
        plain * schwarz,
    )


def score_game(
    contract: Contract,
    bid: int,
    declarer_cards: int,
    declarer_points: int,
    declarer_tricks: int,
    defender_points: int,
    defender_tricks: int,
    ended_early: bool,
) -> Outcome:
    """Score a finished game (:func:`outcome_kernel` on one game).

    ``declarer_points`` include the skat; ``defender_points`` are the points in the
    defenders' tricks. When the game ended early (the declarer's loss certain), a
    declarer with 30 or fewer points is schneider and one without a trick is schwarz.
    """
    c = contract
    is_null = c.game == NULL
    won, mats, value, overbid, score, sn, sw = outcome_kernel(
        is_null, 1 if is_null else BASE_VALUES[c.game], null_value(c) if is_null else 0,
        c.hand, c.schneider, c.schwarz, c.ouvert, bid,
        0 if is_null else matadors(c.game, declarer_cards),
        declarer_points, declarer_tricks, defender_points, defender_tricks, ended_early,
    )  # fmt: skip
    return Outcome(bool(won), mats, value, bool(overbid), score, bool(sn), bool(sw))


def seeger_fabian(score: Flags, won: Flags) -> tuple[Flags, Flags]:
    """(declarer, each defender) Seeger-Fabian points for a declarer's list score; ints or
    NumPy arrays elementwise."""
    declarer = won * (score + SF_WIN_BONUS) + (1 - won) * (score - SF_LOSS_PENALTY)
    return declarer, (1 - won) * SF_DEFENDER_BONUS


__all__ = [
    "Contract",
    "GRAND",
    "Outcome",
    "matadors",
    "level_kernel",
    "multiplier",
    "null_value",
    "outcome_kernel",
    "score_game",
    "seeger_fabian",
]
