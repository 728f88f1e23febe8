"""skat_env.tournament: seatings, worker-independent results, batched play, statistics (its
command line: tests/test_cli_evaluate.py)."""

from __future__ import annotations

import numpy as np
import pytest

from skat_env import tournament as ev
from skat_env.agents import Agent, RandomAgent
from skat_env.envs.policy import batchable


@pytest.mark.parametrize(
    ("labels", "count"),
    [(("a", "a", "b"), 3), (("a", "b", "a"), 3), (("a", "b", "c"), 6), (("a", "a", "a"), 1)],
)
def test_seatings__every_distinct_arrangement(labels, count):
    arrangements = ev.seatings(labels)
    assert len(arrangements) == count
    by_seat = {tuple(labels[a] for a in s) for s in arrangements}
    assert len(by_seat) == count
    for label in set(labels):  # each agent sits in every seat
        for seat in range(3):
            assert any(labels[s[seat]] == label for s in arrangements)


def test_seatings__no_duplicate_means_the_given_order():
    assert ev.seatings(("a", "b", "c"), duplicate=False) == [(0, 1, 2)]


def test_deal_for__depends_only_on_seed_and_index():
    assert ev.deal_for(3, 10) == ev.deal_for(3, 10)
    assert ev.deal_for(3, 10) != ev.deal_for(3, 11) and ev.deal_for(4, 10) != ev.deal_for(3, 10)
    dealers = {ev.deal_for(0, i)[1] for i in range(30)}
    assert dealers == {0, 1, 2}


def test_evaluate__duplicate_rotates_the_same_deal_through_every_seat():
    res = ev.evaluate(["heuristic", "random", "random"], deals=4, seed=2, keep_games=True)
    recs = res["records"]
    assert len(recs) == 12 and res["config"]["games"] == 12
    for deal in range(4):
        games = [r for r in recs if r["deal"] == deal]
        assert sorted(r["agents"].index(0) for r in games) == [0, 1, 2]


def _strip(res: dict) -> dict:
    return {k: v for k, v in res.items() if k not in ("timing", "config")}


def test_evaluate__identical_for_any_worker_count():
    args = (["heuristic", "random", "heuristic:margin=-1"], 6, 11)
    one = ev.evaluate(*args, workers=1, keep_games=True, bootstrap=300)
    two = ev.evaluate(*args, workers=2, keep_games=True, bootstrap=300)
    assert _strip(one) == _strip(two)
    assert len(one["records"]) == 36


def test_evaluate__figures_add_up():
    res = ev.evaluate(["random", "random", "heuristic"], deals=30, seed=5, keep_games=True)
    recs = res["records"]
    played = [r for r in recs if not r["passed_in"]]
    agents = res["agents"]
    declared = sum(a["declarer_share"] * a["games"] for a in agents.values())
    assert round(declared) == len(played)
    for a in agents.values():
        lo, hi = a["sf_ci95"]
        assert lo <= a["sf_per_game"] <= hi
        fam = sum(f["declared"] for f in a["by_family"].values())
        assert fam == round(a["declarer_share"] * a["games"])
    sf_total = sum(sum(r["sf"]) for r in recs)
    assert sf_total == pytest.approx(sum(a["sf_per_game"] * a["games"] for a in agents.values()))


def test_evaluate__accepts_agent_objects():
    res = ev.evaluate([RandomAgent(), "heuristic", RandomAgent()], deals=3, seed=0)
    assert set(res["agents"]) == {"random", "random#3", "heuristic"}


def test_bootstrap_ci__covers_the_mean_and_shrinks_with_deals():
    rng = np.random.default_rng(0)
    small = rng.normal(10, 60, 100)
    big = rng.normal(10, 60, 2500)
    lo_s, hi_s = ev.bootstrap_ci(small, 500, 0)
    lo_b, hi_b = ev.bootstrap_ci(big, 500, 0)
    assert lo_s < small.mean() < hi_s and lo_b < big.mean() < hi_b
    assert hi_b - lo_b < (hi_s - lo_s) / 3
    assert ev.bootstrap_ci(np.full(50, 7.0), 100, 0) == (7.0, 7.0)
    assert ev.bootstrap_ci(np.array([3.0]), 100, 0) is None


def test_format_table__one_game_shows_no_interval_and_no_rate():
    res = ev.evaluate(["random", "random", "heuristic"], deals=1, seed=0, duplicate=False)
    assert res["agents"]["random"]["sf_ci95"] is None
    table = ev.format_table(res)
    assert "1 deal x 1 seating = 1 game," in table and "- (1 deal)" in table
    assert "[0.0, 0.0]" not in table and "games/s" not in table


class _ObsHash(Agent):
    """Deterministic, and its move depends on the whole observation: a batched game that
    encoded a wrong observation would play differently."""

    name = "obs-hash"

    def act(self, observation):
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[int(np.asarray(observation["observation"]).sum() * 997) % len(legal)])


class _BatchedObsHash(_ObsHash):
    deterministic = True

    def __init__(self):
        self.calls = []

    def act_batch(self, obs, masks):
        self.calls.append(len(obs))
        rows = zip(obs, masks, strict=True)
        return np.array([self.act({"observation": o, "action_mask": m}) for o, m in rows])


def test_play_deals__batched_agents_play_the_same_games_as_one_by_one():
    labels = ["hash", "random", "heuristic"]
    batched_agent = _BatchedObsHash()
    one_by_one = ev.play_deals([_ObsHash(), "random", "heuristic"], labels, range(6), 3, True)
    together = ev.play_deals([batched_agent, "random", "heuristic"], labels, range(6), 3, True)
    assert together == one_by_one
    assert max(batched_agent.calls) > 1  # decisions of several games went in one call


def test_batchable__only_deterministic_agents_are_batched_across_games():
    # random has act_batch (the vector env's opponents) but draws from its own stream:
    # batching it would make a game depend on the others in its batch
    assert callable(RandomAgent().act_batch) and not batchable(RandomAgent())
    assert batchable(_BatchedObsHash()) and not batchable(_ObsHash())
