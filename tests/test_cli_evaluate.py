"""skat_env.cli.evaluate (skat-evaluate, evaluate.py): clear errors without tracebacks, the
table, the JSON with the command and the plot, output files that never overwrite."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import evaluate

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "heuristic", "randon", "random"], "unknown agent"),
        (["--agents", "heuristic", "random"], "exactly 3 agents"),
        (["--agents", "random", "random", "random", "--deals", "0"], "deals must be"),
        (["--agents", "random", "random", "random", "--workers", "0"], "workers must be"),
        (["--agents", "human", "random", "random", "--workers", "2"], "--workers 1"),
    ],
)
def test_bad_input_is_a_clear_error(argv, message, capsys, tmp_path):
    code = evaluate.main([*argv, "--json", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert code != 0 and message in err and "Traceback" not in err


def test_unwritable_output_path(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = evaluate.main(
        ["--agents", "random", "random", "random", "--json", str(blocker / "r.json")]
    )
    err = capsys.readouterr().err
    assert code != 0 and "cannot write" in err


@pytest.mark.slow
def test_writes_table_json_with_command_and_plot(capsys, tmp_path):
    out = tmp_path / "r.json"
    argv = ["--agents", "heuristic", "random", "random", "--deals", "5", "--json", str(out)]
    assert evaluate.main(argv) == 0
    table = capsys.readouterr().out
    assert "heuristic - random" in table and "SF/game" in table
    data = json.loads(out.read_text())
    assert data["command"] == "skat-evaluate " + " ".join(argv)
    assert data["config"]["seatings"] == [
        ["heuristic", "random", "random"],
        ["random", "heuristic", "random"],
        ["random", "random", "heuristic"],
    ]
    assert out.with_suffix(".png").stat().st_size > 1000


def test_subprocess_error_exits_nonzero_without_traceback():
    proc = subprocess.run(
        [sys.executable, "evaluate.py", "--agents", "nobody", "random", "random"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode != 0 and "unknown agent" in proc.stderr
    assert proc.stderr.startswith("evaluate.py: error:") and "Traceback" not in proc.stderr


def test_help_lists_the_agent_specs():
    proc = subprocess.run(
        [sys.executable, "evaluate.py", "--help"], cwd=ROOT, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0 and "ppo[:PATH]" in proc.stdout and "--workers" in proc.stdout


def test_default_outputs_never_overwrite_an_earlier_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["--agents", "random", "random", "random", "--deals", "2", "--no-plot"]
    assert evaluate.main(argv) == 0 and evaluate.main(argv) == 0
    files = sorted((tmp_path / "results").glob("evaluate-random-random-random-*.json"))
    assert len(files) == 2 and files[0].read_text() and files[1].read_text()


def test_a_missing_output_folder_is_refused_not_created(tmp_path, capsys):
    target = tmp_path / "nonexistent" / "x.json"
    code = evaluate.main(["--agents", "random", "random", "random", "--json", str(target)])
    assert code == 2 and "does not exist" in capsys.readouterr().err
    assert not target.parent.exists()


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "flags", "bar"),
    [(True, [], True), (True, ["--no-progress"], False), (False, [], False)],
)
def test_any_tournament_shows_progress_on_a_terminal(tty, flags, bar, monkeypatch, tmp_path):
    stderr = _Stream(tty)
    monkeypatch.setattr(sys, "stderr", stderr)
    argv = ["--agents", "random", "heuristic", "heuristic", "--deals", "2", "--no-plot",
            "--json", str(tmp_path / "r.json"), *flags]  # fmt: skip
    assert evaluate.main(argv) == 0
    done = re.search(r"evaluating: 100%.* (\d+)/\1 ", stderr.getvalue())
    assert bool(done) == bar, stderr.getvalue()
