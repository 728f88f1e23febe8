"""Card-play kernels: legal cards (follow the effective suit) and the trick winner."""

from __future__ import annotations

from collections.abc import Sequence

from .tables import EFFECTIVE_SUIT, FOLLOW_MASK, STRENGTH, TRUMP


def legal_cards(hand: int, game: int, led: int) -> int:
    """Card set a player holding ``hand`` may play; ``led`` is the led card or -1.

    The player must follow the effective suit of the led card if able (jacks are
    trumps in suit and grand games, and belong to their printed suit in null).
    """
    if led < 0:
        return hand
    follow = hand & FOLLOW_MASK[game][led]
    return follow if follow else hand


def beats(game: int, challenger: int, best: int) -> bool:
    """Whether ``challenger`` beats the currently winning card ``best``.

    It must be of the same effective suit and stronger, or a trump over a non-trump.
    (The current best is always a trump or of the led suit.)
    """
    eff = EFFECTIVE_SUIT[game]
    ce, be = eff[challenger], eff[best]
    if ce == be:
        return STRENGTH[game][challenger] > STRENGTH[game][best]
    return ce == TRUMP


# _BEATEN[game][card]: card set that ``card`` beats, as :func:`beats` decides (a table so
# that the trick winner, found at every trick, costs no function calls per card).
_BEATEN = tuple(
    tuple(sum(1 << best for best in range(32) if beats(g, card, best)) for card in range(32))
    for g in range(6)
)


def trick_winner(game: int, cards: Sequence[int]) -> int:
    """Position (0, 1 or 2) within ``cards`` (in play order) of the winning card."""
    beaten = _BEATEN[game]
    win = 0
    for i in range(1, len(cards)):
        if beaten[cards[i]] >> cards[win] & 1:
            win = i
    return win
