"""train.py: opponent specs, a smoke run that saves / reloads / evaluates, seeded repeats,
--resume, the fast snapshot agent, and bad input."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skat_env import tournament  # noqa: E402
import train  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402

TINY = ["--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "2", "--net-arch", "32,32", "--eval-every", "128", "--eval-deals", "3",
        "--snapshot-every", "64", "--checkpoint-every", "128", "--no-progress",
        "--bc-games", "0"]  # fmt: skip


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Runs go to tmp_path/runs."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*extra: str) -> int:
    return train.main([*TINY, *extra])


def params(path: Path) -> list[np.ndarray]:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device="cpu")
    return [p.detach().numpy().copy() for p in model.policy.parameters()]


def test_parse_opponents_normalises_and_sums():
    assert train.parse_opponents("random:1,heuristic:3") == {"random": 0.25, "heuristic": 0.75}
    assert train.parse_opponents("random, self") == {"random": 0.5, "self": 0.5}
    assert train.parse_opponents("random:1,random:1,self:0") == {"random": 1.0}
    assert train.parse_opponents("heuristic:margin=-1:2") == {"heuristic:margin=-1": 1.0}


@pytest.mark.parametrize(
    "text, match",
    [
        ("bogus:1", "unknown agent"),
        ("random:-1", "non-negative"),
        ("random:0,self:0", "positive weight"),
        ("", "positive weight"),
        ("human:1", "person"),
        ("ppo:/no/such/model.zip", "no model file"),
    ],
)
def test_bad_opponents_are_refused(text, match):
    with pytest.raises(train.UsageError, match=match):
        train.parse_opponents(text)


def test_smoke_run_saves_reloads_and_evaluates(in_tmp, capsys):
    assert run("--name", "smoke", "--opponents", "random:1,heuristic:1,self:1") == 0
    out = capsys.readouterr().out
    assert "evaluation at 256 steps" in out and "2x heuristic" in out
    d = in_tmp / "runs" / "smoke"
    for name in ("config.json", "progress.csv", "evals.csv", "evals.json", "learning_curve.png",
                 "final_model.zip", "checkpoints/latest.zip"):  # fmt: skip
        assert (d / name).is_file(), name
    assert json.loads((d / "config.json").read_text())["timesteps"] == 256
    assert len(list((d / "snapshots").glob("step_*.zip"))) >= 2
    with (d / "evals.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    expected = [(str(n), opp) for n in (0, 128, 256) for opp in ("random", "heuristic")]
    assert [(r["timesteps"], r["opponent"]) for r in rows] == expected
    for r in rows:
        assert float(r["sf_lo"]) <= float(r["sf"]) <= float(r["sf_hi"])
    # the saved model loads as a registry agent and plays a duplicate evaluation
    spec = f"ppo:{d / 'final_model.zip'}"
    res = tournament.evaluate([spec, "random", "random"], deals=2, seed=0)
    assert res["agents"][spec]["games"] == 6


def test_seeded_runs_repeat_and_resume_continues(in_tmp):
    once = ("--eval-every", "0")  # only the final evaluation
    assert run("--name", "a", "--seed", "3", *once) == 0
    assert run("--name", "b", "--seed", "3", *once) == 0
    assert run("--name", "c", "--seed", "4", *once) == 0
    runs = in_tmp / "runs"
    pa, pb, pc = (params(runs / n / "final_model.zip") for n in "abc")
    assert all(np.array_equal(x, y) for x, y in zip(pa, pb, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(pa, pc, strict=True))
    evals = [json.loads((runs / n / "evals.json").read_text()) for n in "ab"]
    strip = [[{k: v for k, v in r.items() if k != "seconds"} for r in e] for e in evals]
    assert strip[0] == strip[1]

    assert train.main(["--name", "a", "--resume", "--timesteps", "384", "--no-progress"]) == 0
    assert json.loads((runs / "a" / "config.json").read_text())["timesteps"] == 384
    with (runs / "a" / "progress.csv").open() as fh:
        steps = [int(r["time/total_timesteps"]) for r in csv.DictReader(fh)]
    assert steps == sorted(steps) and steps[-1] == 384 and 256 in steps


def test_max_minutes_stops_early_and_still_saves_and_evaluates(in_tmp, capsys):
    assert run("--name", "short", "--max-minutes", "0.00001", "--eval-every", "0") == 0
    out = capsys.readouterr().out
    assert "--max-minutes reached" in out and "evaluation at" in out
    d = in_tmp / "runs" / "short"
    assert (d / "final_model.zip").is_file()
    steps = json.loads((d / "evals.json").read_text())[-1]["timesteps"]
    assert 0 < steps < 256


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--opponents", "bogus:1"], "unknown agent"),
        (["--opponents", "random:0"], "positive weight"),
        (["--name", "nothing", "--resume"], "no checkpoint"),
        (["--n-envs", "0"], "--n-envs must be positive"),
        (["--reward-mode", "points"], "--reward-mode"),
        (["--net-arch", "64,x"], "--net-arch"),
        (["--bc-games", "-1"], "--bc-games"),
        (["--bc-epochs", "0"], "--bc-epochs"),
    ],
)
def test_bad_input_exits_2_with_a_message(in_tmp, capsys, argv, match):
    assert train.main([*TINY, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("train.py: error:") and match in err


def test_existing_run_needs_resume_or_force(in_tmp, capsys):
    (in_tmp / "runs" / "x").mkdir(parents=True)
    (in_tmp / "runs" / "x" / "config.json").write_text("{}")
    assert run("--name", "x") == 2
    assert "--resume" in capsys.readouterr().err


def test_cli_error_has_no_traceback():
    proc = subprocess.run([sys.executable, str(ROOT / "train.py"), "--opponents", "nobody"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)  # fmt: skip
    assert proc.returncode == 2
    assert "unknown agent" in proc.stderr and "Traceback" not in proc.stderr


def test_snapshot_agent_plays_like_the_registry_ppo_agent(in_tmp):
    from sb3_contrib import MaskablePPO

    from skat_env.envs.single_agent import SkatSingleAgentEnv

    path = in_tmp / "m.zip"
    MaskablePPO("MlpPolicy", SkatSingleAgentEnv(), seed=0, device="cpu").save(path)
    fast, ref = train.SnapshotAgent(path), make_agent(f"ppo:{path}")
    rng = np.random.default_rng(0)
    for _ in range(15):
        game = Game.random(rng)
        while not game.is_over:
            obs = observe(game, game.to_act)
            move = fast.act(obs)
            assert move == ref.act(obs)
            game.step(move)


# --- behaviour-cloning warm start ------------------------------------------------------------
def test_heuristic_decisions_are_the_heuristics_legal_moves_with_final_rewards():
    data = train.heuristic_decisions(6, seed=5, reward_mode="seeger_fabian", reward_scale=0.01)
    n = len(data["move"])
    assert n >= 6 * 3 and data["obs"].shape == (n, 450) and data["mask"].shape == (n, 121)
    assert data["mask"][np.arange(n), data["move"]].all()  # every move was legal
    again = train.heuristic_decisions(6, seed=5, reward_mode="seeger_fabian", reward_scale=0.01)
    assert all(np.array_equal(data[k], again[k]) for k in data)
    # replay the first game: same moves, and each decision's return is its seat's SF x 0.01
    heuristic, i = make_agent("heuristic", seed=5), 0
    game = Game.random(np.random.default_rng(5))
    seats = []
    while not game.is_over:
        obs = observe(game, game.to_act)
        assert np.array_equal(obs["observation"], data["obs"][i])
        assert heuristic.act(obs) == data["move"][i]
        seats.append(game.to_act)
        game.step(int(data["move"][i]))
        i += 1
    sf = game.result.seeger_fabian
    assert np.allclose(data["return"][:i], [0.01 * sf[s] for s in seats])


def test_behaviour_cloning_agrees_with_the_heuristic_above_chance():
    from sb3_contrib import MaskablePPO

    from skat_env.envs.single_agent import SkatSingleAgentEnv

    data = train.heuristic_decisions(15, seed=0, reward_mode="seeger_fabian", reward_scale=0.01)
    assert len(data["move"]) >= 400
    model = MaskablePPO("MlpPolicy", SkatSingleAgentEnv(), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [64, 64]})  # fmt: skip
    before = train.behaviour_clone(model, data, epochs=0)
    after = train.behaviour_clone(model, data, epochs=15, learning_rate=3e-3, batch_size=64)
    assert before["chance"] == after["chance"] < 0.6
    assert after["accuracy"] > after["chance"] + 0.1
    assert after["accuracy"] > before["accuracy"] + 0.1
    assert after["pi_loss"] < before["pi_loss"] and after["value_loss"] < before["value_loss"]


def test_bc_flag_warm_starts_the_run_repeatably(in_tmp, capsys):
    bc = ("--bc-games", "4", "--bc-epochs", "1", "--eval-every", "0", "--timesteps", "128")
    assert run("--name", "bc1", *bc) == 0
    assert "behaviour cloning:" in capsys.readouterr().out
    assert run("--name", "bc2", *bc) == 0
    assert run("--name", "plain", "--eval-every", "0", "--timesteps", "128") == 0
    runs = in_tmp / "runs"
    stats = json.loads((runs / "bc1" / "bc.json").read_text())
    assert stats["games"] == 4 and 0 <= stats["accuracy"] <= 1
    assert not (runs / "plain" / "bc.json").exists()
    p1, p2, p0 = (params(runs / n / "final_model.zip") for n in ("bc1", "bc2", "plain"))
    assert all(np.array_equal(x, y) for x, y in zip(p1, p2, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(p1, p0, strict=True))
    # resuming does not clone again
    capsys.readouterr()
    assert train.main(["--name", "bc1", "--resume", "--timesteps", "192", "--no-progress"]) == 0
    assert "behaviour cloning:" not in capsys.readouterr().out
