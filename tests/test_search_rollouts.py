"""Playouts (skat_env.search.rollouts) and the game rebuilt in its card play (Game.in_play)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.agents import heuristic as h
from skat_env.agents.pimc import parse_options
from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.core.cards import FULL_DECK, cards_of
from skat_env.core.game import PLAY, DealError, Game
from skat_env.encoding.view import player_view, without_history
from skat_env.search import rollouts
from skat_env.search.rollouts import play_out, rollout_values, world_game
from skat_env.search.worlds import World, sample_worlds


def _game_in_play(seed: int, cards_played: int, moves=None) -> Game | None:
    """A heuristic game (random card play when ``moves`` is None) stopped after
    ``cards_played`` cards, or None when passed in or over by then."""
    rng = random.Random(seed)
    game = Game.random(seed, dealer=seed % 3)
    heu = h.HeuristicAgent()
    while not game.is_over and not (game.phase == PLAY and len(game.plays) == cards_played):
        if game.phase < PLAY or moves is None:
            game.step(heu.act_view(player_view(game, game.to_act)))
        else:
            game.step(rng.choice(game.legal_actions()))
    return None if game.is_over else game


def _true_world(game: Game) -> World:
    return World(tuple(game.hands), game.declarer_skat)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 29), st.booleans())
def test_world_game_of_the_true_deal_is_the_game(seed: int, cards: int, randomly: bool) -> None:
    game = _game_in_play(seed, cards, moves=True if randomly else None)
    if game is None:
        return
    view = without_history(player_view(game, game.to_act))
    rebuilt = world_game(view, _true_world(game))
    for seat in range(3):  # every seat sees the same, but for the declarer's original skat
        a, b = (without_history(player_view(g, seat)) for g in (game, rebuilt))
        assert replace(a, skat=0) == replace(b, skat=0)
    rng = random.Random(seed)
    while not game.is_over:  # and the same moves give the same result
        move = rng.choice(game.legal_actions())
        game.step(move)
        rebuilt.step(move)
    assert rebuilt.result == game.result


def test_in_play_refuses_a_bad_deal_and_bid() -> None:
    game = _game_in_play(3, 4)
    assert game is not None
    args = dict(dealer=game.dealer, declarer=game.declarer, contract=game.contract,
                bid=game.bid, bids=game.bids, hands=game.hands, skat=game.declarer_skat,
                played=game.played, trick=game.trick, leader=game.trick_leader,
                points=game.points_won, tricks=game.tricks_won, voids=game.voids)  # fmt: skip
    assert Game.in_play(**args).legal_mask() == game.legal_mask()
    with pytest.raises(DealError, match="32 cards"):
        Game.in_play(**{**args, "hands": [game.hands[0], game.hands[0], game.hands[2]]})
    with pytest.raises(DealError, match="32 cards"):
        Game.in_play(**{**args, "skat": game.declarer_skat & -game.declarer_skat})
    with pytest.raises(ValueError, match="bid 19"):
        Game.in_play(**{**args, "bid": 19})


def test_play_out_scores_the_declarer_minus_the_defenders() -> None:
    for seed in range(40):
        game = _game_in_play(seed, 0)
        if game is None:
            continue
        g = game.copy()
        utility = play_out(g, h.choose_card)
        sf = g.result.seeger_fabian
        d = g.result.declarer
        assert utility == sf[d] - sum(sf[s] for s in range(3) if s != d)
        assert utility > 0 if g.result.won else utility < 0


def test_rollout_values_average_the_playouts_of_each_card() -> None:
    game = _game_in_play(11, 3)
    assert game is not None
    view = without_history(player_view(game, game.to_act))
    rng = np.random.default_rng(0)
    worlds = sample_worlds(view, 6, rng)
    values = rollout_values(view, worlds, h.choose_card)
    assert sorted(values) == cards_of(view.legal_mask & FULL_DECK)
    for card in values:  # a plain loop over the worlds gives the same means
        total = 0.0
        for world, w in worlds:
            g = world_game(view, world)
            g.step(card)
            total += w * play_out(g, h.choose_card)
        assert values[card] == pytest.approx(total)


def test_droll_option_routes_the_defenders_early_cards_to_playouts(monkeypatch) -> None:
    assert parse_options("droll=2").defence_rollouts == 2
    assert parse_options("").defence_rollouts == 0
    for bad in ("pimc:droll=-1", "pimc:droll=x"):
        with pytest.raises(AgentSpecError, match="droll"):
            make_agent(bad)
    calls = []
    real = rollouts.rollout_values

    def spy(view, worlds, policy):
        calls.append(view.is_declarer)
        return real(view, worlds, policy)

    monkeypatch.setattr("skat_env.agents.pimc.rollout_values", spy)
    agent = make_agent("pimc:fast,play_only,droll=1", seed=2)
    game = next(g for s in range(7, 100) if (g := _game_in_play(s, 0)) and not g.contract.ouvert)
    while not game.is_over:
        view = without_history(player_view(game, game.to_act))
        card = agent.act_view(view)
        assert view.legal_mask >> card & 1
        game.step(card)
    assert calls and not any(calls)  # defenders only
    assert len(calls) <= 2  # trick 1 only: at most one card each
