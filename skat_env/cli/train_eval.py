"""The evaluations of a ``skat-train`` run: the learner against two copies of each opponent on
duplicate deals (:mod:`skat_env.tournament`), written to ``evals.csv`` / ``evals.json`` and
drawn as ``learning_curve.png``; :class:`DuplicateEvalCallback` runs them during training.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from skat_env import tournament
from skat_env.agents.ppo import PPOAgent

EVAL_OPPONENTS = ("random", "heuristic")
EVAL_COLUMNS = (
    "timesteps",
    "opponent",
    "sf",
    "sf_lo",
    "sf_hi",
    "diff",
    "diff_lo",
    "diff_hi",
    "list",
    "declarer_share",
    "deals",
    "seconds",
)


def duplicate_eval(
    learner: Any, opponent: str, deals: int, seed: int, workers: int = 1, progress: bool = False
) -> dict:
    """The learner against two copies of ``opponent`` on duplicate deals
    (:func:`skat_env.tournament.evaluate`): ``sf``, the learner's Seeger-Fabian points per
    game, and ``diff``, its per-deal difference to the opponent's (who is better), each with
    its 95% bootstrap interval."""
    t = time.perf_counter()
    res = tournament.evaluate(
        [learner, opponent, opponent], deals=deals, seed=seed, workers=workers, progress=progress
    )
    me = learner.name
    a = res["agents"][me]
    cmp = res["comparisons"][0]
    sign = 1 if cmp["a"] == me else -1
    lo, hi = sorted(sign * x for x in cmp["ci95"])
    return {
        "opponent": opponent,
        "sf": a["sf_per_game"],
        "sf_lo": a["sf_ci95"][0],
        "sf_hi": a["sf_ci95"][1],
        "diff": sign * cmp["sf_diff_per_game"],
        "diff_lo": lo,
        "diff_hi": hi,
        "list": a["list_score_per_game"],
        "declarer_share": a["declarer_share"],
        "deals": deals,
        "seconds": round(time.perf_counter() - t, 1),
    }


def append_evals(run_dir: Path, rows: list[dict]) -> list[dict]:
    """Add evaluation rows to evals.csv and evals.json; return the whole history."""
    path = run_dir / "evals.csv"
    new = not path.exists()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, EVAL_COLUMNS)
        if new:
            w.writeheader()
        w.writerows(rows)
    history = load_evals(run_dir) + rows
    (run_dir / "evals.json").write_text(json.dumps(history, indent=1))
    return history


def load_evals(run_dir: Path) -> list[dict]:
    path = run_dir / "evals.json"
    return json.loads(path.read_text()) if path.exists() else []


def eval_table(rows: list[dict], timesteps: int) -> str:
    """The evaluation as a text table (SF = Seeger-Fabian points per game, 95% intervals)."""
    w = max([16, *(len(r["opponent"]) + 4 for r in rows)])  # long specs keep the columns
    head = f"  {'vs':<{w}}{'SF/game':>9} {'interval':<17}{'minus opp.':>11} {'interval':<17}"
    lines = [
        f"evaluation at {timesteps:,} steps: learner vs two copies of an opponent, duplicate deals",
        head + f"{'list/game':>10}  deals",
    ]
    for r in rows:
        ci = f"[{r['sf_lo']:+.1f}, {r['sf_hi']:+.1f}]"
        dci = f"[{r['diff_lo']:+.1f}, {r['diff_hi']:+.1f}]"
        lines.append(
            f"  {'2x ' + r['opponent']:<{w}}{r['sf']:>+9.1f} {ci:<17}{r['diff']:>+11.1f} "
            f"{dci:<17}{r['list']:>+10.1f}  {r['deals']}"
        )
    return "\n".join(lines)


def plot_learning_curve(run_dir: Path, reward_scale: float, out: Path | None = None) -> Path:
    """learning_curve.png: the learner minus its opponent (SF/game, 95% intervals) over
    training, one panel per evaluation opponent (heuristic first), and the training reward."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    history = load_evals(run_dir)
    opponents = sorted({r["opponent"] for r in history}, key=lambda o: (o != "heuristic", o))
    fig, axes = plt.subplots(
        len(opponents) + 1, 1, figsize=(7, 2.6 * len(opponents) + 2.6), sharex=True, squeeze=False
    )
    for ax, opp in zip(axes[:-1, 0], opponents, strict=True):
        rows = [r for r in history if r["opponent"] == opp]
        x = [r["timesteps"] for r in rows]
        y, lo, hi = (np.array([r["diff" + s] for r in rows]) for s in ("", "_lo", "_hi"))
        ax.errorbar(x, y, yerr=[y - lo, hi - y], marker="o", capsize=3)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel(f"minus 2x {opp}\nSF points / game")
    axes[0, 0].set_title(f"{run_dir.name}: learner minus opponent, duplicate deals (95% CI)")
    ax2 = axes[-1, 0]
    prog = run_dir / "progress.csv"
    if prog.exists():
        with prog.open() as fh:
            rows = [r for r in csv.DictReader(fh) if r.get("rollout/ep_rew_mean")]
        x = [float(r["time/total_timesteps"]) for r in rows]
        ax2.plot(x, [float(r["rollout/ep_rew_mean"]) / reward_scale for r in rows], lw=1)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_xlabel("timesteps (learner decisions)")
    ax2.set_ylabel("training reward / game\n(pool mix, SF points)")
    fig.tight_layout()
    out = out or run_dir / "learning_curve.png"
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out


class DuplicateEvalCallback(BaseCallback):
    """Duplicate-deal evaluation of the current policy against each of ``opponents`` (wrap in
    ``EveryNTimesteps``); rows go to evals.csv / evals.json and the learning curve."""

    def __init__(
        self,
        run_dir: Path,
        deals: int,
        seed: int,
        reward_scale: float,
        opponents: tuple[str, ...] = EVAL_OPPONENTS,
        workers: int = 1,
        write: Callable[[str], None] = print,
    ):
        super().__init__()
        self.run_dir, self.deals, self.seed = run_dir, deals, seed
        self.reward_scale, self.opponents, self.workers = reward_scale, opponents, workers
        self.write = write
        self.until: int | None = None  # periodic evaluations stop here (the final one follows)
        self.last: list[dict] = []

    def evaluate(self, model: Any, progress: bool = False) -> list[dict]:
        learner = PPOAgent.from_policy(model.policy, name="learner")
        rows = [
            {
                "timesteps": model.num_timesteps,
                **duplicate_eval(learner, opp, self.deals, self.seed, self.workers, progress),
            }
            for opp in self.opponents
        ]
        append_evals(self.run_dir, rows)
        plot_learning_curve(self.run_dir, self.reward_scale)
        self.write(eval_table(rows, model.num_timesteps))
        self.last = rows
        return rows

    def _on_step(self) -> bool:
        if self.until is None or self.model.num_timesteps < self.until:
            self.evaluate(self.model)
        return True


__all__ = [
    "EVAL_COLUMNS",
    "EVAL_OPPONENTS",
    "DuplicateEvalCallback",
    "append_evals",
    "duplicate_eval",
    "eval_table",
    "load_evals",
    "plot_learning_curve",
]
