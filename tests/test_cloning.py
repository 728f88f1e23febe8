"""skat_env.training.cloning: a teacher's decisions recorded on the batched engine replay
as its games with their final rewards, and behaviour cloning learns them."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env import vector  # noqa: E402
from skat_env.agents import HeuristicAgent, RandomAgent  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.core.rewards import rewards_of  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.training.cloning import behaviour_clone, teacher_decisions  # noqa: E402


def test_teacher_decisions_replay_as_the_teachers_games_with_final_rewards():
    heuristic = HeuristicAgent()
    data = teacher_decisions(
        heuristic, 3, seed=5, reward_mode="seeger_fabian", reward_scale=0.01, batch=1
    )
    n = len(data["move"])
    assert data["games"] == 3 and data["obs"].shape == (n, 450) and data["mask"].shape == (n, 121)
    assert data["mask"][np.arange(n), data["move"]].all()
    again = teacher_decisions(
        heuristic, 3, seed=5, reward_mode="seeger_fabian", reward_scale=0.01, batch=1
    )
    assert all(np.array_equal(data[k], again[k]) for k in ("obs", "mask", "move", "return"))
    # the first game replayed by the core engine: same observations, the teacher's moves,
    # and every decision's return is its seat's Seeger-Fabian points x 0.01
    first = vector.init(1, seed=5)
    game = Game([int(c) for c in first.deal[0]], int(first.dealer[0]))
    seats, i = [], 0
    while not game.is_over:
        obs = observe(game, game.to_act)
        assert np.array_equal(obs["observation"], data["obs"][i])
        assert heuristic.act(obs) == data["move"][i]
        seats.append(game.to_act)
        game.step(int(data["move"][i]))
        i += 1
    sf = rewards_of(game.result, "seeger_fabian")
    assert np.allclose(data["return"][:i], [0.01 * sf[s] for s in seats])


def test_teacher_decisions_in_batches_keep_only_finished_games():
    data = teacher_decisions(
        HeuristicAgent(), 20, seed=0, reward_mode="zero_sum", reward_scale=1.0, batch=8
    )
    assert data["games"] == 20 and not np.isnan(data["return"]).any()
    assert 20 * 12 <= len(data["move"]) <= 20 * 60
    stopped = teacher_decisions(
        HeuristicAgent(), 50, seed=0, reward_mode="zero_sum", reward_scale=1.0, deadline=0.0
    )
    assert stopped["games"] == 0 and len(stopped["move"]) == 0


def test_teacher_decisions_reseed_the_teacher_so_runs_repeat():
    # random is not deterministic: the same seed must still give the same decisions
    one, two = (
        teacher_decisions(RandomAgent(k), 4, seed=2, reward_mode="list", reward_scale=1.0)
        for k in (0, 1)
    )
    assert np.array_equal(one["move"], two["move"])


@pytest.mark.slow
def test_behaviour_cloning_agrees_with_the_teacher_above_chance(fresh_model):
    data = teacher_decisions(
        HeuristicAgent(), 20, seed=0, reward_mode="seeger_fabian", reward_scale=0.01
    )
    assert len(data["move"]) >= 400
    before = behaviour_clone(fresh_model, data, epochs=0)
    after = behaviour_clone(fresh_model, data, epochs=15, learning_rate=3e-3, batch_size=64)
    assert before["chance"] == after["chance"] < 0.6
    assert after["accuracy"] > after["chance"] + 0.1
    assert after["accuracy"] > before["accuracy"] + 0.1
    assert after["pi_loss"] < before["pi_loss"] and after["value_loss"] < before["value_loss"]
