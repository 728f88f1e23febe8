"""The table of agent kinds (agents/specs.py): the parser, the docs page and the players'
defaults all come from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from skat_env.agents.registry import SPECS, make_agent
from skat_env.agents.specs import KINDS, AgentSpecError, markdown, parse_spec, split_items

ROOT = Path(__file__).resolve().parent.parent


def test_docs_agents_md_is_the_generated_table():
    """docs/agents.md is generated: regenerate it with ``python -m skat_env.agents``."""
    assert (ROOT / "docs" / "agents.md").read_text() == markdown(), (
        "docs/agents.md is stale: python -m skat_env.agents > docs/agents.md"
    )


def test_the_list_the_errors_point_at_prints():
    """``python -m skat_env.agents`` (named by every unknown-agent error) prints the table."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "skat_env.agents"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0 and done.stdout == markdown() and not done.stderr


def test_every_option_is_in_the_docs_and_the_help():
    page = markdown()
    for kind in KINDS.values():
        line = next(s for s in SPECS if s.startswith(kind.name))
        assert kind.summary in line and f"`{kind.usage}`" in page
        for option in kind.options:
            assert option.syntax in line and f"| `{option.name}` |" in page


def test_values_are_typed_and_defaults_filled():
    spec = parse_spec("pimc:fast,worlds=8,cap=off,dinfer=0")
    v = spec.values
    assert (v["worlds"], v["seconds"], v["bid_worlds"]) == (8, 0.1, 4)  # fast, worlds over it
    assert v["cap"] is None and v["dinfer"] is False and v["ouvert"] is True
    assert parse_spec("heuristic").values == {"margin": 0.0, "contracts": "heuristic"}
    assert parse_spec("ppo").values == {"path": ""}
    assert parse_spec("ppo:dir/a,b=c.zip").values == {"path": "dir/a,b=c.zip"}  # taken whole
    assert parse_spec("rllib:ck#player_1").values == {"path": "ck#player_1"}


def test_numbers_are_finite_and_in_bounds():
    for bad, why in (("pimc:seconds=nan", "seconds must be a number >= 0.001"),
                     ("heuristic:margin=inf", "margin must be a number, got 'inf'"),
                     ("pimc:worlds=2.5", "worlds must be an integer >= 1"),
                     ("learned:skats=0", "skats must be an integer >= 1")):  # fmt: skip
        with pytest.raises(AgentSpecError, match=why):
            parse_spec(bad)
    assert parse_spec("heuristic:margin=-2.5").values["margin"] == -2.5


def test_items_split_at_commas_outside_brackets():
    assert split_items("a=1,b=[c:d=1,e=2],f") == ["a=1", "b=[c:d=1,e=2]", "f"]
    assert split_items("") == []
    for bad in ("b=[c", "b=c]"):
        with pytest.raises(AgentSpecError, match="'\\[|'\\]"):
            split_items(bad)


def test_table_defaults_are_the_players_defaults():
    """Each player built from a bare spec has the table's defaults (pimc reads them from it)."""
    from skat_env.agents.pimc import PimcOptions, options_of

    assert options_of(KINDS["pimc"].defaults()) == PimcOptions()
    learned = make_agent("learned").decider
    d = KINDS["learned"].defaults()
    assert (learned.margin, learned.skats, learned.nulls) == (d["margin"], d["skats"], d["nulls"])
    assert make_agent("heuristic").margin == KINDS["heuristic"].defaults()["margin"]


def test_every_kind_has_a_builder():
    from skat_env.agents.registry import BUILDERS

    assert list(BUILDERS) == list(KINDS)


def test_learned_options_reach_the_decider():
    agent = make_agent("learned:margin=5,skats=2,nulls=0,auction=0,model=search")
    d = agent.decider
    assert (d.margin, d.skats, d.nulls, d.auction) == (5.0, 2, False, False)
    assert agent.name == "learned:margin=5,skats=2,nulls=0,auction=0,model=search"
