"""skat_env.core.moves: the 121 named moves and their ids (the README's table), declarations
to contracts, the legal declarations after pickup or hand, name <-> id lookups."""

from __future__ import annotations

import pytest

from skat_env.core.moves import (
    CARD_MOVES,
    DECLARATION_NAMES,
    FIRST_BID,
    FIRST_DECLARATION,
    HAND,
    HOLD,
    MOVE_INDEX,
    MOVE_NAMES,
    NUM_MOVES,
    PASS,
    PICKUP,
    declared_contract,
    legal_declarations,
    move_id,
    move_names,
)
from skat_env.core.scoring import Contract
from skat_env.core.tables import BID_VALUES, CLUBS_GAME, DIAMONDS_GAME, GRAND, NULL


def test_the_vocabulary_is_the_readme_table():
    assert NUM_MOVES == 121 and len(set(MOVE_NAMES)) == 121
    assert MOVE_NAMES[:3] == ("CA", "CK", "CQ") and MOVE_NAMES[31] == "D7"
    assert MOVE_NAMES[FIRST_BID] == "18" and MOVE_NAMES[94] == "264" and FIRST_BID == 32
    assert [MOVE_NAMES[i] for i in (HOLD, PASS, PICKUP, HAND)] == ["hold", "pass", "pickup", "hand"]
    assert (HOLD, PASS, PICKUP, HAND) == (95, 96, 97, 98)
    assert MOVE_NAMES[99:106] == ("diamonds", "hearts", "spades", "clubs", "grand", "null",
                                  "null ouvert")  # fmt: skip
    assert MOVE_NAMES[106] == "diamonds schneider" and MOVE_NAMES[120] == "grand ouvert"
    assert [int(MOVE_NAMES[FIRST_BID + i]) for i in range(63)] == list(BID_VALUES)
    assert all(MOVE_INDEX[name] == i for i, name in enumerate(MOVE_NAMES))
    assert CARD_MOVES == (1 << 32) - 1


@pytest.mark.parametrize(
    "name, hand, contract",
    [
        ("clubs", False, Contract(CLUBS_GAME)),
        ("clubs", True, Contract(CLUBS_GAME, hand=True)),
        ("diamonds schneider", True, Contract(DIAMONDS_GAME, hand=True, schneider=True)),
        ("grand schwarz", True, Contract(GRAND, hand=True, schneider=True, schwarz=True)),
        # suit and grand ouvert are hand games with schwarz announced, even "after pickup"
        ("grand ouvert", False,
         Contract(GRAND, hand=True, schneider=True, schwarz=True, ouvert=True)),
        ("null", False, Contract(NULL)),
        ("null ouvert", True, Contract(NULL, hand=True, ouvert=True)),
        ("null ouvert", False, Contract(NULL, ouvert=True)),
    ],
)  # fmt: skip
def test_declared_contract__worked_examples(name, hand, contract):
    assert declared_contract(move_id(name), hand) == contract


def test_legal_declarations__pickup_has_seven_hand_all_and_null_only_up_to_its_value():
    after_pickup = move_names(legal_declarations(False, 18))
    assert after_pickup == list(DECLARATION_NAMES[:7])
    assert move_names(legal_declarations(True, 18)) == list(DECLARATION_NAMES)
    # null is worth 23, null hand 35, null ouvert 46, null ouvert hand 59
    assert "null" in move_names(legal_declarations(False, 23))
    assert "null" not in move_names(legal_declarations(False, 24))
    at_36 = move_names(legal_declarations(True, 36))
    assert "null" not in at_36 and "null ouvert" in at_36
    at_60 = move_names(legal_declarations(True, 60))
    assert "null" not in at_60 and "null ouvert" not in at_60 and "grand" in at_60
    assert legal_declarations(True, 264).bit_length() - 1 == 120  # grand ouvert is the last id
    assert all(FIRST_DECLARATION <= m for m in map(move_id, at_60))


def test_move_id_and_names_round_trip_and_unknown_names_are_refused():
    assert move_id("CJ") == 3 and move_id("264") == 94 and move_id("null ouvert") == 105
    assert move_names((1 << 3) | (1 << HOLD)) == ["CJ", "hold"] and move_names(0) == []
    for bad in ["C10", "17", "ouvert", 5, None]:
        with pytest.raises(ValueError, match="unknown move"):
            move_id(bad)
