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

import evaluate  # noqa: E402
import train  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from skat_env.game import Game  # noqa: E402
from skat_env.observation import observe  # noqa: E402

TINY = ["--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "2", "--net-arch", "32,32", "--eval-every", "128", "--eval-deals", "3",
        "--snapshot-every", "64", "--checkpoint-every", "128", "--no-progress"]  # fmt: skip


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
    res = evaluate.evaluate([spec, "random", "random"], deals=2, seed=0)
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

    from skat_env.single_agent import SkatSingleAgentEnv

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
