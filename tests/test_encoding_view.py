"""skat_env.encoding.view: what one seat may know, as worked examples through a game (the skat,
the discards, an ouvert hand, the legal moves), the visibility rules on NumPy arrays as on
ints, and, over random games, that no seat ever sees a card it may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import play_random
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.core.cards import cards_of
from skat_env.core.game import DISCARD, DONE, PLAY, Game
from skat_env.encoding.view import (
    player_view,
    sees_discards,
    sees_open_hand,
    sees_skat,
    without_history,
)

# dealer 2: seat 0 forehand, seat 1 middlehand, seat 2 rearhand
DEAL = list(range(32))


def auction_won_by_middlehand() -> Game:
    game = Game(DEAL, 2)
    for move in ["18", "hold", "20", "pass", "pass"]:
        game.play(move)
    return game


def test_positions_and_the_legal_moves_only_for_the_seat_to_act():
    game = Game(DEAL, 2)
    views = [player_view(game, s) for s in range(3)]
    assert [v.position for v in views] == [0, 1, 2]
    assert game.to_act == 1 and views[1].legal_mask == game.legal_mask() != 0
    assert views[0].legal_mask == views[2].legal_mask == 0
    assert all(v.hand == game.hands[s] for s, v in enumerate(views))


def test_the_declarer_sees_the_skat_after_pickup_the_others_only_at_the_end():
    game = auction_won_by_middlehand()
    assert player_view(game, 1).skat == 0  # before the pickup
    game.play("pickup")
    assert game.phase == DISCARD and player_view(game, 1).skat == game.skat
    assert player_view(game, 0).skat == player_view(game, 2).skat == 0
    game.step(cards_of(game.hands[1])[0])
    game.step(cards_of(game.hands[1])[0])
    game.play("grand")
    assert player_view(game, 1).discarded == game.discarded != 0
    assert player_view(game, 0).discarded == 0
    play_random(game, random.Random(0))
    assert game.phase == DONE
    for seat in range(3):  # at the end everybody may check the points: skat and discards
        assert player_view(game, seat).discarded == game.discarded


def test_a_hand_game_skat_stays_hidden_until_the_end_and_an_ouvert_hand_lies_open():
    game = auction_won_by_middlehand()
    game.play("hand")
    game.play("grand ouvert")
    assert game.phase == PLAY
    for seat in range(3):
        view = player_view(game, seat)
        assert view.skat == 0 and view.open_hand == game.hands[1] and view.hand_game
    play_random(game, random.Random(1))
    assert all(player_view(game, s).skat == game.skat for s in range(3))


def test_the_rules_on_arrays_are_the_rules_on_ints():
    grid = np.array(np.meshgrid(range(6), [0, 1], [0, 1], [0, 1], indexing="ij")).reshape(4, -1)
    phase, is_decl, flag, has_decl = grid
    skat = sees_skat(phase, is_decl, flag, has_decl)
    discards = sees_discards(phase, is_decl, has_decl)
    open_hand = sees_open_hand(flag, phase, has_decl)
    for i in range(grid.shape[1]):
        p, d, f, h = (int(x) for x in grid[:, i])
        assert skat[i] == sees_skat(p, d, f, h) in (0, 1)
        assert discards[i] == sees_discards(p, d, h) in (0, 1)
        assert open_hand[i] == sees_open_hand(f, p, h) in (0, 1)


def test_without_history_drops_only_the_play_sequence():
    game = auction_won_by_middlehand()
    game.play("hand")
    game.play("grand")
    game.step(game.legal_actions()[0])
    view = player_view(game, 0)
    short = without_history(view)
    assert view.play_sequence and short.play_sequence == ()
    assert short == type(view)(**{**{f: getattr(view, f) for f in view.__slots__},
                                  "play_sequence": ()})  # fmt: skip
    assert without_history(short) is short


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), stop=st.integers(0, 40))
def test_no_seat_sees_a_card_it_may_not_know(seed, stop):
    rng = random.Random(seed)
    game = Game.random(seed, dealer=seed % 3)
    for _ in range(stop):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    for seat in range(3):
        view = player_view(game, seat)
        own = game.hands[seat]
        seen = own | view.skat | view.discarded | view.open_hand
        seen |= sum(view.played) | sum(1 << c for _, c in view.trick)
        others = sum(game.hands[s] for s in range(3) if s != seat) & ~view.open_hand
        assert view.hand == own and not (seen & others), (seed, seat)
        if not game.is_over and game.declarer != seat:
            assert view.skat == 0  # a defender never sees the skat during the game
