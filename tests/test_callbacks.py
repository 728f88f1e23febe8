"""skat_env.integrations.callbacks: the appended progress.csv, atomic saves, and the callbacks
that freeze snapshots, stop at the wall-clock budget on a rollout boundary and show progress."""

from __future__ import annotations

import csv
import time

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env.integrations.callbacks import (  # noqa: E402
    PROGRESS_COLUMNS,
    DeadlineCallback,
    ProgressCallback,
    SnapshotCallback,
    make_logger,
    save_atomic,
)
from skat_env.integrations.opponents import SelfPlaySlots  # noqa: E402


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
