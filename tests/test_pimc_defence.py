"""The pimc agent's card choice: the defenders' world weighting by the declaration (dinfer)
from trick 2, the near-tie windows that give close cards to the heuristic's conventions (the
defenders) or to the network's favourite (the declarer of a suit game or grand)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from skat_env.agents import heuristic as h
from skat_env.agents.pimc import (
    NETWORK_WINDOW,
    TIE_NETWORK,
    PimcAgent,
    _network,
    network_favourite,
    parse_options,
)
from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.core.cards import cards_of
from skat_env.core.game import PLAY, Game
from skat_env.core.scoring import Contract
from skat_env.core.tables import NULL
from skat_env.encoding.observation import observation_of
from skat_env.encoding.view import player_view
from skat_env.search import pimc as search
from skat_env.search.inference import DeclarerInference
from skat_env.search.pimc import TIE_WINDOW, first_choice, pick_card


def _heuristic_game(seed: int) -> Game:
    heu = make_agent("heuristic")
    for s in range(seed, seed + 500):
        game = Game.random(s, dealer=s % 3)
        while game.phase < PLAY and not game.is_over:
            game.step(heu.act_view(player_view(game, game.to_act)))
        if not game.is_over and not game.contract.ouvert:
            return game
    raise AssertionError("no declared game")


def _searches_of_each_seat(monkeypatch, spec: str, tricks: int = 1) -> list[tuple]:
    """(is declarer, config, weigher) of the search that ``spec`` asks for a card, from each
    seat's view once ``tricks`` tricks are complete (the search itself replaced by a spy)."""
    seen = []

    def spy(view, rng, config, solver, tie_break=None, weigher=None, window=None):
        seen.append((view.is_declarer, config, weigher))
        return cards_of(view.hand)[0], {}

    monkeypatch.setattr(search, "choose_card", spy)
    agent = make_agent(spec, seed=1)
    game = _heuristic_game(20)
    while sum(game.tricks_won) < tricks:
        game.step(h.choose_card(player_view(game, game.to_act)))
    for seat in range(3):
        agent.play_card(player_view(game, seat))
    return seen


def test_dinfer_and_the_defenders_card() -> None:
    assert parse_options("").defence_inference  # the default, from trick 2
    assert not parse_options("dinfer=0").defence_inference
    for bad in ("pimc:dinfer=2", "pimc:dinfer=true", "pimc:dinfer=partner"):
        with pytest.raises(AgentSpecError, match="dinfer must be 0 or 1"):
            make_agent(bad)
    game = _heuristic_game(60)
    view = player_view(game, game.to_act)
    agent = make_agent("pimc:fast,play_only,dinfer=1", seed=4)
    assert isinstance(agent, PimcAgent)
    card = agent.act_view(view)
    assert view.legal_mask >> card & 1
    assert agent.act_view(view) == card  # a seed and a view give one card


def test_window_gives_near_ties_to_the_tie_break_card() -> None:
    game = _heuristic_game(8)
    view = player_view(game, game.to_act)  # forehand: leads, several legal cards
    legal = cards_of(view.legal_mask)
    conv = h.choose_card(view)
    assert len(legal) > 2 and conv in legal and TIE_WINDOW == 1.0
    sign = 1.0 if view.is_declarer else -1.0
    best = next(c for c in legal if c != conv)
    values = {c: sign * (-20.0 if c != best else 0.0) for c in legal}
    values[conv] = sign * -5.0  # 5 points worse than the best card: not a near-tie
    heuristic = first_choice(h.choose_card)
    assert pick_card(view, values, heuristic) == best
    values[conv] = sign * -1.0  # within the window: the tie-break's card
    assert pick_card(view, values, heuristic) == conv
    assert pick_card(view, values, heuristic, window=0.5) == best  # a narrower window
    assert pick_card(view, values, None) == best  # no tie-break: the best


def test_only_the_defenders_weigh_worlds_and_only_the_declarer_plays_close(monkeypatch) -> None:
    seen = _searches_of_each_seat(monkeypatch, "pimc:fast,play_only")
    got = sorted((d, config.close, type(weigher).__name__) for d, config, weigher in seen)
    assert got == [(False, 0, "DeclarerInference"), (False, 0, "DeclarerInference"),
                   (True, 10, "NoneType")]  # fmt: skip
    seen = _searches_of_each_seat(monkeypatch, "pimc:fast,play_only,dinfer=0")
    assert all(weigher is None for _, _, weigher in seen)


def test_the_declarers_near_ties_go_to_the_networks_favourite(monkeypatch) -> None:
    seen = []

    def spy(view, rng, config, solver, tie_break=None, weigher=None, window=None):
        seen.append((view.is_declarer, tie_break, window))
        return cards_of(view.hand)[0], {}

    monkeypatch.setattr(search, "choose_card", spy)
    agent = make_agent("pimc:fast,play_only", seed=1)
    game = next(g for g in map(_heuristic_game, range(0, 600, 20)) if g.contract.game != NULL)
    for seat in range(3):
        agent.play_card(player_view(game, seat))
    by_seat = {d: (tie, window) for d, tie, window in seen}
    assert by_seat[True] == (network_favourite, NETWORK_WINDOW) and NETWORK_WINDOW > TIE_WINDOW
    assert by_seat[False][0] is not network_favourite and by_seat[False][1] == TIE_WINDOW
    declarer = player_view(game, game.declarer)
    late = replace(declarer, tricks=(5, 0, 0))  # exact points from here: the heuristic's card
    for view in (replace(declarer, contract=Contract(NULL)), late):  # the network knows no null
        seen.clear()
        agent.play_card(view)
        assert seen[0][0] and seen[0][1] is not network_favourite and seen[0][2] == TIE_WINDOW
    agent.play_card(replace(declarer, tricks=(4, 0, 0)))  # six tricks left: still the network
    assert seen[-1][1:] == (network_favourite, NETWORK_WINDOW)
    view = player_view(game, game.declarer)
    legal = cards_of(view.legal_mask)
    logits = _network().logits(observation_of(view)["observation"][None])[0]
    for top in (legal, legal[1:], legal[:1]):
        if top:
            assert logits[network_favourite(view, top)] == max(logits[c] for c in top)


def test_defenders_weigh_worlds_only_from_trick_two() -> None:
    agent = make_agent("pimc:fast,play_only", seed=1)  # the default: dinfer=1
    game = _heuristic_game(20)
    defender = next(s for s in range(3) if s != game.declarer)
    assert agent._weigher(player_view(game, defender)) is None
    while sum(game.tricks_won) < 1:
        game.step(h.choose_card(player_view(game, game.to_act)))
    assert isinstance(agent._weigher(player_view(game, defender)), DeclarerInference)
    assert agent._weigher(player_view(game, game.declarer)) is None


def test_a_bidder_spec_with_commas_goes_in_brackets() -> None:
    opts = parse_options("fast,bidder=[learned:model=search,nulls=0]")
    assert opts.bidder == "learned:model=search,nulls=0" and opts.worlds == 4
    agent = make_agent("pimc:bidder=[learned:nulls=0,margin=30],fast")
    assert not agent.bidder.decider.nulls and agent.bidder.decider.margin == 30.0
    assert agent.options.worlds == 4  # options after the brackets are pimc's
    with pytest.raises(AgentSpecError, match="in brackets"):
        make_agent("pimc:fast,bidder=learned:nulls=0,margin=30")


def test_the_tie_network_is_the_one_the_search_was_measured_with() -> None:
    """A newer shipped ``ppo`` must not change how the search plays (and the panel's search
    opponents with it): TIE_NETWORK keeps pointing at these weights, by their dated file."""
    digest = hashlib.sha256(TIE_NETWORK.read_bytes()).hexdigest()
    assert digest == "6abc9db9563a20776b0646b24b1e67baf1f2e31ff4f678b976bafde52839d322"
