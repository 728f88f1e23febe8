"""skat_env.training.callbacks: the appended progress.csv, atomic saves, and the callbacks
that freeze snapshots, stop at the wall-clock budget on a rollout boundary and show progress
towards whichever limit (steps or the budget) ends the run first."""

from __future__ import annotations

import csv
import time

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env.training.callbacks import (  # noqa: E402
    PROGRESS_COLUMNS,
    DeadlineCallback,
    ProgressCallback,
    SnapshotCallback,
    make_logger,
    projected_total,
    save_atomic,
)
from skat_env.training.opponents import SelfPlaySlots  # noqa: E402


def test_progress_csv_is_appended_by_every_logger_with_one_header(tmp_path):
    for steps in (100, 200):  # a resumed run makes a second logger on the same folder
        logger = make_logger(tmp_path, tensorboard=False)
        logger.record("time/total_timesteps", steps)
        logger.record("train/loss", 0.123456789)
        logger.dump(steps)
    with (tmp_path / "progress.csv").open() as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == list(PROGRESS_COLUMNS) and len(rows) == 3
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["time/total_timesteps"] == "100" and first["train/loss"] == "0.123457"
    assert first["rollout/ep_rew_mean"] == ""  # not recorded: an empty cell
    assert not (tmp_path / "tb").exists()


def test_save_atomic_leaves_only_the_whole_file(tmp_path, fresh_model):
    from sb3_contrib import MaskablePPO

    path = tmp_path / "model.zip"
    save_atomic(fresh_model, path)
    assert [p.name for p in tmp_path.iterdir()] == ["model.zip"]
    loaded = MaskablePPO.load(path, device="cpu")
    x = np.zeros((1, 450), np.float32)
    assert np.allclose(loaded.policy.predict_values(loaded.policy.obs_to_tensor(x)[0]).item(),
                       fresh_model.policy.predict_values(
                           fresh_model.policy.obs_to_tensor(x)[0]).item())  # fmt: skip


def test_snapshot_callback_freezes_the_learner_into_the_oldest_slot(fresh_model):
    slots = SelfPlaySlots(2)
    slots.fill(fresh_model.policy)
    before = [s.policy for s in slots.slots]
    callback = SnapshotCallback(slots)
    callback.init_callback(fresh_model)
    assert callback.on_step()
    assert slots.slots[0].policy is not before[0] and slots.slots[1].policy is before[1]


def test_deadline_stops_only_after_a_full_rollout_and_rewinds_to_it(fresh_model):
    lines: list[str] = []
    callback = DeadlineCallback(time.monotonic() - 1, lines.append)  # already late
    callback.init_callback(fresh_model)
    fresh_model.num_timesteps = 64
    assert callback.on_step()  # no rollout finished yet: go on
    callback.on_rollout_end()
    fresh_model.num_timesteps = 80
    assert not callback.on_step() and callback.stopped
    callback.on_training_end()
    assert fresh_model.num_timesteps == 64 and lines == ["--max-minutes reached at 64 steps"]
    relaxed = DeadlineCallback(None, lines.append)
    relaxed.init_callback(fresh_model)
    relaxed.on_rollout_end()
    assert relaxed.on_step() and not relaxed.stopped


def test_progress_bar_spans_the_whole_run_from_the_resumed_step(fresh_model):
    callback = ProgressCallback(start=100, total=300)
    callback.init_callback(fresh_model)
    callback.on_training_start({}, {})
    assert callback.bar.n == 100 and callback.bar.total == 300
    fresh_model.num_timesteps = 250
    callback.on_step()
    assert callback.bar.n == 250
    callback.on_training_end()


def test_projected_total_is_the_binding_limit():
    # 1,000 steps/s since t=10; at t=20 with 10,000 steps done
    assert projected_total(0, 10_000, 3_000_000, 10.0, 20.0, None) == 3_000_000  # no budget
    assert projected_total(0, 10_000, 3_000_000, 10.0, 20.0, 80.0) == 70_000  # the clock binds
    assert projected_total(0, 10_000, 50_000, 10.0, 20.0, 80.0) == 50_000  # the steps bind
    assert projected_total(0, 10_000, 50_000, 10.0, 20.0, 15.0) == 10_000  # past the deadline
    assert projected_total(500, 500, 50_000, 10.0, 20.0, 80.0) == 50_000  # no rate yet


def test_progress_bar_follows_the_budget_when_it_ends_the_run_first(fresh_model):
    """The main job's case: a 3 M step cap that the 14-minute budget reaches first. The bar's
    total is the step count at the deadline, so its ETA is the time left, and it says so."""
    now = [0.0]
    callback = ProgressCallback(0, 3_000_000, deadline=840.0, clock=lambda: now[0])
    callback.init_callback(fresh_model)
    callback.on_training_start({}, {})
    assert callback.bar.total == 3_000_000 and not callback.clock_binds
    now[0], fresh_model.num_timesteps = 420.0, 350_000  # half the budget: 833 steps/s
    callback.on_step()
    bar = callback.bar
    assert bar.n == 350_000 and bar.total == 700_000 and callback.clock_binds
    assert "until --max-minutes" in bar.desc
    remaining = (bar.total - bar.n) / (bar.n / (now[0] - callback.began))
    assert remaining == pytest.approx(840.0 - now[0])  # the ETA is the budget's end
    callback.on_training_end()
    fast = ProgressCallback(0, 300_000, deadline=840.0, clock=lambda: now[0])
    fast.init_callback(fresh_model)
    now[0] = 0.0
    fast.on_training_start({}, {})
    now[0], fresh_model.num_timesteps = 420.0, 200_000  # 400,000 by the deadline: the cap binds
    fast.on_step()
    assert fast.bar.total == 300_000 and not fast.clock_binds and fast.bar.desc == "PPO"
    fast.on_training_end()
