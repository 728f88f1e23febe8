"""The single-game state machine: deals, skat, discards, declarations, play, results."""

import random

import numpy as np
import pytest
from helpers import make_deal, play_random

from skat_env.core.cards import mask_of, parse_cards
from skat_env.core.game import DECLARE, DISCARD, DONE, PLAY, DealError, Game, IllegalMoveError
from skat_env.encoding.view import player_view

GRAND_FOUR = "CJ SJ HJ DJ CA CT CK CQ C9 C8"


def start(deal: str, moves: str, dealer: int = 2) -> Game:
    """A game after `moves`, comma-separated move names."""
    g = Game(deal, dealer)
    for m in moves.split(","):
        g.play(m.strip())
    return g


def declarer_leads_in_order(g: Game, order: list[str], rng: random.Random) -> None:
    """Declarer (seat 0, forehand) leads/plays cards in `order`; others play randomly."""
    order = list(order)
    while not g.is_over:
        if g.to_act == g.declarer:
            g.play(order.pop(0))
        else:
            g.step(rng.choice(g.legal_actions()))


# --- deals ---


def test_deal__hands_follow_forehand_middle_rear_skat_order():
    deal = make_deal(GRAND_FOUR, "SA ST SK SQ S9 S8 S7 HA HT HK", skat="D7 D8")
    g = Game(deal, dealer=2)
    assert g.hands[0] == mask_of(parse_cards(GRAND_FOUR))
    assert g.skat == mask_of(parse_cards("D7 D8"))
    g = Game(deal, dealer=0)  # forehand is seat 1
    assert g.hands[1] == mask_of(parse_cards(GRAND_FOUR)) and g.to_act == 2


@pytest.mark.parametrize(
    "deal,message",
    [
        ("CJ SJ", "expected 32 cards"),
        (make_deal(GRAND_FOUR, "SA ST SK SQ S9 S8 S7 HA HT HK").replace("D7", "CJ"), "duplicate"),
        (make_deal(GRAND_FOUR, "SA ST SK SQ S9 S8 S7 HA HT HK").replace("D7", "X7"), "unknown"),
        (list(range(31)) + [40], "0..31"),
    ],
)
def test_deal__malformed_deals_are_clear_errors(deal, message):
    with pytest.raises(DealError, match=message):
        Game(deal)


def test_deal__bad_dealer_is_an_error():
    with pytest.raises(DealError, match="dealer"):
        Game(list(range(32)), dealer=3)


def test_deal__random_deal_is_seeded():
    assert Game.random(5).deal == Game.random(5).deal != Game.random(6).deal


# --- skat, discard, declaration ---


def test_pickup__discard_any_two_of_twelve_then_declare():
    deal = make_deal(GRAND_FOUR, "SA ST SK SQ S9 S8 S7 HA HT HK", skat="D7 D8")
    g = start(deal, "pass, pass, 18")
    assert g.legal_moves() == ["pickup", "hand"]
    g.play("pickup")
    assert g.phase == DISCARD and len(g.legal_moves()) == 12
    g.play("CJ")  # jacks may be discarded
    g.play("D7")
    assert g.phase == DECLARE
    assert g.discarded == mask_of(parse_cards("CJ D7"))
    assert g.legal_moves() == [
        "diamonds", "hearts", "spades", "clubs", "grand", "null", "null ouvert"
    ]  # fmt: skip


def test_declare__hand_game_allows_announcements():
    g = start(Game.random(1).deal, "pass, pass, 18, hand")
    legal = g.legal_moves()
    assert "grand ouvert" in legal and "clubs schneider" in legal and "hearts schwarz" in legal
    assert len(legal) == 22


def test_declare__null_below_the_bid_is_not_legal():
    g = start(Game.random(1).deal, "24, pass, pass, pickup")
    g.step(g.legal_actions()[0])
    g.step(g.legal_actions()[0])
    assert "null" not in g.legal_moves() and "null ouvert" in g.legal_moves()
    g = start(Game.random(1).deal, "36, pass, pass, hand")
    assert "null" not in g.legal_moves() and "null ouvert" in g.legal_moves()
    g = start(Game.random(1).deal, "60, pass, pass, hand")
    assert "null ouvert" not in g.legal_moves() and "grand" in g.legal_moves()


def test_declare__contract_names_and_flags():
    g = start(Game.random(1).deal, "pass, pass, 18, hand, clubs ouvert")
    c = g.contract
    assert (c.hand, c.schneider, c.schwarz, c.ouvert) == (True, True, True, True)
    assert c.name() == "clubs hand ouvert" and g.phase == PLAY
    assert player_view(g, 1).open_hand == g.hands[0] != 0


# --- full games for the RULES.md examples ---


def test_example_8_played__grand_with_4_takes_all_tricks():
    deal = make_deal(GRAND_FOUR, "SA ST SK SQ S9 S8 S7 HA HT HK", skat="D7 D8")
    g = start(deal, "pass, pass, 18, pickup, D7, D8, grand")
    declarer_leads_in_order(g, GRAND_FOUR.split(), random.Random(0))
    r = g.result
    assert (r.won, r.matadors, r.game_value, r.score, r.declarer_tricks) == (True, 4, 168, 168, 10)
    assert r.schneider and r.schwarz and r.seeger_fabian == (218, 0, 0)


def test_example_11_played__null_ouvert_hand_without_a_trick():
    low = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7"
    deal = make_deal(low, "CA CK CQ CJ CT SA SK SQ SJ ST", skat="D8 D9")
    for seed in range(5):
        g = start(deal, "pass, pass, 18, hand, null ouvert")
        play_random(g, random.Random(seed))
        r = g.result
        assert (r.won, r.game_value, r.score, r.contract) == (True, 59, 59, "null ouvert hand")


def test_example_12_played__null_hand_ends_at_the_declarers_first_trick():
    deal = make_deal("CA C7 S7 S8 S9 H7 H8 H9 D7 D8", "CK CQ CJ CT SA SK SQ SJ ST HA")
    g = start(deal, "pass, pass, 18, hand, null, CA")
    play_random(g, random.Random(0))
    r = g.result
    assert g.phase == DONE and r.ended_early and sum(g.tricks_won) == 1
    assert (r.won, r.game_value, r.score, r.seeger_fabian) == (False, 35, -70, (-120, 40, 40))


def test_example_13_played__skat_jack_counts_in_a_hand_game():
    deal = make_deal("SJ HJ DJ CA CT SA ST HA HT DA", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", skat="CJ D8")
    g = start(deal, "pass, pass, 18, hand, grand")
    play_random(g, random.Random(1))
    r = g.result
    assert r.matadors == 4
    levels = 4 + 1 + 1 + r.schneider + r.schwarz
    assert r.game_value == 24 * levels


# --- early endings ---


def test_early_end__schwarz_announced_ends_at_the_first_lost_trick():
    deal = make_deal("CJ SJ C7 C8 S7 S8 H7 H8 D7 D8", "CA CT CK CQ C9 SA ST SK SQ S9")
    g = start(deal, "pass, pass, 18, hand, clubs schwarz, C7, CA")
    g.step(g.legal_actions()[0])
    r = g.result
    assert g.is_over and r.ended_early and not r.won and sum(g.tricks_won) == 1
    # without... CJ held: with 2; game, hand, schneider, announced, schwarz, announced: 12 x 8
    assert r.game_value == 12 * 8 and r.score == -192


def test_early_end__schneider_announced_ends_when_defenders_reach_31():
    deal = make_deal("CJ C7 C8 C9 S7 S8 H7 H8 D7 D8", "SA ST SK HA HT HK DA DT DK CA")
    g = start(deal, "pass, pass, 18, hand, clubs schneider, S7, SA")
    rng = random.Random(0)
    while not g.is_over:
        g.step(rng.choice(g.legal_actions()))
        defender_points = sum(g.points_won) - g.points_won[0]
        assert g.is_over == (defender_points >= 31) or sum(g.tricks_won) == 10
    assert g.result.ended_early == (sum(g.tricks_won) < 10)


def test_no_early_end_without_announcement():
    g = start(Game.random(3).deal, "pass, pass, 18, hand, clubs")
    play_random(g, random.Random(0))
    assert sum(g.tricks_won) == 10 and not g.result.ended_early


# --- illegal moves ---


def test_illegal_move__names_move_player_and_legal_moves_and_keeps_state():
    deal = make_deal("CJ SJ C7 C8 S7 S8 H7 H8 D7 D8", "CA CT CK CQ C9 SA ST SK SQ S9")
    g = start(deal, "pass, pass, 18, hand, clubs, C7")
    before = g.copy()
    with pytest.raises(IllegalMoveError) as e:
        g.play("SA")  # middlehand holds clubs and must follow
    msg = str(e.value)
    assert "player_1" in msg and "'SA'" in msg and "CA" in msg and "middlehand" in msg
    assert g.history == before.history and g.hands == before.hands and g.trick == before.trick


@pytest.mark.parametrize("bad", ["nonsense", 121, -1])
def test_illegal_move__unknown_moves_are_refused(bad):
    g = Game.random(0)
    with pytest.raises(IllegalMoveError):
        g.play(bad)
    assert g.history == []


@pytest.mark.parametrize("bad", [3.5, 96.0, None, True, np.bool_(True), "96"])
def test_step__non_integer_moves_are_a_type_error(bad):
    g = Game.random(0)
    with pytest.raises(TypeError, match="move id, an integer 0..120"):
        g.step(bad)
    assert g.history == []


def test_illegal_move__after_the_end():
    g = start(Game.random(0).deal, "pass, pass, pass")
    with pytest.raises(IllegalMoveError, match="over"):
        g.play("18")


def test_copy__is_independent():
    g = Game.random(2)
    h = g.copy()
    play_random(h, random.Random(0))
    assert g.history == [] and g.phase == 0 and h.is_over


@pytest.mark.parametrize(
    "deal, message",
    [
        ([*range(31), 0], "duplicate"),
        ([*range(31), 32], "0..31"),
        (list(range(31)), "expected 32 cards"),
    ],
)
def test_deal__malformed_id_lists_are_clear_errors(deal, message):
    with pytest.raises(DealError, match=message):
        Game(deal)


def test_deal__a_list_of_ids_is_not_kept_by_the_game():
    deal = list(range(32))
    game = Game(deal)
    deal.reverse()
    assert game.deal == tuple(range(32)) and game.hands[0] == mask_of(list(range(10)))


def test_legal_mask__is_recomputed_after_every_move():
    rng = random.Random(4)
    for seed in range(30):
        game = Game.random(seed)
        while not game.is_over:
            fresh = Game(game.deal, game.dealer)
            for _, m in game.history:
                fresh.step(m)
            assert game.legal_mask() == fresh.legal_mask()
            game.step(rng.choice(game.legal_actions()))
        assert game.legal_mask() == 0
