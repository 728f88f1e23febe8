"""Stable-Baselines3 helpers for Skat: a fast NumPy policy, opponent pools, behaviour cloning,
callbacks and the learning-curve plot. ``train.py`` is the script that puts them together.

- :class:`NumpyPolicy`: greedy masked play of a ``MaskablePPO`` ``MlpPolicy`` in NumPy, one
  observation or a batch. SB3's ``predict`` costs about a millisecond per call; this is one
  matrix product per layer for a whole batch. It is the one inference path of trained models
  (``agents.ppo.PPOAgent``, self-play snapshots, batched opponents).
- :class:`SelfPlaySlots`: frozen copies of the learner that play the other seats.
- :func:`vector_pool` / :class:`SingleGamePool`: the opponent pool of the batched
  (:class:`~skat_env.envs.vector_env.SkatVectorEnv`) and single-game envs.
- :func:`heuristic_decisions` and :func:`behaviour_clone`: the warm start (imitate the
  ``heuristic`` agent), data generated on the batched engine.
- Callbacks: snapshots, duplicate-deal evaluations, a wall-clock budget, a progress bar.
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

BatchedPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
}


# --- command line ---------------------------------------------------------------------------
def parse_dataclass(cls: type, argv: list[str] | None, prog: str, description: str):
    """An instance of the dataclass ``cls`` from ``argv`` (one ``--flag`` per field, help from
    ``field(metadata={"help": ...})``), and the names of the flags given explicitly."""
    import argparse
    import dataclasses

    def build(suppress: bool) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser(
            prog=prog,
            description=description,
            formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        )
        for f in dataclasses.fields(cls):
            flag = "--" + f.name.replace("_", "-")
            default = argparse.SUPPRESS if suppress else f.default
            kind = {"bool": bool, "int": int, "float": float, "str": str}[str(f.type)]
            if kind is bool:
                p.add_argument(
                    flag,
                    action=argparse.BooleanOptionalAction,
                    default=default,
                    help=f.metadata.get("help"),
                )
            else:
                p.add_argument(flag, type=kind, default=default, help=f.metadata.get("help"))
        return p

    values = vars(build(False).parse_args(argv))
    given = set(vars(build(True).parse_args(argv)))
    return cls(**values), given


def parse_opponents(text: str) -> dict[str, float]:
    """``"random:0.3,heuristic:0.4,self:0.3"`` -> normalised weights (a missing weight is 1).

    Specs are checked with the registry now (``ValueError`` with its message), so a typo
    fails before any training."""
    weights: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        spec, weight = item, 1.0
        head, _, tail = item.rpartition(":")
        if head and _is_number(tail):
            spec, weight = head, float(tail)
        if not np.isfinite(weight) or weight < 0:
            raise ValueError(f"opponent weight must be a non-negative number: {item!r}")
        if spec != "self":
            _check_spec(spec)
        weights[spec] = weights.get(spec, 0.0) + weight
    total = sum(weights.values())
    if not weights or total <= 0:
        raise ValueError(f"--opponents needs at least one positive weight, got {text!r}")
    return {k: v / total for k, v in weights.items() if v > 0}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_spec(spec: str) -> None:
    from skat_env.agents.registry import AgentSpecError, make_agent

    try:
        agent = make_agent(spec, seed=0)
    except AgentSpecError as e:
        raise ValueError(f"bad opponent: {e}") from None
    if agent.interactive:
        raise ValueError(f"opponent {spec!r} needs a person at the terminal; it cannot train")
    if getattr(agent, "perfect_information", False):
        raise ValueError(f"opponent {spec!r} sees every card; it is a benchmark bound, not a "
                         "training opponent")  # fmt: skip


# --- inference -------------------------------------------------------------------------------
class NumpyPolicy:
    """The greedy masked argmax of an SB3 ``MlpPolicy``'s action head, in NumPy (float32).

    Picks exactly the move of ``model.predict(obs, action_masks=mask, deterministic=True)``
    (a test checks it), at a small fraction of the cost.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str):
        if activation not in ACTIVATIONS:
            raise ValueError(f"only {', '.join(ACTIVATIONS)} activations are supported")
        self.layers = [(np.ascontiguousarray(w.T), b) for w, b in layers]  # x @ W.T + b
        self.activation = ACTIVATIONS[activation]
        self.obs_size = layers[0][0].shape[1]

    @classmethod
    def from_policy(cls, policy: Any) -> NumpyPolicy:
        """A frozen copy of a live ``MaskableActorCriticPolicy`` (flat MLP only)."""
        import torch

        if type(policy.features_extractor).__name__ != "FlattenExtractor":
            raise ValueError("only flat MLP policies (FlattenExtractor) are supported")
        nets = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        nets.append(policy.action_net)
        layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in nets]
        return cls(layers, policy.activation_fn.__name__)

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """The policy of a saved ``MaskablePPO`` zip."""
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        return cls.from_policy(MaskablePPO.load(str(path), device="cpu").policy)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits, ``float32[B, 121]`` for ``obs`` of shape ``[B, obs_size]``."""
        x = np.asarray(obs, np.float32)
        if x.shape[-1] != self.obs_size:
            raise ValueError(
                f"the policy takes observations of size {self.obs_size}, got shape {x.shape}"
            )
        for w, b in self.layers[:-1]:
            x = self.activation(x @ w + b)
        w, b = self.layers[-1]
        return x @ w + b

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal move of each row: ``int64[B]``."""
        logits = self.logits(obs)
        return np.where(np.asarray(masks, bool), logits, -np.inf).argmax(-1)

    __call__ = act_batch  # a batched policy for SkatVectorEnv

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """One move for one observation dict (the agent interface)."""
        obs = np.asarray(observation["observation"], np.float32)[None]
        return int(self.act_batch(obs, np.asarray(observation["action_mask"])[None])[0])


def batched(agent: Any) -> BatchedPolicy:
    """A batched policy from an agent: its ``act_batch`` if it has one, else ``act`` per row."""
    if callable(getattr(agent, "act_batch", None)):
        return agent.act_batch

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows = zip(obs, masks, strict=True)
        return np.array([agent.act({"observation": o, "action_mask": m}) for o, m in rows])

    return policy


# --- opponents --------------------------------------------------------------------------------
class SelfPlaySlots:
    """``size`` frozen copies of the learner; :meth:`push` replaces the oldest one.

    Each slot is a batched policy (``slot(obs, masks)``) whose weights change in place, so
    the envs keep their references and always play recent snapshots.
    """

    class Slot:
        def __init__(self) -> None:
            self.policy: NumpyPolicy | None = None

        def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
            return self.policy.act_batch(obs, masks)

        def act(self, observation: Mapping[str, np.ndarray]) -> int:
            return self.policy.act(observation)

    def __init__(self, size: int):
        self.slots = [self.Slot() for _ in range(size)]
        self._next = 0

    def fill(self, policy: Any) -> None:
        """Every slot a copy of ``policy`` (at the start and on resume)."""
        frozen = NumpyPolicy.from_policy(policy)
        for slot in self.slots:
            slot.policy = frozen

    def push(self, policy: Any) -> None:
        """Freeze ``policy`` into the oldest slot."""
        self.slots[self._next].policy = NumpyPolicy.from_policy(policy)
        self._next = (self._next + 1) % len(self.slots)


def make_opponent(spec: str, seed: int) -> Any:
    """An agent from the registry (``random``, ``heuristic``, ``ppo:PATH``, ...)."""
    from skat_env.agents.registry import make_agent

    return make_agent(spec, seed=seed)


def vector_pool(
    weights: Mapping[str, float], slots: SelfPlaySlots, seed: int
) -> tuple[dict[str, Any], list[float]]:
    """The opponent pool of :class:`~skat_env.envs.vector_env.SkatVectorEnv`: batched
    policies and weights. ``self`` is split evenly over the self-play slots; ``random`` is the
    env's own seeded random play; other specs are registry agents, batched."""
    pool: dict[str, Any] = {}
    w: list[float] = []
    for spec, weight in weights.items():
        if spec == "self":
            for k, slot in enumerate(slots.slots):
                pool[f"self{k}"] = slot
                w.append(weight / len(slots.slots))
        else:
            pool[spec] = "random" if spec == "random" else batched(make_opponent(spec, seed))
            w.append(weight)
    return pool, w


class SingleGamePool:
    """Opponent sampler of :class:`~skat_env.envs.single_agent.SkatSingleAgentEnv`: one kind
    per game by weight, both seats of that kind; each ``self`` seat draws its own slot."""

    def __init__(self, weights: Mapping[str, float], slots: SelfPlaySlots, seed: int):
        self.specs = list(weights)
        self.p = np.array([weights[s] for s in self.specs])
        self.slots = slots
        self.agents = {s: make_opponent(s, seed) for s in self.specs if s != "self"}

    def __call__(self, rng: np.random.Generator) -> tuple[Any, Any]:
        spec = self.specs[rng.choice(len(self.specs), p=self.p)]
        if spec != "self":
            return self.agents[spec], self.agents[spec]
        slots = self.slots.slots
        return slots[rng.integers(len(slots))], slots[rng.integers(len(slots))]


def make_vec_env(
    kind: str,
    n_envs: int,
    weights: Mapping[str, float],
    slots: SelfPlaySlots,
    seed: int,
    **env_kwargs: Any,
) -> Any:
    """The SB3 ``VecEnv`` a learner trains on, with episode statistics: ``kind="vector"``
    runs ``n_envs`` games in one :class:`~skat_env.envs.vector_env.SkatVectorEnv` (batched
    opponents); ``"single"`` one :class:`~skat_env.envs.single_agent.SkatSingleAgentEnv` per
    env in a ``DummyVecEnv``. ``env_kwargs`` (``seat``, ``reward_mode``, ``reward_scale``)
    go to the env."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from skat_env.envs.single_agent import SkatSingleAgentEnv
    from skat_env.envs.vector_env import sb3_vec_env

    if kind == "vector":
        pool, w = vector_pool(weights, slots, seed)
        venv = VecMonitor(sb3_vec_env(n_envs, opponents=pool, weights=w, **env_kwargs))
    elif kind == "single":
        sampler = SingleGamePool(weights, slots, seed)
        make = lambda: Monitor(SkatSingleAgentEnv(opponents=sampler, **env_kwargs))  # noqa: E731
        venv = DummyVecEnv([make] * n_envs)
    else:
        raise ValueError(f"the env kind is vector or single, got {kind!r}")
    venv.seed(seed)
    return venv


# --- behaviour cloning -----------------------------------------------------------------------
def heuristic_decisions(
    games: int,
    seed: int,
    reward_mode: str,
    reward_scale: float,
    progress: bool = False,
    deadline: float | None = None,
    batch: int = 256,
) -> dict[str, np.ndarray]:
    """Every decision of ``heuristic`` playing all three seats of up to ``games`` deals.

    Per decision: the acting seat's observation and legal mask (what the learner seat sees),
    the heuristic's move and that seat's final reward times ``reward_scale`` (the value
    head's target). Runs ``batch`` games at once on the batched engine; stops early at
    ``deadline`` (``time.monotonic()``) with the games finished by then (``games`` in the
    result: how many).
    """
    from tqdm import tqdm

    from skat_env import vector

    state = vector.init(min(batch, max(games, 1)), seed=seed, reward_mode=reward_mode)
    policy = batched(make_opponent("heuristic", seed))
    n = state.batch_size
    steps: list[list[int]] = [[] for _ in range(n)]  # per slot: steps of its open game
    obs, masks, moves, seats, returns = [], [], [], [], []
    done = 0
    bar = tqdm(total=games, desc="heuristic games", unit="game", disable=not progress)
    while done < games and (deadline is None or time.monotonic() < deadline):
        actions = policy(state.obs, state.legal_mask)
        for b in range(n):
            steps[b].append(len(moves))
        obs.append(state.obs.copy())
        masks.append(state.legal_mask.astype(bool))
        seats.append(state.to_act.copy())
        moves.append(np.asarray(actions, np.int64))
        returns.append(np.full(n, np.nan, np.float32))
        vector.step(state, actions)
        for b in np.flatnonzero(state.terminated):
            if done < games:  # games beyond the count are dropped (returns stay NaN)
                for t in steps[b]:
                    returns[t][b] = state.rewards[b, seats[t][b]] * reward_scale
                done += 1
                bar.update()
            steps[b] = []
    bar.close()
    if not moves:
        return {
            "obs": np.zeros((0, state.obs.shape[1]), np.float32),
            "mask": np.zeros((0, 121), bool),
            "move": np.zeros(0, np.int64),
            "return": np.zeros(0, np.float32),
            "games": 0,
        }
    ret = np.concatenate(returns)
    keep = ~np.isnan(ret)  # decisions of finished games, in step order
    return {
        "obs": np.concatenate(obs)[keep],
        "mask": np.concatenate(masks)[keep],
        "move": np.concatenate(moves)[keep],
        "return": ret[keep],
        "games": done,
    }


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
    data: Mapping[str, np.ndarray],
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 512,
    seed: int = 0,
    progress: bool = False,
    deadline: float | None = None,
) -> dict[str, float]:
    """Fit the policy to the recorded moves (masked cross-entropy) and the value head to the
    final rewards (squared error), so PPO starts from a player that bids and declares instead
    of learning to pass (a random bidder loses most games it declares).

    A tenth of the decisions is held out; returns, on it, the accuracy (greedy masked argmax
    equals the recorded move), the chance level (mean 1 / number of legal moves) and the
    losses. ``epochs=0`` only measures; ``deadline`` (``time.monotonic()``) ends it early.
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
    done = 0
    for _ in range(epochs):
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        for idx in perm.split(batch_size):
            if deadline is not None and time.monotonic() > deadline:
                break
            logits, values = policy_outputs(policy, obs[idx], mask[idx])
            pi_loss = torch.nn.functional.cross_entropy(logits, move[idx])
            vf_loss = torch.nn.functional.mse_loss(values, ret[idx])
            optimizer.zero_grad()
            (pi_loss + vf_loss).backward()
            optimizer.step()
            done += 1
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
    return {
        "decisions": n,
        "held_out": n_test,
        "accuracy": accuracy,
        "chance": chance,
        "pi_loss": pi_loss,
        "value_loss": vf_loss,
        "epochs": done / max(1, steps) * epochs,
    }


# --- evaluation ------------------------------------------------------------------------------
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
    from skat_env import tournament

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
    head = f"  {'vs':<16}{'SF/game':>9} {'interval':<17}{'minus opp.':>11} {'interval':<17}"
    lines = [
        f"evaluation at {timesteps:,} steps: learner vs two copies of an opponent, duplicate deals",
        head + f"{'list/game':>10}  deals",
    ]
    for r in rows:
        ci = f"[{r['sf_lo']:+.1f}, {r['sf_hi']:+.1f}]"
        dci = f"[{r['diff_lo']:+.1f}, {r['diff_hi']:+.1f}]"
        lines.append(
            f"  {'2x ' + r['opponent']:<16}{r['sf']:>+9.1f} {ci:<17}{r['diff']:>+11.1f} "
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


# --- logging ----------------------------------------------------------------------------------
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


# --- callbacks --------------------------------------------------------------------------------
class SnapshotCallback(BaseCallback):
    """Freezes the learner into the self-play slots (wrap in ``EveryNTimesteps``)."""

    def __init__(self, slots: SelfPlaySlots):
        super().__init__()
        self.slots = slots

    def _on_step(self) -> bool:
        self.slots.push(self.model.policy)
        return True


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
        from skat_env.agents.ppo import PPOAgent

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
    "parse_dataclass",
    "parse_opponents",
    "DeadlineCallback",
    "DuplicateEvalCallback",
    "NumpyPolicy",
    "ProgressCallback",
    "SelfPlaySlots",
    "SingleGamePool",
    "SnapshotCallback",
    "append_evals",
    "batched",
    "behaviour_clone",
    "duplicate_eval",
    "eval_table",
    "heuristic_decisions",
    "load_evals",
    "make_logger",
    "make_vec_env",
    "plot_learning_curve",
    "save_atomic",
    "vector_pool",
]
