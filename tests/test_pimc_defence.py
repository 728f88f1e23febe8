"""The pimc agent's defender options: dinfer (world weighting), dtie (convention window)."""

from __future__ import annotations

import pytest

from skat_env.agents import heuristic as h
from skat_env.agents.pimc import PimcAgent, parse_options
from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.core.cards import cards_of
from skat_env.core.game import PLAY, Game
from skat_env.encoding.view import player_view
from skat_env.search import pimc as search
from skat_env.search.pimc import pick_card


def _heuristic_game(seed: int) -> Game:
    heu = make_agent("heuristic")
    for s in range(seed, seed + 500):
        game = Game.random(s, dealer=s % 3)
        while game.phase < PLAY and not game.is_over:
            game.step(heu.act_view(player_view(game, game.to_act)))
        if not game.is_over and not game.contract.ouvert:
            return game
    raise AssertionError("no declared game")


def _searches_of_each_seat(monkeypatch, spec: str) -> list[tuple]:
    """(is declarer, window, weigher) of the search that ``spec`` asks for a card, from each
    seat's view of one game (the search itself replaced by a spy)."""
    seen = []

    def spy(view, rng, config, solver, hand_value=None, tie_break=None, weigher=None, window=1):
        seen.append((view.is_declarer, window, weigher))
        return cards_of(view.hand)[0], {}

    monkeypatch.setattr(search, "choose_card", spy)
    agent = make_agent(spec, seed=1)
    game = _heuristic_game(20)
    for seat in range(3):
        agent.play_card(player_view(game, seat))
    return seen


def test_spec_options_and_the_defenders_card() -> None:
    opts = parse_options("fast,dinfer=1,dtemp=10,pool=8")
    assert (opts.defence_inference, opts.defence_temperature, opts.pool) == ("declarer", 10.0, 8)
    assert parse_options("dinfer=partner").defence_inference == "partner"
    assert parse_options("dinfer=both").defence_inference == "both"
    assert opts.card_config().pool == 8
    assert parse_options("").defence_inference == "declarer"  # the default, from trick 2
    assert not parse_options("dinfer=0").defence_inference
    for bad in ("pimc:dinfer=2", "pimc:dinfer=true", "pimc:dtemp=0", "pimc:pool=0", "pimc:dtemp=x"):
        with pytest.raises(AgentSpecError, match="pimc"):
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
    assert len(legal) > 2 and conv in legal
    sign = 1.0 if view.is_declarer else -1.0
    best = next(c for c in legal if c != conv)
    values = {c: sign * (-20.0 if c != best else 0.0) for c in legal}
    values[conv] = sign * -5.0  # 5 points worse than the best card
    assert pick_card(view, values, h.choose_card) == best  # default window 1
    assert pick_card(view, values, h.choose_card, window=5.0) == conv
    assert pick_card(view, values, h.choose_card, window=4.9) == best
    assert pick_card(view, values, None, window=50.0) == best  # no tie-break: the best


def test_dtie_and_dinfer_apply_to_defenders_only(monkeypatch) -> None:
    assert parse_options("dtie=15").defence_window == 15.0
    assert parse_options("").defence_window == 1.0
    with pytest.raises(AgentSpecError, match="pimc"):
        make_agent("pimc:dtie=-1")
    seen = _searches_of_each_seat(monkeypatch, "pimc:fast,play_only,dtie=15,dfrom=0")
    got = sorted((d, window, weigher is not None) for d, window, weigher in seen)
    assert got == [(False, 15.0, True), (False, 15.0, True), (True, 1.0, False)]


def test_pinfer_weighs_worlds_by_the_declarers_cards_for_defenders_only(monkeypatch) -> None:
    opts = parse_options("pinfer=1,ppen=3")
    assert opts.play_inference and opts.play_penalty == 3.0
    assert not parse_options("").play_inference
    for bad in ("pimc:pinfer=2", "pimc:ppen=0", "pimc:ppen=x"):
        with pytest.raises(AgentSpecError, match="pimc"):
            make_agent(bad)
    seen = _searches_of_each_seat(monkeypatch, "pimc:fast,play_only,pinfer=1,dinfer=0,dfrom=0")
    got = sorted((d, type(weigher).__name__) for d, _, weigher in seen)
    assert got == [(False, "PlayInference"), (False, "PlayInference"), (True, "NoneType")]


def test_dfrom_weighs_the_defenders_worlds_only_once_k_tricks_are_complete() -> None:
    assert parse_options("dfrom=2").weigh_from == 2 and parse_options("").weigh_from == 1
    for bad in ("pimc:dfrom=-1", "pimc:dfrom=x", "pimc:dfrom=1.5"):
        with pytest.raises(AgentSpecError, match="pimc"):
            make_agent(bad)
    agent = make_agent("pimc:fast,play_only", seed=1)  # the default: dinfer=1,dfrom=1
    plain = make_agent("pimc:fast,play_only,dfrom=0", seed=1)
    game = _heuristic_game(20)
    defender = next(s for s in range(3) if s != game.declarer)
    assert agent._weigher(player_view(game, defender)) is None
    assert plain._weigher(player_view(game, defender)) is not None
    while sum(game.tricks_won) < 1:
        game.step(h.choose_card(player_view(game, game.to_act)))
    assert agent._weigher(player_view(game, defender)) is not None
    assert agent._weigher(player_view(game, game.declarer)) is None


def test_bidder_is_the_last_option_and_keeps_its_commas() -> None:
    opts = parse_options("fast,pinfer=1,bidder=learned:model=search,nulls=0")
    assert opts.bidder == "learned:model=search,nulls=0"
    assert opts.worlds == 4 and opts.play_inference
    agent = make_agent("pimc:fast,bidder=learned:nulls=0,margin=30")
    assert not agent.bidder.decider.nulls and agent.bidder.decider.margin == 30.0
    with pytest.raises(AgentSpecError, match="heuristic,fast"):  # bidder= not last
        make_agent("pimc:bidder=heuristic,fast")


def test_dlead_leads_the_heuristics_card_in_the_first_tricks(monkeypatch) -> None:
    """``dlead=K``: a defender's lead in the first K tricks is the heuristic's card, unsearched;
    the declarer's cards, the defenders' other cards and later leads are searched."""
    assert parse_options("dlead=2").defence_leads == 2
    with pytest.raises(AgentSpecError, match="dlead"):
        make_agent("pimc:dlead=-1")
    searched = []

    def spy(view, rng, config, solver, hand_value=None, tie_break=None, weigher=None, window=1):
        searched.append(view)
        return cards_of(view.legal_mask & 0xFFFFFFFF)[-1], {}

    monkeypatch.setattr(search, "choose_card", spy)
    agent, leads = make_agent("pimc:fast,play_only,dlead=1", seed=1), 0
    for seed in range(30):
        game = _heuristic_game(100 + 7 * seed)
        while not game.is_over:
            view = player_view(game, game.to_act)
            before = len(searched)
            move = agent.act_view(view)
            unsearched = len(searched) == before
            if not view.is_declarer and not view.trick and sum(view.tricks) < 1:
                assert unsearched and move == h.choose_card(view)
                leads += 1
            else:
                assert not unsearched
            game.step(move)
    assert leads > 10
