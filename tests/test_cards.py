import pytest

from skat_env.core.cards import (
    CARD_INDEX,
    CARD_NAMES,
    CARD_POINTS,
    TOTAL_POINTS,
    card_id,
    cards_of,
    mask_of,
    names_of,
    parse_cards,
)
from skat_env.core.tables import points_of


def test_cards__32_unique_names_in_stable_order():
    assert len(CARD_NAMES) == 32 and len(set(CARD_NAMES)) == 32
    assert CARD_NAMES[0] == "CA" and CARD_INDEX["CJ"] == 3 and CARD_NAMES[31] == "D7"


def test_cards__points_sum_to_120():
    assert TOTAL_POINTS == 120
    assert [CARD_POINTS[card_id(n)] for n in ("CA", "HT", "SK", "DQ", "CJ", "H9", "S8", "D7")] == [
        11, 10, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip


def test_cards__table_points_match_card_points():
    for mask in (0, 0xFFFFFFFF, 0b1011, 1 << 31 | 1 << 8):
        assert points_of(mask) == sum(CARD_POINTS[c] for c in cards_of(mask))


def test_cards__parse_accepts_iss_separators():
    assert parse_cards("CJ.SJ|HT D7") == [card_id(n) for n in ("CJ", "SJ", "HT", "D7")]
    assert names_of(mask_of(parse_cards("D7 CA"))) == ["CA", "D7"]


@pytest.mark.parametrize("bad", ["XJ", "C1", "cj", "", "CJJ", None])
def test_cards__unknown_name_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="unknown card"):
        card_id(bad)
