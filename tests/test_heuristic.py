"""The heuristic: hand evaluation, bidding within its estimate, discards, card play."""

from __future__ import annotations

import base64
import json
import time

import pytest
from heuristic_moves import LINEUPS, RECORD, play
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.agents.base import observation_view
from skat_env.agents.heuristic import (
    HeuristicAgent,
    choose_card,
    estimate,
    null_danger,
    plan_pickup,
)
from skat_env.core.cards import mask_of, parse_cards
from skat_env.core.game import BIDDING, DONE, Game
from skat_env.core.moves import FIRST_BID, HOLD, MOVE_INDEX
from skat_env.core.scoring import Contract
from skat_env.core.tables import BID_VALUES, CLUBS_GAME, GRAND, HEARTS_GAME, NULL
from skat_env.encoding.view import PlayerView, player_view


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


# --- hand evaluation ---------------------------------------------------------------------


def test_estimate__strong_grand_hand():
    est = estimate(cards("CJ SJ HJ CA CT C9 C8 SA ST HA"))
    assert est.game == GRAND and est.value == 24 * (3 + 1 + 1)  # with 3, hand
    assert est.hand


def test_estimate__clubs_without_one_after_pickup():
    est = estimate(cards("SJ HJ CA CT C9 C7 SA H8 D7 D8"))
    assert (est.game, est.hand, est.value) == (CLUBS_GAME, False, 12 * 2)  # without 1


def test_estimate__weak_hand_passes():
    est = estimate(cards("DJ HA H9 H8 H7 SK SQ C7 C8 D9"))
    assert est.value == 0 and est.game == -1


def test_estimate__safe_null_hand_is_null_ouvert_hand():
    hand = cards("C7 C9 CJ S7 S8 H7 H9 D7 D8 DT")
    assert null_danger(hand) == 0
    est = estimate(hand)
    assert (est.game, est.ouvert, est.hand, est.value) == (NULL, True, True, 59)


def test_null_danger__counts_unseen_cards_below():
    assert null_danger(cards("C8")) == 1  # the 7 is out
    assert null_danger(cards("C7 CT")) == 1  # 8 and 9 below the ten, the 7 covers one
    assert null_danger(cards("C7 C9 CJ CK")) == 0


# --- bidding -----------------------------------------------------------------------------


def _bids_within_estimate(seed: int, margin: float) -> int:
    """Play an all-heuristic auction; assert every bid and hold is within the estimate."""
    agent = HeuristicAgent(margin)
    game = Game.random(seed, dealer=seed % 3)
    checked = 0
    while game.phase == BIDDING:
        view = observation_view(player_view(game, game.to_act))
        limit = agent.bid_limit(view)
        assert limit == estimate(view.hand, view.position == 0, margin).value
        move = agent.act_view(view)
        if move == HOLD:
            assert view.bid <= limit
            checked += 1
        elif FIRST_BID <= move < FIRST_BID + len(BID_VALUES):
            assert BID_VALUES[move - FIRST_BID] <= limit
            checked += 1
        game.step(move)
    return checked


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, -1.5, 1.0]))
def test_bidding__never_exceeds_own_estimate(seed, margin):
    _bids_within_estimate(seed, margin)


def test_bidding__does_bid_and_declarers_are_never_overbid_by_their_own_bid():
    bids = sum(_bids_within_estimate(s, 0.0) for s in range(300))
    assert bids > 100  # the property above is not vacuous


# --- skat, discard and declaration -------------------------------------------------------


def test_plan_pickup__buries_a_blank_ten_and_keeps_trumps():
    twelve = cards("CJ DJ CA CK C9 C8 C7 SA S9 HT D7 D8")
    game, pair = plan_pickup(twelve, 18, False)
    assert game == CLUBS_GAME
    assert pair & cards("HT")  # a ten without its ace is buried (points + void)
    assert not pair & cards("CJ DJ CA CK C9 C8 C7")


def test_plan_pickup__null_discards_the_dangerous_cards():
    twelve = cards("C7 C9 CJ S7 S8 H7 H9 D7 D8 D9 SA HA")
    game, pair = plan_pickup(twelve, 18, False)
    assert game == NULL and pair == cards("SA HA")


def test_heuristic__full_games_declare_sensible_contracts():
    """All-heuristic tables: the declarer wins most games and never overbids."""
    agent = HeuristicAgent()
    played = won = overbid = 0
    for seed in range(150):
        game = Game.random(seed, dealer=seed % 3)
        while game.phase != DONE:
            game.step(agent.act_view(observation_view(player_view(game, game.to_act))))
        r = game.result
        if not r.passed_in:
            played += 1
            won += r.won
            overbid += r.overbid
    assert played > 100 and won / played > 0.6 and overbid == 0


# --- card play ---------------------------------------------------------------------------


def _view(**kw) -> PlayerView:
    base = dict(
        seat=0, position=0, dealer=2, phase=4, to_act=0, hand=0, bid=18, bids=(18, 0, 0),
        passed=6, declarer=0, contract=Contract(HEARTS_GAME), hand_game=False, skat=0,
        discarded=0, open_hand=0, played=(0, 0, 0), trick=(), trick_leader=0, voids=(0, 0, 0),
        points=(0, 0, 0), tricks=(0, 0, 0), play_sequence=(),
    )  # fmt: skip
    base.update(kw)
    if "legal_mask" not in base:
        base["legal_mask"] = base["hand"]
    return PlayerView(**base)


def test_declarer__draws_trumps_with_the_top_jack():
    hand = cards("CJ HJ HA HT H9 SA SK D7 D8 C7")
    view = _view(hand=hand, discarded=cards("ST S9"))
    assert choose_card(view) == MOVE_INDEX["CJ"]


def test_declarer__cashes_a_sure_ace_once_trumps_are_gone():
    hand = cards("HA SA S7 D7")
    played = cards("CJ SJ HJ DJ HT HK HQ H9 H8 H7")  # every other trump is out
    view = _view(hand=hand, played=(played, 0, 0), tricks=(3, 0, 0))
    assert choose_card(view) == MOVE_INDEX["SA"]


def test_defender__smears_a_ten_on_the_partners_safe_trick():
    # seat 1 defends; declarer seat 0 played S7, partner seat 2 leads... order: seat 2 led SA
    hand = cards("DT D9 CK C8 H7")
    view = _view(
        seat=1, position=1, to_act=1, hand=hand, legal_mask=hand,
        trick=((2, MOVE_INDEX["SA"]), (0, MOVE_INDEX["S7"])), trick_leader=2,
        voids=(0, 1 << 1, 0),  # seat 1 (me) is void in spades
    )  # fmt: skip
    assert choose_card(view) == MOVE_INDEX["DT"]


def test_defender__plays_low_when_the_declarer_wins():
    hand = cards("CT C8 HK")
    view = _view(
        seat=1, position=1, to_act=1, hand=hand, legal_mask=cards("CT C8"),
        trick=((0, MOVE_INDEX["CA"]),), trick_leader=0,
    )  # fmt: skip
    assert choose_card(view) == MOVE_INDEX["C8"]


def test_null_declarer__ducks_with_the_highest_card_below():
    hand = cards("C7 C9 CQ HA")
    view = _view(
        contract=Contract(NULL), hand=hand, legal_mask=cards("C7 C9 CQ"), to_act=0,
        trick=((1, MOVE_INDEX["CT"]),), trick_leader=1,
    )  # fmt: skip
    assert choose_card(view) == MOVE_INDEX["C9"]


def test_null_defender__stays_under_the_declarers_card():
    hand = cards("S7 SK H8")
    view = _view(
        seat=2, position=2, to_act=2, contract=Contract(NULL), hand=hand,
        legal_mask=cards("S7 SK"), trick=((1, MOVE_INDEX["S9"]), (0, MOVE_INDEX["SJ"])),
        trick_leader=1,
    )  # fmt: skip
    assert choose_card(view) == MOVE_INDEX["S7"]


# --- the recorded moves -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LINEUPS))
def test_moves_are_the_recorded_ones(name):
    """Every decision of seeded games (tests/heuristic_moves.py), rare states included."""
    want = base64.b64decode(json.loads(RECORD.read_text())[name])
    got = play(name)
    first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    assert first is None and len(got) == len(want), f"decision {first}: {got[first : first + 1]}"


# --- strength and speed ------------------------------------------------------------------


def test_heuristic__beats_random_by_a_wide_margin():
    from skat_env.tournament import evaluate

    res = evaluate(["heuristic", "random", "random"], deals=25, seed=1, bootstrap=200)
    comp = res["comparisons"][0]
    assert comp["a"] == "heuristic" and comp["ci95"][0] > 100


def test_heuristic__well_under_a_millisecond_per_move():
    agent = HeuristicAgent()
    views = []
    for seed in range(40):
        game = Game.random(1000 + seed, dealer=seed % 3)
        while not game.is_over:
            view = observation_view(player_view(game, game.to_act))
            views.append(view)
            game.step(agent.act_view(view))
    for fn in (estimate, plan_pickup, null_danger):
        fn.cache_clear()
    t0 = time.perf_counter()
    for view in views:
        agent.act_view(view)
    per_move = (time.perf_counter() - t0) / len(views)
    assert per_move < 1e-3, f"{per_move * 1e6:.0f} us per move"
