"""pyproject's hand-kept package list is whole: every package folder of skat_env/ and agents/
(installed as skat_env.agents) is listed, nothing listed is missing, and the console scripts
point at functions that exist."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = CONFIG["tool"]["setuptools"]


def folder_of(package: str) -> Path:
    """Where setuptools takes a package from (``package-dir`` maps skat_env.agents)."""
    for name, folder in SETUPTOOLS.get("package-dir", {}).items():
        if package == name or package.startswith(name + "."):
            return ROOT / folder / Path(*package.split(".")[len(name.split(".")) :])
    return ROOT / Path(*package.split("."))


def packages_on_disk() -> set[str]:
    found = set()
    for base, prefix in ((ROOT / "skat_env", "skat_env"), (ROOT / "agents", "skat_env.agents")):
        for init in base.rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            found.add(".".join([prefix, *parts]))
    return found


def test_the_package_list_names_every_package_folder_and_nothing_else():
    listed = set(SETUPTOOLS["packages"])
    assert listed == packages_on_disk()
    for package in listed:
        assert (folder_of(package) / "__init__.py").is_file(), package


def test_the_players_install_as_skat_env_agents_from_the_agents_folder():
    assert SETUPTOOLS["package-dir"] == {"skat_env.agents": "agents"}
    assert folder_of("skat_env.agents") == ROOT / "agents"
    assert not (ROOT / "skat_env" / "agents").exists()  # no second copy to shadow it


def test_package_data_globs_match_files():
    for package, globs in SETUPTOOLS.get("package-data", {}).items():
        for glob in globs:
            assert list(folder_of(package).glob(glob)), f"{package}: {glob} matches nothing"


def test_console_scripts_name_functions_that_exist():
    for script, target in CONFIG["project"]["scripts"].items():
        module, _, func = target.partition(":")
        assert module.startswith("skat_env."), script
        path = folder_of(module)
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), script
        assert callable(getattr(importlib.import_module(module), func)), script
