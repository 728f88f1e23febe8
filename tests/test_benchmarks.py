"""The env benchmarks run end to end (tiny sizes) and refuse bad arguments."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_env  # noqa: E402
import bench_env_parts  # noqa: E402


@pytest.mark.parametrize("extra", [["--raw"], [], ["--raw", "--history"]])
def test_bench_env__prints_best_and_median_rates(capsys, extra):
    assert bench_env.main(["--games", "4", "--rounds", "2", "--no-openspiel", *extra]) == 0
    out = capsys.readouterr().out
    assert out.count("round ") == 2 and "best" in out and "median" in out


def test_bench_env__both_envs_against_both_openspiel_observers(capsys):
    pytest.importorskip("pyspiel")
    assert bench_env.main(["--games", "3", "--rounds", "2", "--both", "--python-skat"]) == 0
    out = capsys.readouterr().out
    assert out.count("round ") == 10  # raw_env, env, OpenSpiel's skat both ways, python_skat
    for mine in ("raw_env()", "env()"):
        for theirs in ("skat, NumPy observer", "skat, observation_tensor()", "python_skat"):
            assert f"skat_v0.{mine} / open_spiel {theirs}" in out


def test_loops__openspiel_observers_see_the_same_decisions():
    pytest.importorskip("pyspiel")
    import loops

    fast, lists = (loops.bench_openspiel(5, 3, kind)[0] for kind in ("numpy", "list"))
    assert fast == lists > 0  # the same seeded games, however the observation is read
    with pytest.raises(ValueError, match="observer"):
        loops.bench_openspiel(1, 0, "dict")


def test_bench_env__bad_arguments_exit_2(capsys):
    assert bench_env.main(["--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_bench_env_parts__times_every_part(capsys):
    assert bench_env_parts.main(["--games", "4", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for part in ("engine", "+ tracker", "+ observe", "raw_env loop", "loop floor"):
        assert part in out


def test_bench_env_parts__replays_the_recorded_games_exactly(monkeypatch):
    records = bench_env_parts.record_games(6, seed=2)
    assert all(moves for _, _, moves in records)
    bench_env_parts.engine(records)  # raises IllegalMoveError if a replay diverged
    replayed = []
    real_play = bench_env_parts.play_episode

    def play_and_keep(env, rng):
        steps = real_play(env, rng)
        replayed.append([m for _, m in env.unwrapped.game.history])
        return steps

    monkeypatch.setattr(bench_env_parts, "play_episode", play_and_keep)
    bench_env_parts.raw_env_loop(records, seed=2)
    assert replayed == [moves for _, _, moves in records]


def test_bench_soak__plays_every_env_and_reports_rate_and_memory(capsys):
    import bench_soak

    assert bench_soak.main(["--games", "6", "--num-envs", "3"]) == 0
    out = capsys.readouterr().out
    for env in ("raw_env", "env", "single", "vector"):
        assert env in out
    assert "games/s" in out and "MiB" in out


@pytest.mark.slow
def test_bench_train__prints_both_paths_and_their_ratio(capsys):
    pytest.importorskip("sb3_contrib")
    import bench_train

    argv = ["--rollouts", "1", "--rollout-size", "256", "--net-arch", "16", "--batch-size", "64",
            "--n-epochs", "1", "--no-previous"]  # fmt: skip
    assert bench_train.main(argv) == 0
    out = capsys.readouterr().out
    assert "single (8 envs)" in out and "vector (256 games)" in out and "batched / single" in out
    with pytest.raises(SystemExit):
        bench_train.main(["--rollouts", "0"])
