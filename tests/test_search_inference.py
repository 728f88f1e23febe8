"""Defender inference (skat_env/search/inference.py): the soft-max declarer choice, checked
against a plain loop over every option, and the learned model's weights moving the right way."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from skat_env.agents.pimc import contract_scorer
from skat_env.agents.registry import make_agent
from skat_env.core.cards import cards_of
from skat_env.core.game import PLAY, Game
from skat_env.core.tables import EFFECTIVE_SUIT_MASK, JACKS, TRUMP
from skat_env.core.tricks import legal_cards
from skat_env.encoding.observation import LAYOUT, encode
from skat_env.encoding.view import player_view, without_history
from skat_env.search.inference import KINDS, DeclarerInference, PlayMemory, PolicyInference
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


# --- the play model's inference ---


def _played_out(seed: int, stop: int) -> tuple[Game, list[Game]]:
    """A heuristic game stopped after ``stop`` cards, and the game before each card."""
    agent = make_agent("heuristic")
    game, before = Game.random(seed), []
    while not game.is_over and len(game.history) < 200:
        if game.phase == PLAY:
            if len(before) == stop:
                break
            before.append(game.copy())
        game.step(agent.act_view(player_view(game, game.to_act)))
    return game, before


def _toy_logits(obs: np.ndarray) -> np.ndarray:
    """A made-up model of play: fixed random weights over the observation."""
    w = np.random.default_rng(0).normal(size=(obs.shape[1], 121)).astype(np.float32)
    return obs @ w * 0.05


@pytest.mark.parametrize("seed", range(6))
def test_play_rows_are_the_observations_each_seat_had(seed: int) -> None:
    """With the true deal filled in, each row is the encoded view of the seat that played."""
    game, before = _played_out(seed, stop=17)
    if len(before) < 17:
        pytest.skip("passed in")
    observer = (game.declarer + 1) % 3
    pi = PolicyInference(player_view(game, observer), _toy_logits)
    assert [s for _, s, _ in pi.moves] == [
        s for s, _ in player_view(game, observer).play_sequence if s != observer
    ]
    for row, (k, seat, _) in zip(pi.rows, pi.moves, strict=True):
        true = encode(player_view(before[k], seat))
        filled = row.copy()
        hidden = ("hand", "skat", "discarded") if seat == game.declarer else ("hand",)
        for name in hidden:
            filled[LAYOUT[name]] = true[LAYOUT[name]]
        assert np.array_equal(filled, true)


@pytest.mark.parametrize("seed", range(4))
def test_play_log_likelihood_matches_a_loop_over_worlds_and_cards(seed: int) -> None:
    """Per world: the sum over the other seats' cards of the played card's log soft-max
    among that seat's legal cards in the world, as a loop over views computes it."""
    game, _ = _played_out(seed + 10, stop=14)
    if game.declarer is None or game.declarer < 0:
        pytest.skip("passed in")
    view = player_view(game, (game.declarer + 2) % 3)
    worlds = WorldSampler(view).sample(np.random.default_rng(seed), 5)
    pi = PolicyInference(view, _toy_logits, exponent=0.7)
    got = pi.log_likelihoods(worlds)
    for w, value in zip(worlds, got, strict=True):
        total = 0.0
        for k, seat, card in pi.moves:
            later = sum(
                1 << c for j, (s, c) in enumerate(view.play_sequence) if s == seat and j >= k
            )
            v = pi._view_at(k)
            hand = w.hands[seat] | later
            led = view.play_sequence[k - k % 3][1] if k % 3 else -1
            legal = legal_cards(hand, view.contract.game, led)
            pickup = seat == view.declarer and not view.hand_game
            v = replace(
                v, hand=hand, skat=w.skat if pickup else 0, discarded=w.skat if pickup else 0
            )
            z = _toy_logits(encode(v)[None])[0, :32].astype(np.float64)
            cards = [c for c in range(32) if legal >> c & 1]
            total += z[card] - math.log(sum(math.exp(z[c]) for c in cards))
        assert value == pytest.approx(0.7 * total, rel=1e-4, abs=1e-4)


def test_policy_inference_likes_the_true_deal_of_a_player_like_its_model() -> None:
    """Seats that play like the model: the true deal outranks most sampled worlds."""
    from skat_env.agents.ppo import PPOAgent

    model = PPOAgent().policy
    ranks = []
    for seed in range(8):
        game, _ = _played_out(seed + 30, stop=15)
        if game.declarer is None or game.declarer < 0:
            continue
        view = player_view(game, (game.declarer + 1) % 3)
        worlds = WorldSampler(view).sample(np.random.default_rng(seed), 63)
        true = World(tuple(game.hands), game.declarer_skat)
        ll = PolicyInference(view, model.logits).log_likelihoods([*worlds, true])
        ranks.append(float((ll[:-1] < ll[-1]).mean()))
    assert len(ranks) >= 5 and np.mean(ranks) > 0.6


@pytest.mark.parametrize("seed", range(8))
def test_play_memory_rebuilds_the_order_from_views_without_history(seed: int) -> None:
    """A seat fed its views (no history) at each of its card plays knows the play order."""
    agent = make_agent("heuristic")
    game = Game.random(seed + 50)
    memories = [PlayMemory() for _ in range(3)]
    shared = PlayMemory()  # one memory for all three seats, as one agent in two seats
    checked = 0
    while not game.is_over:
        seat = game.to_act
        view = player_view(game, seat)
        if game.phase == PLAY:
            bare = without_history(view)
            assert memories[seat].sequence(bare) == view.play_sequence
            assert shared.sequence(bare) == view.play_sequence
            checked += 1
        game.step(agent.act_view(view))
    assert checked == (0 if game.result.passed_in else 30)


def test_play_memory_gives_up_after_a_missed_turn() -> None:
    agent = make_agent("heuristic")
    game, _ = _played_out(3, stop=0)
    memory = PlayMemory()
    turns = 0
    while not game.is_over:
        view = player_view(game, game.to_act)
        if game.phase == PLAY and game.to_act == 0:
            turns += 1
            if turns != 2:  # the second turn is not seen
                got = memory.sequence(without_history(view))
                assert got == (view.play_sequence if turns == 1 else None)
        game.step(agent.act_view(view))
    assert turns == 10
