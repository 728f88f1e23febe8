"""Matadors, multiplier levels, game value, overbid, list and Seeger-Fabian scores."""

from __future__ import annotations

from dataclasses import dataclass

from .tables import BASE_VALUES, GRAND, NULL, NULL_VALUES, TRUMP_ORDER

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
    return (
        abs(matadors_)
        + 1
        + c.hand
        + (schneider or c.schneider)
        + c.schneider
        + (schwarz or c.schwarz)
        + c.schwarz
        + c.ouvert
    )


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
    """Score a finished game.

    ``declarer_points`` include the skat; ``defender_points`` are the points in the
    defenders' tricks. When the game ended early (the declarer's loss certain), a
    declarer with 30 or fewer points is schneider and one without a trick is schwarz.
    """
    if contract.game == NULL:
        value = null_value(contract)
        won = declarer_tricks == 0
        return Outcome(won, 0, value, False, value if won else -2 * value, False, False)

    m = matadors(contract.game, declarer_cards)
    schneider = declarer_points >= SCHNEIDER_POINTS or defender_points >= SCHNEIDER_POINTS
    schwarz = declarer_tricks == 10 or defender_tricks == 10
    if ended_early:
        schneider = schneider or declarer_points <= 120 - SCHNEIDER_POINTS
        schwarz = schwarz or declarer_tricks == 0
    base = BASE_VALUES[contract.game]
    value = base * multiplier(contract, m, schneider, schwarz)
    won = (
        not ended_early
        and declarer_points >= WIN_POINTS
        and (not contract.schneider or declarer_points >= SCHNEIDER_POINTS)
        and (not contract.schwarz or declarer_tricks == 10)
    )
    overbid = value < bid
    if overbid:
        lost_value = -(-bid // base) * base  # smallest multiple of base >= bid
        score = -2 * lost_value
        won = False
    else:
        score = value if won else -2 * value
    return Outcome(won, m, value, overbid, score, schneider, schwarz)


def seeger_fabian(score: int, won: bool) -> tuple[int, int]:
    """(declarer, each defender) Seeger-Fabian points for a declarer's list score."""
    if won:
        return score + SF_WIN_BONUS, 0
    return score - SF_LOSS_PENALTY, SF_DEFENDER_BONUS


__all__ = [
    "Contract",
    "GRAND",
    "Outcome",
    "matadors",
    "multiplier",
    "null_value",
    "score_game",
    "seeger_fabian",
]
