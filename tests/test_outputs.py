"""skat_env.cli.outputs: output files named by run that never overwrite an earlier one, paths
checked before any work, the command as a user would retype it."""

from __future__ import annotations

import json

import pytest

from skat_env.cli.outputs import (
    OutputPathError,
    check_writable,
    command_line,
    new_output,
    output_paths,
    write_results,
)


def test_new_output_never_names_an_existing_file_or_its_plot(tmp_path):
    first = new_output("evaluate", "ppo:models/x.zip", "heuristic", folder=tmp_path)
    assert first.parent == tmp_path and first.name.startswith(
        "evaluate-ppo_models_x.zip-heuristic-"
    )
    first.with_suffix(".png").write_text("")  # only the plot exists: the name is still taken
    second = new_output("evaluate", "ppo:models/x.zip", "heuristic", folder=tmp_path)
    assert second != first and second.name.endswith("-2.json")


def test_check_writable_refuses_missing_folders_and_folders(tmp_path):
    with pytest.raises(OutputPathError, match="does not exist"):
        check_writable(tmp_path / "none" / "x.json", create_parent=False)
    with pytest.raises(OutputPathError, match="it is a folder"):
        check_writable(tmp_path, create_parent=False)
    check_writable(tmp_path / "made" / "x.json", create_parent=True)
    assert (tmp_path / "made").is_dir()


def test_output_paths_default_explicit_and_no_plot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, plot = output_paths(None, None, False, "league")
    assert out.parent.name == "results" and plot == out.with_suffix(".png")
    out, plot = output_paths(tmp_path / "a.json", None, True)
    assert out == tmp_path / "a.json" and plot is None
    with pytest.raises(OutputPathError):
        output_paths(tmp_path / "no" / "a.json", None, False)


def test_command_line_quotes_words_and_names_the_script():
    assert command_line("evaluate.py", ["--agents", "a b"]) == "python evaluate.py --agents 'a b'"
    assert command_line("skat-league", ["--deals", "3"]) == "skat-league --deals 3"


def test_write_results_writes_both_files_and_reports_failure(tmp_path, capsys):
    def plot(results, path):
        path.write_text(str(results["x"]))

    assert write_results({"x": 1}, tmp_path / "r.json", tmp_path / "r.png", plot, "prog") == 0
    assert json.loads((tmp_path / "r.json").read_text()) == {"x": 1}
    assert (tmp_path / "r.png").read_text() == "1" and "wrote" in capsys.readouterr().out
    assert write_results({"x": 1}, tmp_path / "none" / "r.json", None, plot, "prog") == 1
    assert "prog: error: cannot write results" in capsys.readouterr().err
