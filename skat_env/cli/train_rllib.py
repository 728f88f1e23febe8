"""Train Skat agents with Ray RLlib's PPO (masked, multi-agent self-play), locally or on a cluster.

    skat-train-rllib                                    # local Ray, 1 env runner
    skat-train-rllib --num-env-runners 2 --iterations 50 --name r2
    skat-train-rllib --address auto --num-env-runners 32   # on a cluster
    .venv-rllib/bin/python train_rllib.py --help        # the same from a checkout

Needs the ``rllib`` extra in its own environment (``scripts/setup_rllib.sh``; RLlib pins its
own Gymnasium release; there the console script is ``.venv-rllib/bin/skat-train-rllib``). All
three seats are played by PPO policies: one shared module (``--policies shared``, self-play) or
one per seat (``per_seat``); illegal moves get probability 0
(:class:`skat_env.integrations.rllib.MaskedPPOModule`), and the number of illegal actions
sampled is printed every iteration (it must stay 0).

Everything of a run lives in ``runs/rllib/<name>/`` (relative to the working directory):
``config.json``, ``progress.csv`` (per iteration: env steps, throughput, illegal actions,
losses), ``evals.csv`` and ``checkpoints/iter_NNNNNN/`` plus ``final/``: RLlib checkpoints
(``--restore`` continues from one) that also hold each module's policy as
``skat_policy_<module>.safetensors``, which ``evaluate.py`` loads without Ray as the agent
``rllib:runs/rllib/<name>/final``. Every ``--eval-every`` iterations the policy plays
duplicate deals against ``random`` and ``heuristic`` through :mod:`skat_env.tournament`
(Seeger-Fabian points per game with a 95% interval).

The loop is RLlib's own ``Algorithm.train()`` / ``save_to_path()`` / ``restore_from_path()``
driven directly rather than through ``ray.tune.Tuner``: see ``docs/rllib.md`` for why.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per process beats two on small CPUs
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry from runs or tests

from skat_env.cli.options import UsageError, seed_arg  # noqa: E402 (after the thread setting)

PROGRESS_COLUMNS = ("iteration", "env_steps", "seconds", "steps_per_s", "episodes",
                    "illegal_actions", "entropy", "vf_loss")  # fmt: skip
EVAL_COLUMNS = ("iteration", "env_steps", "module", "opponent", "sf", "sf_lo", "sf_hi", "list",
                "deals", "seconds")  # fmt: skip


# (flag, type, default, help); type None: a choice, default = (default, choices).
OPTIONS: tuple[tuple[str, Any, Any, str], ...] = (
    ("--name", str, "default", "run directory name under --runs-dir"),
    ("--runs-dir", str, "runs/rllib", "where run directories live"),
    ("--iterations", int, 20, "PPO training iterations"),
    ("--address", str, None, "Ray cluster address ('auto', 'ray://HEAD:10001'); default: local"),
    ("--num-env-runners", int, 1, "parallel sampling processes (0: sample in the driver)"),
    ("--num-envs-per-env-runner", int, 16, "envs per runner, stepped together (batched inference)"),
    ("--num-cpus", int, None, "CPUs of the local Ray (default: max(cores, env runners + 1))"),
    (
        "--policies",
        None,
        ("shared", ("shared", "per_seat")),
        "one module for all seats, or per seat",
    ),
    ("--hiddens", str, "256,256", "hidden layer widths of the policy and value MLPs"),
    ("--train-batch-size", int, 4000, "env steps per training iteration"),
    ("--minibatch-size", int, 256, "SGD minibatch size"),
    ("--epochs", int, 4, "SGD epochs per iteration"),
    ("--lr", float, 3e-4, "learning rate"),
    ("--entropy-coeff", float, 0.01, "entropy bonus"),
    ("--reward-mode", None, ("zero_sum", ("zero_sum", "list", "seeger_fabian")), "skat_v0 rewards"),
    ("--reward-scale", float, 0.01, "rewards are multiplied by this"),
    ("--observation-mode", None, ("default", ("default", "history")), "skat_v0 observations"),
    ("--eval-every", int, 10, "evaluate every N iterations (0: never)"),
    ("--eval-deals", int, 200, "duplicate deals per evaluation opponent"),
    ("--eval-opponents", str, "random,heuristic", "agent specs to evaluate against"),
    ("--eval-workers", int, 1, "evaluation worker processes"),
    ("--checkpoint-every", int, 10, "checkpoint every N iterations (0: at the end only)"),
    ("--restore", str, None, "RLlib checkpoint directory to continue from"),
    ("--seed", seed_arg, 0, "seed of RLlib and of the evaluation deals"),
)
POSITIVE = ("iterations", "num_envs_per_env_runner", "train_batch_size", "minibatch_size", "epochs",
            "eval_deals", "eval_workers")  # fmt: skip
NON_NEGATIVE = ("num_env_runners", "eval_every", "checkpoint_every")


PROG = "skat-train-rllib"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    for flag, kind, default, help in OPTIONS:
        if kind is None:
            p.add_argument(flag, choices=default[1], default=default[0], help=help)
        else:
            p.add_argument(flag, type=kind, default=default, help=help)
    return p


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    for name in POSITIVE:
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    for name in NON_NEGATIVE:
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} must not be negative")
    if args.minibatch_size > args.train_batch_size:
        raise UsageError("--minibatch-size must not exceed --train-batch-size")
    try:
        args.hiddens = [int(h) for h in args.hiddens.split(",")]
    except ValueError:
        raise UsageError(
            f"--hiddens is a comma-separated list of widths: {args.hiddens!r}"
        ) from None
    if any(h < 1 for h in args.hiddens):
        raise UsageError("--hiddens widths must be positive")
    args.eval_opponents = [s.strip() for s in args.eval_opponents.split(",") if s.strip()]
    if args.restore and not Path(args.restore).is_dir():
        raise UsageError(f"--restore: no checkpoint directory at {args.restore!r}")
    return args


def check_opponents(specs: list[str]) -> None:
    from skat_env.agents.registry import AgentSpecError, make_agent

    for spec in specs:
        try:
            agent = make_agent(spec, seed=0)
        except AgentSpecError as e:
            raise UsageError(str(e)) from None
        if agent.interactive:
            raise UsageError(f"cannot evaluate against the interactive agent {spec!r}")


def import_rllib() -> Any:
    try:
        from skat_env.integrations import rllib
    except ImportError as e:
        raise UsageError(
            f"Ray RLlib is not importable ({e}); create its environment with "
            "scripts/setup_rllib.sh and run .venv-rllib/bin/skat-train-rllib"
        ) from None
    return rllib


def start_ray(args: argparse.Namespace) -> None:
    import ray

    if ray.is_initialized():  # e.g. called from a test or a notebook that started Ray
        return
    if args.address:
        try:
            ray.init(address=args.address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise UsageError(
                f"cannot connect to the Ray cluster at {args.address!r}: {e}"
            ) from None
        return
    cpus = args.num_cpus or max(os.cpu_count() or 1, args.num_env_runners + 1)
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)


def build_algo(args: argparse.Namespace, rllib: Any) -> Any:
    config = rllib.ppo_config(
        policies=args.policies,
        num_env_runners=args.num_env_runners,
        num_envs_per_env_runner=args.num_envs_per_env_runner,
        hiddens=args.hiddens,
        train_batch_size=args.train_batch_size,
        minibatch_size=args.minibatch_size,
        num_epochs=args.epochs,
        lr=args.lr,
        entropy_coeff=args.entropy_coeff,
        env_config={
            "reward_mode": args.reward_mode,
            "observation_mode": args.observation_mode,
            "reward_scale": args.reward_scale,
        },
        seed=args.seed,
    )
    algo = config.build_algo()
    if args.restore:
        algo.restore_from_path(str(Path(args.restore).resolve()))
    return algo


def progress_row(it: int, result: dict, seconds: float, rllib: Any) -> dict:
    """The figures of one training iteration worth logging."""
    runners = result.get("env_runners", {})
    steps = int(runners.get("num_env_steps_sampled", 0))
    learners = result.get("learners", {})
    first = next((v for k, v in learners.items() if isinstance(v, dict) and "entropy" in v), {})
    return {
        "iteration": it,
        "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "seconds": round(seconds, 3),
        "steps_per_s": round(steps / seconds, 1) if seconds else None,
        "episodes": int(runners.get("num_episodes", 0)),
        "illegal_actions": rllib.illegal_count(result),
        "entropy": _num(first.get("entropy")),
        "vf_loss": _num(first.get("vf_loss")),
    }


def _num(x: Any) -> float | None:
    return None if x is None else round(float(x), 5)


def append_csv(path: Path, columns: tuple[str, ...], rows: list[dict]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        if new:
            w.writeheader()
        w.writerows(rows)


def checkpoint(algo: Any, rllib: Any, path: Path, args: argparse.Namespace) -> Path:
    """An RLlib checkpoint plus each module's policy file (safetensors) in it; RLlib reads and
    writes only absolute paths or URIs, so a relative ``path`` is resolved here."""
    path.mkdir(parents=True, exist_ok=True)
    algo.save_to_path(str(path.resolve()))
    rllib.export_policies(path, observation_mode=args.observation_mode)
    return path


def run_evaluation(ckpt: Path, module: str, args: argparse.Namespace) -> list[dict]:
    """Duplicate deals of the checkpoint's ``module`` against two copies of each opponent."""
    from skat_env import tournament
    from skat_env.agents.rllib_agent import RLlibAgent

    rows = []
    for opp in args.eval_opponents:
        agent = RLlibAgent(f"{ckpt}#{module}")
        t0 = time.perf_counter()
        res = tournament.evaluate([agent, opp, opp], deals=args.eval_deals, seed=args.seed,
                                workers=args.eval_workers)  # fmt: skip
        me = res["agents"][agent.name]
        lo, hi = me["sf_ci95"]
        rows.append({"module": module, "opponent": opp, "sf": round(me["sf_per_game"], 2),
                     "sf_lo": round(lo, 2), "sf_hi": round(hi, 2),
                     "list": round(me["list_score_per_game"], 2), "deals": args.eval_deals,
                     "seconds": round(time.perf_counter() - t0, 1)})  # fmt: skip
    return rows


def format_eval(r: dict) -> str:
    ci = f"[{r['sf_lo']:+.1f}, {r['sf_hi']:+.1f}]"
    who = f"{r['module']} vs 2x {r['opponent']}"
    return f"  eval {who}: SF/game {r['sf']:+.1f} {ci}  list/game {r['list']:+.1f}"


def train(args: argparse.Namespace) -> Path:
    check_opponents(args.eval_opponents)
    rllib = import_rllib()
    run_dir = Path(args.runs_dir) / args.name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps({**vars(args), "argv": sys.argv}, indent=2))
    start_ray(args)
    algo = build_algo(args, rllib)
    modules = rllib.policy_ids(args.policies)
    print(f"run dir {run_dir}; modules {', '.join(modules)}; {args.num_env_runners} env runners")
    try:
        for it in range(1, args.iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            row = progress_row(it, result, time.perf_counter() - t0, rllib)
            append_csv(run_dir / "progress.csv", PROGRESS_COLUMNS, [row])
            print(f"iter {it:4d}  env steps {row['env_steps']:9d}  {row['steps_per_s']:8.1f} "
                  f"steps/s  illegal actions "
                  f"{row['illegal_actions']}  entropy {row['entropy']}", flush=True)  # fmt: skip
            last = it == args.iterations
            evaluate_now = bool(args.eval_every) and (it % args.eval_every == 0 or last)
            if evaluate_now or (args.checkpoint_every and it % args.checkpoint_every == 0):
                ckpt = checkpoint(algo, rllib, run_dir / "checkpoints" / f"iter_{it:06d}", args)
            if evaluate_now:
                rows = [{"iteration": it, "env_steps": row["env_steps"], **r}
                        for r in run_evaluation(ckpt, modules[0], args)]  # fmt: skip
                append_csv(run_dir / "evals.csv", EVAL_COLUMNS, rows)
                for r in rows:
                    print(format_eval(r))
        return checkpoint(algo, rllib, run_dir / "final", args)
    finally:
        algo.stop()


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        final = train(args)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; continue with --restore CHECKPOINT", file=sys.stderr)
        return 130
    print(f"final checkpoint: {final}\nplay it: python evaluate.py --agents rllib:{final} "
          "heuristic heuristic")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
