"""PPO update cost of train.py's settings and cheaper ones, in one run: learner steps per second
of MaskablePPO's update (``model.train()``) on the same rollout of the batched path, for each
(epochs, minibatch, network) setting.

    OMP_NUM_THREADS=1 python benchmarks/bench_update.py
    python benchmarks/bench_update.py --settings 4,2048,256x256 2,2048,256x256 --repeats 3

A setting is ``EPOCHS,MINIBATCH,WIDTHxWIDTH``. One rollout of ``--rollout-size`` steps is
collected once (train.py's default pool); every setting then trains its own fresh model on a
copy of that buffer ``--repeats`` times (after one untimed update) and the best time counts.
The batched path's learner steps/s is bounded by its update's rate (``bench_train.py``).
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.logger import Logger  # noqa: E402

from skat_env.cli.options import opponent_policies, parse_opponents  # noqa: E402
from skat_env.training.opponents import SelfPlaySlots, make_vec_env  # noqa: E402

DEFAULT = ("4,2048,256x256", "2,2048,256x256", "1,2048,256x256", "4,4096,256x256",
           "4,2048,128x128", "2,2048,128x128")  # fmt: skip


def parse_setting(text: str) -> tuple[int, int, list[int]]:
    epochs, batch, net = text.split(",")
    return int(epochs), int(batch), [int(w) for w in net.split("x")]


def model_for(venv, rollout: int, epochs: int, batch: int, net: list[int]) -> MaskablePPO:
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=rollout // venv.num_envs, batch_size=batch, n_epochs=epochs,
        learning_rate=3e-4, clip_range=0.1, gamma=1.0, seed=0, device="cpu",
        policy_kwargs={"net_arch": net},
    )  # fmt: skip
    model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<date> folder in /tmp
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settings", nargs="+", default=list(DEFAULT))
    ap.add_argument("--rollout-size", type=int, default=8192)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        settings = [parse_setting(s) for s in args.settings]
    except ValueError:
        ap.error("a setting is EPOCHS,MINIBATCH,WIDTHxWIDTH, e.g. 4,2048,256x256")
    if args.repeats < 1 or args.rollout_size < 256:
        ap.error("--repeats must be >= 1, --rollout-size >= 256")
    torch.set_num_threads(1)
    weights = parse_opponents("heuristic:0.7,self:0.2,random:0.1")
    slots = SelfPlaySlots(5)
    venv = make_vec_env("vector", 256, weights, opponent_policies(weights, 0), slots, seed=0,
                        reward_mode="seeger_fabian", reward_scale=0.01)  # fmt: skip
    collector = model_for(venv, args.rollout_size, 1, 2048, [256, 256])
    slots.fill(collector.policy)
    collector.learn(args.rollout_size)  # fills the rollout buffer once
    buffer = collector.rollout_buffer
    print(f"PPO update on one rollout of {args.rollout_size:,} steps (batched path)")
    print(f"{'epochs':>6}{'minibatch':>10}{'network':>10}{'update steps/s':>16}")
    base = None
    for epochs, batch, net in settings:
        model = model_for(venv, args.rollout_size, epochs, batch, net)
        model._setup_learn(args.rollout_size)  # logger and schedules, as learn() does
        best = float("inf")
        for k in range(args.repeats + 1):
            model.rollout_buffer = copy.deepcopy(buffer)
            t = time.perf_counter()
            model.train()
            if k:  # the first update is untimed (allocations)
                best = min(best, time.perf_counter() - t)
        rate = args.rollout_size / best
        base = base or rate
        label = "x".join(map(str, net))
        print(f"{epochs:>6}{batch:>10,}{label:>10}{rate:>16,.0f}   {rate / base:.1f}x")
    venv.close()
    print(f"load average: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
