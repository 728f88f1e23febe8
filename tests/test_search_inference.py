"""Defender inference (skat_env/search/inference.py): the soft-max declarer choice, checked
against a plain loop over every option, and the learned model's weights moving the right way."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest

from skat_env.agents.pimc import contract_scorer
from skat_env.agents.registry import make_agent
from skat_env.core.cards import cards_of
from skat_env.core.game import PLAY, Game
from skat_env.core.tables import EFFECTIVE_SUIT_MASK, JACKS, TRUMP
from skat_env.encoding.view import player_view
from skat_env.search.inference import KINDS, DeclarerInference
from skat_env.search.worlds import World, WorldSampler, sample_worlds


def _toy_score(kept, buried, kind, hand, position, bid):
    """A made-up utility: trumps of the kind held, points buried, hand and bid terms."""
    out = np.zeros(len(kept))
    for i in range(len(kept)):
        k = int(kind[i])
        mask = EFFECTIVE_SUIT_MASK[k][TRUMP] if k < 4 else JACKS if k == 4 else 0x01010101
        out[i] = 9.0 * (int(kept[i]) & mask).bit_count() - 30 - 0.5 * bid[i] + 3 * hand[i]
        out[i] += 2.0 * (int(buried[i]) & 0x10101010).bit_count() + position[i]
    return out


def _reference(view, world: World, t: float) -> float:
    """log P(declared) by a loop over every option and not playing."""
    d, c = view.declarer, view.contract
    pos = (d - view.dealer - 1) % 3
    kept = world.hands[d] | view.played[d]

    def u(k: int, b: int, kind: int, hand: int) -> float:
        args = [np.array([x]) for x in (k, b, kind, hand, pos, view.bid)]
        return float(_toy_score(*args)[0])

    if view.hand_game:
        opts = [u(kept, 0, k, 1) for k in range(KINDS)]
        declared = u(kept, 0, c.game, 1)
    else:
        twelve = kept | world.skat
        opts = [u(twelve & ~((1 << a) | (1 << b)), (1 << a) | (1 << b), k, 0)
                for k in range(KINDS) for a, b in combinations(cards_of(twelve), 2)]  # fmt: skip
        declared = u(kept, world.skat, c.game, 0)
    total = 1.0 + sum(math.exp(x / t) for x in opts)
    return declared / t - math.log(total)


def _play_to_first_card(moves: list[str], deal_seed: int = 7) -> Game:
    game = Game.random(deal_seed, dealer=2)
    for m in moves:
        game.play(m)
    return game


def _heuristic_game(seed: int, hand: bool | None = None) -> Game:
    """A game bid, picked up (or not) and declared by the heuristic in every seat."""
    heu = make_agent("heuristic")
    for s in range(seed, seed + 500):
        game = Game.random(s, dealer=s % 3)
        while game.phase < PLAY and not game.is_over:
            game.step(heu.act_view(player_view(game, game.to_act)))
        if not game.is_over and (hand is None or game.hand_game == hand):
            if not game.contract.ouvert:
                return game
    raise AssertionError("no such game")


@pytest.mark.parametrize("hand", [False, True])
def test_log_likelihood_matches_a_loop_over_every_option(hand: bool) -> None:
    game = _heuristic_game(11, hand)
    seat = (game.declarer + 1) % 3
    view = player_view(game, seat)
    worlds = WorldSampler(view).sample(np.random.default_rng(0), 5)
    worlds.append(World(tuple(game.hands), game.declarer_skat))  # the true one too
    inf = DeclarerInference(view, _toy_score, temperature=15.0)
    got = inf.log_likelihoods(worlds)
    want = [_reference(view, w, 15.0) for w in worlds]
    assert np.allclose(got, want)
    w = inf.weights(worlds)
    assert w.max() == 1.0 and np.allclose(w, np.exp(got - got.max()))


def test_worlds_that_share_the_declarers_twelve_cards_keep_their_own_discard() -> None:
    """Worlds with the same twelve cards for the declarer are scored once (the options depend
    only on them), yet each world's likelihood is that of its own buried pair."""
    game = _heuristic_game(11, hand=False)
    seat = (game.declarer + 1) % 3
    view = player_view(game, seat)
    d = game.declarer
    true = World(tuple(game.hands), game.declarer_skat)
    held, buried = cards_of(game.hands[d]), cards_of(game.declarer_skat)
    swapped = []
    for a, b in ((held[0], buried[0]), (held[3], buried[1]), (held[5], buried[0])):
        hands = list(game.hands)
        hands[d] = game.hands[d] & ~(1 << a) | (1 << b)
        swapped.append(World(tuple(hands), game.declarer_skat & ~(1 << b) | (1 << a)))
    other = WorldSampler(view).sample(np.random.default_rng(1), 3)
    worlds = [true, *swapped, true, other[0], *other, swapped[1]]
    got = DeclarerInference(view, _toy_score, temperature=15.0).log_likelihoods(worlds)
    want = [_reference(view, w, 15.0) for w in worlds]
    assert np.allclose(got, want)
    assert len(set(np.round(got[:4], 9))) > 1  # the same twelve, different discards


def test_no_weighting_for_the_declarer_or_an_open_hand() -> None:
    game = _heuristic_game(3)
    worlds_view = player_view(game, game.declarer)
    worlds = WorldSampler(worlds_view).sample(np.random.default_rng(1), 4)
    assert list(DeclarerInference(worlds_view, _toy_score).weights(worlds)) == [1.0] * 4
    ouvert = _play_to_first_card(["pass", "pass", "18", "hand", "null ouvert"])
    view = player_view(ouvert, (ouvert.declarer + 1) % 3)
    assert ouvert.contract.ouvert and not view.is_declarer
    ws = WorldSampler(view).sample(np.random.default_rng(1), 4)
    assert list(DeclarerInference(view, _toy_score).weights(ws)) == [1.0] * 4
    with pytest.raises(ValueError, match="temperature"):
        DeclarerInference(view, _toy_score, temperature=0)


@pytest.mark.slow
def test_learned_model_puts_trumps_with_the_declarer_and_likes_the_true_deal() -> None:
    """Over heuristic games, a defender's weighted worlds give the declarer a trump count
    closer to the true one than uniform worlds, and rank the true world high."""
    rng = np.random.default_rng(5)
    err_uniform, err_weighted, rank = [], [], []
    for s in range(0, 400, 20):
        game = _heuristic_game(s)
        d = game.declarer
        view = player_view(game, (d + 1) % 3)
        worlds = WorldSampler(view).sample(rng, 100)
        inf = DeclarerInference(view, contract_scorer())
        w = inf.weights(worlds)
        g = game.contract.game
        mask = EFFECTIVE_SUIT_MASK[g][TRUMP] if g < 4 else JACKS if g == 4 else 0x01010101
        true = (game.hands[d] & mask).bit_count()
        held = np.array([(x.hands[d] & mask).bit_count() for x in worlds])
        err_uniform.append(abs(held.mean() - true))
        err_weighted.append(abs((w * held).sum() / w.sum() - true))
        ll = inf.log_likelihoods(worlds)
        true_ll = inf.log_likelihoods([World(tuple(game.hands), game.declarer_skat)])[0]
        rank.append((ll < true_ll).mean())
    assert np.mean(err_weighted) < np.mean(err_uniform) - 0.5
    assert np.mean(rank) > 0.75


def test_sample_worlds_takes_the_defence_inference() -> None:
    game = _heuristic_game(40, hand=False)
    view = player_view(game, (game.declarer + 1) % 3)
    inf = DeclarerInference(view, contract_scorer())
    ws = sample_worlds(view, 6, np.random.default_rng(2), inf)
    assert 1 <= len(ws) <= 6 and abs(sum(w for _, w in ws) - 1) < 1e-9
