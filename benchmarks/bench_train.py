"""End-to-end MaskablePPO throughput: learner steps per second (collection + updates) of the
single-game path (``SkatSingleAgentEnv`` x 8 in a ``DummyVecEnv``) and the batched path
(``SkatVectorEnv``, 256 games at once), same PPO settings and opponent pool, same run.

    OMP_NUM_THREADS=1 python benchmarks/bench_train.py                  # train.py's defaults
    python benchmarks/bench_train.py --opponents self:0.8,random:0.2 --rollouts 3

Each path trains ``--rollouts`` rollouts of 8,192 steps after one warm-up rollout; the time is
split into collection (env steps, opponents, policy forward) and updates (the PPO epochs).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.logger import Logger  # noqa: E402

from skat_env.cli.options import opponent_policies, parse_opponents  # noqa: E402
from skat_env.training.opponents import SelfPlaySlots, make_vec_env  # noqa: E402


class Timer(BaseCallback):
    """Wall time spent collecting rollouts (the rest of ``learn`` is the updates)."""

    def __init__(self) -> None:
        super().__init__()
        self.collect = 0.0
        self._t = 0.0

    def _on_rollout_start(self) -> None:
        self._t = time.perf_counter()

    def _on_rollout_end(self) -> None:
        self.collect += time.perf_counter() - self._t

    def _on_step(self) -> bool:
        return True


PREVIOUS = {"opponents": "heuristic:0.8,self:0.2", "batch_size": 256, "n_epochs": 5}


def measure(kind: str, n_envs: int, args: argparse.Namespace) -> dict[str, float]:
    """Steps/s of one path: total, collection only, updates only."""
    weights = parse_opponents(args.opponents)
    slots = SelfPlaySlots(5)
    venv = make_vec_env(
        kind, n_envs, weights, opponent_policies(weights, 0), slots, seed=0,
        reward_mode="seeger_fabian", reward_scale=0.01,
    )  # fmt: skip
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=args.rollout_size // n_envs,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=1e-4,
        clip_range=0.1,
        gamma=1.0,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [int(x) for x in args.net_arch.split(",")]},
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<date> folder in /tmp
    slots.fill(model.policy)
    model.learn(args.rollout_size)  # warm-up: caches, first allocations
    timer = Timer()
    t = time.perf_counter()
    model.learn(args.rollouts * args.rollout_size, callback=timer, reset_num_timesteps=False)
    total = time.perf_counter() - t
    steps = args.rollouts * args.rollout_size
    venv.close()
    return {
        "total": steps / total,
        "collect": steps / timer.collect,
        "update": steps / (total - timer.collect),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponents", default="heuristic:0.7,self:0.2,random:0.1")
    ap.add_argument("--rollouts", type=int, default=4, help="timed rollouts")
    ap.add_argument("--rollout-size", type=int, default=8192, help="steps per rollout")
    ap.add_argument("--net-arch", default="256,256")
    ap.add_argument("--batch-size", type=int, default=2048)
    ap.add_argument("--n-epochs", type=int, default=4)
    ap.add_argument(
        "--previous",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time the previous train.py path (single, minibatch 256, 5 epochs)",
    )
    args = ap.parse_args(argv)
    if min(args.rollouts, args.batch_size, args.n_epochs) < 1 or args.rollout_size < 256:
        ap.error("--rollouts, --batch-size, --n-epochs must be >= 1, --rollout-size >= 256")
    torch.set_num_threads(1)
    print(
        f"MaskablePPO {args.net_arch} MLP, {args.n_epochs} epochs, minibatch "
        f"{args.batch_size}, rollouts of {args.rollout_size:,}; opponents {args.opponents}"
    )
    print(f"{'path':<28}{'steps/s':>9}{'collect':>10}{'update':>10}   (learner steps/s)")
    rates = {}
    for kind, n_envs in (("single", 8), ("vector", 256)):
        r = measure(kind, n_envs, args)
        rates[kind] = r["total"]
        label = f"{kind} ({n_envs} {'envs' if kind == 'single' else 'games'})"
        print(f"{label:<28}{r['total']:>9,.0f}{r['collect']:>10,.0f}{r['update']:>10,.0f}")
    print(f"batched / single: {rates['vector'] / rates['single']:.1f}x")
    if args.previous:
        old = argparse.Namespace(**{**vars(args), **PREVIOUS})
        r = measure("single", 8, old)
        print(
            f"{'previous train.py (single)':<28}{r['total']:>9,.0f}{r['collect']:>10,.0f}"
            f"{r['update']:>10,.0f}   (pool {old.opponents}, minibatch 256, 5 epochs)"
        )
        print(f"batched / previous train.py: {rates['vector'] / r['total']:.1f}x")
    print(f"load average: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
