import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat_env.core.cards import (
    CARD_INDEX,
    CARD_NAMES,
    CARD_POINTS,
    SUIT_SYMBOLS,
    TOTAL_POINTS,
    card_id,
    cards_of,
    mask_of,
    names_of,
    parse_cards,
)
from skat_env.core.game import DealError, Game
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


@pytest.mark.parametrize("bad", ["XJ", "C1", "C11", "T10", "", "CJJ", "J♣", "♣", None, 3])
def test_cards__unknown_name_is_a_clear_error(bad):
    with pytest.raises(ValueError, match=r"unknown card.*C S H D.*♣ ♠ ♥ ♦.*10 for T"):
        card_id(bad)


@pytest.mark.parametrize(
    ("name", "canonical"),
    [("C10", "CT"), ("ht", "HT"), ("cJ", "CJ"), ("♠10", "ST"), ("♣J", "CJ"), ("♥️a", "HA"),
     ("d7", "D7"), ("♢q", "DQ"), ("s10", "ST")],
)  # fmt: skip
def test_cards__other_spellings_name_the_same_card(name, canonical):
    assert card_id(name) == CARD_INDEX[canonical]


def test_cards__deals_accept_every_spelling():
    names = list(CARD_NAMES)
    spelled = " ".join(_spell(n, i % 4) for i, n in enumerate(names))
    assert Game(spelled, dealer=0).hands == Game(" ".join(names), dealer=0).hands
    with pytest.raises(DealError, match="unknown card 'Z9': a card is a suit"):
        Game(" ".join(names[:31] + ["Z9"]), dealer=0)


def _spell(name: str, style: int) -> str:
    """One of four spellings of a canonical name: as is, lower case, 10 for T, suit symbol."""
    suit, rank = name
    if style == 1:
        return name.lower()
    if style == 2:
        return suit + ("10" if rank == "T" else rank)
    if style == 3:
        return SUIT_SYMBOLS["CSHD".index(suit)] + ("10" if rank == "T" else rank.lower())
    return name


@given(st.lists(st.tuples(st.integers(0, 31), st.integers(0, 3)), max_size=32))
def test_cards__spellings_round_trip_to_canonical_names(cards):
    text = " ".join(_spell(CARD_NAMES[c], style) for c, style in cards)
    ids = parse_cards(text)
    assert ids == [c for c, _ in cards]
    assert [CARD_NAMES[c] for c in ids] == [CARD_NAMES[c] for c, _ in cards]
    assert parse_cards(" ".join(CARD_NAMES[c] for c in ids)) == ids  # canonical names again


@given(st.integers(0, 31), st.lists(st.booleans(), min_size=3, max_size=3))
def test_cards__any_letter_case_parses(card, upper):
    name = CARD_NAMES[card].replace("T", "10") if upper[2] else CARD_NAMES[card]
    mixed = "".join(ch.upper() if u else ch.lower() for ch, u in zip(name, upper, strict=False))
    assert card_id(mixed) == card
