"""The perfect-information ``oracle``: card play by the solver on the true deal, the
heuristic's contract decisions, never playable from an observation or as a training opponent."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from skat_env.agents.heuristic import HeuristicAgent  # noqa: E402
from skat_env.agents.oracle import OracleAgent  # noqa: E402
from skat_env.agents.registry import SPECS, make_agent  # noqa: E402
from skat_env.core.game import PLAY, Game  # noqa: E402
from skat_env.core.tables import NULL  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.encoding.view import player_view, without_history  # noqa: E402
from skat_env.envs.policy import decide  # noqa: E402
from skat_env.search.solver import Position, Solver  # noqa: E402


def _to_play(seed: int) -> Game:
    """A random deal played by heuristics up to its card play (or its end)."""
    game, heuristic = Game.random(seed, dealer=seed % 3), HeuristicAgent()
    while not game.is_over and game.phase != PLAY:
        game.step(decide(heuristic, game, game.to_act))
    return game


def _band(points: int) -> int:
    """How many of the score's card-point thresholds (31, 61, 90) the declarer reaches."""
    return sum(points >= t for t in (31, 61, 90))


def test_endgame_moves_are_double_dummy_best():
    """With few tricks left the oracle plays a card of the best exact value for its side, up
    to what cannot change the score: the same threshold band, at most 10 card points from
    the best (its utility counts 0.1 per point; near-ties go to the heuristic's card)."""
    oracle, solver, heuristic, checked = OracleAgent(), Solver(), HeuristicAgent(), 0
    for seed in range(40):
        game = _to_play(seed)
        while not game.is_over:
            if sum(game.tricks_won) >= 6 and len(game.legal_actions()) > 1:
                values = solver.best_moves(Position.from_game(game))
                move = oracle.act_game(game, game.to_act)
                mine = game.to_act == game.declarer
                best = (max if mine else min)(values.values())
                if game.game_kind != NULL:  # suit and grand: card points (null: won or lost)
                    assert _band(values[move]) == _band(best), (seed, values, move)
                    assert abs(values[move] - best) <= 10, (seed, values, move)
                else:
                    assert values[move] == best, (seed, values, move)
                checked += 1
            game.step(decide(heuristic, game, game.to_act))
    assert checked > 20


@pytest.mark.slow
def test_contract_decisions_are_the_heuristics_and_every_move_is_legal():
    oracle, heuristic = make_agent("oracle"), HeuristicAgent()
    for seed in range(4):
        game = Game.random(seed + 100, dealer=seed % 3)
        while not game.is_over:
            seat = game.to_act
            move = decide(oracle, game, seat)
            assert game.legal_mask() >> move & 1
            if game.phase != PLAY:
                assert move == heuristic.act_view(without_history(player_view(game, seat)))
            game.step(move)


def test_it_refuses_to_play_from_an_observation_or_to_train_against():
    oracle = make_agent("oracle")
    with pytest.raises(TypeError, match="sees every card"):
        oracle.act(observe(Game.random(0), 1))
    from skat_env.cli.options import UsageError, training_agent

    with pytest.raises(UsageError, match="benchmark bound"):
        training_agent("oracle")
    assert any(s.startswith("oracle (sees every card") for s in SPECS)


@pytest.mark.slow
def test_in_a_tournament_it_is_labelled_and_beats_the_fair_heuristic():
    from skat_env.tournament import evaluate

    res = evaluate(["oracle", "heuristic", "heuristic"], deals=12, seed=0, bootstrap=200)
    assert res["agents"]["oracle"]["games"] == 36
    assert res["agents"]["oracle"]["sf_per_game"] > res["agents"]["heuristic"]["sf_per_game"]
    assert np.isfinite(res["agents"]["oracle"]["sf_per_game"])
