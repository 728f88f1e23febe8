"""Auction sequences through the game (dealer 2: seat 0 forehand, 1 middle, 2 rear)."""

import pytest

from skat_env.core.game import BIDDING, DONE, SKAT, Game, IllegalMoveError, random_deal
from skat_env.core.tables import BID_VALUES


def auction(moves: str, dealer: int = 2) -> Game:
    g = Game(random_deal(0), dealer)
    for m in moves.split():
        g.play(m)
    return g


def test_bid_ladder__63_values_18_to_264():
    assert len(BID_VALUES) == 63 and BID_VALUES[0] == 18 and BID_VALUES[-1] == 264
    assert 19 not in BID_VALUES and 25 not in BID_VALUES and 23 in BID_VALUES


def test_auction__middlehand_bids_first_to_forehand():
    g = auction("")
    assert g.to_act == 1
    assert g.legal_moves() == [str(v) for v in BID_VALUES] + ["pass"]


def test_auction__holder_may_only_hold_or_pass():
    g = auction("18")
    assert g.to_act == 0 and g.legal_moves() == ["hold", "pass"]


def test_auction__jumps_allowed_and_bids_strictly_higher():
    g = auction("18 hold 33")
    assert g.bid == 33 and g.to_act == 0
    g.play("hold")
    assert g.legal_moves()[0] == "35"
    with pytest.raises(IllegalMoveError, match="cannot play '33'"):
        g.play("33")


def test_auction__full_two_duels():
    g = auction("18 hold 20 pass 22 hold 23 hold pass")
    # M wins the first duel at 20; R bids 22 and 23 to M, who holds; R passes.
    assert g.phase == SKAT and g.declarer == 1 and g.bid == 23 and g.to_act == 1
    g = auction("18 hold 20 pass 22 hold 23 hold 24 pass")
    assert g.declarer == 2 and g.bid == 24


def test_auction__rearhand_wins_second_duel():
    g = auction("18 pass 20 pass")
    assert g.phase == SKAT and g.declarer == 2 and g.bid == 20


def test_auction__forehand_wins_after_holding():
    g = auction("18 hold pass 20 hold 27 hold pass")
    assert g.declarer == 0 and g.bid == 27


def test_auction__middlehand_passes_rearhand_bids_to_forehand():
    g = auction("pass")
    assert g.to_act == 2 and "18" in g.legal_moves()
    g.play("18")
    assert g.to_act == 0 and g.legal_moves() == ["hold", "pass"]
    g.play("pass")
    assert g.declarer == 2 and g.bid == 18


def test_auction__forehand_may_open_at_18_after_two_passes():
    g = auction("pass pass")
    assert g.to_act == 0 and g.legal_moves() == ["18", "pass"]
    g.play("18")
    assert g.phase == SKAT and g.declarer == 0 and g.bid == 18


def test_auction__all_pass_throws_the_deal_in():
    g = auction("pass pass pass")
    assert g.phase == DONE and g.result.passed_in
    assert g.result.score == 0 and g.result.seeger_fabian == (0, 0, 0)
    assert g.legal_moves() == []


def test_auction__second_duel_survivor_bid_stands_when_rearhand_passes():
    g = auction("18 pass pass")
    assert g.declarer == 1 and g.bid == 18


def test_auction__passed_player_takes_no_further_part():
    g = auction("18 pass")
    assert g.to_act == 2  # forehand passed, so rearhand bids to middlehand
    g.play("20")
    assert g.to_act == 1


def test_auction__top_bid_leaves_only_pass():
    g = auction("264")
    g.play("hold")
    assert g.legal_moves() == ["pass"]


def test_auction__dealer_rotation_changes_who_bids():
    g = auction("", dealer=0)  # forehand is seat 1, middlehand seat 2
    assert g.to_act == 2 and g.forehand == 1
    g.play("pass")
    g.play("pass")
    assert g.to_act == 1 and g.legal_moves() == ["18", "pass"]


@pytest.mark.parametrize("bad", ["19", "hold", "pickup", "CJ", "grand", "17"])
def test_auction__illegal_bids_refused_and_state_untouched(bad):
    g = auction("18 hold")
    before = (list(g.history), g.bid, g.to_act, g.phase)
    with pytest.raises(IllegalMoveError) as e:
        g.play(bad)
    assert (list(g.history), g.bid, g.to_act, g.phase) == before
    assert "player_1" in str(e.value)
    assert g.phase == BIDDING
