"""Every command line's ``--seed``: one type (an integer in 0..MAX_SEED), so a bad seed is a
one-line usage error with exit status 2 before anything runs, never a NumPy traceback; the
library entry points refuse a negative seed with their own error. Counts typed
``count_arg`` likewise."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

import evaluate
from skat_env.cli import contracts, distill, league, train, web
from skat_env.cli.options import MAX_SEED, count_arg, seed_arg
from skat_env.league import LeagueError
from skat_env.league import league as play_league
from skat_env.tournament import EvaluationError
from skat_env.tournament import evaluate as play_evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_contracts  # noqa: E402
import bench_defence  # noqa: E402
import bench_engine  # noqa: E402
import bench_eval  # noqa: E402
import bench_heuristic  # noqa: E402
import bench_pimc  # noqa: E402
import bench_solver  # noqa: E402


@pytest.mark.parametrize("text", ["0", "7", str(MAX_SEED)])
def test_seed_arg_takes_the_range(text):
    assert seed_arg(text) == int(text)


@pytest.mark.parametrize("text", ["-1", str(MAX_SEED + 1), "1.5", "x", ""])
def test_seed_arg_refuses_the_rest(text):
    with pytest.raises(argparse.ArgumentTypeError, match=rf"0\.\.{MAX_SEED}, got {text!r}"):
        seed_arg(text)


def _commands(out: str) -> dict:
    return {
        "skat-evaluate": (
            evaluate.main,
            ["--agents", "random", "random", "random", "--json", f"{out}/r.json"],
        ),  # fmt: skip
        "skat-league": (
            league.main,
            ["--agents", "random", "heuristic", "--json", f"{out}/r.json"],
        ),
        "skat-train": (train.main, ["--timesteps", "10"]),  # runs/ under the working folder
        "skat-web": (web.main, []),
        "distill": (distill.main, ["--teacher", "heuristic", "--games", "1", "--out", out]),
        "contracts": (contracts.main, ["generate", f"{out}/data", "--deals", "1"]),
        "bench_solver": (bench_solver.main, ["--deals", "1"]),
        "bench_defence": (bench_defence.main, ["--defenders", "random", "random", "--deals", "1"]),
        "bench_contracts": (bench_contracts.main, ["--deals", "1"]),
        "bench_heuristic": (bench_heuristic.main, []),
        "bench_pimc": (bench_pimc.main, ["--games", "1"]),
        "bench_engine": (bench_engine.main, ["--games", "1"]),
        "bench_eval": (bench_eval.main, ["--deals", "1"]),
    }


@pytest.mark.parametrize("seed", ["-1", "x"])
@pytest.mark.parametrize("name", sorted(_commands("OUT")))
def test_a_bad_seed_is_a_usage_error_before_anything_runs(
    name, seed, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    main, argv = _commands(str(tmp_path))[name]
    try:
        code = main([*argv, "--seed", seed])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "--seed" in err and "Traceback" not in err
    assert seed == "x" or f"0..{MAX_SEED}" in err  # "x": argparse's "invalid int" will do
    assert not any(tmp_path.iterdir())  # nothing written


def test_the_libraries_refuse_a_negative_seed():
    with pytest.raises(EvaluationError, match="seed must be at least 0, got -1"):
        play_evaluate(["random", "random", "random"], 1, seed=-1)
    with pytest.raises(LeagueError, match="seed must be at least 0, got -1"):
        play_league(["random", "heuristic"], 1, seed=-1)


@pytest.mark.parametrize("text", ["0", "-3", "2.5", "x"])
def test_count_arg_refuses_what_is_not_a_positive_integer(text):
    assert count_arg("4") == 4
    with pytest.raises(argparse.ArgumentTypeError, match=f"positive integer, got {text!r}"):
        count_arg(text)


@pytest.mark.parametrize(
    ("main", "argv"),
    [(bench_engine.main, ["--games", "0"]), (bench_engine.main, ["--rounds", "-1"]),
     (bench_eval.main, ["--deals", "0"])],
)  # fmt: skip
def test_a_bad_count_is_a_usage_error(main, argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and argv[0] in err and "positive integer" in err
