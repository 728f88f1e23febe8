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
    assert {"skat-evaluate", "skat-league", "skat-train", "skat-train-rllib", "skat-web"} <= set(
        SCRIPTS
    )
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


@pytest.mark.slow
def test_installed_command_runs_outside_the_checkout(tmp_path):
    exe = shutil.which("skat-league", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("skat-league is not installed in this environment")
    done = subprocess.run([exe, "--agents", "random", "nope"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("skat-league: error: unknown agent") and not done.stdout


def test_every_subpackage_is_installed():
    """pyproject lists packages by hand (agents/ installs as skat_env.agents): keep it whole."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "skat_env").rglob("__init__.py")
    }
    assert listed == found | {"skat_env.agents"}


@pytest.mark.slow
def test_the_players_install_inside_the_package(tmp_path):
    """A user's own ``agents`` package must not collide with ours: only skat_env.agents exists."""
    code = (
        "import importlib.util, skat_env.agents.registry as r;"
        "print(importlib.util.find_spec('agents') is None, type(r.make_agent('random')).__name__)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "RandomAgent"]
