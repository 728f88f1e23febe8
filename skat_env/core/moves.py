"""The move vocabulary: every decision of the game as a named move with a fixed id.

ids 0..31    cards (play and discard), in card-id order (``CA`` .. ``D7``)
ids 32..94   the 63 bid values ``"18"`` .. ``"264"``
95 ``hold``, 96 ``pass``, 97 ``pickup``, 98 ``hand``
ids 99..120  declarations: ``diamonds hearts spades clubs grand null``, ``null ouvert``,
             then for hand games ``<game> schneider``, ``<game> schwarz``,
             ``<game> ouvert`` for game in diamonds, hearts, spades, clubs, grand.

The ids are the action indices of the RL environments.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CARD_NAMES, bit_indices
from .scoring import Contract, null_value
from .tables import BID_VALUES, GAME_INDEX, NULL

FIRST_BID = 32
HOLD, PASS, PICKUP, HAND = 95, 96, 97, 98
FIRST_DECLARATION = 99

_PLAIN_GAMES = ("diamonds", "hearts", "spades", "clubs", "grand")
DECLARATION_NAMES: tuple[str, ...] = (
    *_PLAIN_GAMES,
    "null",
    "null ouvert",
    *(f"{g} schneider" for g in _PLAIN_GAMES),
    *(f"{g} schwarz" for g in _PLAIN_GAMES),
    *(f"{g} ouvert" for g in _PLAIN_GAMES),
)

MOVE_NAMES: tuple[str, ...] = (
    *CARD_NAMES,
    *(str(v) for v in BID_VALUES),
    "hold",
    "pass",
    "pickup",
    "hand",
    *DECLARATION_NAMES,
)
NUM_MOVES = len(MOVE_NAMES)  # 121
MOVE_INDEX: dict[str, int] = {name: i for i, name in enumerate(MOVE_NAMES)}
assert NUM_MOVES == 121 and MOVE_INDEX["hold"] == HOLD and MOVE_INDEX["diamonds"] == 99


def _declared(name: str) -> Contract:
    """Contract template of a declaration name (``hand`` is set by the game)."""
    words = name.split()
    game = GAME_INDEX[words[0]]
    extra = words[1] if len(words) > 1 else ""
    if game == NULL:
        return Contract(NULL, ouvert=extra == "ouvert")
    ouvert = extra == "ouvert"
    schwarz = ouvert or extra == "schwarz"
    return Contract(game, schneider=schwarz or extra == "schneider", schwarz=schwarz, ouvert=ouvert)


# DECLARATIONS[i] is the contract of move FIRST_DECLARATION + i.
DECLARATIONS: tuple[Contract, ...] = tuple(_declared(n) for n in DECLARATION_NAMES)
# Bitmasks over move ids.
CARD_MOVES = (1 << 32) - 1
PICKUP_DECLARATIONS = sum(1 << (FIRST_DECLARATION + i) for i in range(7))
HAND_DECLARATIONS = sum(1 << (FIRST_DECLARATION + i) for i in range(len(DECLARATION_NAMES)))
NULL_MOVE, NULL_OUVERT_MOVE = MOVE_INDEX["null"], MOVE_INDEX["null ouvert"]


def declared_contract(move: int, hand_game: bool) -> Contract:
    """The contract a declaration move makes (a suit/grand ouvert is always a hand game)."""
    c = DECLARATIONS[move - FIRST_DECLARATION]
    return replace(c, hand=hand_game or c.ouvert and c.game != NULL)


def legal_declarations(hand_game: bool, bid: int) -> int:
    """Bitmask of the declaration moves legal after pickup or hand at ``bid``: null
    contracts worth less than the bid are left out (their value cannot rise)."""
    mask = HAND_DECLARATIONS if hand_game else PICKUP_DECLARATIONS
    for move in (NULL_MOVE, NULL_OUVERT_MOVE):
        if null_value(declared_contract(move, hand_game)) < bid:
            mask &= ~(1 << move)
    return mask


def move_id(name: str) -> int:
    """Move id of a move name; ``ValueError`` naming the vocabulary for unknown names."""
    try:
        return MOVE_INDEX[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown move {name!r}; moves are card names ('CJ'), bid values ('18'..'264'), "
            "'hold', 'pass', 'pickup', 'hand' or a declaration "
            f"({', '.join(repr(d) for d in DECLARATION_NAMES[:7])}, '<game> schneider', "
            "'<game> schwarz', '<game> ouvert')"
        ) from None


def move_names(mask: int) -> list[str]:
    """Names of the moves in a bitmask over move ids, in id order."""
    return [MOVE_NAMES[m] for m in bit_indices(mask)]
