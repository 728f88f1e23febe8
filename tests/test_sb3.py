"""skat_env.integrations.sb3: the NumPy policy equals SB3's predict, opponent pools, the
heuristic's decisions and behaviour cloning, opponent specs, the ppo: agent's batched path."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from skat_env import vector  # noqa: E402
from skat_env.agents.ppo import PPOAgent  # noqa: E402
from skat_env.agents.registry import make_agent  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.core.rewards import rewards_of  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.envs.single_agent import SkatSingleAgentEnv  # noqa: E402
from skat_env.integrations import sb3  # noqa: E402


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory):
    """An untrained model (random weights: its greedy moves vary a lot) saved to a zip."""
    path = tmp_path_factory.mktemp("model") / "m.zip"
    model = MaskablePPO(
        "MlpPolicy",
        SkatSingleAgentEnv(),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )
    model.save(path)
    return path, model


def test_numpy_policy_picks_sb3_predicts_moves_one_by_one_and_batched(saved_model):
    path, model = saved_model
    agent = make_agent(f"ppo:{path}")
    assert isinstance(agent, PPOAgent)
    rng = np.random.default_rng(0)
    obs, masks, moves = [], [], []
    for _ in range(10):
        game = Game.random(rng)
        while not game.is_over:
            o = observe(game, game.to_act)
            mask = o["action_mask"].astype(bool)
            ref, _ = model.predict(o["observation"], action_masks=mask, deterministic=True)
            move = agent.act(o)
            assert move == int(ref)
            obs.append(o["observation"])
            masks.append(mask)
            moves.append(move)
            game.step(move)
    batch = agent.act_batch(np.array(obs), np.array(masks))
    assert batch.tolist() == moves
    assert len(set(moves)) > 20  # the check covered many different moves


def test_numpy_policy_from_a_live_policy_equals_the_loaded_file(saved_model):
    path, model = saved_model
    live = sb3.NumpyPolicy.from_policy(model.policy)
    loaded = sb3.NumpyPolicy.load(path)
    x = np.random.default_rng(1).random((7, 450), dtype=np.float32)
    assert np.allclose(live.logits(x), loaded.logits(x), atol=1e-5)
    with pytest.raises(ValueError, match="size 450"):
        live.logits(np.zeros((2, 10), np.float32))


def test_ppo_agent_refuses_missing_and_non_model_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        PPOAgent(tmp_path / "none.zip")
    bad = tmp_path / "bad.zip"
    bad.write_text("not a zip")
    with pytest.raises(ValueError, match="not a saved model"):
        PPOAgent(bad)


def test_self_play_slots_push_replaces_the_oldest(saved_model):
    _, model = saved_model
    slots = sb3.SelfPlaySlots(2)
    slots.fill(model.policy)
    first = [s.policy for s in slots.slots]
    assert first[0] is first[1]
    slots.push(model.policy)
    assert slots.slots[0].policy is not first[0] and slots.slots[1].policy is first[1]
    slots.push(model.policy)
    assert slots.slots[1].policy is not first[1]


def test_vector_pool_splits_self_over_the_slots_and_batches_agents(saved_model):
    _, model = saved_model
    slots = sb3.SelfPlaySlots(4)
    slots.fill(model.policy)
    pool, w = sb3.vector_pool({"heuristic": 0.5, "self": 0.4, "random": 0.1}, slots, seed=0)
    assert list(pool) == ["heuristic", "self0", "self1", "self2", "self3", "random"]
    assert np.allclose(w, [0.5, 0.1, 0.1, 0.1, 0.1, 0.1]) and pool["random"] == "random"
    state = vector.init(16, seed=3)
    heuristic = make_agent("heuristic")
    moves = pool["heuristic"](state.obs, state.legal_mask)
    expected = [
        heuristic.act({"observation": o, "action_mask": m})
        for o, m in zip(state.obs, state.legal_mask, strict=True)
    ]
    assert moves.tolist() == expected
    assert state.legal_mask[np.arange(16), pool["self2"](state.obs, state.legal_mask)].all()


def test_single_game_pool_draws_one_kind_per_game(saved_model):
    _, model = saved_model
    slots = sb3.SelfPlaySlots(3)
    slots.fill(model.policy)
    pool = sb3.SingleGamePool({"heuristic": 0.5, "self": 0.5}, slots, seed=0)
    rng = np.random.default_rng(0)
    kinds = set()
    for _ in range(40):
        a, b = pool(rng)
        assert type(a) is type(b)
        kinds.add(type(a).__name__)
    assert kinds == {"HeuristicAgent", "Slot"}


def test_parse_opponents_normalises_sums_and_refuses_bad_specs():
    assert sb3.parse_opponents("random:1,heuristic:3") == {"random": 0.25, "heuristic": 0.75}
    assert sb3.parse_opponents("random, self") == {"random": 0.5, "self": 0.5}
    assert sb3.parse_opponents("random:1,random:1,self:0") == {"random": 1.0}
    assert sb3.parse_opponents("heuristic:margin=-1:2") == {"heuristic:margin=-1": 1.0}
    for text, match in [
        ("bogus:1", "unknown agent"),
        ("random:-1", "non-negative"),
        ("random:0,self:0", "positive weight"),
        ("", "positive weight"),
        ("human:1", "person"),
        ("ppo:/no/such.zip", "no model file"),
    ]:
        with pytest.raises(ValueError, match=match):
            sb3.parse_opponents(text)


# --- behaviour cloning -----------------------------------------------------------------------
def test_heuristic_decisions_replay_as_the_heuristics_games_with_final_rewards():
    data = sb3.heuristic_decisions(
        3, seed=5, reward_mode="seeger_fabian", reward_scale=0.01, batch=1
    )
    n = len(data["move"])
    assert data["games"] == 3 and data["obs"].shape == (n, 450) and data["mask"].shape == (n, 121)
    assert data["mask"][np.arange(n), data["move"]].all()
    again = sb3.heuristic_decisions(
        3, seed=5, reward_mode="seeger_fabian", reward_scale=0.01, batch=1
    )
    assert all(np.array_equal(data[k], again[k]) for k in ("obs", "mask", "move", "return"))
    # the first game replayed by the core engine: same observations, the heuristic's moves,
    # and every decision's return is its seat's Seeger-Fabian points x 0.01
    first = vector.init(1, seed=5)
    game = Game([int(c) for c in first.deal[0]], int(first.dealer[0]))
    heuristic, seats, i = make_agent("heuristic"), [], 0
    while not game.is_over:
        obs = observe(game, game.to_act)
        assert np.array_equal(obs["observation"], data["obs"][i])
        assert heuristic.act(obs) == data["move"][i]
        seats.append(game.to_act)
        game.step(int(data["move"][i]))
        i += 1
    sf = rewards_of(game.result, "seeger_fabian")
    assert np.allclose(data["return"][:i], [0.01 * sf[s] for s in seats])


def test_heuristic_decisions_in_batches_keep_only_finished_games():
    data = sb3.heuristic_decisions(20, seed=0, reward_mode="zero_sum", reward_scale=1.0, batch=8)
    assert data["games"] == 20 and not np.isnan(data["return"]).any()
    assert 20 * 12 <= len(data["move"]) <= 20 * 60
    stopped = sb3.heuristic_decisions(
        50, seed=0, reward_mode="zero_sum", reward_scale=1.0, deadline=0.0
    )
    assert stopped["games"] == 0 and len(stopped["move"]) == 0


def test_behaviour_cloning_agrees_with_the_heuristic_above_chance():
    data = sb3.heuristic_decisions(20, seed=0, reward_mode="seeger_fabian", reward_scale=0.01)
    assert len(data["move"]) >= 400
    model = MaskablePPO(
        "MlpPolicy",
        SkatSingleAgentEnv(),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )
    before = sb3.behaviour_clone(model, data, epochs=0)
    after = sb3.behaviour_clone(model, data, epochs=15, learning_rate=3e-3, batch_size=64)
    assert before["chance"] == after["chance"] < 0.6
    assert after["accuracy"] > after["chance"] + 0.1
    assert after["accuracy"] > before["accuracy"] + 0.1
    assert after["pi_loss"] < before["pi_loss"] and after["value_loss"] < before["value_loss"]


def test_bench_train_prints_both_paths_and_their_ratio(capsys):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_train

    argv = [
        "--rollouts",
        "1",
        "--rollout-size",
        "256",
        "--net-arch",
        "16",
        "--batch-size",
        "64",
        "--n-epochs",
        "1",
        "--no-previous",
    ]
    assert bench_train.main(argv) == 0
    out = capsys.readouterr().out
    assert "single (8 envs)" in out and "vector (256 games)" in out and "batched / single" in out
    with pytest.raises(SystemExit):
        bench_train.main(["--rollouts", "0"])


# --- distillation data ------------------------------------------------------------------------
def test_distill_writes_resumable_shards_that_load_and_clone(tmp_path, capsys):
    from skat_env.integrations import distill

    out = tmp_path / "data"
    assert distill.main(["--teacher", "heuristic", "--games", "3", "--shard-games", "2",
                         "--out", str(out), "--no-progress"]) == 0  # fmt: skip
    shards = sorted(out.glob("shard_*.npz"))
    assert [p.name for p in shards] == ["shard_00000.npz", "shard_00001.npz"]
    first = shards[0].stat().st_mtime_ns
    distill.main(["--teacher", "heuristic", "--games", "5", "--shard-games", "2",
                  "--out", str(out), "--no-progress"])  # fmt: skip
    assert len(list(out.glob("shard_*.npz"))) == 3 and shards[0].stat().st_mtime_ns == first
    data = distill.load_shards(out, "seeger_fabian", reward_scale=0.01)
    n = len(data["move"])
    assert data["games"] == 6 and data["obs"].shape == (n, 450)
    assert data["mask"][np.arange(n), data["move"]].all()
    # shard 0 is the heuristic's games of seed 0, rewards as recorded
    again = distill.record_games(make_agent("heuristic"), 2, 0, "seeger_fabian")
    m = len(again["move"])
    assert np.array_equal(again["move"], data["move"][:m])
    assert np.allclose(again["return"] * 0.01, data["return"][:m])
    with pytest.raises(ValueError, match="reward mode"):
        distill.load_shards(out, "zero_sum")
    assert np.isnan(data["values"]).all()  # the heuristic reports no search values
    with pytest.raises(SystemExit):
        distill.main(["--teacher", "nobody", "--out", str(out)])
    with pytest.raises(SystemExit):
        distill.main(["--out", str(out), "--workers", "0"])


def test_distill_workers_write_the_same_shards_with_search_values(tmp_path):
    """Two worker processes give the shards one process gives; a pimc teacher's card-play
    decisions carry its values, with its move among the best-valued legal cards."""
    pytest.importorskip("numba")
    from skat_env.integrations import distill

    teacher = "pimc:fast,play_only,worlds=2,cap=off"
    for workers, name in ((1, "one"), (2, "two")):
        distill.write_shards(teacher, 2, tmp_path / name, seed=3, shard_games=1,
                             progress=False, workers=workers)  # fmt: skip
    one, two = (distill.load_shards(tmp_path / n, "seeger_fabian") for n in ("one", "two"))
    for key in ("obs", "mask", "move", "return", "values"):
        assert np.array_equal(one[key], two[key], equal_nan=key != "mask"), key
    valued = ~np.isnan(one["values"]).all(axis=1)
    assert valued.any()
    for row, mask, move in zip(one["values"][valued], one["mask"][valued], one["move"][valued],
                               strict=True):  # fmt: skip
        assert move < 32 and mask[move] and not np.isnan(row[move])
        legal = np.flatnonzero(mask[:32])
        assert row[move] >= np.nanmax(row[legal]) - 1.0 - 1e-6  # near-ties go to the heuristic
