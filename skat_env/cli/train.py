"""Train a Skat agent with MaskablePPO: clone the heuristic, then PPO against a pool of
opponents (heuristic, frozen copies of the learner, random, any agent spec).

    skat-train                        # the default run: <= 15 minutes on two CPU cores
    skat-train --name long --timesteps 20000000 --max-minutes 120
    skat-train --name long --resume --timesteps 40000000
    skat-train --env single           # one game per env (SkatSingleAgentEnv), slower
    skat-train --help

(``python train.py ...`` in a checkout is the same command.)

By default the learner plays ``--n-envs`` games at once on the batched engine
(:class:`skat_env.envs.vector_env.SkatVectorEnv`): its frozen snapshots and the other
opponents play the other seats as batched policies. Everything of a run is in
``runs/<name>/`` (see docs/train.md); the reusable parts live in
:mod:`skat_env.integrations` (``opponents``, ``cloning``, ``callbacks``, ``numpy_policy``);
the evaluations in :mod:`skat_env.cli.train_eval`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per process beats two on small CPUs

from skat_env.cli.options import (  # noqa: E402 (after the thread setting)
    UsageError,
    league_members,
    opponent_policies,
    parse_dataclass,
    parse_opponents,
    training_agent,
)


def _f(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    """Every setting of a run (saved as runs/<name>/config.json)."""

    name: str = _f("default", "run name: everything goes to runs/<name>/")
    env: str = _f("vector", "vector (many games per step, batched opponents) or single")
    timesteps: int = _f(3_000_000, "learner decisions of PPO (rounded up to whole rollouts)")
    max_minutes: float = _f(14.0, "wall-clock budget of the whole run, cloning included (0: none)")
    opponents: str = _f(
        "heuristic:0.7,self:0.2,random:0.1",
        "opponent pool spec:weight,...: random, heuristic, self (frozen copies of the learner), "
        "or any agent spec such as ppo:models/x.zip; weights are normalised",
    )
    league: str = _f(
        "",
        "train against a league instead of --opponents: members spec,... (agent specs; self: "
        "the --snapshot-pool frozen snapshots; best: the best model so far by the evaluations), "
        "mixed by prioritised fictitious self-play (docs/train.md), e.g. "
        "heuristic,heuristic:margin=-1,heuristic:margin=1,random,self,best",
    )
    league_prioritise: str = _f(
        "hard",
        "league weight of a member by the learner's win rate x against it: hard (1-x)^2, "
        "even x(1-x), uniform",
    )
    eval_panel: str = _f(
        "",
        "evaluation opponents spec,... (empty: random,heuristic; with --league "
        "heuristic,heuristic:margin=0.5,ppo: players it never trains against unless named)",
    )
    n_envs: int = _f(0, "games stepped together (0: 256 for --env vector, 8 for single)")
    seed: int = _f(0, "seed of the model, the envs and the evaluations")
    reward_mode: str = _f("seeger_fabian", "reward: zero_sum, list or seeger_fabian")
    reward_scale: float = _f(0.01, "multiplies the game reward (values are in the hundreds)")
    seat: int = _f(-1, "learner seat 0, 1, 2, or -1 for a random seat each game")
    init_model: str = _f(
        "",
        "warm start from the weights of this MaskablePPO zip (same spaces and --net-arch) "
        "instead of cloning, e.g. models/ppo_skat.zip; --bc-games is then unused",
    )
    bc_games: int = _f(12_000, "warm start: clone the heuristic from N of its games (0: none)")
    bc_data: str = _f(
        "",
        "clone these recorded decisions instead (python -m "
        "skat_env.cli.distill --teacher pimc --out DIR)",
    )
    distill_coef: float = _f(
        0.0,
        "with --bc-data: also pull the policy towards the recorded teacher during PPO, an "
        "auxiliary loss of this weight (0: off; soft targets from a search teacher's card "
        "values, see docs/train.md)",
    )
    distill_temperature: float = _f(
        10.0,
        "with --distill-coef: soft targets softmax(card values / T) where the teacher searched; "
        "0: the teacher's move alone (one-hot)",
    )
    distill_cards_only: bool = _f(
        False,
        "with --distill-coef: pull only towards the teacher's card play (the decisions it "
        "searched, with card values), not its bidding, skat, discard and declaration",
    )
    bc_iss: str = _f(
        "",
        "clone human play instead: the first --bc-games kept games of an ISS archive "
        "(.sgf or .sgf.bz2, streamed; see docs/train.md)",
    )
    bc_iss_min_rating: float = _f(
        0.0, "with --bc-iss: clone only seats whose recorded ISS rating is at least this"
    )
    bc_epochs: int = _f(5, "behaviour-cloning passes over the heuristic's decisions")
    bc_learning_rate: float = _f(1e-3, "Adam learning rate of the behaviour cloning")
    bc_batch_size: int = _f(1024, "behaviour-cloning minibatch size")
    learning_rate: float = _f(3e-4, "PPO Adam learning rate")
    n_steps: int = _f(0, "steps per env per rollout (0: a rollout of 8,192 steps)")
    batch_size: int = _f(2048, "PPO minibatch size")
    n_epochs: int = _f(4, "PPO epochs per rollout")
    gamma: float = _f(1.0, "discount (one game is one short episode with a final reward)")
    gae_lambda: float = _f(0.95, "GAE lambda")
    clip_range: float = _f(0.1, "PPO clip range")
    ent_coef: float = _f(0.001, "entropy bonus")
    vf_coef: float = _f(0.5, "value loss weight")
    max_grad_norm: float = _f(0.5, "gradient clipping")
    net_arch: str = _f("256,256", "hidden layer sizes of the policy and value networks")
    snapshot_every: int = _f(200_000, "freeze a copy of the learner for self-play every N steps")
    snapshot_pool: int = _f(5, "self-play plays the last N snapshots")
    checkpoint_every: int = _f(500_000, "save runs/<name>/checkpoints/ every N steps")
    eval_every: int = _f(250_000, "evaluate every N steps (0: only at the start and the end)")
    eval_deals: int = _f(300, "duplicate deals per evaluation (each played in 3 seatings)")
    final_eval_deals: int = _f(1000, "duplicate deals of the final evaluation")
    eval_workers: int = _f(1, "processes for the evaluations")
    resume: bool = _f(False, "continue runs/<name>/ from its latest checkpoint")
    force: bool = _f(False, "overwrite an existing run of the same name")
    progress: bool = _f(True, "show progress bars")
    tensorboard: bool = _f(True, "also log to runs/<name>/tb (tensorboard --logdir runs)")


RUNS = Path("runs")


def validate(args: Args) -> dict[str, float]:
    """Check the settings; return the normalised opponent weights."""
    from skat_env.core.rewards import REWARD_MODES

    positive = (
        "timesteps",
        "eval_deals",
        "final_eval_deals",
        "eval_workers",
        "batch_size",
        "n_epochs",
        "snapshot_every",
        "snapshot_pool",
        "checkpoint_every",
        "bc_epochs",
        "bc_batch_size",
    )
    for name in positive:
        if getattr(args, name) <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive")
    for name in ("n_envs", "n_steps", "eval_every", "bc_games"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 0")
    checks = {
        "--env must be vector or single": args.env in ("vector", "single"),
        "--seat must be -1, 0, 1 or 2": args.seat in (-1, 0, 1, 2),
        f"--reward-mode must be one of {', '.join(REWARD_MODES)}": args.reward_mode in REWARD_MODES,
        "--learning-rate must be in (0, 1)": 0 < args.learning_rate < 1,
        "--bc-learning-rate must be in (0, 1)": 0 < args.bc_learning_rate < 1,
        "--max-minutes must be >= 0": args.max_minutes >= 0,
        f"--name must be a plain directory name, got {args.name!r}": bool(args.name)
        and "/" not in args.name
        and not args.name.startswith("."),
    }
    for message, ok in checks.items():
        if not ok:
            raise UsageError(message)
    net_arch(args)
    if args.bc_data and not any(Path(args.bc_data).glob("shard_*.npz")):
        raise UsageError(f"--bc-data: no shard_*.npz files in {args.bc_data}")
    if args.bc_iss and (args.bc_data or not Path(args.bc_iss).is_file()):
        raise UsageError(f"--bc-iss: no such file {args.bc_iss!r} (or --bc-data given too)")
    if not 0 <= args.distill_coef < math.inf or (args.distill_coef and not args.bc_data):
        raise UsageError("--distill-coef must be a number >= 0, and > 0 needs --bc-data")
    if not 0 <= args.distill_temperature < math.inf:
        raise UsageError("--distill-temperature must be a number >= 0")
    if args.distill_cards_only and not args.distill_coef:
        raise UsageError("--distill-cards-only needs --distill-coef > 0")
    if args.init_model and not Path(args.init_model).is_file():
        raise UsageError(f"--init-model: no such file {args.init_model!r}")
    if args.init_model and (args.bc_iss or (args.bc_data and not args.distill_coef)):
        raise UsageError("--init-model replaces cloning: --bc-iss, and --bc-data without "
                         "--distill-coef, would be unused")  # fmt: skip
    if args.bc_iss and (not args.bc_games or not args.bc_iss_min_rating >= 0):
        raise UsageError("--bc-iss needs --bc-games > 0 and --bc-iss-min-rating >= 0")
    if args.league:
        from skat_env.integrations.training_league import PRIORITIES

        if args.env != "vector":
            raise UsageError("--league needs --env vector (the env that reports each game's "
                             "opponent and outcome)")  # fmt: skip
        if args.league_prioritise not in PRIORITIES:
            raise UsageError(f"--league-prioritise must be one of {', '.join(PRIORITIES)}, "
                             f"got {args.league_prioritise!r}")  # fmt: skip
        league_members(args.league)
    eval_panel(args)
    return parse_opponents(args.opponents)


def eval_panel(args: Args) -> tuple[str, ...]:
    """The evaluation opponents (checked: :class:`UsageError` for a bad spec)."""
    default = "heuristic,heuristic:margin=0.5,ppo" if args.league else "random,heuristic"
    specs = [s.strip() for s in (args.eval_panel or default).split(",") if s.strip()]
    if not specs or len(set(specs)) < len(specs):
        raise UsageError(f"--eval-panel needs distinct agent specs, got {args.eval_panel!r}")
    for spec in specs:
        training_agent(spec, role="evaluation opponent")
    return tuple(specs)


def make_league(args: Args) -> Any:
    """The league of ``--league`` and the callback that runs it (writes ``league.json``)."""
    from skat_env.integrations.callbacks import LeagueCallback
    from skat_env.integrations.training_league import BEST, SNAPSHOT, League

    specs = league_members(args.league)
    fixed = {
        s: "random" if s == "random" else training_agent(s, args.seed)
        for s in specs
        if s not in (SNAPSHOT, BEST)
    }
    snapshots = args.snapshot_pool if SNAPSHOT in specs else 0
    league = League(fixed, snapshots, BEST in specs, args.league_prioritise)
    return LeagueCallback(league, args.snapshot_every, RUNS / args.name / "league.json")


def attach_distillation(model: Any, args: Args) -> None:
    """The auxiliary loss of ``--distill-coef`` on the ``--bc-data`` decisions."""
    from skat_env.integrations.callbacks import write
    from skat_env.integrations.distill import load_shards
    from skat_env.integrations.distill_loss import DistillationLoss, searched_rows

    try:
        data = load_shards(Path(args.bc_data), args.reward_mode, args.reward_scale)
    except ValueError as e:
        raise UsageError(f"--bc-data: {e}") from None
    if args.distill_cards_only:
        values = data.get("values")  # absent only in shards of older versions
        searched = searched_rows(values) if values is not None else None
        if searched is None or not searched.any():
            raise UsageError("--distill-cards-only: the --bc-data decisions hold no card values "
                             "(record a search teacher, e.g. --teacher pimc)")  # fmt: skip
        data = {k: v[searched] for k, v in data.items() if hasattr(v, "shape")}
    loss = DistillationLoss(data, args.distill_coef, temperature=args.distill_temperature,
                            seed=args.seed)  # fmt: skip
    loss.attach(model)
    targets = (
        "targets: the teacher's moves"
        if args.distill_temperature == 0
        else f"{loss.soft:,} with the teacher's card values"
    )
    only = " (card play only)" if args.distill_cards_only else ""
    write(
        f"distillation loss x {args.distill_coef:g} during PPO: {len(data['move']):,} recorded "
        f"decisions{only}, {targets}"
    )


def net_arch(args: Args) -> list[int]:
    try:
        sizes = [int(x) for x in args.net_arch.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) <= 0:
        raise UsageError(f"--net-arch must be positive sizes like 256,256, got {args.net_arch!r}")
    return sizes


def prepare_run(args: Args, given: set[str]) -> tuple[Args, Path]:
    """Create runs/<name>/ (or, on --resume, load its settings, overridden by the flags
    given now)."""
    run_dir = RUNS / args.name
    config = run_dir / "config.json"
    if args.resume:
        if not latest_checkpoint(run_dir):
            raise UsageError(f"--resume: no checkpoint in {run_dir}/checkpoints/")
        saved = json.loads(config.read_text())
        known = {f.name for f in dataclasses.fields(Args)}
        args = Args(
            **{
                **{k: v for k, v in saved.items() if k in known},
                **{k: getattr(args, k) for k in given},
                "resume": True,
            }
        )
    elif config.exists() and not args.force:
        raise UsageError(
            f"{run_dir} exists: pass --resume to continue it, --force to "
            "overwrite it, or another --name"
        )
    elif run_dir.exists():
        shutil.rmtree(run_dir)
    if not args.n_envs:
        args.n_envs = 256 if args.env == "vector" else 8
    if not args.n_steps:
        args.n_steps = max(1, 8192 // args.n_envs)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(dataclasses.asdict(args), indent=1))
    return args, run_dir


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The checkpoint with the most steps (``checkpoints/ppo_<steps>_steps.zip``)."""
    found = sorted(
        (int(p.stem.split("_")[1]), p) for p in run_dir.glob("checkpoints/ppo_*_steps.zip")
    )
    return found[-1][1] if found else None


def save_checkpoint(model: Any, run_dir: Path) -> Path:
    from skat_env.integrations.callbacks import save_atomic

    path = run_dir / "checkpoints" / f"ppo_{model.num_timesteps}_steps.zip"
    save_atomic(model, path)
    return path


def make_model(args: Args, venv: Any, run_dir: Path) -> Any:
    from sb3_contrib import MaskablePPO

    if args.resume:
        model = MaskablePPO.load(latest_checkpoint(run_dir), env=venv, device="cpu")
        model.set_random_seed(args.seed + model.num_timesteps)
        return model
    rollout = args.n_envs * args.n_steps
    n_steps = min(args.n_steps, math.ceil(args.timesteps / args.n_envs))  # no rollout past it
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=args.learning_rate,
        n_steps=n_steps,
        batch_size=min(args.batch_size, rollout, n_steps * args.n_envs),
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"net_arch": net_arch(args)},
        stats_window_size=1000,  # rollout/ep_rew_mean over the last 1,000 games
        verbose=0,
    )
    if args.init_model:
        init_weights(model, Path(args.init_model))
    return model


def init_weights(model: Any, path: Path) -> None:
    """Copy a saved MaskablePPO's policy and value weights into ``model`` (``--init-model``:
    continue from a trained model with fresh optimiser, settings and opponents)."""
    import zipfile

    from sb3_contrib import MaskablePPO

    from skat_env.integrations.callbacks import write

    try:
        source = MaskablePPO.load(path, device="cpu")
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise UsageError(f"--init-model: cannot load {path} as a MaskablePPO model: {e}") from None
    theirs, ours = source.policy.state_dict(), model.policy.state_dict()
    shapes = {k: tuple(v.shape) for k, v in theirs.items()}
    if source.observation_space != model.observation_space or shapes != {
        k: tuple(v.shape) for k, v in ours.items()
    }:
        raise UsageError(
            f"--init-model: {path} does not fit this run (observations "
            f"{source.observation_space.shape} vs {model.observation_space.shape}, or another "
            "network: give its --net-arch)"
        )
    model.policy.load_state_dict(theirs)
    write(f"warm start: the weights of {path} (no cloning)")


def warm_start(model: Any, args: Args, run_dir: Path, t0: float) -> None:
    """Behaviour cloning of the heuristic; never sees more decisions than PPO will train on
    (about 33 per game) and takes at most 40% of --max-minutes."""
    from skat_env.integrations.callbacks import save_atomic, write
    from skat_env.integrations.cloning import behaviour_clone, teacher_decisions

    budget = 60 * args.max_minutes
    games = min(args.bc_games, max(1, args.timesteps // 33))
    if args.bc_data:
        from skat_env.integrations.distill import load_shards

        try:
            data = load_shards(Path(args.bc_data), args.reward_mode, args.reward_scale)
        except ValueError as e:
            raise UsageError(f"--bc-data: {e}") from None
    elif args.bc_iss:
        from skat_env.integrations.iss_data import iss_decisions

        try:
            data, iss = iss_decisions(args.bc_iss, games, args.reward_mode, args.reward_scale,
                                      args.bc_iss_min_rating, progress=args.progress)  # fmt: skip
        except (OSError, EOFError) as e:
            raise UsageError(f"--bc-iss: {e}") from None
        write(f"behaviour cloning: {iss.summary()}")
    else:
        if games < args.bc_games:
            write(f"behaviour cloning: {games:,} games (capped: --timesteps {args.timesteps:,})")
        data = teacher_decisions(
            training_agent("heuristic", args.seed, "teacher"),
            games,
            args.seed,
            args.reward_mode,
            args.reward_scale,
            progress=args.progress,
            deadline=t0 + 0.15 * budget if budget else None,
        )
    if not data["games"]:
        write("behaviour cloning: no heuristic game finished within the budget; PPO from scratch")
        return
    stats = behaviour_clone(
        model,
        data,
        args.bc_epochs,
        args.bc_learning_rate,
        args.bc_batch_size,
        seed=args.seed,
        progress=args.progress,
        deadline=t0 + 0.4 * budget if budget else None,
    )
    stats.update(games=int(data["games"]), seconds=round(time.monotonic() - t0, 1))
    (run_dir / "bc.json").write_text(json.dumps(stats, indent=1))
    save_atomic(model, run_dir / "bc_model.zip")  # the cloned policy, before any PPO
    write(
        f"behaviour cloning: {stats['decisions']:,} decisions of {stats['games']:,} "
        f"{'recorded' if args.bc_data else 'human' if args.bc_iss else 'heuristic'} "
        f"games, {stats['epochs']:.1f} epochs: held-out agreement {stats['accuracy']:.1%} "
        f"(chance {stats['chance']:.1%}), value loss {stats['value_loss']:.3f}, "
        f"{stats['seconds']:.0f} s"
    )


def train(args: Args, given: set[str] = frozenset()) -> dict:
    """Run (or resume) a training run; return the final evaluation rows and paths."""
    t0 = time.monotonic()
    validate(args)
    args, run_dir = prepare_run(args, given)
    weights = validate(args)  # the resumed run's settings
    import torch
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback, EveryNTimesteps

    from skat_env.cli.train_eval import DuplicateEvalCallback
    from skat_env.integrations import callbacks as cbs
    from skat_env.integrations.opponents import SelfPlaySlots, make_vec_env

    torch.set_num_threads(1)

    # --- env and model -------------------------------------------------------------------------
    if "opponents" in given and args.league:
        raise UsageError("--opponents and --league exclude each other (the league's members "
                         "are its opponents)")  # fmt: skip
    slots = SelfPlaySlots(args.snapshot_pool)
    env_kwargs = {
        "seat": None if args.seat < 0 else args.seat,
        "reward_mode": args.reward_mode,
        "reward_scale": args.reward_scale,
    }
    league = make_league(args) if args.league else None
    if league is None:
        policies = opponent_policies(weights, args.seed)
        venv = make_vec_env(
            args.env, args.n_envs, weights, policies, slots, args.seed, **env_kwargs
        )
    else:
        from skat_env.integrations.training_league import league_vec_env

        venv = league_vec_env(league.league, args.n_envs, args.seed, **env_kwargs)
    model = make_model(args, venv, run_dir)
    model.set_logger(cbs.make_logger(run_dir, args.tensorboard))
    if args.distill_coef:
        attach_distillation(model, args)
    start = model.num_timesteps
    evaluator = DuplicateEvalCallback(
        run_dir,
        args.eval_deals,
        args.seed + 1,
        args.reward_scale,
        opponents=eval_panel(args),
        workers=args.eval_workers,
        write=cbs.write,
    )
    try:
        # --- warm start: imitate the heuristic ---------------------------------------------------
        clone = (args.bc_games or args.bc_data) and not args.init_model
        if start == 0 and clone and not (run_dir / "bc.json").exists():
            warm_start(model, args, run_dir, t0)
        slots.fill(model.policy)  # self-play needs an opponent from the first game
        if league is not None:
            league.start(model, venv)  # the first snapshot (the clone, or the resumed model)
        if start == 0 and not args.resume:
            rows = evaluator.evaluate(model)  # step 0 of the learning curve: the cloned policy
            if league is not None:
                league.offer_best(model, rows)
                cbs.write(league.league.summary())

        # --- PPO against the pool --------------------------------------------------------------
        rollout = model.n_steps * model.n_envs
        target = start + max(1, math.ceil((args.timesteps - start) / rollout)) * rollout
        if start < args.timesteps:
            mix = ", ".join(f"{k}:{v:.2f}" for k, v in weights.items())
            if league is not None:
                mix = f"league {', '.join(league.league.names)} ({args.league_prioritise})"
            cbs.write(
                f"PPO on {run_dir} from {start:,} to {target:,} steps ({args.env} env, "
                f"rollouts of {rollout:,}); opponents {mix}"
            )
            deadline = t0 + 60 * args.max_minutes if args.max_minutes else None
            periodic = [
                EveryNTimesteps(args.snapshot_every, cbs.SnapshotCallback(slots))
                if league is None
                else league,  # the league freezes its own snapshots
                CheckpointCallback(
                    max(1, args.checkpoint_every // model.n_envs),
                    str(run_dir / "checkpoints"),
                    name_prefix="ppo",
                ),
            ]
            if args.eval_every:
                evaluator.until = target
                then = evaluator
                if league is not None:
                    then = CallbackList(
                        [evaluator, cbs.AfterEvalCallback(evaluator, league, cbs.write)]
                    )
                periodic.append(EveryNTimesteps(args.eval_every, then))
            for cb in periodic:
                if isinstance(cb, EveryNTimesteps):
                    cb.last_time_trigger = start
            callbacks = CallbackList(
                [
                    *periodic,
                    cbs.DeadlineCallback(deadline, cbs.write),
                    cbs.ProgressCallback(start, target, args.progress),
                ]
            )
            model.learn(target - start, callback=callbacks, reset_num_timesteps=False)
            model.logger.record("time/total_timesteps", model.num_timesteps)
            model.logger.dump(model.num_timesteps)  # the last update's statistics
        else:
            cbs.write(f"{run_dir} is already at {start:,} steps (--timesteps {args.timesteps:,})")
    except KeyboardInterrupt:
        save_checkpoint(model, run_dir)
        cbs.write(f"interrupted at {model.num_timesteps:,} steps; checkpoint saved")
        raise
    finally:
        venv.close()

    # --- save and evaluate ---------------------------------------------------------------------
    save_checkpoint(model, run_dir)
    cbs.save_atomic(model, run_dir / "final_model.zip")
    evaluator.deals = args.final_eval_deals
    rows = evaluator.evaluate(model, progress=args.progress)
    return {
        "run_dir": str(run_dir),
        "final_model": str(run_dir / "final_model.zip"),
        "learning_curve": str(run_dir / "learning_curve.png"),
        "eval": rows,
        "minutes": round((time.monotonic() - t0) / 60, 2),
    }


def main(argv: list[str] | None = None, prog: str = "skat-train") -> int:
    """Run ``skat-train`` (``prog`` names the command in messages: ``train.py`` for the script)."""
    command = "python train.py" if prog == "train.py" else prog
    args, given = parse_dataclass(Args, argv, prog, __doc__.splitlines()[0])
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)
    try:
        out = train(args, given)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        hint = ""
        if latest_checkpoint(RUNS / args.name):
            hint = f"; continue with: {command} --name {args.name} --resume"
        print(f"{prog}: interrupted{hint}", file=sys.stderr)
        return 130
    print(
        f"final model: {out['final_model']}\nlearning curve: {out['learning_curve']}\n"
        f"{out['minutes']:.1f} minutes"
    )
    return 0


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM (a killed background run) stops like Ctrl-C: the checkpoint is saved first."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
