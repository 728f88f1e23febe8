"""skat_env.league: pair line-ups, least-squares ratings, determinism, table and plot (its
command line: tests/test_cli_league.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skat_env import tournament
from skat_env.league import (
    LeagueError,
    fit_ratings,
    format_table,
    league,
    pair_margins,
    validate,
    write_plot,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small():
    return league(["random", "heuristic", "heuristic:margin=1"], deals=6, seed=3, bootstrap=200)


def _strip(res: dict) -> dict:
    return {k: v for k, v in res.items() if k != "timing"}


def test_fit_ratings_recovers_consistent_margins():
    truth = np.array([3.0, -1.0, -2.0])
    pairs = [(0, 1), (0, 2), (1, 2)]
    margins = np.array([[truth[i] - truth[j]] for i, j in pairs])
    assert np.allclose(fit_ratings(pairs, margins, 3)[:, 0], truth)


def test_two_agents_split_the_margin():
    res = league(["heuristic", "random"], deals=4, seed=1, bootstrap=100)
    [pair] = res["pairs"]
    r = res["ratings"]
    assert list(r) == ["heuristic", "random"]  # best first
    assert r["heuristic"]["rating"] == pytest.approx(pair["margin"] / 2)
    assert r["random"]["rating"] == pytest.approx(-pair["margin"] / 2)
    assert pair["games"] == r["random"]["games"] == 4 * 6


def test_pair_margin_is_the_two_lineups_of_evaluate():
    """The margin equals A's minus B's SF/game in [A, B, B] and [B, A, A], averaged."""
    res = league(["random", "heuristic"], deals=3, seed=5, bootstrap=50)
    expect = []
    for specs in (["random", "heuristic", "heuristic"], ["heuristic", "random", "random"]):
        ev = tournament.evaluate(specs, deals=3, seed=5)["agents"]
        expect.append(ev["random"]["sf_per_game"] - ev["heuristic"]["sf_per_game"])
    [pair] = res["pairs"]
    assert pair["margin"] == pytest.approx(np.mean(expect))
    assert len(pair["per_deal_margins"]) == 3
    assert np.mean(pair["per_deal_margins"]) == pytest.approx(pair["margin"], abs=1e-3)


@pytest.mark.slow
def test_league_figures(small):
    r = small["ratings"]
    assert sum(x["rating"] for x in r.values()) == pytest.approx(0, abs=1e-9)
    assert list(r)[-1] == "random"
    for x in r.values():
        lo, hi = x["ci95"]
        assert lo <= x["rating"] <= hi
        assert x["games"] == 2 * 6 * 6  # two pairs of 6 deals x 6 games
    assert [(p["a"], p["b"]) for p in small["pairs"]] == [
        ("random", "heuristic"),
        ("random", "heuristic:margin=1"),
        ("heuristic", "heuristic:margin=1"),
    ]
    assert small["config"]["games"] == 3 * 6 * 6
    json.dumps(small)  # JSON-ready


@pytest.mark.slow
def test_deterministic_for_a_seed_and_any_workers(small):
    again = league(["random", "heuristic", "heuristic:margin=1"], deals=6, seed=3, bootstrap=200)
    assert _strip(again) == _strip(small)
    par = league(["random", "heuristic", "heuristic:margin=1"], deals=6, seed=3, workers=2,
                 bootstrap=200)  # fmt: skip
    assert _strip(par)["pairs"] == small["pairs"] and par["ratings"] == small["ratings"]
    other = league(["random", "heuristic"], deals=6, seed=4, bootstrap=200)
    assert other["pairs"][0]["per_deal_margins"] != small["pairs"][0]["per_deal_margins"]


def test_one_deal_has_no_interval():
    res = league(["random", "heuristic"], deals=1, seed=0)
    assert res["ratings"]["random"]["ci95"] is None and res["pairs"][0]["ci95"] is None
    assert "- (1 deal)" in format_table(res)


@pytest.mark.parametrize(
    ("agents", "deals", "workers", "match"),
    [
        (["random"], 5, 1, "at least 2 agents"),
        ("random", 5, 1, "at least 2 agents"),
        (["random", "heuristic", "random"], 5, 1, "given more than once: random"),
        (["random", "nope"], 5, 1, "unknown agent.*'nope'"),
        (["random", "ppo:missing.zip"], 5, 1, "no model file"),
        (["random", "human"], 5, 1, "plays in the terminal"),
        (["random", "heuristic"], 0, 1, "deals must be a positive integer"),
        (["random", "heuristic"], 5, 0, "workers must be a positive integer"),
    ],
)
def test_bad_input(agents, deals, workers, match):
    with pytest.raises(LeagueError, match=match):
        validate(agents, deals, workers, 100)


def test_table_and_plot(small, tmp_path):
    text = format_table(small)
    assert "rating" in text and "95% CI" in text and "heuristic:margin=1" in text
    assert text.index("random  ") > text.index("heuristic")  # last on the leaderboard
    write_plot(small, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("workers", [1, 2])
def test_pair_reports_every_game(workers, monkeypatch):
    from skat_env.agents import HeuristicAgent

    # the heuristic decides in batches (then progress comes per line-up): switch that off
    monkeypatch.setattr(HeuristicAgent, "deterministic", False)
    counts: list[int] = []
    res = pair_margins("heuristic", "heuristic:margin=1", deals=2, seed=0, workers=workers,
                       done=counts.append)  # fmt: skip
    assert sum(counts) == 2 * 6 and len(res["margins"]) == 2
    assert len(counts) == (12 if workers == 1 else 2)


def test_batched_agent_keeps_its_fast_path():
    """A ppo: agent decides for many games at once; progress then comes per line-up, since a
    per-game report would switch batching off. The margins are the same either way."""
    pytest.importorskip("sb3_contrib")
    ppo = f"ppo:{ROOT / 'models' / 'ppo_skat.zip'}"
    counts: list[int] = []
    res = pair_margins(ppo, "heuristic", deals=2, seed=0, done=counts.append)
    assert counts == [6, 6]
    again = pair_margins(ppo, "heuristic", deals=2, seed=0)
    assert np.array_equal(res["margins"], again["margins"])
