"""skat_env.cli.train_eval: a learner's duplicate evaluation (its margin signed from its side),
the evals.csv / evals.json history, the table and the learning-curve plot."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("sb3_contrib")

from skat_env import tournament  # noqa: E402
from skat_env.agents import HeuristicAgent  # noqa: E402
from skat_env.cli.train_eval import (  # noqa: E402
    EVAL_COLUMNS,
    append_evals,
    duplicate_eval,
    eval_table,
    load_evals,
    plot_learning_curve,
)


class Learner(HeuristicAgent):
    """A bolder heuristic under another name, standing in for the learner."""

    def __init__(self):
        super().__init__(margin=-1.5)
        self.name = "learner"


def test_duplicate_eval_signs_the_margin_from_the_learners_side():
    row = duplicate_eval(Learner(), "heuristic", deals=6, seed=2)
    res = tournament.evaluate([Learner(), "heuristic", "heuristic"], deals=6, seed=2)
    mine = res["agents"]["learner"]["sf_per_game"]
    theirs = res["agents"]["heuristic"]["sf_per_game"]
    assert row["sf"] == pytest.approx(mine) and row["diff"] == pytest.approx(mine - theirs)
    assert row["diff_lo"] <= row["diff"] <= row["diff_hi"] and row["sf_lo"] <= row["sf_hi"]
    assert row["opponent"] == "heuristic" and row["deals"] == 6 and set(row) < set(EVAL_COLUMNS)


def _row(steps: int, opponent: str, diff: float) -> dict:
    return {"timesteps": steps, "opponent": opponent, "sf": diff, "sf_lo": diff - 1,
            "sf_hi": diff + 1, "diff": diff, "diff_lo": diff - 2, "diff_hi": diff + 2,
            "list": 3.0, "declarer_share": 0.3, "deals": 10, "seconds": 1.0}  # fmt: skip


def test_evals_history_appends_to_both_files_and_plots(tmp_path):
    assert load_evals(tmp_path) == []
    first = [_row(0, "heuristic", -5.0), _row(0, "random", 100.0)]
    assert append_evals(tmp_path, first) == first
    history = append_evals(tmp_path, [_row(1000, "heuristic", 1.5)])
    assert len(history) == 3 and load_evals(tmp_path) == history
    with (tmp_path / "evals.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["timesteps"] for r in rows] == ["0", "0", "1000"]
    out = plot_learning_curve(tmp_path, reward_scale=0.01)
    assert out == tmp_path / "learning_curve.png" and out.stat().st_size > 1000


def test_eval_table_shows_every_opponent_with_signed_intervals():
    text = eval_table([_row(0, "heuristic", -5.0), _row(0, "random", 100.0)], 12345)
    assert text.splitlines()[0].startswith("evaluation at 12,345 steps")
    assert "2x heuristic" in text and "[-7.0, -3.0]" in text and "+100.0" in text


def test_eval_table_keeps_its_columns_for_long_opponent_specs():
    rows = [_row(0, "heuristic", -5.0), _row(0, "heuristic:margin=0.5,contracts=learned", 1.0)]
    head, *body = eval_table(rows, 1).splitlines()[1:]
    column = head.index("interval")  # the first interval column starts at the same place
    assert [line.index("[") for line in body] == [column, column]
