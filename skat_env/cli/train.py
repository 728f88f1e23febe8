"""Train a Skat agent with MaskablePPO: a warm start (by default the bundled model's weights;
or behaviour cloning of any agent, recorded decisions or human games), then PPO against
opponents (a fixed mix, or a pool whose mix follows the learner's results), with
duplicate-deal evaluations along the way.

    skat-train                        # the default run: <= 15 minutes on two CPU cores
    skat-train --name long --timesteps 20000000 --max-minutes 120
    skat-train --name long --resume --timesteps 40000000
    skat-train --name warm --init model:models/ppo_skat.zip --opponents pool:heuristic,self,best

(``python train.py ...`` in a checkout is the same command.) Everything of a run is written to
``runs/<name>/`` (listed by ``--help``). The pieces live in :mod:`skat_env.training`; the
evaluations in :mod:`skat_env.cli.train_eval`.
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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per process beats two on small CPUs

from skat_env.agents.registry import AgentSpecError, check_spec  # noqa: E402
from skat_env.cli.options import (  # noqa: E402 (after the thread setting)
    MAX_SEED,
    UsageError,
    opponent_policies,
    parse_dataclass,
    parse_opponents,
    pool_members,
    spec_list,
    training_agent,
)
from skat_env.core.rewards import REWARD_MODES  # noqa: E402
from skat_env.training.pool import PRIORITIES  # noqa: E402

DESCRIPTION = """\
Train a Skat agent with MaskablePPO: a warm start (by default the bundled model's weights),
then PPO against opponents until --timesteps or --max-minutes, whichever comes first, then a
final evaluation against each --eval-panel opponent on duplicate deals."""

EPILOG = """\
results (runs/<name>/):
  final_model.zip         the trained model (an agent: ppo:runs/<name>/final_model.zip)
  learning_curve.png      learner minus each evaluation opponent over training
  evals.csv, evals.json   every evaluation; progress.csv and tb/: PPO statistics per rollout
  config.json             every setting (what --resume reloads); checkpoints/: ppo_<steps>_steps.zip
  bc.json, bc_model.zip   the cloning's statistics and the cloned policy; pool.json: the pool

examples:
  %(prog)s                                  the default run (<= 15 minutes)
  %(prog)s --name long --timesteps 20000000 --max-minutes 120
  %(prog)s --name long --resume --timesteps 40000000
  %(prog)s --name warm --init model:models/ppo_skat.zip \\
      --opponents pool:heuristic,heuristic:margin=-1,heuristic:margin=1,self,best"""

# Fixed settings (the same in every run; measured or definitional, not worth a flag)
GAMMA = 1.0  # one game is one short episode with a final reward
GAE_LAMBDA, VF_COEF, MAX_GRAD_NORM = 0.95, 0.5, 0.5
REWARD_SCALE = 0.01  # game values are in the hundreds; returns of a few units
CLONE_LEARNING_RATE, CLONE_BATCH_SIZE = 1e-3, 1024
POOL = "pool:"  # --opponents pool:MEMBER,... : an opponent pool instead of a fixed mix

RUN, BUDGET, WARM, OPP, PPO, EVAL, OUT = (
    "run",
    "budget (whichever ends first stops PPO)",
    "warm start",
    "opponents",
    "PPO",
    "evaluation",
    "output",
)


def _f(default: Any, group: str, help: str, choices: tuple | None = None,
       metavar: str | None = None) -> Any:  # fmt: skip
    meta = {"help": help, "group": group, "choices": choices, "metavar": metavar}
    return field(default=default, metadata=meta)


@dataclass
class Args:
    """Every setting of a run (saved as runs/<name>/config.json)."""

    name: str = _f("default", RUN, "run name: everything goes to runs/<name>/")
    env: str = _f("vector", RUN, "vector: many games per step, batched opponents; single: one "
                  "game per env", ("vector", "single"))  # fmt: skip
    seed: int = _f(0, RUN, "seed of the model, the envs and the evaluations")
    reward_mode: str = _f("seeger_fabian", RUN, "the learner's reward", tuple(REWARD_MODES))
    resume: bool = _f(False, RUN, "continue runs/<name>/ from its latest checkpoint")
    force: bool = _f(False, RUN, "overwrite an existing run of the same name")
    timesteps: int = _f(5_000_000, BUDGET, "learner decisions of PPO (rounded up to whole "
                        "rollouts)")  # fmt: skip
    max_minutes: float = _f(14.0, BUDGET, "wall-clock budget of the whole run, warm start "
                            "included (0: none)")  # fmt: skip
    init: str = _f(
        "model:bundled",
        WARM,
        "where the policy starts: model:bundled (the bundled model's policy and value "
        "weights), model:PATH (those of a saved MaskablePPO .zip or an exported .npz with the "
        "same --net-arch), an agent spec (clone its games: heuristic, learned, ppo, ...), "
        "none (PPO from scratch), data:DIR (clone recorded decisions: python -m "
        "skat_env.cli.distill --out DIR), iss:FILE (clone human games of an ISS archive)",
        metavar="SOURCE",
    )
    clone_games: int = _f(12_000, WARM, "games to clone (a spec, iss:); at most --timesteps/33")
    clone_epochs: int = _f(5, WARM, "behaviour-cloning passes over the decisions")
    iss_min_rating: float = _f(0.0, WARM, "iss: clone only seats rated at least this")
    opponents: str = _f(
        "heuristic:0.4,[heuristic:margin=-2]:0.1,[heuristic:margin=2]:0.1,learned:0.1,self:0.3",
        OPP,
        "a fixed mix spec:weight,... (random, heuristic, self: frozen copies of the learner, or "
        "any agent spec such as ppo:models/x.zip; a spec with commas in brackets: "
        "[pimc:fast,worlds=2]:0.2; weights are normalised), or a pool "
        "pool:member,... (agent specs, self, best: the best model by the evaluations) whose mix "
        "follows the learner's results (--env vector)",
        metavar="MIX|pool:MEMBERS",
    )
    pool_priority: str = _f("hard", OPP, "pool weight by the learner's win rate x against a "
                            "member: hard (1-x)^2, even x(1-x), uniform",
                            tuple(PRIORITIES))  # fmt: skip
    snapshot_every: int = _f(200_000, OPP, "freeze a copy of the learner (self) every N steps")
    snapshot_pool: int = _f(5, OPP, "self plays the last N snapshots")
    n_envs: int = _f(0, PPO, "games stepped together (0: 256 for --env vector, 8 for single)")
    learning_rate: float = _f(0.0, PPO, "Adam learning rate (0: by --init, 1e-4 from a trained "
                              "model, model:..., else 3e-4)")  # fmt: skip
    n_steps: int = _f(0, PPO, "steps per env per rollout (0: a rollout of 8,192 steps)")
    batch_size: int = _f(2048, PPO, "minibatch size")
    n_epochs: int = _f(4, PPO, "epochs per rollout")
    clip_range: float = _f(0.1, PPO, "clip range")
    ent_coef: float = _f(0.001, PPO, "entropy bonus")
    net_arch: str = _f("256,256", PPO, "hidden layer sizes of the policy and value networks")
    eval_panel: str = _f("", EVAL, "opponents spec,... (empty: random,heuristic; with a pool "
                         "heuristic,heuristic:margin=0.5,ppo)", metavar="SPECS")  # fmt: skip
    eval_every: int = _f(250_000, EVAL, "evaluate every N steps (0: at the start and end only)")
    eval_deals: int = _f(300, EVAL, "duplicate deals per evaluation (each in 3 seatings)")
    final_eval_deals: int = _f(1000, EVAL, "duplicate deals of the final evaluation")
    eval_workers: int = _f(1, EVAL, "processes for the evaluations")
    checkpoint_every: int = _f(500_000, OUT, "save runs/<name>/checkpoints/ every N steps")
    average_last: int = _f(6, OUT, "final_model.zip holds the mean weights of the last N "
                           "checkpoints, the last included (1: the last weights)")  # fmt: skip
    progress: bool = _f(True, OUT, "show progress bars")
    tensorboard: bool = _f(True, OUT, "also log to runs/<name>/tb (tensorboard --logdir runs)")


RUNS = Path("runs")


class Init(NamedTuple):
    """The warm start of ``--init``: its kind, for data/iss/model the path, for a teacher
    (kind ``agent``) its spec."""

    kind: str
    path: Path = Path()  # data, iss and model only
    teacher: str = ""  # agent only


INIT_KINDS = {"none": False, "data": True, "iss": True, "model": True}


def parse_init(text: str) -> Init:
    """``--init`` checked in one place: a kind of :data:`INIT_KINDS`, with ``:PATH`` where the
    kind needs one (an existing folder of shards, ISS file or model file), or an agent spec
    whose games are cloned."""
    kind, sep, path = text.partition(":")
    usage = "--init must be an agent spec (heuristic, ppo, ...), none, data:, iss: or model:PATH"
    if kind not in INIT_KINDS:
        try:
            check_spec(text)
        except AgentSpecError as e:
            raise UsageError(f"{usage}, got {text!r}: {e}") from None
        return Init("agent", teacher=text)
    if INIT_KINDS[kind] != bool(sep) or (sep and not path):
        raise UsageError(f"{usage}, got {text!r}")
    if not sep:
        return Init(kind)
    where = Path(path)
    if kind == "model" and path == "bundled":
        from skat_env.agents.ppo import BUNDLED_MODEL

        where = BUNDLED_MODEL
    if kind == "data" and not any(where.glob("shard_*.npz")):
        raise UsageError(f"--init data: no shard_*.npz files in {path}")
    if kind != "data" and not where.is_file():
        raise UsageError(f"--init {kind}: no such file {path!r}")
    return Init(kind, where)


def validate(args: Args) -> dict[str, float] | list[str]:
    """Check the settings; return the opponents: normalised weights of a fixed mix, or the
    member specs of a pool."""
    positive = ("timesteps", "eval_deals", "final_eval_deals", "eval_workers", "batch_size",
                "n_epochs", "snapshot_every", "snapshot_pool", "checkpoint_every", "average_last",
                "clone_games", "clone_epochs")  # fmt: skip
    for name in positive:
        if getattr(args, name) <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive")
    for name in ("n_envs", "n_steps", "eval_every"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 0")
    init = parse_init(args.init)
    checks = {
        "--learning-rate must be in [0, 1) (0: by --init)": 0 <= args.learning_rate < 1,
        "--clip-range must be in (0, 1)": 0 < args.clip_range < 1,
        "--ent-coef must be >= 0": 0 <= args.ent_coef < math.inf,
        "--max-minutes must be >= 0": 0 <= args.max_minutes < math.inf,
        f"--seed must be an integer in 0..{MAX_SEED}": 0 <= args.seed <= MAX_SEED,
        "--iss-min-rating must be >= 0": 0 <= args.iss_min_rating < math.inf,
        "--iss-min-rating needs --init iss:FILE": init.kind == "iss" or not args.iss_min_rating,
        f"--name must be a plain directory name, got {args.name!r}": bool(args.name)
        and "/" not in args.name
        and not args.name.startswith("."),
    }
    for message, ok in checks.items():
        if not ok:
            raise UsageError(message)
    net_arch(args)
    eval_panel(args)
    if not args.opponents.startswith(POOL):
        return parse_opponents(args.opponents)
    if args.env != "vector":
        raise UsageError("--opponents pool: needs --env vector (the env that reports each "
                         "game's opponent and outcome)")  # fmt: skip
    return pool_members(args.opponents.removeprefix(POOL))


def eval_panel(args: Args) -> tuple[str, ...]:
    """The evaluation opponents (checked: :class:`UsageError` for a bad spec)."""
    pool = args.opponents.startswith(POOL)
    default = "heuristic,heuristic:margin=0.5,ppo" if pool else "random,heuristic"
    specs = spec_list(args.eval_panel or default)
    if not specs or len(set(specs)) < len(specs):
        raise UsageError(f"--eval-panel needs distinct agent specs, got {args.eval_panel!r}")
    for spec in specs:
        training_agent(spec, role="evaluation opponent")
    return tuple(specs)


def make_pool(args: Args, members: list[str]) -> Any:
    """The opponent pool of ``--opponents pool:...`` and the callback that runs it (writes
    ``pool.json``)."""
    from skat_env.training.callbacks import PoolCallback
    from skat_env.training.pool import BEST, SNAPSHOT, OpponentPool

    fixed = {
        s: "random" if s == "random" else training_agent(s, args.seed)
        for s in members
        if s not in (SNAPSHOT, BEST)
    }
    snapshots = args.snapshot_pool if SNAPSHOT in members else 0
    pool = OpponentPool(fixed, snapshots, BEST in members, args.pool_priority)
    return PoolCallback(pool, args.snapshot_every, RUNS / args.name / "pool.json")


def net_arch(args: Args) -> list[int]:
    try:
        sizes = [int(x) for x in args.net_arch.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) <= 0:
        raise UsageError(f"--net-arch must be positive sizes like 256,256, got {args.net_arch!r}")
    return sizes


def prepare_run(args: Args, given: AbstractSet[str]) -> tuple[Args, Path]:
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
    if not args.learning_rate:
        args.learning_rate = 1e-4 if parse_init(args.init).kind == "model" else 3e-4
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(dataclasses.asdict(args), indent=1))
    return args, run_dir


def checkpoints(run_dir: Path) -> list[tuple[int, Path]]:
    """The run's checkpoints (``checkpoints/ppo_<steps>_steps.zip``) as (steps, path), fewest
    steps first."""
    return sorted(
        (int(p.stem.split("_")[1]), p) for p in run_dir.glob("checkpoints/ppo_*_steps.zip")
    )


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The checkpoint with the most steps."""
    found = checkpoints(run_dir)
    return found[-1][1] if found else None


def save_checkpoint(model: Any, run_dir: Path) -> Path:
    from skat_env.training.callbacks import save_atomic

    path = run_dir / "checkpoints" / f"ppo_{model.num_timesteps}_steps.zip"
    save_atomic(model, path)
    return path


def make_model(args: Args, venv: Any, run_dir: Path) -> Any:
    from sb3_contrib import MaskablePPO

    checkpoint = latest_checkpoint(run_dir)
    if args.resume and checkpoint is not None:  # prepare_run checked that there is one
        model = MaskablePPO.load(checkpoint, env=venv, device="cpu")
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
        gamma=GAMMA,
        gae_lambda=GAE_LAMBDA,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=VF_COEF,
        max_grad_norm=MAX_GRAD_NORM,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"net_arch": net_arch(args)},
        stats_window_size=1000,  # rollout/ep_rew_mean over the last 1,000 games
        verbose=0,
    )
    init = parse_init(args.init)
    if init.kind == "model":
        init_weights(model, init.path)
    return model


def init_weights(model: Any, path: Path) -> None:
    """Copy saved policy and value weights into ``model`` (``--init model:PATH``: continue
    from a trained model with a fresh optimiser, settings and opponents): a MaskablePPO
    ``.zip``, or NumPy weights with the value network (:func:`~skat_env.integrations.
    numpy_policy.export`; the bundled model)."""
    import zipfile

    from skat_env.training.callbacks import write

    try:
        theirs = _npz_state(model, path) if path.suffix == ".npz" else _zip_state(model, path)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise UsageError(f"--init model: cannot load {path} as a model: {e}") from None
    ours = model.policy.state_dict()
    if {k: tuple(v.shape) for k, v in theirs.items()} != {
        k: tuple(v.shape) for k, v in ours.items()
    }:
        raise UsageError(
            f"--init model: {path} does not fit this run (its observations or network differ: "
            "give its --net-arch, or start from --init heuristic)"
        )
    model.policy.load_state_dict(theirs)
    write(f"warm start: the weights of {path} (no cloning)")


def _zip_state(model: Any, path: Path) -> dict:
    """The policy's state dict of a saved MaskablePPO (an empty dict when its observations
    differ from the run's, which fails the shape check)."""
    from sb3_contrib import MaskablePPO

    source = MaskablePPO.load(path, device="cpu")
    return source.policy.state_dict() if source.observation_space == model.observation_space else {}


def _npz_state(model: Any, path: Path) -> dict:
    """``model``'s state dict filled from NumPy policy and value layers."""
    import torch

    from skat_env.integrations.numpy_policy import NumpyPolicy, linear_modules, load_value_layers

    value = load_value_layers(path)
    if value is None:
        raise ValueError("it holds no value network (export it with numpy_policy.export)")
    policy = [(w.T, b) for w, b in NumpyPolicy.load(path).layers]  # back to (out, in)
    names = {id(m): n for n, m in model.policy.named_modules()}
    state = dict(model.policy.state_dict())
    for net, layers in (("policy", policy), ("value", value)):
        modules = linear_modules(model.policy, net)
        if len(layers) != len(modules):
            return {}  # another network: the shape check refuses it
        for m, (w, b) in zip(modules, layers, strict=True):
            state[f"{names[id(m)]}.weight"] = torch.as_tensor(w, dtype=torch.float32)
            state[f"{names[id(m)]}.bias"] = torch.as_tensor(b, dtype=torch.float32)
    return state


def clone_data(args: Args, init: Init, games: int, deadline: float | None) -> tuple[dict, str]:
    """The decisions to clone for ``--init`` and what they are (for the summary line)."""
    from skat_env.training.callbacks import write

    if init.kind == "data":
        from skat_env.training.distill import load_shards

        try:
            return load_shards(init.path, args.reward_mode, REWARD_SCALE), "recorded"
        except ValueError as e:
            raise UsageError(f"--init data: {e}") from None
    if init.kind == "iss":
        from skat_env.training.iss_data import iss_decisions

        try:
            data, iss = iss_decisions(init.path, games, args.reward_mode, REWARD_SCALE,
                                      args.iss_min_rating, progress=args.progress)  # fmt: skip
        except (OSError, EOFError) as e:
            raise UsageError(f"--init iss: {e}") from None
        write(f"behaviour cloning: {iss.summary()}")
        return data, "human"
    from skat_env.training.cloning import teacher_decisions

    if games < args.clone_games:
        write(f"behaviour cloning: {games:,} games (capped: --timesteps {args.timesteps:,})")
    teacher = training_agent(init.teacher, args.seed, "teacher")
    data = teacher_decisions(teacher, games, args.seed, args.reward_mode, REWARD_SCALE,
                             progress=args.progress, deadline=deadline)  # fmt: skip
    return data, init.teacher


def warm_start(model: Any, args: Args, run_dir: Path, t0: float) -> None:
    """Behaviour cloning for ``--init`` SPEC, data: or iss:; never sees more games than PPO
    will train on (about 33 decisions per game); generating the teacher's games takes at
    most 15% of --max-minutes, the cloning at most 40%."""
    from skat_env.training.callbacks import save_atomic, write
    from skat_env.training.cloning import behaviour_clone

    budget = 60 * args.max_minutes
    games = min(args.clone_games, max(1, args.timesteps // 33))
    data, source = clone_data(args, parse_init(args.init), games,
                              t0 + 0.15 * budget if budget else None)  # fmt: skip
    if not data["games"]:
        write(f"behaviour cloning: no {source} game finished within the budget; PPO from scratch")
        return
    stats = behaviour_clone(
        model,
        data,
        args.clone_epochs,
        CLONE_LEARNING_RATE,
        CLONE_BATCH_SIZE,
        seed=args.seed,
        progress=args.progress,
        deadline=t0 + 0.4 * budget if budget else None,
    )
    stats.update(games=int(data["games"]), seconds=round(time.monotonic() - t0, 1))
    (run_dir / "bc.json").write_text(json.dumps(stats, indent=1))
    save_atomic(model, run_dir / "bc_model.zip")  # the cloned policy, before any PPO
    write(
        f"behaviour cloning: {stats['decisions']:,} decisions of {stats['games']:,} {source} "
        f"games, {stats['epochs']:.1f} epochs: held-out agreement {stats['accuracy']:.1%} "
        f"(chance {stats['chance']:.1%}), value loss {stats['value_loss']:.3f}, "
        f"{stats['seconds']:.0f} s"
    )


def make_env(args: Args, opponents: dict[str, float] | list[str], slots: Any) -> tuple[Any, Any]:
    """The training ``VecEnv`` and, for an opponent pool, the callback that runs the pool."""
    from skat_env.training.opponents import make_vec_env
    from skat_env.training.pool import pool_vec_env

    env_kwargs = {"seat": None, "reward_mode": args.reward_mode, "reward_scale": REWARD_SCALE}
    if isinstance(opponents, dict):
        policies = opponent_policies(opponents, args.seed)
        venv = make_vec_env(args.env, args.n_envs, opponents, policies, slots, args.seed,
                            **env_kwargs)  # fmt: skip
        return venv, None
    pool = make_pool(args, opponents)
    return pool_vec_env(pool.pool, args.n_envs, args.seed, **env_kwargs), pool


def train(args: Args, given: AbstractSet[str] = frozenset()) -> dict:
    """Run (or resume) a training run; return the final evaluation rows and paths."""
    t0 = time.monotonic()
    validate(args)
    args, run_dir = prepare_run(args, given)
    opponents = validate(args)  # the resumed run's settings
    import torch
    from stable_baselines3.common.callbacks import (
        BaseCallback,
        CallbackList,
        CheckpointCallback,
        EveryNTimesteps,
    )

    from skat_env.cli.train_eval import DuplicateEvalCallback
    from skat_env.training import callbacks as cbs
    from skat_env.training.opponents import SelfPlaySlots

    torch.set_num_threads(1)

    # --- env and model -------------------------------------------------------------------------
    slots = SelfPlaySlots(args.snapshot_pool)
    try:
        venv, pool = make_env(args, opponents, slots)
        model = make_model(args, venv, run_dir)
    except UsageError:
        if not args.resume:  # a refused warm start leaves no run behind to --force later
            shutil.rmtree(run_dir, ignore_errors=True)
        raise
    model.set_logger(cbs.make_logger(run_dir, args.tensorboard))
    start = model.num_timesteps
    evaluator = DuplicateEvalCallback(
        run_dir,
        args.eval_deals,
        args.seed + 1,
        REWARD_SCALE,
        opponents=eval_panel(args),
        workers=args.eval_workers,
        write=cbs.write,
    )
    try:
        # --- warm start ------------------------------------------------------------------------
        clone = parse_init(args.init).kind in ("agent", "data", "iss")
        if start == 0 and clone and not (run_dir / "bc.json").exists():
            warm_start(model, args, run_dir, t0)
        slots.fill(model.policy)  # self-play needs an opponent from the first game
        if pool is not None:
            pool.start(model, venv)  # the first snapshot (the clone, or the resumed model)
        if start == 0 and not args.resume:
            rows = evaluator.evaluate(model)  # step 0 of the learning curve: the warm start
            if pool is not None:
                pool.offer_best(model, rows)
                cbs.write(pool.pool.summary())

        # --- PPO against the opponents ---------------------------------------------------------
        rollout = model.n_steps * model.n_envs
        target = start + max(1, math.ceil((args.timesteps - start) / rollout)) * rollout
        if start < args.timesteps:
            mix = (
                ", ".join(f"{k}:{v:.2f}" for k, v in opponents.items())
                if isinstance(opponents, dict)
                else f"pool {', '.join(pool.pool.names)} ({args.pool_priority})"
            )
            deadline = t0 + 60 * args.max_minutes if args.max_minutes else None
            budget = ""
            if deadline:
                budget = f" or --max-minutes {args.max_minutes:g}, whichever comes first"
            cbs.write(
                f"PPO on {run_dir} from {start:,} to {target:,} steps{budget} ({args.env} env, "
                f"rollouts of {rollout:,}); opponents {mix}"
            )
            periodic = [
                EveryNTimesteps(args.snapshot_every, cbs.SnapshotCallback(slots))
                if pool is None
                else pool,  # the pool freezes its own snapshots
                CheckpointCallback(
                    max(1, args.checkpoint_every // model.n_envs),
                    str(run_dir / "checkpoints"),
                    name_prefix="ppo",
                ),
            ]
            if args.eval_every:
                evaluator.until = target
                then: BaseCallback = evaluator
                if pool is not None:
                    then = CallbackList(
                        [evaluator, cbs.AfterEvalCallback(evaluator, pool, cbs.write)]
                    )
                periodic.append(EveryNTimesteps(args.eval_every, then))
            for cb in periodic:
                if isinstance(cb, EveryNTimesteps):
                    cb.last_time_trigger = start
            callbacks = CallbackList(
                [
                    *periodic,
                    cbs.DeadlineCallback(deadline, cbs.write),
                    cbs.ProgressCallback(start, target, args.progress, deadline),
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
    tail = checkpoints(run_dir)[-args.average_last :]
    if len(tail) > 1:
        cbs.average_checkpoints(model, [p for _, p in tail])
        cbs.write(
            f"final model: the mean weights of the {len(tail)} checkpoints from "
            f"{tail[0][0]:,} to {tail[-1][0]:,} steps"
        )
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
    try:
        args, given = parse_dataclass(Args, argv, prog, DESCRIPTION, EPILOG)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
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
        f"everything of the run: {out['run_dir']}/\n{out['minutes']:.1f} minutes"
    )
    return 0


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM (a killed background run) stops like Ctrl-C: the checkpoint is saved first."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
