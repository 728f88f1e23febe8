"""docs/rules.md's worked examples, checked against the engine's scoring."""

import re
from pathlib import Path

import pytest

from skat_env.core.cards import mask_of, parse_cards
from skat_env.core.moves import MOVE_INDEX, legal_declarations
from skat_env.core.scoring import Contract, score_game, seeger_fabian
from skat_env.core.tables import CLUBS_GAME, GRAND, HEARTS_GAME, NULL, SPADES_GAME

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
LOW = "H7 H8 S7 S8 S9 C7 C8 C9 D7 D8 DT D9"  # fillers: no trumps of the games below

# example -> (contract, bid, the trumps among the twelve cards, points, tricks, ended early,
#             defender tricks, defender points)
EXAMPLES = {
    1: (Contract(HEARTS_GAME), 18, "CJ SJ", 75, 6, False, 4, 45),
    2: (Contract(GRAND, hand=True), 18, "SJ HJ", 95, 8, False, 2, 25),
    3: (Contract(CLUBS_GAME), 30, "CJ", 70, 6, False, 4, 50),
    4: (Contract(CLUBS_GAME), 30, "CJ", 92, 8, False, 2, 28),
    5: (Contract(SPADES_GAME, hand=True), 18, "CJ SJ", 55, 4, False, 6, 65),
    6: (Contract(HEARTS_GAME, hand=True, schneider=True), 18, "SJ", 80, 7, False, 3, 40),
    7: (Contract(CLUBS_GAME, True, True, True), 18, "CJ SJ HJ", 40, 2, True, 1, 14),
    8: (Contract(NULL, ouvert=True), 18, "", 0, 1, True, 0, 10),
    9: (Contract(GRAND, hand=True), 18, "CJ SJ HJ DJ", 70, 6, False, 4, 50),
}


def _rows() -> dict[int, list[str]]:
    rows = re.findall(r"^\| (\d+) \|(.*)\|$", DOC.read_text(), flags=re.MULTILINE)
    return {int(n): [cell.strip() for cell in rest.split("|")] for n, rest in rows}


@pytest.mark.parametrize("number", sorted(EXAMPLES))
def test_rules_doc__worked_example_matches_the_engine(number):
    contract, bid, trumps, points, tricks, early, def_tricks, def_points = EXAMPLES[number]
    fill = LOW.split()[: 12 - len(trumps.split())]
    twelve = mask_of(parse_cards(trumps.split() + fill))
    out = score_game(contract, bid, twelve, points, tricks, def_points, def_tricks, early)
    _situation, value, score, sf = _rows()[number]
    assert re.search(rf"(^|= ){out.game_value}\b", value), value
    assert score.endswith(f"{out.score:+d}"), score
    decl, each = seeger_fabian(out.score, out.won)
    assert sf == f"{decl:+d} / {each:+d}".replace("+0", "0"), sf


def test_rules_doc__null_below_the_bid_is_not_offered():
    after_pickup, after_hand = legal_declarations(False, 36), legal_declarations(True, 36)
    assert (
        after_pickup >> MOVE_INDEX["null ouvert"] & 1 and not after_pickup >> MOVE_INDEX["null"] & 1
    )
    assert after_hand >> MOVE_INDEX["null ouvert"] & 1 and not after_hand >> MOVE_INDEX["null"] & 1
    assert "offered null\nouvert (46) but not null (23)" in DOC.read_text()


def test_rules_doc__stands_alone():
    text = DOC.read_text()
    assert "shared" not in text and "RULES.md" not in text
