"""Stable-Baselines3 plumbing of a training run: callbacks (self-play snapshots, the pool's
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
from typing import Any, cast

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from ..integrations.numpy_policy import NumpyPolicy
from .opponents import SelfPlaySlots
from .pool import OpponentPool

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


def average_checkpoints(model: Any, paths: list[Path]) -> None:
    """Set ``model``'s policy and value weights to the mean of those saved in ``paths``
    (MaskablePPO zips of the same architecture). A mean of the last weights of a run plays
    better than any one of them (tail averaging, as in stochastic weight averaging); the
    optimizer's state stays the model's own."""
    import torch
    from stable_baselines3.common.save_util import load_from_zip_file

    if not paths:
        raise ValueError("average_checkpoints needs at least one checkpoint")
    own = model.policy.state_dict()
    total = {k: torch.zeros_like(v, dtype=torch.float64) for k, v in own.items()}
    for path in paths:
        _, params, _ = load_from_zip_file(path, device="cpu", print_system_info=False)
        weights = cast(dict[str, Any], params["policy"])  # a state dict, typed as a tensor
        if weights.keys() != own.keys() or any(weights[k].shape != own[k].shape for k in own):
            raise ValueError(f"{path} holds another network than the model's")
        for k, v in weights.items():
            total[k] += v.double()
    model.policy.load_state_dict({k: (v / len(paths)).to(own[k].dtype) for k, v in total.items()})


class SnapshotCallback(BaseCallback):
    """Freezes the learner into the self-play slots (wrap in ``EveryNTimesteps``)."""

    def __init__(self, slots: SelfPlaySlots):
        super().__init__()
        self.slots = slots

    def _on_step(self) -> bool:
        self.slots.push(self.model.policy)
        return True


class PoolCallback(BaseCallback):
    """Runs a :class:`~.pool.OpponentPool` during training: books every finished game's
    opponent and outcome (the vector env's infos), sends the new weights to the env and
    writes ``out`` (``pool.json``) after each rollout, freezes a snapshot of the learner
    every ``snapshot_every`` steps; :meth:`offer_best` after each evaluation."""

    def __init__(self, pool: OpponentPool, snapshot_every: int, out: Path | None = None):
        super().__init__()
        self.pool, self.snapshot_every, self.out = pool, snapshot_every, out
        self.last_snapshot = 0
        self._opp: list[int] = []
        self._outcome: list[int] = []

    def start(self, model: Any, venv: Any) -> None:
        """Before PPO: freeze the learner into the first snapshot slot (if there are any) and
        give the env the pool's weights."""
        if self.pool.snapshots:
            self.pool.add_snapshot(NumpyPolicy.from_policy(model.policy))
        venv.env_method("set_weights", self.pool.weights(), indices=[0])

    def _on_training_start(self) -> None:
        self.last_snapshot = self.num_timesteps

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "opponent" in info:
                self._opp.append(info["opponent"])
                self._outcome.append(info["outcome"])
        if self.num_timesteps - self.last_snapshot >= self.snapshot_every:
            self.pool.add_snapshot(NumpyPolicy.from_policy(self.model.policy))
            self.last_snapshot = self.num_timesteps
        return True

    def _on_rollout_end(self) -> None:
        self.pool.record(np.array(self._opp, np.int64), np.array(self._outcome, np.int64))
        self._opp, self._outcome = [], []
        self.training_env.env_method("set_weights", self.pool.weights(), indices=[0])
        for row in self.pool.table():
            if row["filled"]:
                for key in ("weight", "learner_win_rate"):
                    self.logger.record(f"pool/{row['member']}/{key}", row[key])
        if self.out is not None:
            self.out.write_text(json.dumps(self.pool.table(), indent=1))

    def offer_best(self, model: Any, rows: list[dict]) -> bool:
        """Make the learner the pool's best member if its evaluation beats the earlier ones:
        the score is the mean learner-minus-opponent margin over the evaluation rows, without
        ``random`` (which every model beats). Nothing without a best member."""
        diffs = [r["diff"] for r in rows if r["opponent"] != "random"]
        if not diffs or not self.pool.has_best:
            return False
        return self.pool.offer_best(NumpyPolicy.from_policy(model.policy), float(np.mean(diffs)))


class AfterEvalCallback(BaseCallback):
    """After ``evaluator`` (a callback with the rows of its last evaluation in ``last``),
    offer the learner to the pool as its best model and log the pool's state; nothing
    when the evaluator did not evaluate (its rows are another model's)."""

    def __init__(self, evaluator: Any, pool: PoolCallback, write: Callable[[str], None] = print):
        super().__init__()
        self.evaluator, self.pool, self.write = evaluator, pool, write
        self._seen = evaluator.last  # rows already there are an earlier model's

    def _on_step(self) -> bool:
        if self.evaluator.last is self._seen:
            return True
        self._seen = self.evaluator.last
        self.pool.offer_best(self.model, self.evaluator.last)
        self.write(self.pool.pool.summary())
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
        if self.stopped and self.boundary is not None:
            self.model.num_timesteps = self.boundary


def projected_total(
    start: int, steps: int, target: int, began: float, now: float, deadline: float | None
) -> int:
    """The step count the run will end at: ``target``, or fewer when the wall-clock budget
    (``deadline``) ends it first at the step rate since ``began`` (all times
    ``time.monotonic()``)."""
    if deadline is None or steps <= start or now <= began:
        return target
    rate = (steps - start) / (now - began)
    return max(steps, min(target, int(steps + rate * max(0.0, deadline - now))))


class ProgressCallback(BaseCallback):
    """A tqdm bar over the run's whole span (``start`` -> ``total``; right on resume) that
    shows the binding limit: when the wall-clock ``deadline`` will stop PPO before ``total``,
    the bar's total is the step count projected at the deadline (so its ETA is the time
    left) and it says ``until --max-minutes``."""

    def __init__(
        self,
        start: int,
        total: int,
        enabled: bool = True,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        super().__init__()
        self.start, self.total, self.enabled = start, total, enabled
        self.deadline, self.clock = deadline, clock
        self.bar: Any = None
        self.began = 0.0
        self.clock_binds = False  # the bar counts towards the budget's end, not ``total``

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self.began = self.clock()
        self.bar = tqdm(
            total=self.total,
            initial=self.start,
            unit="step",
            desc="PPO",
            smoothing=0.05,
            disable=not self.enabled,
        )

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        total = projected_total(self.start, steps, self.total, self.began, self.clock(),
                                self.deadline)  # fmt: skip
        if (total < self.total) != self.clock_binds:
            self.clock_binds = total < self.total
            self.bar.set_description("PPO until --max-minutes" if self.clock_binds else "PPO",
                                     refresh=False)  # fmt: skip
        self.bar.total = total
        self.bar.update(steps - self.bar.n)
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
    "PoolCallback",
    "ProgressCallback",
    "SnapshotCallback",
    "projected_total",
    "make_logger",
    "save_atomic",
    "write",
]
