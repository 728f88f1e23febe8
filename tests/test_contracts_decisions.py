"""Learned contract decisions: legal in every phase, consistent with the model, by spec."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_contracts import tiny_model

from skat_env.agents.contract_model import HAND_FEATURES, KINDS, expected_utility, matadors_of
from skat_env.agents.contracts import ContractDecider, LearnedContractsAgent
from skat_env.agents.registry import make_agent
from skat_env.core.cards import cards_of
from skat_env.core.game import BIDDING, PLAY, Game
from skat_env.core.moves import PASS
from skat_env.core.tables import BID_VALUES
from skat_env.envs.policy import decide


def play(game: Game, agent, seats: set[int], rng: random.Random, pass_rate: float) -> set[int]:
    """Play to the end: ``agent`` in ``seats``, random legal moves elsewhere (passing in the
    auction with ``pass_rate``); Game.step raises on any illegal move. Returns the phases the
    agent acted in."""
    phases = set()
    while not game.is_over:
        seat = game.to_act
        if seat in seats:
            phases.add(game.phase)
            game.step(decide(agent, game, seat))
        elif game.phase == BIDDING and rng.random() < pass_rate:
            game.step(PASS)
        else:
            game.step(rng.choice(game.legal_actions()))
    return phases


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.sampled_from([-1000.0, 0.0, 30.0]),
    st.integers(0, 5),
)
def test_every_decision_is_legal_in_random_auctions(seed, dealer, seat, pass_rate, margin, m):
    # margin -1000 bids to the top of the ladder, so the agent also declares at huge bids
    decider = ContractDecider(tiny_model(m), skats=2, margin=margin)
    agent = LearnedContractsAgent(decider)
    game = Game.random(seed, dealer=dealer)
    play(game, agent, {seat}, random.Random(seed), pass_rate)
    assert game.result is not None


@pytest.mark.slow
def test_the_agent_reaches_every_phase_in_all_seats():
    agent = LearnedContractsAgent(ContractDecider(tiny_model(1), skats=2, margin=-1000.0))
    seen = set()
    for seed in range(12):
        seen |= play(Game.random(seed), agent, {0, 1, 2}, random.Random(seed), 0.0)
    assert seen == set(range(PLAY + 1))


@pytest.mark.slow
def test_the_discard_is_the_best_of_all_66_pairs_and_seven_contracts():
    decider = ContractDecider(tiny_model(2))
    twelve = sum(1 << c for c in np.random.default_rng(5).permutation(32)[:12].tolist())
    best = (-np.inf, None)
    for kind in range(KINDS):
        for a, b in combinations(cards_of(twelve), 2):
            pair = (1 << a) | (1 << b)
            p = decider.model.predict(np.array([twelve & ~pair]), np.array([pair]),
                                      np.array([kind]), np.array([0]), np.array([1]))  # fmt: skip
            mats = matadors_of(np.array([kind]), np.array([twelve]))
            u = expected_utility(p, np.array([kind]), np.array([0]), mats, 30)[0]
            best = max(best, (u, (kind, pair)), key=lambda t: t[0])
    assert decider.discard_plan(twelve, 1, 30) == best[1]


def test_bid_limit_is_where_the_value_curve_first_drops_below_the_margin():
    decider = ContractDecider(tiny_model(4), margin=0.0)
    for seed in range(20):
        ten = sum(1 << c for c in np.random.default_rng(seed).permutation(32)[:10].tolist())
        curve = decider.value_curve(ten, seed % 3)
        limit = decider.bid_limit(ten, seed % 3)
        below = [v for v, u in zip(BID_VALUES, curve, strict=True) if v <= limit]
        assert all(u > 0 for u in curve[: len(below)])
        assert limit == BID_VALUES[-1] or curve[len(below)] <= 0


def test_specs_name_the_learned_decisions():
    assert isinstance(make_agent("heuristic:contracts=learned"), LearnedContractsAgent)
    assert make_agent("learned:margin=4,skats=3").decider.skats == 3
    pimc = make_agent("pimc:fast,bidder=learned")
    assert isinstance(pimc.bidder, LearnedContractsAgent)


def test_pimc_uses_the_learned_decisions_by_default_and_the_search_on_request():
    from dataclasses import replace

    from skat_env.agents.contract_model import DEFAULT_MODEL, SEARCH_MODEL, ContractModel
    from skat_env.agents.pimc import PimcAgent, PimcOptions, parse_options

    search = ContractModel.load(SEARCH_MODEL)
    heuristic = ContractModel.load(DEFAULT_MODEL)
    assert search.meta["init"] and search.meta["dataset"]["card_player"].startswith("pimc")
    for agent in (make_agent("pimc:fast"), PimcAgent(0)):  # the search-trained model
        assert isinstance(agent.bidder, LearnedContractsAgent)
        assert all(np.array_equal(a, b) for a, b in zip(agent.bidder.decider.model.weights,
                                                        search.weights, strict=True))  # fmt: skip
    model = make_agent("learned").decider.model  # the heuristic-trained one stays learned's
    assert all(np.array_equal(a, b) for a, b in zip(model.weights, heuristic.weights, strict=True))
    assert not np.array_equal(search.weights[0], heuristic.weights[0])
    named = make_agent("pimc:fast,bidder=learned:model=heuristic").bidder.decider.model
    assert np.array_equal(named.weights[0], heuristic.weights[0])
    assert make_agent("pimc:fast,bidder=search").bidder is None
    assert parse_options("bidder=search").bidder == ""
    # the search's own contract decisions stay legal in every phase
    small = replace(PimcOptions(), worlds=2, budget=0.05, bid_worlds=1, cap=None, bidder="")
    agent = PimcAgent(0, small)
    seen = set()
    for seed in range(3):  # random opponents bid, so the search also plays cards
        seen |= play(Game.random(seed), agent, {0}, random.Random(seed), 0.0)
    assert PLAY in seen and BIDDING in seen


def test_nulls_off_never_plans_or_declares_null():
    decider = ContractDecider(tiny_model(6), nulls=False)
    assert make_agent("learned:nulls=0").decider.nulls is False
    for seed in range(10):
        deck = np.random.default_rng(seed).permutation(32).tolist()
        twelve = sum(1 << c for c in deck[:12])
        assert decider.discard_plan(twelve, seed % 3, 18)[0] < 5
    agent = LearnedContractsAgent(
        ContractDecider(tiny_model(6), skats=2, margin=-1000.0, nulls=False)
    )
    for seed in range(6):
        game = Game.random(seed)
        play(game, agent, {0, 1, 2}, random.Random(seed), 0.0)
        assert game.result.passed_in or not game.result.contract.startswith("null")


class _Spy:
    """A model that records the auction inputs it is asked with (delegating to a tiny one)."""

    def __init__(self, model):
        self.model, self.asked = model, []

    def predict(self, kept, buried, kind, hand, position, opponents=None):
        self.asked.append(opponents)
        return self.model.predict(kept, buried, kind, hand, position, opponents)


@pytest.mark.slow
def test_the_opponents_bids_reach_the_model_once_the_auction_is_over():
    for auction in (True, False):
        spy = _Spy(tiny_model(2))
        agent = LearnedContractsAgent(ContractDecider(spy, skats=2, margin=-1000.0,
                                                      auction=auction))  # fmt: skip
        after = set()  # the opponents' bids of the post-auction decisions seen
        for seed in range(40):
            game = Game.random(seed, dealer=seed % 3)
            seat = (game.dealer + 1 + seed) % 3
            rng, asked = random.Random(seed), []
            while not game.is_over and game.phase != PLAY:
                s, phase = game.to_act, game.phase
                if s != seat:  # the others bid a little, then pass
                    quiet = phase == BIDDING and (game.bid >= 30 or rng.random() < 0.4)
                    game.step(PASS if quiet else rng.choice(game.legal_actions()))
                    continue
                spy.asked.clear()
                bids = tuple(sorted((game.bids[o] for o in range(3) if o != seat), reverse=True))
                game.step(decide(agent, game, s))
                asked += [(phase, bids, a) for a in spy.asked]
            for phase, bids, opp in asked:  # not known while bidding, nor with auction=0
                assert opp == (bids if auction and phase != BIDDING else None), (phase, opp)
                if phase != BIDDING:
                    after.add(bids)
        assert len(after) > 2  # several auctions, some with the opponents' bids
    assert make_agent("learned:auction=0").decider.auction is False


def test_a_model_without_the_auction_inputs_is_never_asked_with_bids():
    old = tiny_model(3, HAND_FEATURES)
    assert ContractDecider(old).auction is False and ContractDecider(tiny_model(3)).auction
    assert make_agent("learned").decider.auction is False  # the shipped model: 81 inputs
