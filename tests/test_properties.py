"""Property tests over random games (hypothesis picks deals, dealers and move choices)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.core.cards import FULL_DECK, TOTAL_POINTS
from skat_env.core.game import DONE, Game
from skat_env.core.moves import FIRST_BID, FIRST_DECLARATION, HOLD, PASS
from skat_env.core.records import dumps, replay
from skat_env.core.tables import points_of

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 2), st.integers(0, 2**32 - 1))


def biased_random_game(deal_seed: int, dealer: int, move_seed: int) -> Game:
    """Random legal play that often reaches contracts (passing is down-weighted) and
    picks declarations uniformly, so hand games and announcements occur."""
    g = Game.random(deal_seed, dealer)
    rng = random.Random(move_seed)
    pass_prob = 0.6 if move_seed % 4 == 0 else 0.15
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, "a player must act but has no legal move"
        if PASS in legal and (len(legal) == 1 or rng.random() < pass_prob):
            g.step(PASS)
            continue
        legal = [m for m in legal if m != PASS]
        if FIRST_BID <= legal[0] < HOLD and rng.random() < 0.8:
            legal = legal[:3]  # bid low most of the time
        g.step(rng.choice(legal))
    return g


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games)
def test_properties__points_tricks_and_cards_add_up(args):
    g = biased_random_game(*args)
    r = g.result
    assert g.phase == DONE and g.to_act == -1 and g.legal_actions() == []
    if r.passed_in:
        return
    played = g.played[0] | g.played[1] | g.played[2]
    assert not played & g.declarer_skat
    assert g.played[0] & g.played[1] == g.played[0] & g.played[2] == g.played[1] & g.played[2] == 0
    assert sum(g.tricks_won) * 3 == played.bit_count()
    assert r.declarer_points + r.defender_points + points_of(
        FULL_DECK & ~played & ~g.declarer_skat
    ) == (TOTAL_POINTS)
    if not r.ended_early:
        assert played | g.declarer_skat == FULL_DECK  # every card played exactly once
        assert r.declarer_points + r.defender_points == TOTAL_POINTS
    assert r.seeger_fabian[r.declarer] == r.score + (50 if r.won else -50)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games)
def test_properties__record_replay_identity(args):
    g = biased_random_game(*args)
    again = replay(json.loads(dumps(g)))
    assert again.result == g.result and again.history == g.history


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games)
def test_properties__score_is_consistent_with_win_and_value(args):
    g = biased_random_game(*args)
    r = g.result
    if r.passed_in:
        assert r.score == 0
        return
    if r.won:
        assert r.score == r.game_value > 0 and not r.overbid
    elif not r.overbid:
        assert r.score == -2 * r.game_value
    else:
        assert r.score < -2 * r.game_value and r.score <= -2 * r.bid


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games)
def test_properties__exactly_one_declaration_unless_passed_in(args):
    g = biased_random_game(*args)
    declared = [m for _, m in g.history if m >= FIRST_DECLARATION]
    assert len(declared) == (0 if g.result.passed_in else 1)


@pytest.mark.slow
def test_properties__random_play_reaches_every_kind_of_contract():
    contracts = set()
    for i in range(1500):
        r = biased_random_game(i, i % 3, i).result
        contracts.add("passed" if r.passed_in else r.contract)
        if r.overbid:
            contracts.add("overbid")
        if r.ended_early:
            contracts.add("early")
    for name in (
        "passed",
        "overbid",
        "early",
        "grand",
        "clubs hand ouvert",
        "null ouvert hand",
        "null",
        "diamonds hand schwarz",
        "hearts hand schneider",
        "spades hand",
    ):
        assert name in contracts, name
