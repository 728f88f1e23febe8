"""Stable-Baselines3 plumbing of a training run: callbacks (self-play snapshots, the league's
records and weights, a wall-clock budget, a progress bar), the logger (an appended
``progress.csv`` and TensorBoard) and atomic saves. The evaluations during training are the
front end's (:mod:`skat_env.cli.train_eval`).
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from .numpy_policy import NumpyPolicy
from .opponents import SelfPlaySlots
from .training_league import League

PROGRESS_COLUMNS = (
    "time/total_timesteps",
    "time/fps",
    "time/time_elapsed",
    "rollout/ep_rew_mean",
    "rollout/ep_len_mean",
    "train/loss",
    "train/policy_gradient_loss",
    "train/value_loss",
    "train/entropy_loss",
    "train/approx_kl",
    "train/clip_fraction",
    "train/explained_variance",
    "train/learning_rate",
)


def make_logger(run_dir: Path, tensorboard: bool = True) -> Any:
    """SB3's logger writing ``progress.csv`` (fixed columns, appended, so a resumed run keeps
    one file) and TensorBoard event files in ``run_dir/tb``."""
    from stable_baselines3.common.logger import KVWriter, Logger, make_output_format

    path = run_dir / "progress.csv"

    class AppendCSV(KVWriter):
        def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
            new = not path.exists()
            with path.open("a", newline="") as fh:
                w = csv.writer(fh)
                if new:
                    w.writerow(PROGRESS_COLUMNS)
                w.writerow([_cell(key_values.get(k)) for k in PROGRESS_COLUMNS])

    formats: list[Any] = [AppendCSV()]
    if tensorboard:
        formats.append(make_output_format("tensorboard", str(run_dir / "tb")))
    return Logger(folder=str(run_dir), output_formats=formats)


def _cell(v: Any) -> str:
    if v is None:
        return ""
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def save_atomic(model: Any, path: Path) -> None:
    """Save so that a reader never sees a partial file."""
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(tmp)
    os.replace(tmp, path)


class SnapshotCallback(BaseCallback):
    """Freezes the learner into the self-play slots (wrap in ``EveryNTimesteps``)."""

    def __init__(self, slots: SelfPlaySlots):
        super().__init__()
        self.slots = slots

    def _on_step(self) -> bool:
        self.slots.push(self.model.policy)
        return True


class LeagueCallback(BaseCallback):
    """Runs a :class:`~.training_league.League` during training: books every finished game's
    opponent and outcome (the vector env's infos), sends the new weights to the env and
    writes ``out`` (``league.json``) after each rollout, freezes a snapshot of the learner
    every ``snapshot_every`` steps; :meth:`offer_best` after each evaluation."""

    def __init__(self, league: League, snapshot_every: int, out: Path | None = None):
        super().__init__()
        self.league, self.snapshot_every, self.out = league, snapshot_every, out
        self.last_snapshot = 0
        self._opp: list[int] = []
        self._outcome: list[int] = []

    def start(self, model: Any, venv: Any) -> None:
        """Before PPO: freeze the learner into the first snapshot slot (if there are any) and
        give the env the league's weights."""
        if self.league.snapshots:
            self.league.add_snapshot(NumpyPolicy.from_policy(model.policy))
        venv.env_method("set_weights", self.league.weights(), indices=[0])

    def _on_training_start(self) -> None:
        self.last_snapshot = self.num_timesteps

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "opponent" in info:
                self._opp.append(info["opponent"])
                self._outcome.append(info["outcome"])
        if self.num_timesteps - self.last_snapshot >= self.snapshot_every:
            self.league.add_snapshot(NumpyPolicy.from_policy(self.model.policy))
            self.last_snapshot = self.num_timesteps
        return True

    def _on_rollout_end(self) -> None:
        self.league.record(np.array(self._opp, np.int64), np.array(self._outcome, np.int64))
        self._opp, self._outcome = [], []
        self.training_env.env_method("set_weights", self.league.weights(), indices=[0])
        for row in self.league.table():
            if row["filled"]:
                for key in ("weight", "learner_win_rate"):
                    self.logger.record(f"league/{row['member']}/{key}", row[key])
        if self.out is not None:
            self.out.write_text(json.dumps(self.league.table(), indent=1))

    def offer_best(self, model: Any, rows: list[dict]) -> bool:
        """Make the learner the league's best member if its evaluation beats the earlier ones:
        the score is the mean learner-minus-opponent margin over the evaluation rows, without
        ``random`` (which every model beats). Nothing without a best member."""
        diffs = [r["diff"] for r in rows if r["opponent"] != "random"]
        if not diffs or not self.league.has_best:
            return False
        return self.league.offer_best(NumpyPolicy.from_policy(model.policy), float(np.mean(diffs)))


class AfterEvalCallback(BaseCallback):
    """After ``evaluator`` (a callback with the rows of its last evaluation in ``last``),
    offer the learner to the league as its best model and log the league's state; nothing
    when the evaluator did not evaluate (its rows are another model's)."""

    def __init__(
        self, evaluator: Any, league: LeagueCallback, write: Callable[[str], None] = print
    ):
        super().__init__()
        self.evaluator, self.league, self.write = evaluator, league, write
        self._seen = evaluator.last  # rows already there are an earlier model's

    def _on_step(self) -> bool:
        if self.evaluator.last is self._seen:
            return True
        self._seen = self.evaluator.last
        self.league.offer_best(self.model, self.evaluator.last)
        self.write(self.league.league.summary())
        return True


class DeadlineCallback(BaseCallback):
    """Stops training at ``deadline`` (``time.monotonic()``), but only after this call's first
    PPO update, so a stopped run always has trained and logged something. The steps of the
    unfinished rollout (never trained on) are taken off ``num_timesteps``, so the run stops
    on a rollout boundary and a resumed run continues from there."""

    def __init__(self, deadline: float | None, write: Callable[[str], None] = print):
        super().__init__()
        self.deadline, self.write = deadline, write
        self.boundary: int | None = None  # steps at the end of the last full rollout
        self.stopped = False

    def _on_rollout_end(self) -> None:
        self.boundary = self.model.num_timesteps

    def _on_step(self) -> bool:
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if self.boundary is None or not late:
            return True
        self.write(f"--max-minutes reached at {self.boundary:,} steps")
        self.stopped = True
        return False

    def _on_training_end(self) -> None:
        if self.stopped:
            self.model.num_timesteps = self.boundary


class ProgressCallback(BaseCallback):
    """A tqdm bar over the run's whole span (``start`` -> ``total``; right on resume)."""

    def __init__(self, start: int, total: int, enabled: bool = True):
        super().__init__()
        self.start, self.total, self.enabled = start, total, enabled
        self.bar: Any = None

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=self.total,
            initial=self.start,
            unit="step",
            desc="PPO",
            smoothing=0.05,
            disable=not self.enabled,
        )

    def _on_step(self) -> bool:
        self.bar.update(self.num_timesteps - self.bar.n)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def write(text: str) -> None:
    """Print without breaking an open tqdm bar."""
    from tqdm import tqdm

    tqdm.write(text)


__all__ = [
    "PROGRESS_COLUMNS",
    "AfterEvalCallback",
    "DeadlineCallback",
    "LeagueCallback",
    "ProgressCallback",
    "SnapshotCallback",
    "make_logger",
    "save_atomic",
    "write",
]
