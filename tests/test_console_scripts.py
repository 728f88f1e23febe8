"""Console scripts ([project.scripts]): each entry point resolves to a library ``main`` that
runs ``--help``, and the installed commands run from any working directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def test_the_tools_have_console_scripts():
    assert {"skat-evaluate", "skat-league", "skat-train-rllib"} <= set(SCRIPTS)
    assert all(target.startswith("skat_env.") for target in SCRIPTS.values())


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_entry_point_runs_help(name, capsys):
    installed = {ep.name: ep for ep in entry_points(group="console_scripts")}
    if name not in installed:
        pytest.skip(f"{name} not installed here (pip install -e . installs it)")
    assert installed[name].value == SCRIPTS[name]
    with pytest.raises(SystemExit) as exit_:
        installed[name].load()(["--help"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("usage: ")


def test_installed_command_runs_outside_the_checkout(tmp_path):
    exe = shutil.which("skat-league", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("skat-league is not installed in this environment")
    done = subprocess.run([exe, "--agents", "random", "nope"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("skat-league: error: unknown agent") and not done.stdout
