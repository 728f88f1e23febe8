"""RLlib adapter: env wrapper, masked PPO module, one training iteration, checkpoint as agent.

Needs Ray RLlib (``.venv-rllib``, ``scripts/setup_rllib.sh``); skipped where it is missing.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.rllib
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry from tests
pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

import ray  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule  # noqa: E402

from skat_env import tournament  # noqa: E402
from skat_env.agents.rllib_agent import RLlibAgent  # noqa: E402
from skat_env.cli import train_rllib  # noqa: E402
from skat_env.core.moves import NUM_MOVES  # noqa: E402
from skat_env.envs.aec import AGENTS  # noqa: E402
from skat_env.integrations import rllib as R  # noqa: E402

TINY = {"train_batch_size": 200, "minibatch_size": 100, "num_epochs": 1, "hiddens": (32,)}


@pytest.fixture(scope="module")
def ray_local():
    """One small local Ray instance for the module (sampling stays in this process)."""
    torch.set_num_threads(1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def _acting(obs: dict) -> tuple[str, dict]:
    (agent, o), *rest = obs.items()
    assert not rest, "the AEC wrapper hands out one acting agent at a time"
    return agent, o


def test_env_uses_rllib_action_mask_keys():
    env = R.SkatRLlibEnv({"reward_scale": 0.5})
    obs, _ = env.reset(seed=3)
    agent, o = _acting(obs)
    assert set(o) == {"observations", "action_mask"}
    assert o["action_mask"].dtype == np.float32 and o["action_mask"].shape == (NUM_MOVES,)
    assert env.observation_spaces[agent].contains(o)
    game = env.env.unwrapped.game
    assert AGENTS.index(agent) == game.to_act
    assert set(np.flatnonzero(o["action_mask"])) == set(game.legal_actions())


@pytest.mark.parametrize("mode", ["default", "history"])
def test_observations_are_float32_like_their_space_in_every_step(mode):
    env = R.SkatRLlibEnv({"observation_mode": mode})
    obs, _ = env.reset(seed=5)
    for _ in range(40):
        agent, o = _acting(obs)
        assert {k: v.dtype for k, v in o.items()} == {
            "observations": np.float32,
            "action_mask": np.float32,
        }
        assert env.observation_spaces[agent].contains(o)
        obs, _, term, _, _ = env.step({agent: int(np.flatnonzero(o["action_mask"])[0])})
        if term["__all__"]:
            obs, _ = env.reset()


def test_env_counts_illegal_action_and_ends_game():
    env = R.SkatRLlibEnv({"reward_scale": 0.5})
    obs, _ = env.reset(seed=3)
    agent, o = _acting(obs)
    before = R.illegal_actions_sampled
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    _, rew, term, _, _ = env.step({agent: illegal})
    assert env.illegal_actions == 1 and R.illegal_actions_sampled == before + 1
    worst = env.env.unwrapped.illegal_reward  # skat_v0's default: the worst game outcome
    assert term["__all__"] and worst < 0 and rew[agent] == pytest.approx(0.5 * worst)


def test_env_plays_full_games_with_scaled_zero_sum_rewards():
    env = R.SkatRLlibEnv({"reward_scale": 0.01})
    rng = np.random.default_rng(0)
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        while True:
            agent, o = _acting(obs)
            obs, rew, term, trunc, _ = env.step(
                {agent: rng.choice(np.flatnonzero(o["action_mask"]))}
            )
            if term["__all__"]:
                break
        result = env.env.unwrapped.game.result
        assert set(rew) == set(AGENTS)  # every seat gets its final reward
        assert sum(rew.values()) == pytest.approx(0.0)
        if not result.passed_in:
            assert rew[AGENTS[result.declarer]] == pytest.approx(0.01 * result.score)
    assert env.illegal_actions == 0


def test_env_rejects_unknown_config_key():
    with pytest.raises(ValueError, match="unknown env_config"):
        R.SkatRLlibEnv({"reward_mod": "list"})


def test_policy_mapping():
    assert R.policy_ids("shared") == ["shared"]
    assert R.policy_ids("per_seat") == list(AGENTS)
    cfg = R.ppo_config(policies="per_seat", **TINY)
    assert set(cfg.policies) == set(AGENTS)
    assert [cfg.policy_mapping_fn(a, None) for a in AGENTS] == list(AGENTS)
    with pytest.raises(ValueError, match="policy mapping"):
        R.policy_ids("per_team")


def test_masked_module_gives_illegal_moves_zero_probability():
    env = R.SkatRLlibEnv()
    module = R.MaskedPPOModule(
        observation_space=env.observation_spaces["player_0"],
        action_space=env.action_spaces["player_0"],
        model_config={"hiddens": [16]},
    )
    obs, _ = env.reset(seed=1)
    _, o = _acting(obs)
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in o.items()}}
    probs = torch.softmax(module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS], -1)[0]
    legal = o["action_mask"] > 0
    assert torch.all(probs[~torch.as_tensor(legal)] == 0)
    assert float(probs.sum()) == pytest.approx(1.0)
    assert module.compute_values(batch).shape == (1,)


@pytest.mark.parametrize("policies", ["shared", "per_seat"])
def test_one_training_iteration_samples_no_illegal_action(policies, ray_local):
    before = R.illegal_actions_sampled
    algo = R.ppo_config(policies=policies, seed=0, **TINY).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= TINY["train_batch_size"]
    assert R.illegal_count(result) == 0
    assert R.illegal_actions_sampled == before


def test_rllibs_own_action_masking_module_trains_on_the_env(ray_local):
    """The observation keys are the ones RLlib's example ActionMaskingTorchRLModule expects."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    before = R.illegal_actions_sampled
    config = R.ppo_config(seed=0, **TINY).rl_module(
        rl_module_spec=RLModuleSpec(
            module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [32]}
        )
    )
    algo = config.build_algo()
    try:
        assert isinstance(algo.get_module(R.SHARED), ActionMaskingTorchRLModule)
        result = algo.train()
    finally:
        algo.stop()
    assert R.illegal_count(result) == 0 and R.illegal_actions_sampled == before


def test_without_masking_illegal_actions_are_counted(monkeypatch, ray_local):
    """The counter and its metric work: an unmasked random policy samples illegal moves."""
    monkeypatch.setattr(R, "mask_logits", lambda logits, mask: logits)
    algo = R.ppo_config(seed=0, **TINY).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert R.illegal_count(result) > 0


def test_checkpoint_loads_as_agent(tmp_path, ray_local):
    algo = R.ppo_config(seed=0, **TINY).build_algo()
    try:
        algo.train()
        algo.save_to_path(str(tmp_path))
        [policy_file] = R.export_policies(tmp_path)
    finally:
        algo.stop()
    assert policy_file == R.policy_file(tmp_path)
    agent = RLlibAgent(str(tmp_path))
    # The exported network is RLlib's trained module: same masked logits.
    module = RLModule.from_checkpoint(tmp_path / "learner_group/learner/rl_module/shared")
    env = R.SkatRLlibEnv()
    obs, _ = env.reset(seed=2)
    _, o = _acting(obs)
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in o.items()}}
    rllib_logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    mine = agent.policy.logits({"observation": o["observations"], "action_mask": o["action_mask"]})
    assert torch.allclose(rllib_logits, mine, atol=1e-5)
    # ... and it plays whole games legally through evaluate.py's API.
    res = tournament.evaluate([agent, "random", "random"], deals=2, seed=0)
    assert res["agents"][agent.name]["games"] == 6


def test_train_rllib_cli_writes_run(tmp_path, capsys, ray_local):
    argv = "--name t --iterations 1 --num-env-runners 0 --num-envs-per-env-runner 2 "
    argv += "--train-batch-size 200 --minibatch-size 100 --epochs 1 --hiddens 32 "
    argv += "--eval-every 1 --eval-deals 2 --eval-opponents random"
    rc = train_rllib.main(["--runs-dir", str(tmp_path), *argv.split()])
    assert rc == 0
    run = tmp_path / "t"
    progress = (run / "progress.csv").read_text().splitlines()
    assert progress[0].startswith("iteration,env_steps") and len(progress) == 2
    evals = (run / "evals.csv").read_text().splitlines()
    assert len(evals) == 2 and ",random," in evals[1]
    assert RLlibAgent(str(run / "final")).meta["observation_mode"] == "default"
    assert "illegal actions 0" in capsys.readouterr().out


def test_train_rllib_default_relative_runs_dir_and_restore(tmp_path, monkeypatch, ray_local):
    """The default --runs-dir is relative (runs/rllib): checkpoints, exports and --restore work
    from any working directory (RLlib itself only takes absolute paths or URIs)."""
    monkeypatch.chdir(tmp_path)
    argv = "--iterations 1 --num-env-runners 0 --num-envs-per-env-runner 2 --train-batch-size 200 "
    argv += "--minibatch-size 100 --epochs 1 --hiddens 32 --eval-deals 2 --eval-opponents random"
    assert train_rllib.main(["--name", "tiny", *argv.split()]) == 0
    run = Path("runs/rllib/tiny")
    assert (tmp_path / run / "checkpoints/iter_000001/skat_policy_shared.safetensors").is_file()
    assert RLlibAgent(str(run / "final")).path == run / "final/skat_policy_shared.safetensors"
    rc = train_rllib.main(["--name", "again", "--restore", str(run / "final"), *argv.split()])
    assert rc == 0 and (tmp_path / "runs/rllib/again/final/rllib_checkpoint.json").is_file()
    steps = [
        r.split(",")[1] for r in (tmp_path / "runs/rllib/again/progress.csv").read_text().split()
    ]
    assert int(steps[1]) >= 400  # continued from the restored run's 200+ env steps


def test_train_rllib_usage_errors(capsys):
    assert train_rllib.main(["--iterations", "0"]) == 2
    assert train_rllib.main(["--restore", "no/such/checkpoint"]) == 2
    assert train_rllib.main(["--eval-opponents", "random,bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("skat-train-rllib: error:") == 3 and "Traceback" not in err
    assert "unknown agent" in err


def test_ppo_config_runs_under_ray_tune(tmp_path, ray_local):
    """ppo_config() is a plain PPOConfig: Tune sweeps take it as param_space (docs/rllib.md)."""
    from ray import tune

    run = tune.RunConfig(name="t", storage_path=str(tmp_path), stop={"training_iteration": 1},
                         verbose=0)  # fmt: skip
    config = R.ppo_config(seed=0, **TINY)
    # the class, not "PPO": the name imports every RLlib algorithm (DreamerV3 warns on import)
    [result] = tune.Tuner(config.algo_class, param_space=config, run_config=run).fit()
    assert result.error is None and R.illegal_count(result.metrics) == 0
