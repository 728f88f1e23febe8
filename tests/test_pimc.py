"""agents/pimc.py, the PIMC player: legal in every phase, deterministic for a seed, blind to
hidden cards (the search itself: tests/test_search_pimc.py)."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from skat_env.agents.base import view_of
from skat_env.agents.pimc import PimcAgent, PimcOptions, parse_options, view_key
from skat_env.agents.registry import AgentSpecError, make_agent
from skat_env.core.game import PLAY, Game
from skat_env.core.moves import MOVE_NAMES
from skat_env.encoding.observation import observe
from skat_env.encoding.view import player_view

SMALL = PimcOptions(worlds=2, budget=0.05, bid_worlds=1, cap=None)


def _play(game: Game, agents: list, moves: list[int] | None = None) -> list[int]:
    """Play to the end from observation dicts as the env builds them; the moves made."""
    made = []
    while not game.is_over:
        seat = game.to_act
        obs = observe(game, seat)
        move = agents[seat].act(obs)
        assert obs["action_mask"][move] == 1, f"illegal move {move} in phase {game.phase}"
        game.step(move)
        made.append(move)
    return made


@pytest.mark.slow
def test_legal_in_every_phase() -> None:
    """Random deals to the end, pimc in every seat: every move is legal; phases reached."""
    agent = PimcAgent(0, SMALL)
    phases = set()
    for i in range(4):
        game = Game.random(1000 + i, dealer=i % 3)
        agent.reset(i)
        while not game.is_over:
            phases.add(game.phase)
            obs = observe(game, game.to_act)
            move = agent.act(obs)
            assert obs["action_mask"][move] == 1
            game.step(move)
    assert PLAY in phases


@pytest.mark.slow
def test_card_play_from_random_contracts() -> None:
    """Random auctions and declarations (any contract, null included), pimc plays cards."""
    rng = random.Random(5)
    agent = PimcAgent(1, SMALL)
    for i in range(6):
        game = Game.random(2000 + i, dealer=i % 3)
        while not game.is_over and game.phase != PLAY:
            game.step(rng.choice(game.legal_actions()))
        _play(game, [agent] * 3)
        assert game.result is not None


@pytest.mark.slow
def test_deterministic_for_a_seed() -> None:
    deal = Game.random(77).deal
    a = _play(Game(deal, 1), [PimcAgent(3, SMALL)] * 3)
    b = _play(Game(deal, 1), [PimcAgent(3, SMALL)] * 3)
    assert a == b


@pytest.mark.slow
def test_move_depends_on_the_observation_only() -> None:
    """A fresh agent given a mid-game observation makes the move the agent that played the
    whole game made (no hidden dependence on call history)."""
    deal = Game.random(78).deal
    game = Game(deal, 0)
    agents = [PimcAgent(4, SMALL) for _ in range(3)]
    checked = 0
    while not game.is_over:
        seat = game.to_act
        obs = observe(game, seat)
        move = agents[seat].act(obs)
        if len(game.history) % 7 == 0:
            assert PimcAgent(4, SMALL).act(obs) == move
            checked += 1
        game.step(move)
    assert checked >= 3


def _swap_hidden(game: Game, seat: int) -> Game | None:
    """The same move history on a deal where two cards ``seat`` cannot see trade places
    between the other hands (or the skat): None if no such swap replays legally."""
    view = player_view(game, seat)
    played = sum(view.played)
    seen = view.hand | played | view.skat | view.discarded | view.open_hand
    mine = (seat - game.dealer - 1) % 3  # my block of the deal (skat: block 3)
    deal = list(game.deal)
    for i in range(32):
        for j in range(i + 1, 32):
            a, b = deal[i], deal[j]
            blocks = {min(i // 10, 3), min(j // 10, 3)}
            if seen >> a & 1 or seen >> b & 1 or len(blocks) == 1 or mine in blocks:
                continue
            swapped = list(deal)
            swapped[i], swapped[j] = b, a
            other = Game(swapped, game.dealer)
            try:
                for _, m in game.history:
                    other.step(m)
            except ValueError:
                continue
            same = observe(other, seat)["observation"] == observe(game, seat)["observation"]
            if same.all():
                return other
    return None


def test_hidden_cards_do_not_change_the_move() -> None:
    rng = random.Random(9)
    agent = PimcAgent(5, SMALL)
    checked = 0
    for i in range(12):
        game = Game.random(3000 + i, dealer=i % 3)
        steps = rng.randrange(4, 30)
        for _ in range(steps):
            if game.is_over:
                break
            game.step(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        seat = game.to_act
        other = _swap_hidden(game, seat)
        if other is None:
            continue
        assert other.hands != game.hands or other.skat != game.skat
        assert agent.act(observe(game, seat)) == agent.act(observe(other, seat))
        checked += 1
    assert checked >= 3


def test_view_key_same_from_engine_and_observation() -> None:
    game = Game.random(4)
    rng = random.Random(4)
    for _ in range(20):
        game.step(rng.choice(game.legal_actions()))
        if game.is_over:
            break
        seat = game.to_act
        engine = player_view(game, seat)
        decoded = view_of(observe(game, seat))
        assert view_key(decoded) == view_key(engine)


def test_spec_options() -> None:
    """The spec's options, typed, a preset under explicit options, and the card-play
    searches they make: the declarer's with close worlds, the defenders' without."""
    assert parse_options("") == PimcOptions()
    assert parse_options("fast").worlds < PimcOptions().worlds
    for spec in (
        "fast,worlds=6,play_only,seconds=0.2,cap=off",
        "worlds=6,seconds=0.2,fast,cap=off,play_only",
    ):
        opts = parse_options(spec)
        assert (opts.worlds, opts.budget, opts.bid_worlds, opts.play_only) == (6, 0.2, 4, True)
        assert opts.cap is None and opts.card_config().cap is None
    assert parse_options("cap=1.5").cap == 1.5 and not parse_options("dinfer=0").defence_inference
    assert parse_options("bidder=search").bidder == "" and not parse_options("ouvert=0").ouvert
    nested = parse_options("worlds=16,bidder=[learned:model=search,margin=5,nulls=0]")
    assert nested.bidder == "learned:model=search,margin=5,nulls=0" and nested.worlds == 16
    declarer, defender = PimcOptions().card_config(True), PimcOptions().card_config(False)
    assert (declarer.close, defender.close) == (10, 0)
    assert declarer.budget == 3.5 and declarer.cap == max(1.0, 5 * 3.5)
    agent = make_agent("pimc:worlds=3", seed=2)
    assert isinstance(agent, PimcAgent) and agent.options.worlds == 3
    for bad, why in (
        ("pimc:worlds=0", "worlds must be an integer >= 1, got '0'"),
        ("pimc:seconds=x", "seconds must be a number >= 0.001"),
        ("pimc:turbo", "unknown pimc option 'turbo'"),
        ("pimc:wrlds=4", "did you mean worlds"),
        ("pimc:cap=0", "cap must be a number >= 0.001 or off"),
        ("pimc:bid_worlds=0", "bid_worlds must be an integer >= 1"),
        ("pimc:dinfer=partner", "dinfer must be 0 or 1"),
        ("pimc:bidder=pimc", "not pimc or human"),
        ("pimc:bidder=human", "not pimc or human"),
        ("pimc:bidder=", "bidder must be search or an agent spec"),
        ("pimc:bidder=nobody", "unknown agent 'nobody'"),
        ("pimc:bidder=[learned:margin=5", "unclosed '\\['"),
        ("pimc:bidder=learned:nulls=0,margin=5", "goes in brackets"),
        ("pimc:fast=1", "written fast"),
        ("pimc:worlds=2,worlds=3", "given twice"),
    ):
        with pytest.raises(AgentSpecError, match=why):
            make_agent(bad)


def test_removed_options_say_so() -> None:
    """Options measured not to help are gone, and the error says where they are recorded."""
    for old in ("infer=1", "dinfer=both", "droll=2", "pinfer=1", "dtie=15", "dclose=10",
                "close=0", "slip=0.3", "second=9", "dsecond=10", "dlead=1", "dtemp=10",
                "pool=8", "dfrom=0", "slack=0.5"):  # fmt: skip
        key = old.partition("=")[0]
        with pytest.raises(AgentSpecError, match="removed|dinfer must be 0 or 1") as e:
            make_agent(f"pimc:{old}")
        assert key in str(e.value) and "\n" not in str(e.value)


@pytest.mark.slow
def test_bidder_makes_every_decision_but_the_card_play() -> None:
    """``bidder=SPEC``: the named agent's moves before the play, the search's during it
    (a view agent through its view, others through the observation dict)."""
    heuristic, rand = make_agent("heuristic"), make_agent("random", seed=5)
    cases = [("pimc:fast,bidder=heuristic", heuristic), ("pimc:fast,play_only", heuristic),
             ("pimc:fast,bidder=random", rand)]  # fmt: skip
    for spec, other in cases:
        agent = make_agent(spec, seed=5)
        played = 0
        for seed in range(6):
            game = Game.random(seed, dealer=seed % 3)
            agent.reset(seed)
            other.reset(seed)
            while not game.is_over:
                obs = observe(game, game.to_act)
                move = agent.act(obs)
                if game.phase != PLAY:
                    assert move == other.act(obs), (spec, game.phase)
                else:
                    played += 1
                game.step(move)
        assert played > 0


def _declare_hand(forehand_cards: str, agent: PimcAgent) -> str:
    """Forehand holds ``forehand_cards`` (the rest dealt in card order), the others pass,
    he plays a hand game: the declaration ``agent`` makes."""
    from skat_env.core.cards import CARD_NAMES

    mine = forehand_cards.split()
    game = Game(mine + [c for c in CARD_NAMES if c not in mine], dealer=2)
    for move in ["pass", "pass", "18", "hand"]:
        game.play(move)
    return MOVE_NAMES[agent.act(observe(game, game.to_act))]


def test_a_sure_schwarz_hand_is_declared_ouvert() -> None:
    """A hand game the declarer wins with every trick in every sampled world is declared
    ouvert (its game kind kept); one that can lose a trick, or ``ouvert=0``, is not."""
    sure = "CJ SJ HJ DJ CA CT CK SA ST SK"  # grand: four jacks, then two solid suits
    assert _declare_hand(sure, make_agent("pimc:fast,bidder=heuristic", seed=1)) == "grand ouvert"
    assert _declare_hand(sure, make_agent("pimc:fast,ouvert=0,bidder=heuristic", seed=1)) == "grand"
    leaky = "CJ SJ HJ DJ CA CT CK SA ST S7"  # the spade seven can be beaten
    assert _declare_hand(leaky, make_agent("pimc:fast,bidder=heuristic", seed=1)) == "grand"
    # the learned bidder's hand game with this hand becomes ouvert too, whatever its kind
    move = _declare_hand(sure, make_agent("pimc:fast", seed=1))
    assert move.endswith(" ouvert") and move != "null ouvert"
    with pytest.raises(AgentSpecError, match="ouvert=0|1"):
        make_agent("pimc:ouvert=2")


@pytest.mark.slow
def test_copies_share_the_solver_and_play_alike() -> None:
    """Tournaments copy an unbatched agent per game: the copies must not each allocate a
    solver table (that ran a 1,000-deal league out of memory), and must play the same."""
    agent = PimcAgent(3, SMALL)
    twin = copy.deepcopy(agent)
    assert twin.solver is agent.solver and twin.options == agent.options
    moves = _play(Game.random(11, dealer=0), [agent] * 3)  # fills the shared table
    agent.reset(3)
    warm = _play(Game.random(11, dealer=0), [copy.deepcopy(agent)] * 3)
    cold = _play(Game.random(11, dealer=0), [PimcAgent(3, SMALL)] * 3)
    assert moves == warm == cold


def test_tournament_smoke() -> None:
    from skat_env.tournament import evaluate

    spec = "pimc:fast,worlds=1,bid_worlds=1,cap=off"
    res = evaluate([spec, "heuristic", "heuristic"], deals=1, seed=0)
    assert res["agents"][spec]["games"] == 3


@pytest.mark.slow
def test_rng_independent_of_numpy_global_state() -> None:
    deal = Game.random(80).deal
    np.random.seed(0)
    a = _play(Game(deal, 2), [PimcAgent(6, SMALL)] * 3)
    np.random.seed(1)
    b = _play(Game(deal, 2), [PimcAgent(6, SMALL)] * 3)
    assert a == b


def test_bench_pimc_times_every_phase_it_plays() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_pimc

    times = bench_pimc.time_spec("pimc:play_only,worlds=1,cap=off", games=1, seed=3)
    assert any(k.startswith("play") for k in times)
    assert all(t >= 0 for ts in times.values() for t in ts)
    # every card decision is in one trick's row and in one seat's row
    tricks = sum(len(v) for k, v in times.items() if k.startswith("play"))
    by_seat = len(times.get("cards, declarer", [])) + len(times.get("cards, defender", []))
    assert tricks == by_seat == len(times["cards, all"]) == 30  # every seat, ten cards each


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games: must be a positive integer"),
        (["--specs", "pimc:worlds=0"], "worlds must be"),
        (["--specs", "nosuch"], "unknown agent"),
        (["--world-cost", "-1"], "--world-cost must be >= 0"),
    ],
)
def test_bench_pimc_refuses_bad_input_before_it_plays(argv, message, capsys) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_pimc

    with pytest.raises(SystemExit) as exit_:
        bench_pimc.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "Traceback" not in err


def test_the_default_searches_32_worlds_from_trick_one() -> None:
    """Every card decision of the default agent solves 32 worlds, trick 1 included (the
    node-limited world costs fit the budget)."""
    from skat_env.search.pimc import worlds_for

    config = PimcOptions().card_config()
    for kind in ("clubs", "grand", "null"):
        g = Game.random(5)
        for m in ["18", "pass", "pass", "hand", kind]:
            g.play(m)
        assert worlds_for(player_view(g, g.to_act), config) == 32
