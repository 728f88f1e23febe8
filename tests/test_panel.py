"""The benchmark panel (skat_env.panel, skat-bench): the same figures for any worker count and
on a Ray cluster, policies as specs, objects and functions, the rating, and bad input."""

from __future__ import annotations

import json
import re
import shutil
import tempfile

import numpy as np
import pytest

from skat_env.agents.registry import make_agent
from skat_env.cli.bench import main
from skat_env.panel import (
    PANEL_V2,
    Opponent,
    Panel,
    PanelError,
    compare,
    format_comparison,
    format_table,
    leaderboard,
    make_jobs,
    rating,
    run_panel,
    select,
)

TINY = Panel("tiny", (
    Opponent("random", "random", 2, 11, "floor", rated=False),
    Opponent("heuristic", "heuristic", 9, 12, "rules"),
    Opponent("bold", "heuristic:margin=-2", 3, 13, "bolder rules"),
))  # fmt: skip


def figures(results: dict) -> list:
    """What must not depend on how the games were spread: every figure but the timing."""
    return [
        {k: v for k, v in e.items() if k not in ("cpu_seconds", "cpu_seconds_per_game")}
        for e in results["opponents"]
    ] + [results["rating"]]


def first_legal(observation) -> int:
    """A module-level policy function (picklable, so it can go to worker processes)."""
    return int(np.flatnonzero(observation["action_mask"])[0])


class ActOnly:
    """A policy object with only ``act``: the heuristic's moves through the plain protocol."""

    def __init__(self):
        self.inner = make_agent("heuristic")

    def act(self, observation) -> int:
        return self.inner.act(observation)


@pytest.fixture(scope="module")
def serial_ppo():
    return run_panel("ppo", TINY, bootstrap=200)


def test_panel_figures_are_the_same_for_any_worker_count(serial_ppo):
    # 9 deals: jobs of 3 deals with one worker, of 2 with two (batched ppo games regrouped)
    assert {j.stop - j.start for j in make_jobs(TINY.opponents[1:2], 1)} == {3}
    assert {j.stop - j.start for j in make_jobs(TINY.opponents[1:2], 2)} == {1, 2}
    parallel = run_panel("ppo", TINY, workers=2, bootstrap=200)
    assert figures(parallel) == figures(serial_ppo)
    assert parallel["config"]["workers"] == 2


def test_report_holds_both_line_ups_with_margins_intervals_and_declarer_figures(serial_ppo):
    e = serial_ppo["opponents"][1]
    assert e["name"] == "heuristic" and e["deals"] == 9
    for lineup in ("alone", "pair"):
        r = e["lineups"][lineup]
        assert r["games"] == 9 * 3
        assert r["margin"] == pytest.approx(
            r["policy"]["sf_per_game"] - r["opponent"]["sf_per_game"]
        )
        lo, hi = r["margin_ci95"]
        assert lo <= r["margin"] <= hi
        for side in ("policy", "opponent"):
            assert 0 <= r[side]["declarer_share"] <= 1
    # alone: one policy seat and two opponent seats per game; pair: the other way round
    assert e["lineups"]["alone"]["policy"]["games"] == 27
    assert e["lineups"]["alone"]["opponent"]["games"] == 54
    assert e["lineups"]["pair"]["policy"]["games"] == 54
    text = format_table(serial_ppo)
    assert "heuristic" in text and "pair" in text and "rating:" in text


def test_rating_is_the_mean_margin_of_the_rated_opponents(serial_ppo):
    rated = [e for e in serial_ppo["opponents"] if e["rated"]]
    margins = [r["margin"] for e in rated for r in e["lineups"].values()]
    r = serial_ppo["rating"]
    assert r["opponents"] == 2 and r["sf_margin"] == pytest.approx(np.mean(margins))
    assert r["ci95"][0] <= r["sf_margin"] <= r["ci95"][1]


def test_rating_interval_resamples_deals_jointly_for_both_line_ups():
    same = np.array([-10.0, 0.0, 10.0, 20.0])
    # the two line-ups cancel deal by deal: every resample averages to exactly zero
    r = rating([((same, -same), 1)], samples=500)
    assert r["sf_margin"] == 0 and r["ci95"] == [0.0, 0.0]
    r = rating([((same, same), 1), ((np.full(3, 4.0), np.full(3, 4.0)), 2)], samples=500)
    assert r["sf_margin"] == pytest.approx((5 + 4) / 2)
    assert r["ci95"][0] < r["sf_margin"] < r["ci95"][1]


def test_a_policy_object_or_function_plays_the_same_games_as_its_spec():
    only = ("heuristic",)
    by_spec = run_panel("heuristic", TINY, only, bootstrap=100)
    by_object = run_panel(ActOnly(), TINY, only, bootstrap=100, name="heuristic")
    assert figures(by_object) == figures(by_spec)
    assert by_spec["opponents"][0]["lineups"]["alone"]["margin"] == 0  # itself, duplicate

    local = run_panel(lambda obs: first_legal(obs), TINY, only, bootstrap=100)
    parallel = run_panel(first_legal, TINY, only, workers=2, bootstrap=100)
    assert parallel["policy"] == "first_legal" and local["policy"] == "<lambda>"
    assert figures(parallel) == figures(local)
    assert local["rating"]["sf_margin"] < -20  # the first legal move loses heavily


@pytest.mark.slow
def test_the_ray_path_on_a_local_cluster_gives_the_serial_figures():
    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are limited
    try:
        ray.init(num_cpus=2, _temp_dir=temp, include_dashboard=False, log_to_driver=False)
        on_ray = run_panel("heuristic:margin=-1", TINY, ("random", "bold"), address="auto",
                           bootstrap=100)  # fmt: skip
        assert ray.is_initialized()  # a session started by the caller is left running
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    serial = run_panel("heuristic:margin=-1", TINY, ("random", "bold"), bootstrap=100)
    assert figures(on_ray) == figures(serial)


def test_select_scales_deals_keeps_seeds_and_refuses_unknown_names():
    quick = select("v2", deals_scale=0.01)
    assert [o.spec for o in quick] == [o.spec for o in PANEL_V2.opponents]
    assert [o.seed for o in quick] == [o.seed for o in PANEL_V2.opponents]
    assert min(o.deals for o in quick) == 2 and quick[1].deals == 10
    assert [o.name for o in PANEL_V2.opponents if not o.rated] == ["random"]
    with pytest.raises(PanelError, match="no opponent 'pimcc' in panel v2"):
        select("v2", only=["pimcc"])
    with pytest.raises(PanelError, match="unknown panel 'v9'"):
        select("v9")
    with pytest.raises(PanelError, match="deals_scale must be a positive number"):
        select("v2", deals_scale=0)


@pytest.mark.parametrize(("policy", "kwargs", "message"), [
    ("heuristc", {}, "bad policy: unknown agent 'heuristc' (did you mean heuristic?)"),
    ("human", {}, "needs a person at the terminal"),
    (42, {}, "a policy is an object with .act(observation)"),
    ("random", {"workers": 0}, "workers must be a positive integer"),
    (lambda obs: 0, {"workers": 2}, "cannot be sent to worker processes"),
])  # fmt: skip
def test_bad_input_is_one_clear_error(policy, kwargs, message):
    with pytest.raises(PanelError) as e:
        run_panel(policy, TINY, ("random",), **kwargs)
    assert message in str(e.value)


def test_cli_writes_a_new_json_and_reports_bad_input_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["heuristic", "--only", "random", "bold", "--deals-scale", "0.004", "--no-progress",
            "--bootstrap", "100"]  # fmt: skip
    assert main(args) == 0
    assert main(args) == 0  # a second run writes new files next to the first
    written = sorted(tmp_path.glob("results/bench-heuristic-*.json"))
    assert len(written) == 2 and len(list(tmp_path.glob("results/*.png"))) == 2
    results = json.loads(written[0].read_text())
    assert results["command"].startswith("skat-bench heuristic --only random bold")
    assert [e["name"] for e in results["opponents"]] == ["random", "bold"]
    assert "rating:" in capsys.readouterr().out
    for bad, message in (
        (["nobody"], "bad policy: unknown agent 'nobody'"),
        (["random", "--only", "x"], "no opponent 'x' in panel v2"),
        ([], "name one POLICY to benchmark, or --leaderboard"),
        (["random", "--workers", "0"], "workers must be a positive integer"),
    ):
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert err.strip().splitlines() == [f"skat-bench: error: {err.split('error: ')[1].strip()}"]
        assert message in err and "Traceback" not in err


def test_cli_lists_the_panel(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert all(o.spec in out for o in PANEL_V2.opponents) and "not rated" in out


def test_leaderboard_orders_players_by_rating():
    def run(policy, margin):
        lineups = {x: {"margin": margin} for x in ("alone", "pair")}
        return {"policy": policy, "rating": {"sf_margin": margin, "ci95": [margin - 1, margin + 1]},
                "opponents": [{"name": "heuristic", "lineups": lineups}]}  # fmt: skip

    rows = leaderboard([run("a", -3.0), run("b", 5.0), run("c", 1.0)])
    assert [r["policy"] for r in rows] == ["b", "c", "a"]
    assert rows[0]["margins"] == {"heuristic": 5.0}


def test_an_unreachable_cluster_is_one_clear_error():
    try:
        import ray  # noqa: F401

        message = "cannot reach a Ray cluster at '127.0.0.1:1'"
    except ImportError:
        message = "a Ray cluster needs Ray: pip install 'skat-env[cluster]'"
    with pytest.raises(PanelError, match=re.escape(message)):
        run_panel("random", TINY, ("random",), address="127.0.0.1:1")


def test_cli_leaderboard_ranks_each_player_and_writes_one_json(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("skat_env.cli.bench.LEADERBOARD", ("random", "heuristic"))
    args = ["--leaderboard", "--only", "bold", "--deals-scale", "0.004", "--no-progress"]
    assert main(args) == 0
    (written,) = tmp_path.glob("results/leaderboard-*.json")
    results = json.loads(written.read_text())
    assert [r["policy"] for r in results["leaderboard"]] == ["heuristic", "random"]
    assert [r["policy"] for r in results["runs"]] == ["random", "heuristic"]
    assert "leaderboard" in capsys.readouterr().out


def test_per_deal_margins_average_to_each_margin(serial_ppo):
    for e in serial_ppo["opponents"]:
        for r in e["lineups"].values():
            assert len(r["deal_margins"]) == e["deals"]
            assert np.mean(r["deal_margins"]) == pytest.approx(r["margin"], abs=1e-3)


def test_compare_gives_paired_differences_of_margins_and_ratings(serial_ppo):
    other = run_panel("heuristic", TINY, bootstrap=200)
    diff = compare(serial_ppo, other, bootstrap=200)
    assert (diff["base"], diff["other"]) == ("ppo", "heuristic")
    for a, b, d in zip(serial_ppo["opponents"], other["opponents"], diff["opponents"],
                       strict=True):  # fmt: skip
        for lineup, r in d["lineups"].items():
            want = b["lineups"][lineup]["margin"] - a["lineups"][lineup]["margin"]
            assert r["diff"] == pytest.approx(want, abs=1e-3)
            assert r["ci95"][0] <= r["diff"] <= r["ci95"][1]
    r = diff["rating_diff"]
    want = other["rating"]["sf_margin"] - serial_ppo["rating"]["sf_margin"]
    assert r["sf_margin"] == pytest.approx(want, abs=1e-3) and r["opponents"] == 2
    assert r["ci95"][0] <= r["sf_margin"] <= r["ci95"][1]
    # a result against itself: every deal's difference is zero, so is every interval
    same = compare(other, other, bootstrap=200)
    assert same["rating_diff"]["ci95"] == [0.0, 0.0]
    assert "rating difference: +0.0 [+0.0, +0.0]" in format_comparison(same)


def test_compare_refuses_results_of_other_deals_or_without_per_deal_margins(serial_ppo):
    fewer = run_panel("heuristic", TINY, ("heuristic",), bootstrap=100)
    with pytest.raises(PanelError, match="different opponents or deal counts"):
        compare(serial_ppo, fewer)
    old = json.loads(json.dumps(serial_ppo))
    del old["opponents"][0]["lineups"]["alone"]["deal_margins"]
    with pytest.raises(PanelError, match="without per-deal margins"):
        compare(old, serial_ppo)
    with pytest.raises(PanelError, match="different panels"):
        compare({**serial_ppo, "panel": "v1"}, serial_ppo)


def test_cli_compare_prints_the_difference_and_refuses_bad_files(tmp_path, capsys, serial_ppo):
    base, other = tmp_path / "a.json", tmp_path / "b.json"
    base.write_text(json.dumps(serial_ppo))
    other.write_text(json.dumps(run_panel("heuristic", TINY, bootstrap=100)))
    assert main(["--compare", str(base), str(other), "--bootstrap", "100"]) == 0
    out = capsys.readouterr().out
    assert "heuristic minus ppo on panel tiny" in out and "rating difference:" in out
    (tmp_path / "bad.json").write_text("{not json")
    for bad, message in (
        (["--compare", str(base), str(tmp_path / "none.json")], "cannot read"),
        (["--compare", str(base), str(tmp_path / "bad.json")], "cannot read"),
        (["ppo", "--compare", str(base), str(other)], "takes no POLICY"),
    ):
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
