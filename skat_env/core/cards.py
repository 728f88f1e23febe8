"""Cards: ids 0..31, short names (``CJ``, ``HT``, ``D7``), suits, ranks and card sets.

A card id is ``suit * 8 + rank`` with suits in the order C, S, H, D and ranks in the
order A, K, Q, J, T, 9, 8, 7 (the order of the ISS records). A *card set* is a Python
int used as a 32-bit mask: bit ``i`` set means card ``i`` is in the set. Every rule
kernel works on such masks, so the same expression serves one game (a Python int) and
a batch of games (a NumPy integer array).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CSHD"
RANKS = "AKQJT987"
SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
_WHITE_SYMBOLS = ("♧", "♤", "♡", "♢")  # accepted in card names, never printed
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)

NUM_CARDS = 32
CARD_NAMES: tuple[str, ...] = tuple(s + r for s in SUITS for r in RANKS)
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[n[1]] for n in CARD_NAMES)
TOTAL_POINTS = sum(CARD_POINTS)  # 120

FULL_DECK = (1 << NUM_CARDS) - 1


def suit_of(card: int) -> int:
    """Printed suit of a card (0=C, 1=S, 2=H, 3=D)."""
    return card >> 3


def rank_of(card: int) -> int:
    """Printed rank index of a card (0=A ... 7=7, see ``RANKS``)."""
    return card & 7


def _spellings() -> dict[str, int]:
    """Every accepted spelling of every card: suit letter (any case) or symbol, then rank
    letter (any case) or ``10`` for ``T``."""
    out: dict[str, int] = {}
    for card, name in enumerate(CARD_NAMES):
        suit, rank = name[0], name[1]
        s = SUITS.index(suit)
        suits = (suit, suit.lower(), SUIT_SYMBOLS[s], _WHITE_SYMBOLS[s])
        ranks = (rank, rank.lower(), "10" if rank == "T" else rank)
        out.update({su + r: card for su in suits for r in ranks})
    return out


CARD_SPELLINGS: dict[str, int] = _spellings()
ACCEPTED_FORMS = (
    "a suit (C S H D, any case, or ♣ ♠ ♥ ♦) then a rank (A K Q J T 9 8 7, any case, "
    "10 for T), e.g. 'CJ', 'HT', 'C10', 'ht', '♠10'"
)


def card_id(name: str) -> int:
    """The id of a card name: ``"CJ"``, ``"C10"``, ``"cj"``, ``"♣J"``; raises
    ``ValueError`` naming the accepted forms for anything else."""
    try:
        return CARD_INDEX[name]  # the canonical names of records and deals: one lookup
    except (KeyError, TypeError):
        pass
    card = CARD_SPELLINGS.get(name.replace("\ufe0f", "")) if isinstance(name, str) else None
    if card is None:
        raise ValueError(f"unknown card {name!r}: a card is {ACCEPTED_FORMS}") from None
    return card


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def mask_of(cards: Iterable[int]) -> int:
    """Card set (bitmask) of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def bit_indices(mask: int) -> list[int]:
    """Indices of the set bits of a mask, ascending (card ids of a card set, move ids of a
    move mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


cards_of = bit_indices  # card ids in a card set


def names_of(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card ids from names given as a string (separated by spaces, dots, commas or
    ``|``) or as an iterable of names; every spelling :func:`card_id` accepts."""
    if isinstance(text, str):
        for sep in ".,|":
            text = text.replace(sep, " ")
        text = text.split()
    return [card_id(n) for n in text]
