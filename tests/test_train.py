"""train.py: smoke runs of both env paths that save / reload / evaluate, seeded repeats,
--resume, the budget (--max-minutes bounds cloning and PPO; a stopped run can resume), the
warm starts of --init, the help, no litter in the system temp folder, and bad input."""

import csv
import dataclasses
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

from skat_env import tournament  # noqa: E402
from skat_env.cli import train  # noqa: E402
from skat_env.training import cloning  # noqa: E402

TINY = [
    "--timesteps",
    "256",
    "--n-envs",
    "2",
    "--n-steps",
    "64",
    "--batch-size",
    "64",
    "--n-epochs",
    "2",
    "--net-arch",
    "32,32",
    "--eval-every",
    "128",
    "--eval-deals",
    "3",
    "--final-eval-deals",
    "3",
    "--snapshot-every",
    "64",
    "--checkpoint-every",
    "128",
    "--no-progress",
    "--init",
    "none",
    "--max-minutes",
    "0",
    "--no-tensorboard",
]


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


@pytest.mark.slow
@pytest.mark.parametrize("env", ["vector", "single"])
def test_smoke_run_saves_reloads_and_evaluates(in_tmp, capsys, env):
    argv = [
        "--name",
        "smoke",
        "--env",
        env,
        "--opponents",
        "random:1,heuristic:1,self:1",
        "--tensorboard",
    ]
    assert run(*argv) == 0
    out = capsys.readouterr().out
    assert "evaluation at 256 steps" in out and "2x heuristic" in out
    assert f"({env} env, rollouts of 128)" in out
    d = in_tmp / "runs" / "smoke"
    for name in (
        "config.json",
        "progress.csv",
        "evals.csv",
        "evals.json",
        "learning_curve.png",
        "final_model.zip",
        "checkpoints/ppo_256_steps.zip",
    ):
        assert (d / name).is_file(), name
    assert list((d / "tb").rglob("events.out.tfevents.*"))
    assert json.loads((d / "config.json").read_text())["timesteps"] == 256
    with (d / "evals.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    expected = [(str(n), opp) for n in (0, 128, 256) for opp in ("random", "heuristic")]
    assert [(r["timesteps"], r["opponent"]) for r in rows] == expected
    for r in rows:
        assert float(r["sf_lo"]) <= float(r["sf"]) <= float(r["sf_hi"])
    with (d / "progress.csv").open() as fh:
        steps = [int(r["time/total_timesteps"]) for r in csv.DictReader(fh)]
    assert steps[-1] == 256
    # the saved model loads as a registry agent and plays a duplicate evaluation
    spec = f"ppo:{d / 'final_model.zip'}"
    res = tournament.evaluate([spec, "random", "random"], deals=2, seed=0)
    assert res["agents"][spec]["games"] == 6


@pytest.mark.slow
def test_seeded_runs_repeat_and_resume_continues(in_tmp):
    once = ("--eval-every", "0")  # evaluations at the start and the end only
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


@pytest.mark.slow
def test_the_final_model_averages_the_last_checkpoints(in_tmp, capsys):
    once = ("--eval-every", "0", "--checkpoint-every", "64")  # checkpoints at 64..256
    assert run("--name", "mean", "--average-last", "3", *once) == 0
    assert "the mean weights of the 3 checkpoints from 128 to 256 steps" in capsys.readouterr().out
    d = in_tmp / "runs" / "mean"
    tail = [params(d / f"checkpoints/ppo_{n}_steps.zip") for n in (128, 192, 256)]
    for got, *each in zip(params(d / "final_model.zip"), *tail, strict=True):
        np.testing.assert_allclose(got, np.mean(each, axis=0), rtol=1e-6, atol=1e-7)
        assert not np.array_equal(got, each[-1])
    assert run("--name", "last", "--average-last", "1", *once) == 0
    assert "mean weights" not in capsys.readouterr().out
    last = in_tmp / "runs" / "last"
    final, raw = params(last / "final_model.zip"), params(last / "checkpoints/ppo_256_steps.zip")
    assert all(np.array_equal(a, b) for a, b in zip(final, raw, strict=True))


@pytest.mark.slow
def test_a_small_budget_ends_on_whole_rollouts_without_overshooting(in_tmp, capsys):
    assert run("--name", "odd", "--timesteps", "100", "--eval-every", "0") == 0
    out = capsys.readouterr().out
    assert "from 0 to 100 steps" in out and "evaluation at 100 steps" in out


@pytest.mark.slow
def test_max_minutes_stops_after_one_update_saves_and_resumes(in_tmp, capsys):
    assert run("--name", "short", "--max-minutes", "0.00001", "--eval-every", "0") == 0
    out = capsys.readouterr().out
    assert "--max-minutes reached at 128 steps" in out and "evaluation at 128 steps" in out
    d = in_tmp / "runs" / "short"
    assert (d / "final_model.zip").is_file() and (d / "checkpoints/ppo_128_steps.zip").is_file()
    with (d / "progress.csv").open() as fh:
        assert {r["time/total_timesteps"] for r in csv.DictReader(fh)} == {"128"}
    assert train.main(["--name", "short", "--resume", "--max-minutes", "0", "--no-progress"]) == 0
    assert json.loads((d / "evals.json").read_text())[-1]["timesteps"] == 256


@pytest.mark.slow
def test_max_minutes_bounds_the_cloning_and_timesteps_cap_it(in_tmp, capsys, monkeypatch):
    assert run("--name", "cap", "--init", "heuristic", "--clone-games", "8000",
               "--clone-epochs", "1") == 0  # fmt: skip
    assert "behaviour cloning: 7 games (capped: --timesteps 256)" in capsys.readouterr().out
    assert json.loads((in_tmp / "runs/cap/bc.json").read_text())["games"] == 7
    argv = [
        "--name",
        "budget",
        "--timesteps",
        "1000000",
        "--init",
        "heuristic",
        "--clone-games",
        "100000",
        "--clone-epochs",
        "50",
        "--max-minutes",
        "0.05",
        "--eval-every",
        "0",
    ]
    monkeypatch.setattr(train, "CLONE_BATCH_SIZE", 1)  # slow cloning: the budget cuts it
    assert run(*argv) == 0
    assert (
        "to 1,000,064 steps or --max-minutes 0.05, whichever comes first" in capsys.readouterr().out
    )
    stats = json.loads((in_tmp / "runs/budget/bc.json").read_text())
    assert 0 < stats["games"] < 100000 and stats["epochs"] < 50  # both cut by the budget


@pytest.mark.slow
def test_interrupt_saves_a_checkpoint_and_the_printed_resume_hint_works(
    in_tmp, capsys, monkeypatch
):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(cloning, "behaviour_clone", interrupted)
        assert run("--name", "stop", "--init", "heuristic", "--clone-games", "4") == 130
    err = capsys.readouterr().err
    assert "continue with: skat-train --name stop --resume" in err
    assert train.main(["--name", "stop", "--resume", "--no-progress"]) == 0
    assert "behaviour cloning:" in capsys.readouterr().out  # the interrupted cloning is redone
    assert (in_tmp / "runs/stop/final_model.zip").is_file()


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--opponents", "bogus:1"], "unknown agent"),
        (["--opponents", "random:0"], "positive weight"),
        (["--name", "nothing", "--resume"], "no checkpoint"),
        (["--n-envs", "-1"], "--n-envs must be >= 0"),
        (["--env", "subproc"], "argument --env: invalid choice: 'subproc'"),
        (["--reward-mode", "points"], "argument --reward-mode: invalid choice"),
        (["--pool-priority", "x"], "argument --pool-priority: invalid choice"),
        (["--n-epochs", "two"], "argument --n-epochs: invalid int value"),
        (["--net-arch", "64,x"], "--net-arch"),
        (["--clone-games", "0"], "--clone-games must be positive"),
        (["--clone-epochs", "0"], "--clone-epochs must be positive"),
        (["--average-last", "0"], "--average-last must be positive"),
        (["--learning-rate", "1.5"], "--learning-rate must be in [0, 1) (0: by --init)"),
        (
            ["--init", "bogus"],
            "--init must be an agent spec (heuristic, ppo, ...), none, data:, "
            "iss: or model:PATH, got 'bogus': unknown agent 'bogus'",
        ),
        (["--init", "model"], "--init must be an agent spec (heuristic, ppo, ...), none, data:"),
        (["--init", "heuristic:x"], "unknown heuristic option 'x'"),
        (["--init", "oracle"], "teacher 'oracle' sees every card"),
        (["--init", "iss:nowhere.sgf"], "--init iss: no such file 'nowhere.sgf'"),
        (["--iss-min-rating", "900"], "--iss-min-rating needs --init iss:FILE"),
        (["--bc-games", "5"], "unrecognized arguments: --bc-games 5"),  # a removed flag
    ],
)
def test_bad_input_exits_2_with_a_message(in_tmp, capsys, argv, match):
    assert train.main([*TINY, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skat-train: error:") and match in err
    assert err.count("\n") == 1  # one line, no usage block


def test_existing_run_needs_resume_or_force(in_tmp, capsys):
    (in_tmp / "runs" / "x").mkdir(parents=True)
    (in_tmp / "runs" / "x" / "config.json").write_text("{}")
    assert run("--name", "x") == 2
    assert "--resume" in capsys.readouterr().err


def test_cli_error_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "train.py"), "--opponents", "nobody"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("train.py: error:")  # the script names itself
    assert "unknown agent" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_bc_flag_warm_starts_the_run_repeatably(in_tmp, capsys):
    bc = ("--init", "heuristic", "--clone-games", "4", "--clone-epochs", "1", "--eval-every", "0",
          "--timesteps", "256")  # fmt: skip
    assert run("--name", "bc1", *bc) == 0
    assert "behaviour cloning:" in capsys.readouterr().out
    assert run("--name", "bc2", *bc) == 0
    assert run("--name", "plain", "--eval-every", "0", "--timesteps", "256") == 0
    runs = in_tmp / "runs"
    stats = json.loads((runs / "bc1" / "bc.json").read_text())
    assert stats["games"] == 4 and 0 <= stats["accuracy"] <= 1
    assert not (runs / "plain" / "bc.json").exists()
    p1, p2, p0 = (params(runs / n / "final_model.zip") for n in ("bc1", "bc2", "plain"))
    assert all(np.array_equal(x, y) for x, y in zip(p1, p2, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(p1, p0, strict=True))
    # resuming does not clone again
    capsys.readouterr()
    assert train.main(["--name", "bc1", "--resume", "--timesteps", "384", "--no-progress"]) == 0
    assert "behaviour cloning:" not in capsys.readouterr().out


@pytest.mark.slow
def test_init_spec_clones_that_agents_games(in_tmp, capsys):
    """Any agent spec is a teacher: the bundled model's games, cloned, play mostly its moves."""
    bc = ("--clone-games", "40", "--clone-epochs", "2", "--eval-every", "0", "--timesteps", "1320")
    assert run("--name", "p", "--init", "ppo", *bc) == 0
    assert "decisions of 40 ppo games" in capsys.readouterr().out
    stats = json.loads((in_tmp / "runs/p/bc.json").read_text())
    assert stats["games"] == 40 and stats["accuracy"] > stats["chance"]


@pytest.mark.slow
def test_bc_data_clones_recorded_decisions(in_tmp, capsys):
    from skat_env.agents import HeuristicAgent
    from skat_env.training import distill

    labelling = distill.Labelling(HeuristicAgent, "heuristic")
    distill.write_shards(labelling, 4, in_tmp / "data", shard_games=2, progress=False)
    assert run("--name", "d", "--init", f"data:{in_tmp / 'data'}", "--eval-every", "0") == 0
    assert "decisions of 4 recorded games" in capsys.readouterr().out
    assert run("--name", "e", "--init", f"data:{in_tmp / 'none'}") == 2
    assert "--init data: no shard_*.npz files" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("init", "given", "rate"),
    [("none", (), 3e-4), ("heuristic", (), 3e-4), ("model:bundled", (), 1e-4),
     ("model:bundled", ("--learning-rate", "5e-5"), 5e-5)],
)  # fmt: skip
def test_the_learning_rate_follows_the_warm_start_unless_given(in_tmp, init, given, rate):
    """A trained start keeps what it knows at 1e-4; a clone or nothing learns at 3e-4. The
    config saves the rate used, so a resumed run keeps it."""
    argv = [*TINY, "--init", init, *given]
    args = train.parse_dataclass(train.Args, argv, "t", "", "")[0]
    args, run_dir = train.prepare_run(args, set())
    assert args.learning_rate == rate
    assert json.loads((run_dir / "config.json").read_text())["learning_rate"] == rate


@pytest.mark.slow
def test_init_model_warm_starts_from_a_saved_model_without_cloning(in_tmp, capsys):
    assert run("--name", "src", "--eval-every", "0", "--opponents", "heuristic:1") == 0
    capsys.readouterr()
    src = str(in_tmp / "runs/src/final_model.zip")
    assert run("--name", "warm", "--init", f"model:{src}", "--eval-every", "0") == 0
    out = capsys.readouterr().out
    assert f"warm start: the weights of {src} (no cloning)" in out
    assert "behaviour cloning" not in out and not (in_tmp / "runs/warm/bc.json").exists()

    # step 0 of the new run plays exactly as the saved model: the same evaluation figures
    def evals(name: str, step: int) -> list[dict]:
        rows = json.loads((in_tmp / "runs" / name / "evals.json").read_text())
        drop = ("seconds", "timesteps")
        return [
            {k: v for k, v in r.items() if k not in drop} for r in rows if r["timesteps"] == step
        ]

    final, first = evals("src", 256), evals("warm", 0)
    assert first == final and len(first) == 2
    # another network or a missing file: exit 2
    bad = [
        (["--net-arch", "16,16"], "does not fit this run"),
        (["--init", "model:nowhere.zip"], "--init model: no such file"),
    ]
    for argv, match in bad:
        assert run("--name", "bad", "--init", f"model:{src}", *argv) == 2
        assert match in capsys.readouterr().err
        assert not (in_tmp / "runs/bad").exists()  # nothing left to --force
    (in_tmp / "junk.zip").write_text("not a model")
    assert run("--name", "bad", "--init", f"model:{in_tmp / 'junk.zip'}", "--force") == 2
    assert "cannot load" in capsys.readouterr().err


@pytest.mark.slow
def test_init_model_npz_starts_where_the_zip_does(in_tmp, capsys):
    """An exported .npz (policy and value) warm-starts exactly as its zip; a policy-only
    file is refused."""
    from skat_env.integrations.numpy_policy import NumpyPolicy, export

    assert run("--name", "src", "--eval-every", "0", "--opponents", "heuristic:1") == 0
    src = in_tmp / "runs/src/final_model.zip"
    export(src, in_tmp / "src.npz")
    assert run("--name", "z", "--init", f"model:{src}", "--eval-every", "0") == 0
    assert run("--name", "n", "--init", f"model:{in_tmp / 'src.npz'}", "--eval-every", "0") == 0
    pz, pn = params(in_tmp / "runs/z/final_model.zip"), params(in_tmp / "runs/n/final_model.zip")
    assert all(np.array_equal(x, y) for x, y in zip(pz, pn, strict=True))  # same start, same run
    NumpyPolicy.load(src).save(in_tmp / "policy_only.npz")
    capsys.readouterr()
    assert run("--name", "p", "--init", f"model:{in_tmp / 'policy_only.npz'}") == 2
    assert "holds no value network" in capsys.readouterr().err


@pytest.mark.slow
def test_init_bundled_copies_the_bundled_models_weights(in_tmp):
    """The default warm start: the bundled model's policy and value layers, exactly."""
    from skat_env.agents.ppo import BUNDLED_MODEL
    from skat_env.integrations.numpy_policy import NumpyPolicy, load_value_layers, value_layers
    from skat_env.training.opponents import SelfPlaySlots

    args = train.parse_dataclass(train.Args, [*TINY, "--net-arch", "256,256"], "t", "", "")[0]
    venv, _ = train.make_env(args, train.validate(args), SelfPlaySlots(1))
    model = train.make_model(args, venv, in_tmp)
    train.init_weights(model, train.parse_init("model:bundled").path)
    got, want = NumpyPolicy.from_policy(model.policy), NumpyPolicy.load(BUNDLED_MODEL)
    for (w, b), (w2, b2) in zip(got.layers, want.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    stored = load_value_layers(BUNDLED_MODEL)
    assert stored is not None
    for (w, b), (w2, b2) in zip(value_layers(model.policy), stored, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)


def test_help_describes_the_run_in_groups_and_where_results_go(capsys):
    with pytest.raises(SystemExit) as e:
        train.main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    description = out.split("\n\n")[1]
    assert description.startswith("Train a Skat agent") and description.endswith("deals.")
    for title in ("run:", "budget", "warm start:", "opponents:", "PPO:", "evaluation:", "output:"):
        assert f"\n{title}" in out, title
    assert "results (runs/<name>/):" in out and "final_model.zip" in out
    flags = re.findall(r"^  (--[a-z-]+)", out, re.M)  # one per setting, each once
    assert len(flags) == len(set(flags)) == len(dataclasses.fields(train.Args)), flags


def test_a_run_leaves_nothing_in_the_system_temp_folder(in_tmp, monkeypatch):
    """SB3 logs to tempdir/SB3-<date> unless given a logger: a run logs to its own folder.
    (torch's compiler cache, tempdir/torchinductor_<user>, is made once per user on import.)"""
    temp = in_tmp / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    assert tempfile.gettempdir() == str(temp)
    assert run("--name", "clean", "--init", "heuristic", "--clone-games", "4",
               "--eval-every", "0") == 0  # fmt: skip
    assert [p.name for p in temp.iterdir() if not p.name.startswith("torchinductor_")] == []
