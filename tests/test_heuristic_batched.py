"""The batched heuristic (the rules compiled over a batch) makes the single-game heuristic's
moves (the same rules called on one view), row for row."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from skat_env import vector
from skat_env.agents import heuristic_batched
from skat_env.agents.heuristic import HeuristicAgent
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT, Game
from skat_env.core.moves import MOVE_INDEX
from skat_env.core.tables import HIGHER, LOWER, NULL
from skat_env.encoding.observation import observe
from skat_env.encoding.view import player_view, without_history
from skat_env.envs.policy import batchable, batched
from skat_env.tournament import play_deals

pytest.importorskip("numba")
NULLS = (MOVE_INDEX["null"], MOVE_INDEX["null ouvert"])


def _decisions(
    games: int, explore: float, margin: float, seed: int, nulls: float = 0.0
) -> dict[str, np.ndarray]:
    """Every decision of heuristic games (a share ``explore`` of the moves made at random,
    so that rare states are reached: hand games, ouvert, odd discards; a share ``nulls`` of
    the declarations forced to a null contract), with the single-game heuristic's move at
    each and what kind of decision it was."""
    agent = HeuristicAgent(margin)
    rng = random.Random(seed)
    obs, masks, moves, kinds = [], [], [], []
    for i in range(games):
        game = Game.random(seed=seed * 100_000 + i, dealer=i % 3)
        while not game.is_over:
            seat = game.to_act
            view = without_history(player_view(game, seat))
            move = agent.act_view(view)
            o = observe(game, seat)
            obs.append(o["observation"])
            masks.append(o["action_mask"])
            moves.append(move)
            kind = ("bid", "skat", "discard", "declare", "play")[game.phase]
            if game.phase == PLAY:
                role = "declarer" if view.is_declarer else "defender"
                null = "null " if game.contract.game == NULL else ""
                lead = "lead" if not game.trick else "follow"
                kind = f"{null}{role} {lead}"
                kind += " ouvert" if game.contract.ouvert else ""
            kinds.append(kind)
            if rng.random() < explore:
                move = rng.choice(game.legal_actions())
            if game.phase == DECLARE and rng.random() < nulls:
                move = rng.choice([m for m in NULLS if game.legal_mask() >> m & 1] or [move])
            game.step(move)
    return {"obs": np.array(obs), "mask": np.array(masks), "move": np.array(moves),
            "kind": np.array(kinds)}  # fmt: skip


@pytest.mark.parametrize(
    ("games", "explore", "margin", "nulls"),
    [(1200, 0.0, 0.0, 0.0), (1500, 0.2, 0.0, 0.4), (600, 0.2, -1.5, 0.0), (600, 0.2, 1.0, 0.0)],
)
@pytest.mark.slow
def test_batched_moves_equal_the_single_game_heuristic(games, explore, margin, nulls):
    data = _decisions(games, explore, margin, seed=int(games + 10 * margin), nulls=nulls)
    got = HeuristicAgent(margin).act_batch(data["obs"], data["mask"])
    wrong = np.flatnonzero(got != data["move"])
    assert not len(wrong), [(data["kind"][i], data["move"][i], got[i]) for i in wrong[:5]]
    kinds, counts = np.unique(data["kind"], return_counts=True)
    seen = dict(zip(kinds.tolist(), counts.tolist(), strict=True))
    # every phase and every card-play rule was exercised
    for kind in ("bid", "skat", "discard", "declare", "declarer lead", "declarer follow",
                 "defender lead", "defender follow"):  # fmt: skip
        assert seen.get(kind, 0) >= 100, (kind, seen)
    if nulls:
        for kind in ("null declarer lead", "null declarer follow", "null defender lead",
                     "null defender follow", "null defender lead ouvert",
                     "null defender follow ouvert"):  # fmt: skip
            assert seen.get(kind, 0) >= 40, (kind, seen)


@pytest.mark.slow
def test_agent_act_batch_is_the_batched_hook():
    agent = HeuristicAgent(margin=-1)
    assert batchable(agent)  # tournaments play it in lockstep
    assert batched(agent) == agent.act_batch  # training opponents call it
    data = _decisions(40, 0.1, -1.0, seed=7)
    rows = [agent.act({"observation": o, "action_mask": m})
            for o, m in zip(data["obs"], data["mask"], strict=True)]  # fmt: skip
    np.testing.assert_array_equal(agent.act_batch(data["obs"], data["mask"]), rows)


@pytest.mark.slow
def test_batched_engine_games_are_the_heuristics():
    """On the batched engine's observations (the training path), over many steps."""
    agent = HeuristicAgent()
    state = vector.init(128, seed=3)
    phases = set()
    for _ in range(120):
        moves = agent.act_batch(state.obs, state.legal_mask)
        rows = [agent.act({"observation": o, "action_mask": m})
                for o, m in zip(state.obs, state.legal_mask, strict=True)]  # fmt: skip
        np.testing.assert_array_equal(moves, rows)
        phases.update(state.phase.tolist())
        vector.step(state, moves)
    assert {BIDDING, SKAT, DISCARD, DECLARE, PLAY} <= phases


def test_tournament_records_do_not_depend_on_batching():
    lockstep = play_deals(["heuristic", "random", "random"], ["h", "r", "r"], range(6), 0, True)
    one_by_one = play_deals(["heuristic", "random", "random"], ["h", "r", "r"], range(6), 0,
                            True, report=lambda game, names: None)  # fmt: skip
    assert lockstep == one_by_one


def test_without_numba_the_rules_run_as_plain_python(monkeypatch):
    data = _decisions(5, 0.1, 0.0, seed=1)
    monkeypatch.setattr(heuristic_batched, "NUMBA", False)
    agent = HeuristicAgent()
    np.testing.assert_array_equal(agent.act_batch(data["obs"], data["mask"]), data["move"])


def test_empty_batch_and_bad_shapes():
    agent = HeuristicAgent()
    assert agent.act_batch(np.zeros((0, 450), np.float32), np.zeros((0, 121), np.int8)).shape == (
        0,
    )
    with pytest.raises(ValueError, match="expected observations"):
        agent.act_batch(np.zeros((2, 450), np.float32), np.zeros((3, 121), np.int8))
    with pytest.raises(ValueError, match="expected observations"):
        agent.act_batch(np.zeros((2, 100), np.float32), np.zeros((2, 121), np.int8))


def test_a_finished_game_or_an_empty_mask_is_refused():
    game = Game.random(seed=0)
    agent = HeuristicAgent()
    while not game.is_over:
        game.step(agent.act_view(player_view(game, game.to_act)))
    done = observe(game, 0)
    with pytest.raises(ValueError, match="no legal move or a finished game"):
        agent.act_batch(done["observation"][None], done["action_mask"][None])
    game = Game.random(seed=1)
    while game.phase != PLAY:
        game.step(agent.act_view(player_view(game, game.to_act)))
    playing = observe(game, game.to_act)
    with pytest.raises(ValueError, match=r"rows \[1\]"):
        obs = np.stack([playing["observation"]] * 2)
        agent.act_batch(obs, np.stack([playing["action_mask"], np.zeros(121, np.int8)]))


def test_kernel_tables_hold_the_core_rankings():
    np.testing.assert_array_equal(heuristic_batched._TABLES[0][2], HIGHER)
    np.testing.assert_array_equal(heuristic_batched._TABLES[0][3], LOWER)


@pytest.mark.slow
def test_bench_heuristic_runs_and_checks_the_moves(capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_heuristic

    assert bench_heuristic.main(["--batch", "8", "--steps", "3", "--env-steps", "1"]) == 0
    out = capsys.readouterr().out
    assert "batched (act_batch)" in out and "row by row (act)" in out and "x\n" in out
    assert "per view (act_view)" in out
    assert "SkatVectorEnv" in out
    with pytest.raises(SystemExit, match="2"):
        bench_heuristic.main(["--batch", "0"])
