"""Text rendering: card names, tricks with winners, the auction, contract values, the score
sheet. Expected texts are worked out by hand from docs/rules.md, not from the code."""

import random

import pytest
from helpers import iss_records, make_deal, play_random

from skat_env.core.cards import CARD_NAMES, card_id, parse_cards
from skat_env.core.game import Game, Result
from skat_env.core.moves import MOVE_INDEX
from skat_env.core.tables import GRAND, HEARTS_GAME, NULL
from skat_env.encoding.view import player_view
from skat_env.envs.render import (
    auction_lines,
    card_text,
    declaration_text,
    describe_result,
    render_game,
    render_view,
    sorted_cards,
    trick_text,
)


def test_card_text__every_displayed_name_parses_back():
    for card in range(32):
        assert card_id(card_text(card)) == card
    assert card_text(card_id("HT")) == "♥10"


def test_sorted_cards__trumps_first_then_suits_strongest_first():
    hand = sum(1 << c for c in parse_cards("H7 CJ HA DJ S9 HT SA"))
    assert [CARD_NAMES[c] for c in sorted_cards(hand, HEARTS_GAME)] == [
        "CJ", "DJ", "HA", "HT", "H7", "SA", "S9",
    ]  # fmt: skip
    assert [CARD_NAMES[c] for c in sorted_cards(hand, NULL)] == [
        "CJ",
        "SA",
        "S9",
        "HA",
        "HT",
        "H7",
        "DJ",
    ]  # fmt: skip  (null: jacks keep their suit and rank between queen and ten)


def test_trick_text__winner_and_points_in_play_order():
    # Hearts trumps: player_2 leads SA, player_0 trumps with H7, player_1 discards ST.
    text = trick_text(2, parse_cards("SA H7 ST"), HEARTS_GAME)
    assert text == "player_2 ♠A, player_0 ♥7, player_1 ♠10 -> player_0 wins 21 points"
    # Grand: hearts are no trumps, the led ace wins; one point is singular.
    assert trick_text(0, parse_cards("H7 HA D8"), GRAND).endswith("player_1 wins 11 points")
    assert trick_text(1, parse_cards("D7 D8 DJ"), NULL).endswith("-> player_0 wins 2 points")
    assert trick_text(0, parse_cards("D7 D8 S9"), GRAND).endswith("player_1 wins 0 points")


def _at_declaration(bid: str = "60") -> Game:
    """Forehand holds CJ SJ HJ and eight hearts, middlehand bids ``bid`` and passes."""
    deal = make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST", skat="D7 D8")
    g = Game(deal, dealer=2)  # seat 0 is forehand
    for move in [bid, "hold", "pass", "pass", "pickup", "D7", "D8"]:
        g.play(move)
    return g


def test_declaration_text__values_from_current_matadors_and_overbid_flag():
    view = player_view(_at_declaration("60"), 0)
    hearts = declaration_text(view, MOVE_INDEX["hearts"])
    assert hearts.startswith("value 40 (10 x 4, with 3)")  # (3 matadors + game) x 10
    assert "below the bid 60" in hearts
    assert declaration_text(view, MOVE_INDEX["grand"]) == "value 96 (24 x 4, with 3)"
    assert declaration_text(view, MOVE_INDEX["clubs"]).startswith("value 48 (12 x 4, with 3)")


def test_declaration_text__hand_games_count_levels_and_warn_about_the_skat():
    deal = make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST", skat="D7 D8")
    g = Game(deal, dealer=2)
    for move in ["18", "hold", "pass", "pass", "hand"]:
        g.play(move)
    view = player_view(g, 0)
    # hearts hand schneider: 3 matadors + game + hand + schneider + announced = 7
    text = declaration_text(view, MOVE_INDEX["hearts schneider"])
    assert text.startswith("value 70 (10 x 7, with 3 in your ten cards; the skat counts too)")
    assert declaration_text(view, MOVE_INDEX["null"]) == "value 35 (fixed value)"


def test_auction_lines__separate_bids_from_holds():
    g = Game(make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST"), dealer=2)
    for move in ["18", "hold", "20", "pass", "22", "hold", "23"]:  # F 0, M 1, R 2
        g.play(move)
    view = player_view(g, 2)
    lines = auction_lines(view, middlehand_bid=20)
    assert lines[0].startswith("bid: 23")
    assert lines[1:] == [
        "  player_0 forehand: held 18, passed",
        "  player_1 middlehand: bid 20, held 22",
        "  player_2 rearhand (you): bid 23",
    ]
    assert auction_lines(view)[2] == "  player_1 middlehand: bid or held 22"  # no memory


def test_auction_lines__forehand_opening_and_silent_passes():
    g = Game(make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST"), dealer=2)
    for move in ["pass", "pass", "18"]:
        g.play(move)
    lines = auction_lines(player_view(g, 0))
    assert lines[1:] == [
        "  player_0 forehand (you): opened at 18",
        "  player_1 middlehand: no bid, passed",
        "  player_2 rearhand: no bid, passed",
    ]


def test_render_view__singular_tricks_and_points():
    g = Game(make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST"), dealer=2)
    for move in ["pass", "pass", "18", "hand", "hearts"]:
        g.play(move)
    g.play("CJ")
    g.play(next(m for m in g.legal_moves()))
    g.play(next(m for m in g.legal_moves()))
    text = render_view(player_view(g, 0))
    assert "in 1 trick\n" in text and "0 points in 0 tricks" in text
    assert "1 tricks" not in text


def test_describe_result__overbid_game_rules_example_4():
    # Spades with 1, bid 36, 70 points: value 22, lost at 44 -> -88.
    r = Result(passed_in=False, declarer=1, contract="spades", bid=36, won=False,
               declarer_points=70, declarer_tricks=7, defender_points=50, matadors=1,
               game_value=22, overbid=True, score=-88, seeger_fabian=(40, -138, 40))  # fmt: skip
    text = describe_result(r, ["a", "b", "c"])
    assert text.splitlines()[0] == "player_1 (b) played spades at bid 36: lost"
    assert "no schneider; no schwarz" in text
    assert "value: 11 x (with 1 + game) = 11 x 2 = 22" in text
    assert "overbid: value 22 < bid 36; lost at 44, the smallest multiple of 11" in text
    assert "score: -88  (Seeger-Fabian: player_0 +40, player_1 -138, player_2 +40)" in text


def test_describe_result__schneider_and_schwarz_are_shown():
    schwarz = Result(passed_in=False, declarer=0, contract="grand", bid=18, won=True,
                     declarer_points=120, declarer_tricks=10, defender_points=0, matadors=4,
                     game_value=168, schneider=True, schwarz=True, score=168)  # fmt: skip
    text = describe_result(schwarz)
    assert "defenders schneider (declarer 90 or more); defenders schwarz" in text
    assert "value: 24 x (with 4 + game + schneider + schwarz) = 24 x 7 = 168" in text
    lost = Result(passed_in=False, declarer=2, contract="clubs hand schneider", bid=18,
                  declarer_points=25, declarer_tricks=0, defender_points=64, matadors=-2,
                  game_value=84, score=-168, ended_early=True)  # fmt: skip
    text = describe_result(lost)
    levels = "without 2 + game + hand + schneider + schneider announced + schwarz"
    assert f"value: 12 x ({levels}) = 12 x 7 = 84" in text
    assert "declarer schneider (30 or fewer) (announced); declarer schwarz (no trick)" in text
    assert "ended early, unplayed cards count for nobody" in text
    null = Result(passed_in=False, declarer=0, contract="null ouvert hand", bid=59,
                  won=True, game_value=59, score=59)  # fmt: skip
    assert "value: 59 (null values are fixed)" in describe_result(null)
    assert describe_result(Result(passed_in=True)) == "all passed: the deal is thrown in"


@pytest.mark.parametrize("seed", range(6))
def test_render_game__result_line_after_random_games(seed):
    g = play_random(Game.random(seed, dealer=seed % 3), random.Random(seed))
    text = render_game(g)
    if g.result.passed_in:
        assert "result: all passed" in text
    else:
        assert f"score: {g.result.score:+d}" in text
        assert ("schneider" in text) and ("schwarz" in text or "null" in g.result.contract)


def test_describe_result__named_levels_add_up_to_the_scored_multiplier():
    """On random games and on the ISS records (hand games, announcements, ouvert, early
    ends): the levels by name always match the multiplier the scoring computed."""
    games = [play_random(Game.random(i, dealer=i % 3), random.Random(i)) for i in range(300)]
    games += [rec.replay() for rec in iss_records() if rec.playable]
    checked = 0
    for g in games:
        r = g.result
        if r.passed_in or r.contract.startswith("null"):
            continue
        value_line = next(line for line in describe_result(r).splitlines() if "value:" in line)
        assert ") = " in value_line, (r, value_line)  # parts shown only when they add up
        checked += 1
    assert checked > 250
