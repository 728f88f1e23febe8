"""skat_env.cli.options: the shared usage error, tournament option block, dataclass parsing
and the training opponents resolved by the registry."""

import argparse
from dataclasses import dataclass, field

import pytest

from skat_env.agents import HeuristicAgent, RandomAgent
from skat_env.cli.options import (
    UsageError,
    add_tournament_options,
    opponent_policies,
    parse_dataclass,
    parse_opponents,
    training_agent,
)


def test_parse_opponents_normalises_sums_and_refuses_bad_specs():
    assert parse_opponents("random:1,heuristic:3") == {"random": 0.25, "heuristic": 0.75}
    assert parse_opponents("random, self") == {"random": 0.5, "self": 0.5}
    assert parse_opponents("random:1,random:1,self:0") == {"random": 1.0}
    assert parse_opponents("heuristic:margin=-1:2") == {"heuristic:margin=-1": 1.0}
    # a spec with commas of its own goes in brackets, with or without a weight
    assert parse_opponents("[learned:margin=5,nulls=0]:1,[heuristic:margin=1]") == {
        "learned:margin=5,nulls=0": 0.5,
        "heuristic:margin=1": 0.5,
    }
    for text, match in [
        ("bogus:1", "unknown agent"),
        ("heuristc:1", r"did you mean heuristic\?\); agents: random, heuristic"),
        ("heuristic:margn=1:1", "did you mean margin"),
        ("random:-1", "non-negative"),
        ("random:nan", "non-negative"),
        ("random:0,self:0", "positive weight"),
        ("", "positive weight"),
        ("human:1", "person"),
        ("[learned:margin=5,nulls=0:1", "unclosed"),
        ("ppo:/no/such.zip", "no model file"),
    ]:
        with pytest.raises(UsageError, match=match):
            parse_opponents(text)


def test_opponent_policies_builds_every_spec_but_self():
    pool = opponent_policies({"random": 0.2, "heuristic:margin=1": 0.3, "self": 0.5}, seed=4)
    assert set(pool) == {"random", "heuristic:margin=1"}
    assert isinstance(pool["random"], RandomAgent)
    assert isinstance(pool["heuristic:margin=1"], HeuristicAgent)


def test_training_agent_names_its_role_in_the_error():
    with pytest.raises(UsageError, match="bad teacher"):
        training_agent("nobody", role="teacher")
    assert isinstance(training_agent("heuristic"), HeuristicAgent)


@dataclass
class _Settings:
    n: int = field(default=3, metadata={"help": "a count"})
    rate: float = 0.5
    name: str = "x"
    fast: bool = False


def test_parse_dataclass_reads_every_field_and_reports_the_given_flags():
    args, given = parse_dataclass(_Settings, ["--n", "7", "--fast"], "prog", "test")
    assert args == _Settings(n=7, rate=0.5, name="x", fast=True) and given == {"n", "fast"}
    args, given = parse_dataclass(_Settings, ["--name", "y", "--rate", "2"], "prog", "test")
    assert args == _Settings(rate=2.0, name="y") and given == {"name", "rate"}
    with pytest.raises(UsageError, match="argument --n: invalid int value: '1.5'"):
        parse_dataclass(_Settings, ["--n", "1.5"], "prog", "test")
    with pytest.raises(UsageError, match="argument --mode: invalid choice: 'c'"):
        parse_dataclass(_Grouped, ["--mode", "c"], "prog", "test")


@dataclass
class _Grouped:
    mode: str = field(default="a", metadata={"help": "a mode", "group": "run",
                                             "choices": ("a", "b")})  # fmt: skip
    rate: float = field(default=0.5, metadata={"help": "a rate", "group": "tuning"})
    quiet: bool = field(default=False, metadata={"help": "say less", "group": "run"})


def test_parse_dataclass_groups_flags_and_shows_defaults(capsys):
    with pytest.raises(SystemExit) as e:
        parse_dataclass(_Grouped, ["--help"], "prog", "First line.\nSecond line.", "after")
    out = capsys.readouterr().out
    assert e.value.code == 0 and "First line.\nSecond line." in out and out.endswith("after\n")
    run, tuning = out.index("\nrun:"), out.index("\ntuning:")
    assert run < out.index("  --mode {a,b}") < out.index("  --quiet") < tuning
    assert tuning < out.index("  --rate RATE")
    assert "(default: 0.5)" in out and "--no-quiet" not in out  # an off switch is a plain flag


def test_add_tournament_options_gives_the_shared_block_with_its_defaults():
    ap = argparse.ArgumentParser()
    add_tournament_options(ap, deals=500, json_default="results/x.json")
    args = ap.parse_args([])
    assert (args.deals, args.seed, args.workers, args.bootstrap) == (500, 0, 1, 2000)
    assert args.json is None and args.plot is None and not args.no_plot and not args.no_progress
    args = ap.parse_args(["--deals", "9", "--json", "a.json", "--no-plot", "--no-progress"])
    assert args.deals == 9 and str(args.json) == "a.json" and args.no_plot and args.no_progress
