"""Every rule table and constant of the game, computed once at import.

Game kinds are ints: 0..3 the suit games (trump suit C, S, H, D, same numbering as the
suits), 4 grand, 5 null. Per game kind the tables give, for each card, its *effective
suit* (0..3 a printed suit, 4 = trumps; jacks are trumps in suit and grand games but
keep their printed suit in null), the card set of each effective suit, and a *strength*
used to compare two cards of the same effective suit (trumps rank above all).
"""

from __future__ import annotations

from .cards import CARD_INDEX, CARD_POINTS, NUM_CARDS, RANKS, SUITS

CLUBS_GAME, SPADES_GAME, HEARTS_GAME, DIAMONDS_GAME, GRAND, NULL = range(6)
GAME_NAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
GAME_INDEX = {name: k for k, name in enumerate(GAME_NAMES)}
BASE_VALUES = (12, 11, 10, 9, 24)  # by game kind; null values are fixed, see NULL_VALUES
TRUMP = 4  # the effective suit id of trumps

# Null values by (hand, ouvert).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

BID_VALUES: tuple[int, ...] = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63,
    66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130,
    132, 135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187,
    192, 198, 204, 216, 240, 264,
)  # fmt: skip
assert len(BID_VALUES) == 63

JACK_ORDER = tuple(CARD_INDEX[s + "J"] for s in SUITS)  # CJ SJ HJ DJ
JACKS = sum(1 << c for c in JACK_ORDER)
SUIT_MASK = tuple(sum(1 << (s * 8 + r) for r in range(8)) for s in range(4))
SUIT_RANK_ORDER = "ATKQ987"  # strongest first, jacks excluded
NULL_RANK_ORDER = "AKQJT987"  # strongest first


def _trump_order(game: int) -> tuple[int, ...]:
    """Trumps strongest first: the matador ladder."""
    if game == GRAND:
        return JACK_ORDER
    suit = SUITS[game]
    return JACK_ORDER + tuple(CARD_INDEX[suit + r] for r in SUIT_RANK_ORDER)


TRUMP_ORDER: tuple[tuple[int, ...], ...] = tuple(_trump_order(g) for g in range(5))


def _effective_suit(game: int, card: int) -> int:
    if game != NULL and (1 << card) & JACKS:
        return TRUMP
    if game < GRAND and card >> 3 == game:
        return TRUMP
    return card >> 3


def _strength(game: int, card: int) -> int:
    """Higher wins within an effective suit; trumps get 100 + their rank."""
    name = RANKS[card & 7]
    if _effective_suit(game, card) == TRUMP:
        order = TRUMP_ORDER[game]
        return 100 + len(order) - order.index(card)
    ladder = NULL_RANK_ORDER if game == NULL else SUIT_RANK_ORDER
    return len(ladder) - ladder.index(name)


EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(g, c) for c in range(NUM_CARDS)) for g in range(6)
)
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_strength(g, c) for c in range(NUM_CARDS)) for g in range(6)
)
# EFFECTIVE_SUIT_MASK[game][s]: card set of effective suit s (s = 4 trumps; empty in null).
EFFECTIVE_SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(NUM_CARDS) if EFFECTIVE_SUIT[g][c] == s) for s in range(5))
    for g in range(6)
)
# FOLLOW_MASK[game][card]: the cards that follow suit when `card` is led.
FOLLOW_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(EFFECTIVE_SUIT_MASK[g][EFFECTIVE_SUIT[g][c]] for c in range(NUM_CARDS)) for g in range(6)
)


# HIGHER[game][card] / LOWER[game][card]: the cards of its effective suit that rank above / below
# it (a card beats the trick's best exactly when it is in that card's HIGHER set, or a trump
# is played on a side suit).
def _ranked(game: int, card: int, above: bool) -> int:
    """The cards of ``card``'s effective suit that rank above (or below) it."""
    st = STRENGTH[game]
    follow = FOLLOW_MASK[game][card]
    return sum(
        1 << d
        for d in range(NUM_CARDS)
        if follow >> d & 1 and (st[d] > st[card] if above else st[d] < st[card])
    )


HIGHER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ranked(g, c, True) for c in range(NUM_CARDS)) for g in range(6)
)
LOWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ranked(g, c, False) for c in range(NUM_CARDS)) for g in range(6)
)

# Card points of every byte of a card set, for fast point counting.
BYTE_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(CARD_POINTS[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(4)
)


def points_of(mask: int) -> int:
    """Card points in a card set (table look-up per byte)."""
    bp = BYTE_POINTS
    return (
        bp[0][mask & 255]
        + bp[1][(mask >> 8) & 255]
        + bp[2][(mask >> 16) & 255]
        + bp[3][(mask >> 24) & 255]
    )
