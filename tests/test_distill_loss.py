"""The distillation loss during PPO (integrations/distill_loss.py): soft targets from the
teacher's values (worked example), the loss falls when only it is trained on a toy batch, it is
computed on every PPO gradient step and logged, and bad options are refused."""

import functools
import math

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402
from conftest import small_model  # noqa: E402

from skat_env.agents import HeuristicAgent  # noqa: E402
from skat_env.integrations.distill import record_games  # noqa: E402
from skat_env.integrations.distill_loss import DistillationLoss, soft_targets  # noqa: E402


def test_soft_targets_worked_example():
    values = np.full((3, 32), np.nan, np.float32)
    values[0, [4, 9]] = [10.0, 0.0]  # two solved cards: softmax(values / 10)
    values[1, 7] = 5.0  # one solved card: the teacher's move
    move = np.array([4, 7, 95])  # row 2: a contract decision (no values)
    t = soft_targets(move, values, temperature=10.0)
    e = math.e
    np.testing.assert_allclose(t[0, [4, 9]], [e / (e + 1), 1 / (e + 1)], rtol=1e-6)
    assert t[0].sum() == pytest.approx(1) and t[0, [4, 9]].sum() == pytest.approx(1)
    assert t[1, 7] == 1 and t[1].sum() == 1
    assert t[2, 95] == 1 and t[2].sum() == 1
    np.testing.assert_array_equal(soft_targets(move, None), np.eye(121, dtype=np.float32)[move])
    # temperature 0: the teacher's move alone, values or not
    np.testing.assert_array_equal(
        soft_targets(move, values, 0), np.eye(121, dtype=np.float32)[move]
    )


def test_temperature_0_pulls_towards_the_teachers_move_only():
    data = toy_data(1)
    hard = DistillationLoss(data, coef=1.0, temperature=0)
    assert hard.soft == 0 and int(hard.target.sum()) == len(data["move"])
    assert (hard.target.argmax(1).numpy() == data["move"]).all()
    assert DistillationLoss(data, coef=1.0).soft > 0


def toy_data(games: int = 3) -> dict:
    """The heuristic's decisions with made-up card values on its card plays (the values of a
    search teacher are too slow for a unit test)."""
    data = record_games(HeuristicAgent(), games, seed=0, reward_mode="seeger_fabian")
    rng = np.random.default_rng(0)
    values = np.full((len(data["move"]), 32), np.nan, np.float32)
    for i, m in enumerate(data["mask"]):
        cards = np.flatnonzero(m[:32])
        if data["move"][i] < 32 and len(cards) >= 2:
            values[i, cards] = rng.normal(0, 20, len(cards))
    data["values"] = values
    return data


def test_the_loss_falls_when_trained_alone_on_a_toy_batch():
    model = small_model()
    data = toy_data()
    distill = DistillationLoss(data, coef=1.0, batch_size=64, seed=0)
    assert distill.soft > 10
    model.set_logger(_null_logger())
    distill.attach(model)
    with torch.no_grad():
        before = distill.loss(model.policy).item()
    opt = model.policy.optimizer
    for group in opt.param_groups:
        group["lr"] = 3e-3
    for _ in range(60):  # no PPO loss: every gradient is the hook's
        opt.zero_grad()
        opt.step()
    with torch.no_grad():
        after = distill.loss(model.policy).item()
    t = distill.target
    entropy = -(t * torch.log(t.clamp_min(1e-30))).sum(1).mean().item()  # the least it can be
    assert after - entropy < 0.5 * (before - entropy), (before, after, entropy)


def test_it_runs_on_every_ppo_gradient_step_and_is_logged():
    model = small_model()
    model.n_steps, model.batch_size, model.n_epochs = 64, 32, 2
    model._setup_model()  # the smaller rollout buffer
    distill = DistillationLoss(toy_data(1), coef=0.5, batch_size=16)
    calls = []
    handle = distill.attach(model)
    model.policy.optimizer.register_step_pre_hook(lambda *a: calls.append(1))
    from stable_baselines3.common.logger import KVWriter, Logger

    logged = {}

    class Capture(KVWriter):
        def write(self, key_values, key_excluded, step=0):
            logged.update(key_values)

    model.set_logger(Logger(folder=None, output_formats=[Capture()]))
    model.learn(128)  # two rollouts: SB3 logs an update at the next rollout
    assert len(calls) == 2 * 2 * (64 // 32)  # rollouts x epochs x minibatches
    assert logged["train/distill_loss"] > 0
    handle.remove()


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"coef": 0.0}, "coef"),
        ({"coef": -1.0}, "coef"),
        ({"coef": True}, "coef"),
        ({"coef": 1.0, "batch_size": 0}, "batch_size"),
        ({"coef": 1.0, "temperature": -1.0}, "temperature"),
        ({"coef": 1.0, "temperature": False}, "temperature"),
        ({"coef": 1.0, "temperature": math.inf}, "temperature"),
    ],
)
def test_bad_options_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        DistillationLoss(toy_data(1), **kw)


def test_bad_data_is_refused():
    data = toy_data(1)
    with pytest.raises(ValueError, match="disagree"):
        DistillationLoss({**data, "mask": data["mask"][:-1]}, coef=1.0)
    with pytest.raises(ValueError, match="disagree"):
        DistillationLoss({**data, "values": data["values"][:, :5]}, coef=1.0)
    with pytest.raises(ValueError, match="rows"):
        DistillationLoss({k: v[:0] for k, v in data.items()}, coef=1.0)


def _null_logger():
    from stable_baselines3.common.logger import Logger

    return Logger(folder=None, output_formats=[])


TINY = ["--timesteps", "256", "--n-envs", "8", "--n-steps", "16", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "16", "--eval-every", "0", "--eval-deals", "2",
        "--final-eval-deals", "2", "--checkpoint-every", "1000", "--no-progress",
        "--max-minutes", "0", "--no-tensorboard", "--bc-epochs", "1"]  # fmt: skip


def test_train_distill_coef_runs_and_bad_values_exit_2(tmp_path, monkeypatch, capsys):
    from skat_env.cli import train
    from skat_env.integrations import distill

    monkeypatch.chdir(tmp_path)
    distill.write_shards(HeuristicAgent, "heuristic", 2, tmp_path / "data", shard_games=1,
                         progress=False)  # fmt: skip
    data = ["--bc-data", str(tmp_path / "data")]
    assert train.main(["--name", "d", *TINY, *data, "--distill-coef", "0.5"]) == 0
    out = capsys.readouterr().out
    assert (
        "distillation loss x 0.5 during PPO:" in out and "0 with the teacher's card values" in out
    )
    for bad in (["--distill-coef", "0.5"], [*data, "--distill-coef", "-1"],
                [*data, "--distill-coef", "inf"]):  # fmt: skip
        assert train.main(["--name", "e", *TINY, *bad]) == 2
        assert "--distill-coef must be a number >= 0" in capsys.readouterr().err


def test_distill_cards_only_keeps_the_searched_card_play(tmp_path, monkeypatch, capsys):
    from skat_env.agents.registry import make_agent
    from skat_env.cli import train
    from skat_env.integrations import distill
    from skat_env.integrations.distill_loss import searched_rows

    monkeypatch.chdir(tmp_path)
    teacher = functools.partial(make_agent, "pimc:fast,play_only", seed=0)
    distill.write_shards(teacher, "pimc", 2, tmp_path / "search", shard_games=1, progress=False)
    distill.write_shards(HeuristicAgent, "heuristic", 1, tmp_path / "heu", shard_games=1,
                         progress=False)  # fmt: skip
    data = distill.load_shards(tmp_path / "search", "seeger_fabian")
    rows = searched_rows(data["values"])
    assert 0 < rows.sum() < len(rows)  # contract decisions and forced cards are left out
    assert (~np.isnan(data["values"][rows])).sum(1).min() >= 2
    assert not searched_rows(distill.load_shards(tmp_path / "heu", "seeger_fabian")["values"]).any()
    search = ["--bc-data", str(tmp_path / "search"), "--distill-coef", "0.5"]
    assert train.main(["--name", "c", *TINY, *search, "--distill-cards-only"]) == 0
    out = capsys.readouterr().out
    assert f"{rows.sum():,} recorded decisions (card play only), {rows.sum():,} with" in out
    heu = ["--bc-data", str(tmp_path / "heu"), "--distill-coef", "0.5", "--distill-cards-only"]
    assert train.main(["--name", "h", *TINY, *heu]) == 2
    assert "hold no card values" in capsys.readouterr().err
    assert train.main(["--name", "z", *TINY, *search, "--distill-temperature", "0"]) == 0
    assert "decisions, targets: the teacher's moves" in capsys.readouterr().out
    assert train.main(["--name", "t", *TINY, *search, "--distill-temperature", "-1"]) == 2
    assert "--distill-temperature must be a number >= 0" in capsys.readouterr().err
    assert train.main(["--name", "n", *TINY, "--distill-cards-only"]) == 2
    assert "--distill-cards-only needs --distill-coef" in capsys.readouterr().err
