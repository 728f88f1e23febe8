"""Env steps/s of RLlib on skat_v0: pure sampling and whole PPO iterations, per env-runner count.

    .venv-rllib/bin/python benchmarks/bench_rllib.py --runners 1 2 --iterations 4

Sampling: every remote env runner samples ``--sample-steps`` env steps at once (in parallel);
steps/s = all steps / wall time. Training: ``algo.train()`` with the default PPO settings of
``train_rllib.py`` (4000 steps per iteration, 16 envs per runner); steps/s = env steps sampled
/ iteration wall time, median over the iterations after the first (warm-up).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry from runs or tests

import ray  # noqa: E402

from skat_env.integrations import rllib as R  # noqa: E402


def bench(runners: int, iterations: int, sample_steps: int, envs: int) -> dict:
    algo = R.ppo_config(
        num_env_runners=runners, num_envs_per_env_runner=envs, seed=0,
        env_config={"reward_scale": 0.01},
    ).build_algo()  # fmt: skip
    try:
        group = algo.env_runner_group
        group.foreach_env_runner(lambda r: r.sample(num_timesteps=200), local_env_runner=False)
        t0 = time.perf_counter()
        done = group.foreach_env_runner(
            lambda r: sum(len(e) for e in r.sample(num_timesteps=sample_steps)),
            local_env_runner=False,
        )
        sample_rate = sum(done) / (time.perf_counter() - t0)
        rates = []
        for _ in range(iterations):
            t0 = time.perf_counter()
            res = algo.train()
            steps = res.get("env_runners", {}).get("num_env_steps_sampled", 0)  # 0: timed out
            rates.append(steps / (time.perf_counter() - t0))
    finally:
        algo.stop()
    train_rate = statistics.median(rates[1:] or rates or [float("nan")])
    return {"runners": runners, "sample": sample_rate, "train": train_rate, "all": rates}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    p.add_argument("--iterations", type=int, default=4, help="PPO iterations (0: sampling only)")
    p.add_argument("--sample-steps", type=int, default=4000)
    p.add_argument("--envs", type=int, default=16, help="envs per env runner")
    args = p.parse_args()
    ray.init(num_cpus=max(2, *args.runners), include_dashboard=False, log_to_driver=False)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for n in args.runners:
        r = bench(n, args.iterations, args.sample_steps, args.envs)
        head = f"{n} env runner(s): sampling {r['sample']:.0f} steps/s"
        if r["all"]:
            all_rates = ", ".join(f"{x:.0f}" for x in r["all"])
            head += f"; PPO training {r['train']:.0f} steps/s (median; iterations: {all_rates})"
        print(head, flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
