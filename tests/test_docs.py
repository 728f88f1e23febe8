"""README.md and docs/*.md: links that resolve, a short front door, no history outside the
changelog and the experiments table, and one version."""

import importlib.metadata
import re
from pathlib import Path

import pytest

import skat_env

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
HISTORY_PAGES = {"experiments.md"}  # the one docs page that names commits and past versions
CURRENT_PAGES = [p for p in PAGES if p.name not in HISTORY_PAGES]
REPO_FILE = r"\b((?:agents|benchmarks|examples|scripts|skat_env|tests)/[\w/]+\.(?:py|sh))"


def _without_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _prose(text: str) -> str:
    """The text without code blocks and inline code, where brackets are not links."""
    return re.sub(r"`[^`\n]*`", "", _without_fences(text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ... as on GitHub."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+)$", _without_fences(page.read_text()), re.M):
        n = counts.get(slug(heading), 0)
        counts[slug(heading)] = n + 1
        found.add(slug(heading) if n == 0 else f"{slug(heading)}-{n}")
    return found


def links(page: Path) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", _prose(page.read_text()))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_docs__every_relative_link_points_at_a_file_and_anchor(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target} (no file {dest.relative_to(ROOT)})")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no heading #{anchor} in {dest.name})")
    assert not broken, f"{page.name}: " + "; ".join(broken)


@pytest.mark.parametrize("page", CURRENT_PAGES, ids=lambda p: p.name)
def test_docs__every_file_of_the_repo_they_name_exists(page):
    """Paths such as ``benchmarks/bench_pimc.py`` (a moved file leaves its old name behind)."""
    named = set(re.findall(REPO_FILE, page.read_text()))
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{page.name}: {missing}"


def test_docs__the_anchor_rule_matches_github():
    heading = "Human games: `--bc-iss` (International Skat Server records)"
    assert slug(heading) == "human-games---bc-iss-international-skat-server-records"
    assert slug("Search: the pimc player") == "search-the-pimc-player"


def test_readme__is_a_front_door_of_at_most_200_lines():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


@pytest.mark.parametrize("page", CURRENT_PAGES, ids=lambda p: p.name)
def test_docs__no_history_issue_numbers_or_commit_ids(page):
    """Version history belongs in CHANGELOG.md, removed experiments in docs/experiments.md."""
    text = page.read_text()
    history = r"\b0\.[1-9]\.0\b|\bissues? \d+|\bthe issue\b|\bthis round\b|\bgoals?\b"
    found = re.findall(history, text, re.I)
    found += [h for h in re.findall(r"\b[0-9a-f]{7,40}\b", text)
              if re.search(r"[a-f]", h) and re.search(r"\d", h)]  # fmt: skip
    assert not found, f"{page.name}: {found}"


def test_one_version_read_from_the_package_metadata():
    pyproject = (ROOT / "pyproject.toml").read_text()
    version = re.search(r'^version = "(.+?)"', pyproject, re.M)[1]
    changelog = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)[1]
    assert skat_env.__version__ == importlib.metadata.version("skat-env") == version == changelog
    assert f'"{version}"' not in (ROOT / "skat_env" / "__init__.py").read_text()
