"""skat_env.cli.league (skat-league, league.py): outputs that never overwrite, the default
agents, one-line errors, the command as typed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skat_env.cli import league as cli

ROOT = Path(__file__).resolve().parents[1]


def test_default_outputs_never_overwrite(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["--agents", "random", "heuristic", "--deals", "2", "--no-progress"]
    assert cli.main(argv) == 0
    assert cli.main(argv) == 0
    outs = sorted((tmp_path / "results").glob("league-*.json"))
    assert len(outs) == 2 and all(p.with_suffix(".png").is_file() for p in outs)
    data = json.loads(outs[0].read_text())
    assert data["command"].startswith("skat-league --agents random heuristic")
    assert data["ratings"] == json.loads(outs[1].read_text())["ratings"]
    assert "wrote results/league-" in capsys.readouterr().out


def test_default_agents_include_the_shipped_model(monkeypatch, tmp_path, capsys):
    pytest.importorskip("sb3_contrib")  # the train extra plays the shipped PPO model
    monkeypatch.chdir(ROOT)
    rc = cli.main(["--deals", "1", "--json", str(tmp_path / "l.json"), "--no-plot"])
    assert rc == 0
    assert set(json.loads((tmp_path / "l.json").read_text())["ratings"]) == set(cli.DEFAULT_AGENTS)
    monkeypatch.chdir(tmp_path)  # the default model path is relative to the working directory
    assert cli.main(["--deals", "1", "--no-plot"]) == 2
    assert "no model file at 'models/ppo_skat.zip'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["--agents", "random", "bogus"], "unknown agent"),
        (["--agents", "random", "heuristic", "--deals", "0"], "deals must be"),
        (["--agents", "random", "heuristic", "--json", "no/such/dir/x.json"], "does not exist"),
    ],
)
def test_errors_are_one_line(argv, match, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skat-league: error:") and "Traceback" not in err
    assert re.search(match, err)
    assert not (tmp_path / "results").exists() or not list((tmp_path / "results").iterdir())


@pytest.mark.slow
def test_script_names_itself_in_the_saved_command(tmp_path):
    """``python league.py`` records the command as it was typed, ``skat-league`` likewise."""
    out = tmp_path / "x.json"
    done = subprocess.run(
        [sys.executable, "league.py", "--agents", "random", "heuristic", "--deals", "2",
         "--json", str(out), "--no-plot", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["command"].startswith("python league.py --agents random")
