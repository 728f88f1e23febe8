"""Train a Skat agent with MaskablePPO against a pool of opponents, with self-play.

    python train.py               # ~9 minutes on two CPU cores: clone the heuristic, then PPO
    python train.py --timesteps 3000000 --n-envs 4 --name long
    python train.py --name long --resume --timesteps 6000000
    python train.py --name plain --bc-games 0          # PPO from scratch (learns to pass)
    python train.py --help

The learner plays one seat of :class:`skat_env.envs.single_agent.SkatSingleAgentEnv` (a random seat
each game); the two other seats are drawn per game from the opponent pool (``--opponents``):
``random``, ``heuristic``, any agent spec of :mod:`agents.registry` (``ppo:path.zip``), and
``self``: a frozen snapshot of the learner, one of the last ``--snapshot-pool`` taken every
``--snapshot-every`` steps. ``--bc-games N`` (default 8000) first behaviour-clones the
``heuristic`` agent (:func:`behaviour_clone`), so PPO starts from a player that bids and
declares; PPO then fine-tunes with a small learning rate and clip range so as not to undo it.
From scratch (``--bc-games 0``) PPO's first lesson is that its near-random bids lose, and it
settles on passing every auction. Rewards are the
learner seat's game score under ``--reward-mode`` times ``--reward-scale`` (game values are in
the hundreds; 0.01 brings them to a few units).

Everything of a run lives in ``runs/<name>/``: ``config.json``, ``progress.csv`` (PPO
statistics), ``evals.csv`` / ``evals.json`` (evaluation history), ``learning_curve.png``,
``checkpoints/latest.zip``, ``snapshots/``, ``final_model.zip``. The periodic evaluation uses
``evaluate.py``'s API: duplicate deals against ``random`` and against ``heuristic``,
Seeger-Fabian points per game with 95% intervals.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread per process beats two on small CPUs

import numpy as np  # noqa: E402

from agents.base import Agent  # noqa: E402


def _f(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    """Every setting of a run (saved as runs/<name>/config.json)."""

    name: str = _f("default", "run name: everything goes to runs/<name>/")
    timesteps: int = _f(300_000, "total learner decisions to train for")
    opponents: str = _f(
        "heuristic:0.8,self:0.2",
        "opponent pool as spec:weight,... (random, heuristic, self = snapshots of the learner, "
        "or an agent spec such as ppo:models/x.zip); weights are normalised",
    )
    n_envs: int = _f(8, "parallel environments (policy runs batched over them)")
    vec_env: str = _f(
        "dummy", "vector env: dummy (in-process, fastest on 2 cores) or subproc (one process each)"
    )
    seed: int = _f(0, "seed of the model, the envs and the evaluations")
    reward_mode: str = _f("seeger_fabian", "reward: zero_sum, list or seeger_fabian")
    reward_scale: float = _f(0.01, "multiplies the game reward (values are in the hundreds)")
    seat: int = _f(-1, "learner seat 0, 1, 2, or -1 for a random seat each game")
    eval_every: int = _f(100_000, "evaluate every N timesteps (0: only at the end)")
    eval_deals: int = _f(300, "duplicate deals per evaluation (each played in 3 seatings)")
    eval_workers: int = _f(1, "processes for the evaluation")
    snapshot_every: int = _f(50_000, "freeze a copy of the learner for self-play every N steps")
    snapshot_pool: int = _f(5, "self-play draws from the last N snapshots")
    checkpoint_every: int = _f(50_000, "save runs/<name>/checkpoints/latest.zip every N steps")
    learning_rate: float = _f(1e-4, "Adam learning rate (low: keep the cloned policy)")
    n_steps: int = _f(1024, "steps per env per rollout")
    batch_size: int = _f(256, "minibatch size")
    n_epochs: int = _f(5, "epochs per rollout")
    gamma: float = _f(1.0, "discount (one game is one short episode with a final reward)")
    gae_lambda: float = _f(0.95, "GAE lambda")
    clip_range: float = _f(0.1, "PPO clip range")
    ent_coef: float = _f(0.001, "entropy bonus")
    vf_coef: float = _f(0.5, "value loss weight")
    max_grad_norm: float = _f(0.5, "gradient clipping")
    net_arch: str = _f("256,256", "hidden layer sizes of the policy and value networks")
    max_minutes: float = _f(0.0, "stop after this many minutes (0: none), save and evaluate")
    resume: bool = _f(False, "continue runs/<name>/ from its latest checkpoint")
    bc_games: int = _f(
        8000,
        "warm start: before PPO, behaviour-clone the heuristic agent from its decisions in N "
        "games of it playing all three seats (0: none)",
    )
    bc_epochs: int = _f(8, "behaviour-cloning passes over the heuristic's decisions")
    bc_learning_rate: float = _f(1e-3, "Adam learning rate of the behaviour cloning")
    force: bool = _f(False, "overwrite an existing run of the same name")
    progress: bool = _f(True, "show a progress bar")


RUNS = Path("runs")
EVAL_OPPONENTS = ("random", "heuristic")


class UsageError(Exception):
    """Bad input: printed as a one-line message, exit status 2."""


# --- command line ---------------------------------------------------------------------------
def build_parser(suppress: bool = False) -> argparse.ArgumentParser:
    """The CLI, one flag per :class:`Args` field (``suppress``: no defaults, to see what was
    given)."""
    p = argparse.ArgumentParser(
        prog="train.py",
        description="Train a Skat agent with MaskablePPO (random / heuristic / self-play pool).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        default = argparse.SUPPRESS if suppress else f.default
        if f.type in ("bool", bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=default,
                           help=f.metadata["help"])  # fmt: skip
        else:
            kind = {"int": int, "float": float, "str": str}[str(f.type)]
            p.add_argument(flag, type=kind, default=default, help=f.metadata["help"])
    return p


def parse_args(argv: list[str] | None) -> tuple[Args, set[str]]:
    """The arguments, and the names of those given explicitly (they override on --resume)."""
    ns = build_parser().parse_args(argv)
    given = set(vars(build_parser(suppress=True).parse_args(argv)))
    return Args(**vars(ns)), given


def validate(args: Args) -> dict[str, float]:
    """Check the settings; return the normalised opponent weights."""
    positive = ("timesteps", "n_envs", "eval_deals", "eval_workers", "n_steps", "batch_size",
                "n_epochs", "snapshot_every", "snapshot_pool", "checkpoint_every",
                "bc_epochs")  # fmt: skip
    for name in positive:
        if getattr(args, name) <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive")
    if args.eval_every < 0:
        raise UsageError("--eval-every must be >= 0")
    if args.bc_games < 0:
        raise UsageError("--bc-games must be >= 0")
    if not 0 < args.bc_learning_rate < 1:
        raise UsageError("--bc-learning-rate must be in (0, 1)")
    if not args.max_minutes >= 0:
        raise UsageError("--max-minutes must be >= 0")
    if args.vec_env not in ("subproc", "dummy"):
        raise UsageError(f"--vec-env must be subproc or dummy, got {args.vec_env!r}")
    if args.seat not in (-1, 0, 1, 2):
        raise UsageError(f"--seat must be -1, 0, 1 or 2, got {args.seat}")
    from skat_env.core.rewards import REWARD_MODES

    if args.reward_mode not in REWARD_MODES:
        raise UsageError(f"--reward-mode must be one of {', '.join(REWARD_MODES)}")
    if not 0 < args.learning_rate < 1:
        raise UsageError("--learning-rate must be in (0, 1)")
    if not args.name or "/" in args.name or args.name.startswith("."):
        raise UsageError(f"--name must be a plain directory name, got {args.name!r}")
    net_arch(args)
    return parse_opponents(args.opponents)


def net_arch(args: Args) -> list[int]:
    try:
        sizes = [int(x) for x in args.net_arch.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) <= 0:
        raise UsageError(f"--net-arch must be positive sizes like 256,256, got {args.net_arch!r}")
    return sizes


def parse_opponents(text: str) -> dict[str, float]:
    """``"random:0.3,heuristic:0.4,self:0.3"`` -> normalised weights (a missing weight is 1)."""
    weights: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        spec, weight = item, "1"
        head, _, tail = item.rpartition(":")
        if head and _is_number(tail):
            spec, weight = head, tail
        w = float(weight)
        if not np.isfinite(w) or w < 0:
            raise UsageError(f"opponent weight must be a non-negative number: {item!r}")
        if spec != "self":
            check_agent_spec(spec)
        weights[spec] = weights.get(spec, 0.0) + w
    total = sum(weights.values())
    if not weights or total <= 0:
        raise UsageError(f"--opponents needs at least one positive weight, got {text!r}")
    return {k: v / total for k, v in weights.items() if v > 0}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# --- agents and evaluation (agents/ and evaluate.py) ----------------------------------------
def check_agent_spec(spec: str) -> None:
    """Fail early, with the registry's message, on an unknown or unreadable agent spec."""
    from agents.registry import AgentSpecError, make_agent

    try:
        agent = make_agent(spec, seed=0)
    except AgentSpecError as e:
        raise UsageError(f"bad opponent: {e}") from None
    if agent.interactive:
        raise UsageError(f"opponent {spec!r} needs a person at the terminal; it cannot train")


def make_agent(spec: str, seed: int) -> Any:
    from agents.registry import make_agent as make

    return make(spec, seed=seed)


def run_evaluation(model_path: Path, opponent: str, deals: int, seed: int, workers: int) -> dict:
    """Duplicate evaluation of the learner against two copies of ``opponent`` (evaluate.py).

    ``sf``: the learner's Seeger-Fabian points per game with its 95% bootstrap interval over
    deals; ``diff``: its per-deal difference to the opponent's points on the same deals (the
    figure that says who is better), with interval.
    """
    from skat_env import tournament

    learner = SnapshotAgent(model_path)
    me = learner.name
    res = tournament.evaluate([learner, opponent, opponent], deals=deals, seed=seed, workers=workers)
    a = res["agents"][me]
    cmp = res["comparisons"][0]
    sign = 1 if cmp["a"] == me else -1
    lo, hi = (sign * x for x in cmp["ci95"])
    return {"sf": a["sf_per_game"], "sf_lo": a["sf_ci95"][0], "sf_hi": a["sf_ci95"][1],
            "diff": sign * cmp["sf_diff_per_game"], "diff_lo": min(lo, hi),
            "diff_hi": max(lo, hi), "list": a["list_score_per_game"],
            "declarer_share": a["declarer_share"]}  # fmt: skip


class SnapshotAgent(Agent):
    """Greedy play of a saved MaskablePPO policy, computed in NumPy.

    Makes the same moves as the registry's ``ppo:PATH`` agent (a test checks it) at a small
    fraction of the cost: SB3's ``predict`` spends about a millisecond per single observation,
    which made self-play opponents most of the training time. Used for the self-play
    snapshots and the periodic evaluations; the shipped model is evaluated through
    ``ppo:PATH`` itself.
    """

    ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}

    def __init__(self, path: str | Path):
        import torch
        from sb3_contrib import MaskablePPO

        policy = MaskablePPO.load(str(path), device="cpu").policy
        act = self.ACTIVATIONS.get(policy.activation_fn.__name__)
        if act is None or type(policy.features_extractor).__name__ != "FlattenExtractor":
            raise ValueError(f"{path}: only flat MLP policies (Tanh/ReLU) are supported")
        linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        linears.append(policy.action_net)
        self.layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
                       for m in linears]  # fmt: skip
        self.activation = act
        self.name = f"ppo:{path}"

    def act(self, observation: dict[str, Any]) -> int:
        x = np.asarray(observation["observation"], np.float32)
        for w, b in self.layers[:-1]:
            x = self.activation(w @ x + b)
        w, b = self.layers[-1]
        logits = w @ x + b
        mask = np.asarray(observation["action_mask"]).astype(bool)
        return int(np.flatnonzero(mask)[np.argmax(logits[mask])])


# --- environments ---------------------------------------------------------------------------
class OpponentPool:
    """Draws the two opponents of each game: one kind by weight, both seats of that kind.

    ``self`` picks, per seat, one of the newest snapshot files in ``snapshot_dir`` (written
    atomically by the trainer), so subprocess envs see new snapshots without messages.
    Agents are built once per spec and cached; their seeds come from the env's generator.
    """

    def __init__(self, weights: dict[str, float], snapshot_dir: Path, pool_size: int):
        self.specs = list(weights)
        self.p = np.array([weights[s] for s in self.specs])
        self.snapshot_dir = Path(snapshot_dir)
        self.pool_size = pool_size
        self._agents: dict[str, Any] = {}
        self._snapshots: dict[str, SnapshotAgent] = {}

    def __call__(self, rng: np.random.Generator) -> tuple[Any, Any]:
        spec = self.specs[rng.choice(len(self.specs), p=self.p)]
        if spec != "self":
            return self._agent(spec, rng), self._agent(spec, rng)
        snaps = sorted(self.snapshot_dir.glob("step_*.zip"))[-self.pool_size :]
        if not snaps:
            raise RuntimeError(f"no self-play snapshot in {self.snapshot_dir}")
        return tuple(self._snapshot(snaps[rng.integers(len(snaps))]) for _ in "ab")

    def _agent(self, spec: str, rng: np.random.Generator) -> Any:
        if spec not in self._agents:
            self._agents[spec] = make_agent(spec, seed=int(rng.integers(2**31)))
        return self._agents[spec]

    def _snapshot(self, path: Path) -> SnapshotAgent:
        key = str(path)
        if key not in self._snapshots:
            if len(self._snapshots) >= 2 * self.pool_size:
                for old in sorted(self._snapshots)[: self.pool_size]:
                    del self._snapshots[old]
            self._snapshots[key] = SnapshotAgent(path)
        return self._snapshots[key]


def make_env(args: Args, weights: dict[str, float], run_dir: Path):
    """A thunk building one monitored learner env (run inside the worker process)."""

    def thunk():
        import torch
        from stable_baselines3.common.monitor import Monitor

        from skat_env.envs.single_agent import SkatSingleAgentEnv

        torch.set_num_threads(1)
        pool = OpponentPool(weights, run_dir / "snapshots", args.snapshot_pool)
        env = SkatSingleAgentEnv(
            opponents=pool,
            seat=None if args.seat < 0 else args.seat,
            reward_mode=args.reward_mode,
            reward_scale=args.reward_scale,
            illegal_action="raise",
        )
        return Monitor(env)

    return thunk


def make_vec_env(args: Args, weights: dict[str, float], run_dir: Path):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [make_env(args, weights, run_dir) for _ in range(args.n_envs)]
    if args.vec_env == "subproc" and args.n_envs > 1:
        venv = SubprocVecEnv(fns, start_method="fork" if sys.platform == "linux" else None)
    else:
        venv = DummyVecEnv(fns)
    venv.seed(args.seed)
    return venv


# --- behaviour-cloning warm start ---------------------------------------------------------
def heuristic_decisions(
    games: int, seed: int, reward_mode: str, reward_scale: float, progress: bool = False
) -> dict[str, np.ndarray]:
    """Every decision of ``heuristic`` playing all three seats of ``games`` random deals.

    Per decision: the acting seat's flat observation and legal mask (exactly what the learner
    seat of the env sees), the heuristic's move, and that seat's final reward (``return``,
    under ``reward_mode`` x ``reward_scale``: the target of the value head).
    """
    from tqdm import tqdm

    from skat_env.core.game import Game
    from skat_env.core.rewards import rewards_of
    from skat_env.encoding.observation import observe
    from skat_env.envs.single_agent import decide

    agent = make_agent("heuristic", seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks, moves, returns = [], [], [], []
    for _ in tqdm(range(games), desc="heuristic games", unit="game", disable=not progress):
        game, seats = Game.random(rng), []
        while not game.is_over:
            seat = game.to_act
            o = observe(game, seat)
            move = decide(agent, game, seat)
            obs.append(o["observation"])
            masks.append(o["action_mask"].astype(bool))
            moves.append(move)
            seats.append(seat)
            game.step(move)
        reward = rewards_of(game.result, reward_mode)
        returns.extend(reward[s] * reward_scale for s in seats)
    return {"obs": np.array(obs, np.float32), "mask": np.array(masks, bool),
            "move": np.array(moves, np.int64), "return": np.array(returns, np.float32)}  # fmt: skip


def policy_outputs(policy: Any, obs: Any, mask: Any) -> tuple[Any, Any]:
    """Masked action logits (illegal moves at -1e8, as MaskablePPO masks) and values."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    logits = policy.action_net(latent_pi).masked_fill(~mask, -1e8)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def behaviour_clone(
    model: Any,
    data: dict[str, np.ndarray],
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 512,
    seed: int = 0,
    progress: bool = False,
) -> dict[str, float]:
    """Fit the policy to the heuristic's moves (masked cross-entropy) and the value head to
    the final rewards (squared error), so PPO starts from a player that bids and declares
    instead of learning to pass (a random bidder loses most games it declares).

    A tenth of the decisions is held out; returns, on it, the accuracy (greedy masked argmax
    equals the heuristic's move), the chance level (mean 1 / number of legal moves) and the
    losses. ``epochs=0`` only measures.
    """
    import torch
    from tqdm import tqdm

    policy = model.policy
    n = len(data["move"])
    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(n, generator=gen)
    n_test = max(1, n // 10)
    test, train_idx = order[:n_test], order[n_test:]
    obs, mask = torch.as_tensor(data["obs"]), torch.as_tensor(data["mask"])
    move, ret = torch.as_tensor(data["move"]), torch.as_tensor(data["return"])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    steps = epochs * -(-len(train_idx) // batch_size)
    bar = tqdm(total=steps, desc="behaviour cloning", unit="batch", disable=not progress)
    policy.set_training_mode(True)
    for _ in range(epochs):
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        for idx in perm.split(batch_size):
            logits, values = policy_outputs(policy, obs[idx], mask[idx])
            pi_loss = torch.nn.functional.cross_entropy(logits, move[idx])
            vf_loss = torch.nn.functional.mse_loss(values, ret[idx])
            optimizer.zero_grad()
            (pi_loss + vf_loss).backward()
            optimizer.step()
            bar.update()
            bar.set_postfix(pi_loss=f"{pi_loss.item():.3f}", vf_loss=f"{vf_loss.item():.3f}")
    bar.close()
    policy.set_training_mode(False)
    with torch.no_grad():
        logits, values = policy_outputs(policy, obs[test], mask[test])
        accuracy = (logits.argmax(-1) == move[test]).float().mean().item()
        pi_loss = torch.nn.functional.cross_entropy(logits, move[test]).item()
        vf_loss = torch.nn.functional.mse_loss(values, ret[test]).item()
    chance = float((1.0 / data["mask"][test.numpy()].sum(1)).mean())
    return {"decisions": n, "held_out": n_test, "accuracy": accuracy, "chance": chance,
            "pi_loss": pi_loss, "value_loss": vf_loss}  # fmt: skip


def warm_start(model: Any, args: Args, run_dir: Path) -> dict[str, float]:
    """``--bc-games``: clone the heuristic into a fresh model; log the result, save it as
    bc_model.zip and its figures as bc.json."""
    t = time.perf_counter()
    data = heuristic_decisions(args.bc_games, args.seed, args.reward_mode, args.reward_scale,
                               args.progress)  # fmt: skip
    stats = behaviour_clone(model, data, args.bc_epochs, args.bc_learning_rate,
                            seed=args.seed, progress=args.progress)  # fmt: skip
    stats["games"] = args.bc_games
    stats["seconds"] = round(time.perf_counter() - t, 1)
    (run_dir / "bc.json").write_text(json.dumps(stats, indent=1))
    save_atomic(model, run_dir / "bc_model.zip")  # the cloned policy, before any PPO update
    print(f"behaviour cloning: {stats['decisions']:,} heuristic decisions from {args.bc_games:,} "
          f"games, held-out accuracy {stats['accuracy']:.1%} (chance {stats['chance']:.1%}), "
          f"value loss {stats['value_loss']:.3f}, {stats['seconds']:.0f} s")  # fmt: skip
    return stats


# --- logging --------------------------------------------------------------------------------
PROGRESS_COLUMNS = (
    "time/total_timesteps", "time/fps", "time/time_elapsed", "rollout/ep_rew_mean",
    "rollout/ep_len_mean", "train/loss", "train/policy_gradient_loss", "train/value_loss",
    "train/entropy_loss", "train/approx_kl", "train/clip_fraction",
    "train/explained_variance", "train/learning_rate",
)  # fmt: skip
EVAL_COLUMNS = ("timesteps", "opponent", "sf", "sf_lo", "sf_hi", "diff", "diff_lo", "diff_hi",
                "list", "declarer_share", "deals", "seconds")  # fmt: skip


def csv_logger(path: Path):
    """An SB3 logger appending fixed columns to ``path`` (so a resumed run keeps one file)."""
    from stable_baselines3.common.logger import KVWriter, Logger

    class AppendCSV(KVWriter):
        def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
            new = not path.exists()
            with path.open("a", newline="") as fh:
                w = csv.writer(fh)
                if new:
                    w.writerow(PROGRESS_COLUMNS)
                w.writerow([_cell(key_values.get(k)) for k in PROGRESS_COLUMNS])

    return Logger(folder=str(path.parent), output_formats=[AppendCSV()])


def _cell(v: Any) -> str:
    if v is None:
        return ""
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def append_eval(run_dir: Path, rows: list[dict]) -> list[dict]:
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
    head = f"  {'vs':<16}{'SF/game':>9} {'interval':<17}{'minus opp.':>11} {'interval':<17}"
    lines = [f"evaluation at {timesteps:,} steps: learner vs two copies of an opponent, "
             f"duplicate deals", head + f"{'list/game':>10}  deals"]  # fmt: skip
    for r in rows:
        ci = f"[{r['sf_lo']:+.1f}, {r['sf_hi']:+.1f}]"
        dci = f"[{r['diff_lo']:+.1f}, {r['diff_hi']:+.1f}]"
        lines.append(f"  {'2x ' + r['opponent']:<16}{r['sf']:>+9.1f} {ci:<17}{r['diff']:>+11.1f} "
                     f"{dci:<17}{r['list']:>+10.1f}  {r['deals']}")  # fmt: skip
    return "\n".join(lines)


def plot_learning_curve(run_dir: Path, reward_scale: float) -> Path:
    """learning_curve.png: evaluation SF/game with intervals, and the training return."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax3, ax2) = plt.subplots(3, 1, figsize=(7, 9), sharex=True)
    history = load_evals(run_dir)
    for opp in EVAL_OPPONENTS:
        rows = [r for r in history if r["opponent"] == opp]
        if not rows:
            continue
        x = [r["timesteps"] for r in rows]
        for ax, key in ((ax1, "sf"), (ax3, "diff")):
            y, lo, hi = (np.array([r[key + s] for r in rows]) for s in ("", "_lo", "_hi"))
            ax.errorbar(x, y, yerr=[y - lo, hi - y], marker="o", capsize=3, label=f"vs 2x {opp}")
    for ax in (ax1, ax3):
        ax.axhline(0, color="grey", lw=0.8)
        ax.legend()
    ax1.set_ylabel("learner SF points / game")
    ax1.set_title(f"{run_dir.name}: duplicate evaluation (95% intervals)")
    ax3.set_ylabel("learner minus opponent\nSF points / game")
    prog = run_dir / "progress.csv"
    if prog.exists():
        with prog.open() as fh:
            rows = [r for r in csv.DictReader(fh) if r["rollout/ep_rew_mean"]]
        if rows:
            x = [float(r["time/total_timesteps"]) for r in rows]
            y = [float(r["rollout/ep_rew_mean"]) / reward_scale for r in rows]
            ax2.plot(x, y, lw=1)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_xlabel("timesteps (learner decisions)")
    ax2.set_ylabel("training reward / game (pool mix)")
    fig.tight_layout()
    out = run_dir / "learning_curve.png"
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out


# --- the training loop ----------------------------------------------------------------------
def save_atomic(model: Any, path: Path) -> None:
    """Save so that readers (self-play envs in other processes) never see a partial file."""
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(tmp)
    os.replace(tmp, path)


class Trainer:
    """Snapshots, checkpoints, evaluations and the progress bar, driven by SB3's callback."""

    def __init__(self, args: Args, run_dir: Path, start: int):
        self.args, self.run_dir = args, run_dir
        self.snap_dir = run_dir / "snapshots"
        self.ckpt = run_dir / "checkpoints" / "latest.zip"
        every = lambda n: (start // n + 1) * n  # noqa: E731
        self.next_snapshot = every(args.snapshot_every)
        self.next_checkpoint = every(args.checkpoint_every)
        self.next_eval = every(args.eval_every) if args.eval_every else None
        self.bar = None
        self.deadline = time.monotonic() + 60 * args.max_minutes if args.max_minutes else None

    def snapshot(self, model: Any) -> None:
        save_atomic(model, self.snap_dir / f"step_{model.num_timesteps:010d}.zip")
        old = sorted(self.snap_dir.glob("step_*.zip"))[: -2 * self.args.snapshot_pool]
        for p in old:
            p.unlink(missing_ok=True)

    def checkpoint(self, model: Any) -> None:
        save_atomic(model, self.ckpt)

    def evaluate(self, model: Any) -> list[dict]:
        self.checkpoint(model)
        rows = []
        for opp in EVAL_OPPONENTS:
            t = time.perf_counter()
            s = run_evaluation(self.ckpt, opp, self.args.eval_deals, self.args.seed + 1,
                               self.args.eval_workers)  # fmt: skip
            rows.append({"timesteps": model.num_timesteps, "opponent": opp, **s,
                         "deals": self.args.eval_deals,
                         "seconds": round(time.perf_counter() - t, 1)})  # fmt: skip
        append_eval(self.run_dir, rows)
        plot_learning_curve(self.run_dir, self.args.reward_scale)
        self.write(eval_table(rows, model.num_timesteps))
        return rows

    def write(self, text: str) -> None:
        from tqdm import tqdm

        (tqdm.write if self.bar is not None else print)(text)

    def callback(self, total: int, start: int):
        from stable_baselines3.common.callbacks import BaseCallback
        from tqdm import tqdm

        trainer = self

        class _Callback(BaseCallback):
            def _on_training_start(self) -> None:
                if trainer.args.progress:
                    trainer.bar = tqdm(total=total, initial=start, unit="step", smoothing=0.05)

            def _on_step(self) -> bool:
                n = self.model.num_timesteps
                if trainer.bar is not None:
                    trainer.bar.update(n - trainer.bar.n)
                if n >= trainer.next_snapshot:
                    trainer.snapshot(self.model)
                    trainer.next_snapshot += trainer.args.snapshot_every
                if n >= trainer.next_checkpoint:
                    trainer.checkpoint(self.model)
                    trainer.next_checkpoint += trainer.args.checkpoint_every
                if trainer.next_eval is not None and n >= trainer.next_eval and n < total:
                    trainer.evaluate(self.model)
                    trainer.next_eval += trainer.args.eval_every
                if trainer.deadline is not None and time.monotonic() > trainer.deadline:
                    trainer.write(f"--max-minutes reached at {n:,} steps")
                    return False
                return True

            def _on_training_end(self) -> None:
                if trainer.bar is not None:
                    trainer.bar.close()
                    trainer.bar = None

        return _Callback()


def prepare_run(args: Args, given: set[str]) -> tuple[Args, Path]:
    """Create runs/<name>/ (or load its config on --resume, keeping the flags given now)."""
    run_dir = RUNS / args.name
    config = run_dir / "config.json"
    if args.resume:
        if not config.exists() or not (run_dir / "checkpoints" / "latest.zip").exists():
            raise UsageError(f"--resume: no checkpoint in {run_dir}/checkpoints/latest.zip")
        saved = json.loads(config.read_text())
        known = {f.name for f in dataclasses.fields(Args)}
        merged = {k: v for k, v in saved.items() if k in known}
        merged.update({k: getattr(args, k) for k in given})
        args = Args(**merged)
        args.resume = True
    elif config.exists() and not args.force:
        raise UsageError(f"{run_dir} exists: pass --resume to continue it, --force to "
                         "overwrite it, or another --name")  # fmt: skip
    elif config.exists():
        import shutil

        shutil.rmtree(run_dir)
    (run_dir / "snapshots").mkdir(parents=True, exist_ok=True)
    (run_dir / "checkpoints").mkdir(exist_ok=True)
    config.write_text(json.dumps(dataclasses.asdict(args), indent=1))
    return args, run_dir


def build_model(args: Args, venv: Any, run_dir: Path) -> Any:
    from sb3_contrib import MaskablePPO

    if args.resume:
        model = MaskablePPO.load(run_dir / "checkpoints" / "latest.zip", env=venv, device="cpu")
        model.set_random_seed(args.seed + model.num_timesteps)
        return model
    return MaskablePPO(
        "MlpPolicy", venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        gae_lambda=args.gae_lambda, clip_range=args.clip_range, ent_coef=args.ent_coef,
        vf_coef=args.vf_coef, max_grad_norm=args.max_grad_norm, seed=args.seed, device="cpu",
        policy_kwargs={"net_arch": net_arch(args)}, verbose=0,
    )  # fmt: skip


def train(args: Args, given: set[str] = frozenset()) -> dict:
    """Run (or resume) a training run; return the final evaluation rows and paths."""
    weights = validate(args)
    args, run_dir = prepare_run(args, given)
    weights = validate(args)  # a resumed run's saved settings
    import torch

    torch.set_num_threads(1)
    venv = make_vec_env(args, weights, run_dir)
    try:
        model = build_model(args, venv, run_dir)
        model.set_logger(csv_logger(run_dir / "progress.csv"))
        start = model.num_timesteps
        if start == 0 and not args.resume and args.bc_games:
            warm_start(model, args, run_dir)
        trainer = Trainer(args, run_dir, start)
        if not any(trainer.snap_dir.glob("step_*.zip")):
            trainer.snapshot(model)  # self-play needs an opponent from the first game
        if start == 0 and args.eval_every:
            trainer.evaluate(model)  # the starting point of the learning curve
        if start < args.timesteps:
            print(f"training {run_dir} from {start:,} to {args.timesteps:,} steps; "
                  f"opponents {', '.join(f'{k}:{v:.2f}' for k, v in weights.items())}")  # fmt: skip
            try:
                model.learn(args.timesteps - start, reset_num_timesteps=False,
                            callback=trainer.callback(args.timesteps, start))  # fmt: skip
            except KeyboardInterrupt:
                trainer.checkpoint(model)
                print(f"\ninterrupted at {model.num_timesteps:,} steps; checkpoint saved",
                      file=sys.stderr)  # fmt: skip
                raise
        else:
            print(f"{run_dir} is already at {start:,} steps (--timesteps {args.timesteps:,})")
        trainer.checkpoint(model)
        save_atomic(model, run_dir / "final_model.zip")
        rows = trainer.evaluate(model)
    finally:
        venv.close()
    return {"run_dir": str(run_dir), "final_model": str(run_dir / "final_model.zip"),
            "learning_curve": str(run_dir / "learning_curve.png"), "eval": rows}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args, given = parse_args(argv)
    try:
        out = train(args, given)
    except UsageError as e:
        print(f"train.py: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"train.py: interrupted; continue with: python train.py --name {args.name} --resume",
              file=sys.stderr)  # fmt: skip
        return 130
    print(f"final model: {out['final_model']}\nlearning curve: {out['learning_curve']}")
    return 0


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM (a killed background run) stops like Ctrl-C: the checkpoint is saved first."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    sys.exit(main())
