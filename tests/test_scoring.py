"""RULES.md worked examples (each its own test) and the scoring rules around them."""

import pytest

from skat_env.core.cards import mask_of, parse_cards
from skat_env.core.scoring import Contract, matadors, score_game, seeger_fabian
from skat_env.core.tables import CLUBS_GAME, DIAMONDS_GAME, GRAND, HEARTS_GAME, NULL, SPADES_GAME


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def score(contract, bid, twelve, points, tricks, early=False, def_tricks=None):
    def_tricks = 10 - tricks if def_tricks is None else def_tricks
    return score_game(contract, bid, cards(twelve), points, tricks, 120 - points,
                      def_tricks, early)  # fmt: skip


# Twelve-card sets with the wanted matadors (the rest are low cards).
WITH_2_HEARTS = "CJ SJ H7 H8 S7 S8 S9 C7 C8 C9 D7 D8"
WITH_1 = "CJ H7 H8 S7 S8 S9 C7 C8 C9 D7 D8 DT"


def test_example_1__hearts_with_2_skat_taken_75_points():
    out = score(Contract(HEARTS_GAME), 18, WITH_2_HEARTS, 75, 6)
    assert (out.matadors, out.game_value, out.score, out.won) == (2, 30, 30, True)
    assert seeger_fabian(out.score, out.won) == (80, 0)


def test_example_2__hearts_with_7():
    out = score(Contract(HEARTS_GAME), 18, "CJ SJ HJ DJ HA HT HK H7 S7 C7 D7 D8", 70, 6)
    assert (out.matadors, out.game_value, out.score) == (7, 80, 80)


def test_example_3__grand_hand_without_2_defenders_28():
    twelve = "HJ DJ CA CT SA ST HA HT DA DT C7 S7"
    out = score(Contract(GRAND, hand=True), 18, twelve, 92, 8)
    assert (out.matadors, out.game_value, out.score, out.won) == (-2, 120, 120, True)


def test_example_4__spades_with_1_overbid_at_36():
    out = score(Contract(SPADES_GAME), 36, "CJ S7 S8 H7 H8 H9 C7 C8 C9 D7 D8 D9", 70, 6)
    assert (out.matadors, out.game_value, out.overbid, out.won) == (1, 22, True, False)
    assert out.score == -88  # lost at 44, the smallest multiple of 11 >= 36


def test_example_5__clubs_hand_without_3_58_points():
    twelve = "DJ CA CT H7 H8 H9 S7 S8 S9 D7 D8 D9"
    out = score(Contract(CLUBS_GAME, hand=True), 18, twelve, 58, 5)
    assert (out.matadors, out.game_value, out.score, out.won) == (-3, 60, -120, False)
    assert seeger_fabian(out.score, out.won) == (-170, 40)


def test_example_6__diamonds_with_1_31_points():
    out = score(Contract(DIAMONDS_GAME), 18, WITH_1.replace("DT", "H9"), 31, 3)
    assert (out.matadors, out.game_value, out.score) == (1, 18, -36)


def test_example_7__diamonds_with_1_30_points_schneider():
    out = score(Contract(DIAMONDS_GAME), 18, WITH_1.replace("DT", "H9"), 30, 3)
    assert (out.game_value, out.score, out.schneider_level) == (27, -54, True)


def test_example_8__grand_with_4_all_tricks():
    out = score(Contract(GRAND), 18, "CJ SJ HJ DJ CA CT CK CQ C9 C8 D7 D8", 120, 10)
    assert (out.matadors, out.game_value, out.score) == (4, 168, 168)


def test_example_9__clubs_hand_schneider_announced_missed():
    twelve = "CJ SJ CA CT H7 H8 S7 S8 D7 D8 D9 H9"
    out = score(Contract(CLUBS_GAME, hand=True, schneider=True), 18, twelve, 85, 8)
    assert (out.matadors, out.game_value, out.score, out.won) == (2, 72, -144, False)


def test_example_10__grand_ouvert_with_4_all_tricks():
    contract = Contract(GRAND, hand=True, schneider=True, schwarz=True, ouvert=True)
    out = score(contract, 18, "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 SA", 120, 10)
    assert (out.game_value, out.score, out.won) == (264, 264, True)


def test_example_11__null_ouvert_hand_no_trick():
    out = score(Contract(NULL, hand=True, ouvert=True), 18, WITH_1, 0, 0)
    assert (out.game_value, out.score, out.matadors) == (59, 59, 0)


def test_example_12__null_hand_declarer_takes_a_trick():
    out = score(Contract(NULL, hand=True), 18, WITH_1, 11, 1, early=True, def_tricks=0)
    assert (out.game_value, out.score, out.won) == (35, -70, False)


def test_example_13__grand_hand_jack_in_the_skat_counts():
    # CJ lies in the (untouched) skat; the declarer holds SJ HJ DJ: with 4.
    out = score(Contract(GRAND, hand=True), 18, "SJ HJ DJ CJ CA CT SA ST H7 H8 D7 D8", 70, 6)
    assert (out.matadors, out.game_value, out.score) == (4, 144, 144)


@pytest.mark.parametrize(
    "game,twelve,expected",
    [
        (CLUBS_GAME, "CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 HA", 11),
        (CLUBS_GAME, "H7 H8 H9 HT HQ HK HA S7 S8 S9 ST D7", -11),
        (GRAND, "CJ SJ HJ DJ H7 H8 H9 HT HQ HK HA S7", 4),
        (GRAND, "DJ H7 H8 H9 HT HQ HK HA S7 S8 S9 ST", -3),
        (HEARTS_GAME, "SJ HJ DJ HA H7 C7 C8 C9 S7 S8 S9 D7", -1),
        (HEARTS_GAME, "CJ HJ DJ HA H7 C7 C8 C9 S7 S8 S9 D7", 1),
    ],
)
def test_matadors__with_and_without(game, twelve, expected):
    assert matadors(game, cards(twelve)) == expected


def test_overbid__rescued_by_schneider():
    hearts_with_1 = "CJ H7 H8 S7 S8 S9 C7 C8 C9 D7 D8 D9"
    out = score(Contract(HEARTS_GAME), 30, hearts_with_1, 80, 7)
    assert (out.overbid, out.score) == (True, -60)  # 20 < 30: lost at 30
    out = score(Contract(HEARTS_GAME), 30, hearts_with_1, 92, 8)
    assert (out.overbid, out.won, out.game_value, out.score) == (False, True, 30, 30)


def test_overbid__even_with_61_points_the_game_is_lost():
    out = score(Contract(DIAMONDS_GAME), 24, "CJ D7 H7 H8 S7 S8 S9 C7 C8 C9 H9 HT", 75, 7)
    assert out.won is False and out.overbid and out.score == -54  # 18 < 24, lost at 27


def test_schwarz_announced_needs_every_trick():
    contract = Contract(SPADES_GAME, hand=True, schneider=True, schwarz=True)
    twelve = "CJ SJ SA ST H7 H8 C7 C8 D7 D8 D9 H9"
    out = score(contract, 18, twelve, 115, 9)
    # with 2, game, hand, schneider, announced, schwarz announced (+ its level): 11 x 8
    assert (out.won, out.game_value, out.score) == (False, 88, -176)


def test_schneider_level_counts_for_a_schneidered_declarer():
    out = score(Contract(HEARTS_GAME), 18, WITH_2_HEARTS, 25, 2)
    assert (out.game_value, out.score) == (40, -80)


def test_schwarz_level_when_declarer_takes_no_trick():
    out = score(Contract(HEARTS_GAME), 18, WITH_2_HEARTS, 0, 0)
    assert (out.game_value, out.score) == (50, -100)


def test_early_end__declarer_without_trick_is_schwarz_in_value():
    # Schneider announced, defenders reach 31 before the declarer took a trick.
    contract = Contract(HEARTS_GAME, hand=True, schneider=True)
    out = score_game(contract, 18, cards(WITH_2_HEARTS), 5, 0, 35, 2, True)
    # with 2, game, hand, schneider, announced, schwarz: 10 x 7
    assert (out.won, out.game_value, out.score) == (False, 70, -140)
