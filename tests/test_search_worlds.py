"""World sampling: every world is a deal the seat cannot rule out; a weigher moves weight the
right way."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.core.cards import FULL_DECK, parse_cards
from skat_env.core.game import DISCARD, PLAY, Game
from skat_env.core.tables import EFFECTIVE_SUIT_MASK
from skat_env.encoding.view import player_view
from skat_env.search.worlds import (
    SKAT,
    InconsistentViewError,
    World,
    WorldSampler,
    sample_worlds,
)


def _random_prefix(seed: int, moves: int) -> Game:
    """A random game stopped after ``moves`` moves (or earlier if it ends)."""
    rng = random.Random(seed)
    while True:
        game = Game.random(rng.randrange(1 << 30), dealer=rng.randrange(3))
        for _ in range(moves):
            if game.is_over:
                break
            game.step(rng.choice(game.legal_actions()))
        if not game.is_over:
            return game


def _check_world(game: Game, seat: int, world: World) -> None:
    view = player_view(game, seat)
    played = view.played[0] | view.played[1] | view.played[2]
    cards = [*world.hands, world.skat]
    # no card twice, every card once (with the played ones)
    union = 0
    for c in cards:
        assert not union & c
        union |= c
    assert not union & played
    assert union | played == FULL_DECK
    # sizes and fixed cards
    for s in range(3):
        size = game.hands[s].bit_count()
        if s == game.declarer != seat and game.phase == DISCARD:
            size = 10  # a defender sees the declarer's dealt ten and the skat apart
        assert world.hands[s].bit_count() == size
    assert world.skat.bit_count() == 2 or (view.is_declarer and game.phase < PLAY)
    assert world.hands[seat] == view.hand
    if view.open_hand:
        assert world.hands[view.declarer] == view.open_hand
    if view.is_declarer and view.discarded:
        assert world.skat & view.discarded == view.discarded
    # voids by effective suit
    if game.contract is not None:
        for s in range(3):
            for suit in range(5):
                if view.voids[s] >> suit & 1:
                    assert not world.hands[s] & EFFECTIVE_SUIT_MASK[game.contract.game][suit]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.integers(0, 2))
def test_worlds_are_consistent(seed: int, moves: int, offset: int) -> None:
    game = _random_prefix(seed, moves)
    seat = (game.to_act + offset) % 3
    sampler = WorldSampler(player_view(game, seat))
    for world in sampler.sample(np.random.default_rng(seed), 8):
        _check_world(game, seat, world)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_true_deal_is_possible(seed: int, moves: int) -> None:
    """The real deal satisfies every constraint the sampler derives."""
    game = _random_prefix(seed, moves)
    seat = game.to_act
    sampler = WorldSampler(player_view(game, seat))
    holder = {}
    for s in range(3):
        for c in range(32):
            if game.hands[s] >> c & 1:
                holder[c] = s
    for slots, cards in sampler.groups:
        for c in cards:
            assert holder.get(c, SKAT) in slots


def test_uniform_over_splits() -> None:
    """With one void group, each card's chance to be in a seat matches the exact count."""
    seed = 3
    game = _random_prefix(seed, 30)
    while game.phase != PLAY or not any(game.voids):
        seed += 1
        game = _random_prefix(seed, 30)
    seat = game.to_act
    sampler = WorldSampler(player_view(game, seat))
    worlds = sampler.sample(np.random.default_rng(0), 4000)
    # cards with the same set of possible slots are exchangeable: equal frequencies
    for slots, cards in sampler.groups:
        if len(cards) < 2:
            continue
        k = slots[0]
        freq = [
            sum((w.hands[k] if k < 3 else w.skat) >> c & 1 for w in worlds) / 4000 for c in cards
        ]
        assert max(freq) - min(freq) < 0.08, (slots, freq)


def test_bidding_phase_sizes() -> None:
    game = Game.random(1)
    sampler = WorldSampler(player_view(game, game.to_act))
    assert sorted(sampler.need) == [0, 2, 10, 10]
    (w,) = sampler.sample(np.random.default_rng(0), 1)
    assert w.skat.bit_count() == 2


def test_inconsistent_view_is_refused() -> None:
    game = Game.random(1)
    view = player_view(game, game.to_act)
    bad = replace(view, hand=view.hand & (view.hand - 1))  # a card lost
    with pytest.raises(InconsistentViewError, match="unseen cards"):
        WorldSampler(bad)


class _TrumpWeigher:
    """A toy weigher: a world is as likely as e to the declarer's (seat 1) trumps."""

    def __init__(self, trumps: int) -> None:
        self.trumps = trumps

    def weights(self, worlds: list[World]) -> np.ndarray:
        return np.exp([(w.hands[1] & self.trumps).bit_count() for w in worlds])


def test_sample_worlds_weights_sum_to_one() -> None:
    game = _random_prefix(5, 25)
    view = player_view(game, game.to_act)
    rng = np.random.default_rng(0)
    for weigher in (None, _TrumpWeigher(EFFECTIVE_SUIT_MASK[2][4])):
        worlds = sample_worlds(view, 12, rng, weigher)
        assert 1 <= len(worlds) <= 12
        assert abs(sum(w for _, w in worlds) - 1) < 1e-9
    with pytest.raises(ValueError, match="n"):
        sample_worlds(view, 0, rng)


def _declared(contract: str, hand: str, bid: str = "18", forehand: str = "") -> Game:
    """Middlehand declares ``contract`` from a hand game with ``hand`` at ``bid``."""
    mh, fh = parse_cards(hand), parse_cards(forehand)
    rest = [c for c in range(32) if c not in mh and c not in fh]
    fh += rest[: 10 - len(fh)]
    deal = fh + mh + [c for c in rest if c not in fh]
    game = Game(deal, dealer=2)
    for m in [bid, "pass", "pass", "hand", contract]:
        game.play(m)
    return game


def test_a_weigher_draws_likely_worlds_more_often() -> None:
    """Weighted worlds put more trumps in the declarer's hand than uniform ones, and no
    world twice (drawn without replacement from the pool)."""
    game = _declared("hearts", "CJ SJ HJ HA HT HK HQ H9 SA DA")
    view = player_view(game, game.to_act)  # forehand defends
    rng = np.random.default_rng(1)
    trumps = EFFECTIVE_SUIT_MASK[2][4]

    def mean_trumps(weigher: _TrumpWeigher | None) -> float:
        ws = sample_worlds(view, 300, rng, weigher)
        return sum(w * (x.hands[1] & trumps).bit_count() for x, w in ws)

    assert mean_trumps(_TrumpWeigher(trumps)) > mean_trumps(None) + 0.3
    weighted = sample_worlds(view, 50, rng, _TrumpWeigher(trumps))
    assert len(weighted) == 50 and all(w == pytest.approx(1 / 50) for _, w in weighted)
