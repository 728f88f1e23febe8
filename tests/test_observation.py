"""The observation encoder: layout, exact decoding, the mask, and information hiding."""

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.core.cards import FULL_DECK, cards_of
from skat_env.core.game import PLAY, Game, IllegalMoveError
from skat_env.core.moves import NUM_MOVES
from skat_env.encoding.observation import (
    FIELDS,
    HISTORY_LAYOUT,
    HISTORY_OBS_SIZE,
    LAYOUT,
    OBS_SIZE,
    STATE_SIZE,
    action_mask,
    decode,
    encode,
    encode_state,
    fields,
    mask_to_int,
    observe,
)
from skat_env.encoding.view import player_view


def game_after(seed: int, moves: int, dealer: int = 2) -> Game:
    """A random game after up to ``moves`` random moves (stops at the end)."""
    rng = random.Random(seed)
    game = Game.random(seed, dealer)
    for _ in range(moves):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    return game


def test_layout__fields_tile_the_vector_without_gaps():
    stops = [0] + [s.stop for s in LAYOUT.values()]
    assert [s.start for s in LAYOUT.values()] == stops[:-1]
    assert OBS_SIZE == 450 and HISTORY_OBS_SIZE == 1500 and STATE_SIZE == 610
    assert HISTORY_LAYOUT["history"] == slice(OBS_SIZE, HISTORY_OBS_SIZE)
    assert [n for n, _, _ in FIELDS] == list(LAYOUT)


def test_layout__docstring_table_matches_the_code():
    import re

    import skat_env.encoding.observation as module

    rows = re.findall(r"^    (\w+) +(\d+(?:x\d+)?) ", module.__doc__, re.M)
    documented = [(name, tuple(int(x) for x in shape.split("x"))) for name, shape in rows]
    assert documented == [(n, shape) for n, shape, _ in FIELDS]


def test_fields__named_views_have_documented_shapes_and_content():
    game = game_after(3, 40)
    view = player_view(game, 1)
    f = fields(encode(view))
    assert f["played"].shape == (3, 32) and f["voids"].shape == (3, 5)
    assert np.flatnonzero(f["hand"]).tolist() == cards_of(view.hand)
    # relative seats: row 1 of "played" is the next seat's cards
    nxt = (view.seat + 1) % 3
    assert sorted(np.flatnonzero(f["played"][1]).tolist()) == cards_of(view.played[nxt])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 45), dealer=st.integers(0, 2))
def test_decode__inverts_encode_for_every_seat_and_mode(seed, moves, dealer):
    game = game_after(seed, moves, dealer)
    for seat in range(3):
        view = player_view(game, seat)
        mask = action_mask(view.legal_mask)
        assert decode(encode(view, history=True), mask) == view
        assert decode(encode(view), mask) == dataclasses.replace(view, play_sequence=())


def test_encode__values_are_float32_in_unit_interval_through_a_whole_game():
    rng = random.Random(5)
    for i in range(20):
        game = Game.random(i, dealer=i % 3)
        while True:
            for seat in range(3):
                for history in (False, True):
                    obs = encode(player_view(game, seat), history)
                    assert obs.dtype == np.float32
                    assert obs.shape == ((HISTORY_OBS_SIZE if history else OBS_SIZE),)
                    assert obs.min() >= 0 and obs.max() <= 1
            if game.is_over:
                break
            game.step(rng.choice(game.legal_actions()))


def test_observe__mask_is_the_engine_legal_set_for_the_actor_and_zero_for_others():
    game = game_after(11, 10)
    for seat in range(3):
        out = observe(game, seat)
        assert out["action_mask"].dtype == np.int8 and out["action_mask"].shape == (NUM_MOVES,)
        expected = game.legal_actions() if seat == game.to_act else []
        assert np.flatnonzero(out["action_mask"]).tolist() == expected


@given(st.integers(0, (1 << NUM_MOVES) - 1))
def test_action_mask__round_trips_any_bitmask(mask):
    arr = action_mask(mask)
    assert mask_to_int(arr) == mask and arr.sum() == mask.bit_count()


@given(st.sets(st.integers(0, NUM_MOVES - 1), max_size=14))
def test_action_mask__sparse_masks_take_the_fast_path_correctly(moves):
    arr = action_mask(sum(1 << m for m in moves))
    assert arr.dtype == np.int8 and arr.shape == (NUM_MOVES,)
    assert np.flatnonzero(arr).tolist() == sorted(moves)


def test_decode__rejects_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        decode(np.zeros(17, np.float32))


def test_encode_state__holds_every_hand_and_the_skat():
    game = game_after(4, 5)
    state = encode_state(game)
    hands = state[:96].reshape(3, 32)
    for seat in range(3):
        assert np.flatnonzero(hands[seat]).tolist() == cards_of(game.hands[seat])
    assert np.flatnonzero(state[96:128]).tolist() == cards_of(game.skat)


# --- information hiding ---


def unseen_cards(game: Game, seat: int) -> int:
    """Cards whose place ``seat`` cannot know: not its own, not played, not shown."""
    view = player_view(game, seat)
    pos = game.position_of(seat)
    own_deal = sum(1 << c for c in game.deal[10 * pos : 10 * pos + 10])
    known = own_deal | view.hand | view.skat | view.discarded | view.open_hand
    known |= view.played[0] | view.played[1] | view.played[2]
    return FULL_DECK & ~known


def redistribute(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same moves replayed on a deal where the cards ``seat`` cannot see were
    shuffled among their places (other hands, unseen skat); None if that deal
    contradicts the public play (e.g. a shown void)."""
    hidden = cards_of(unseen_cards(game, seat))
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    perm = dict(zip(hidden, shuffled, strict=True))
    deal = [perm.get(c, c) for c in game.deal]
    # a hidden card move is another seat's discard: it moves with its card
    moves = [perm.get(m, m) if m < 32 else m for _, m in game.history]
    other = Game(deal, game.dealer)
    try:
        for m in moves:
            other.step(m)
    except IllegalMoveError:
        return None
    return other


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 45),
    seat=st.integers(0, 2),
    perm_seed=st.integers(0, 10**6),
)
def test_observation__unchanged_when_unseen_cards_are_redistributed(seed, moves, seat, perm_seed):
    game = game_after(seed, moves, dealer=seed % 3)
    rng = random.Random(perm_seed)
    original = observe(game, seat, history=True)
    for _ in range(10):
        other = redistribute(game, seat, rng)
        if other is None:
            continue
        moved = observe(other, seat, history=True)
        assert np.array_equal(moved["observation"], original["observation"])
        assert np.array_equal(moved["action_mask"], original["action_mask"])


def test_redistribution__really_moves_hidden_cards_in_play():
    """The hiding test above is not vacuous: redistributions that replay exist and
    change other hands while the observer's observation stays the same."""
    changed = 0
    for seed in range(30):
        game = game_after(seed, 40)
        if game.phase != PLAY:
            continue
        for seat in range(3):
            other = redistribute(game, seat, random.Random(seed))
            if other is not None and other.hands != game.hands:
                same = observe(other, seat)["observation"] == observe(game, seat)["observation"]
                assert same.all()
                changed += 1
    assert changed >= 5
