"""Record a teacher's decisions for behaviour cloning (distillation from search).

    python -m skat_env.cli.distill --teacher pimc --games 2000 --out data/pimc
    python -m skat_env.cli.distill --teacher pimc:fast --student ppo --games 2000 --out data/d
    skat-train --init data:data/pimc                # clone those decisions, then PPO

The teacher (a policy; the front end, :mod:`skat_env.cli.distill`, builds it from an agent
spec: ``pimc``, ``heuristic``, ``ppo:PATH``) labels every decision of random deals: the acting
seat's observation and legal mask (what the learner seat sees), the teacher's move and that
seat's final reward (the value head's target). Without a student the teacher also plays all
three seats. With a ``student`` (DAgger) the student plays, or the teacher with probability
``beta``, and the teacher labels the states the student's own play leads to, so a network
cloned from them learns what to do where it actually goes, not only where the teacher goes.

The data are saved in compressed NumPy shards of ``shard_games`` games
(``shard_00000.npz``, ...). With ``contracts_only`` only the decisions before the first card
(bidding, skat, discard, declaration) are kept (the games are still played out for their
rewards): the data for distilling a teacher's contract decisions and not its card play.
Shard ``k`` always holds the same deals (seed ``seed + k``), so a stopped run resumes by
skipping the shards already written, more games later only add shards, and ``workers``
processes or Ray tasks on a cluster (``address``) give the same shards as one process.
Search teachers are slow (``pimc:fast``: about 0.05 s per decision on one core), hence the
shards; :class:`Shards` reports the labelled decisions per CPU second.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cluster import ray_tasks
from ..core.game import PLAY, Game
from ..core.moves import NUM_MOVES
from ..core.rewards import rewards_of
from ..encoding.observation import OBS_SIZE, observe
from ..envs.policy import Policy, decide, reset_policy

KEYS = ("obs", "mask", "move", "return")  # what cloning reads; shards also hold "played"


def record_games(teacher: Policy, games: int, seed: int, reward_mode: str,
                 contracts_only: bool = False, student: Policy | None = None,
                 beta: float = 0.0) -> dict[str, Any]:  # fmt: skip
    """The teacher's decisions in ``games`` random deals from ``seed`` (raw rewards; with
    ``contracts_only`` those before the first card). With a ``student``, the student plays
    each move (the teacher with probability ``beta``) and the teacher labels it; ``played``
    holds the moves made, ``move`` the teacher's."""
    rng = np.random.default_rng(seed)
    mixture = np.random.default_rng([seed, 1])  # the student's: the deals stay the teacher's
    rows: dict[str, list[Any]] = {"obs": [], "mask": [], "move": [], "played": []}
    returns: list[float] = []
    for _ in range(games):
        game, seats = Game.random(rng), []
        reset_policy(teacher, int(rng.integers(2**31)))
        if student is not None:
            reset_policy(student, int(mixture.integers(2**31)))
        while not game.is_over:
            seat = game.to_act
            if contracts_only and game.phase == PLAY:
                game.step(decide(student or teacher, game, seat))
                continue
            o = observe(game, seat)
            label = played = decide(teacher, game, seat)
            if student is not None and mixture.random() >= beta:
                played = decide(student, game, seat)
            rows["obs"].append(o["observation"])
            rows["mask"].append(o["action_mask"].astype(bool))
            rows["move"].append(label)
            rows["played"].append(played)
            seats.append(seat)
            game.step(played)
        assert game.result is not None  # the game is over
        reward = rewards_of(game.result, reward_mode)
        returns.extend(float(reward[s]) for s in seats)
    return {"obs": np.array(rows["obs"], np.float32).reshape(-1, OBS_SIZE),
            "mask": np.array(rows["mask"], bool).reshape(-1, NUM_MOVES),
            "move": np.array(rows["move"], np.int64),
            "played": np.array(rows["played"], np.int64),
            "return": np.array(returns, np.float32)}  # fmt: skip


PolicyFactory = Callable[[], Policy]
PHASES = ("all", "contracts")  # a shard's decisions: every one, or those before the first card
_POLICIES: dict[str, Policy] = {}  # one policy per spec in each process


@dataclass(frozen=True)
class Labelling:
    """What a shard records: the teacher (and the student, with ``beta``) as picklable
    factories with their specs (the specs name them in the shards and key each process's
    cache), the reward mode, and whether only the contract decisions are kept."""

    make_teacher: PolicyFactory
    teacher: str
    reward_mode: str = "seeger_fabian"
    contracts_only: bool = False
    make_student: PolicyFactory | None = None
    student: str = ""
    beta: float = 0.0

    def label(self, seed: int, games: int) -> tuple[dict[str, Any], float]:
        """The data of one shard and the CPU seconds it took (in whichever process)."""
        teacher = _cached(self.teacher, self.make_teacher)
        student = None
        if self.make_student is not None:
            student = _cached("student " + self.student, self.make_student)
        start = time.process_time()
        data = record_games(teacher, games, seed, self.reward_mode, self.contracts_only,
                            student, self.beta)  # fmt: skip
        return data, time.process_time() - start

    def save(self, path: Path, data: dict[str, Any], games: int) -> None:
        """Write a shard atomically: it is there whole or not at all."""
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez_compressed(tmp, **data, teacher=self.teacher, student=self.student,
                            beta=self.beta, reward_mode=self.reward_mode, games=games,
                            phases=PHASES[self.contracts_only])  # fmt: skip
        os.replace(tmp, path)


def _cached(spec: str, make: PolicyFactory) -> Policy:
    if spec not in _POLICIES:
        _POLICIES[spec] = make()
    return _POLICIES[spec]


@dataclass
class Shards:
    """The shards of a run, and what the ones written now cost."""

    paths: list[Path]
    written: int = 0  # shards written now (the others were there)
    decisions: int = 0  # labelled decisions in those
    cpu_seconds: float = 0.0

    @property
    def per_cpu_second(self) -> float:
        """Labelled decisions per CPU second (per core)."""
        return self.decisions / self.cpu_seconds if self.cpu_seconds else 0.0


def write_shards(labelling: Labelling, games: int, out: Path, seed: int = 0,
                 shard_games: int = 50, progress: bool = True, workers: int = 1,
                 address: str | None = None) -> Shards:  # fmt: skip
    """Write the shards of ``games`` games to ``out`` (those present are kept), in this
    process, in ``workers`` processes, or as Ray tasks on the cluster at ``address``. A
    shard's games depend only on its seed, so none of these changes them."""
    from tqdm import tqdm

    n_shards = -(-games // shard_games)
    paths = [out / f"shard_{k:05d}.npz" for k in range(n_shards)]
    todo = [k for k, p in enumerate(paths) if not p.exists()]
    run = Shards(paths)
    bar = tqdm(total=n_shards * shard_games, initial=(n_shards - len(todo)) * shard_games,
               unit="game", desc=f"{labelling.teacher} games", disable=not progress)  # fmt: skip
    if address is not None:
        labelled = _on_ray(labelling, todo, seed, shard_games, address)
    elif workers > 1:
        labelled = _in_processes(labelling, todo, seed, shard_games, workers)
    else:
        labelled = ((k, labelling.label(seed + k, shard_games)) for k in todo)
    for k, (data, cpu) in labelled:
        out.mkdir(parents=True, exist_ok=True)  # not before a shard is there to write
        labelling.save(paths[k], data, shard_games)
        run.written += 1
        run.decisions += len(data["move"])
        run.cpu_seconds += cpu
        bar.update(shard_games)
        bar.set_postfix_str(f"{run.per_cpu_second:.1f} decisions/CPU s")
    bar.close()
    return run


Labelled = Iterator[tuple[int, tuple[dict[str, Any], float]]]


def _in_processes(labelling: Labelling, todo: list[int], seed: int, games: int,
                  workers: int) -> Labelled:  # fmt: skip
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = {pool.submit(labelling.label, seed + k, games): k for k in todo}
        for job in as_completed(jobs):
            yield jobs[job], job.result()


def _on_ray(labelling: Labelling, todo: list[int], seed: int, games: int,
            address: str) -> Labelled:  # fmt: skip
    """Shards as Ray tasks (one CPU each); the data come back here to be written."""
    yield from ray_tasks(_label, labelling, ((k, (seed + k, games)) for k in todo), address)


def _label(labelling: Labelling, seed: int, games: int) -> tuple[dict[str, Any], float]:
    return labelling.label(seed, games)


def load_shards(path: Path, reward_mode: str, reward_scale: float = 1.0) -> dict[str, Any]:
    """All shards in ``path`` as one data set for :func:`.cloning.behaviour_clone` (returns times
    ``reward_scale``); ``ValueError`` when they were recorded under another reward mode or mix
    shards of every decision with contract-only ones."""
    shards = Path(path).glob("shard_*.npz")  # not a shard still being written (.tmp.npz)
    files = sorted(f for f in shards if not f.name.endswith(".tmp.npz"))
    if not files:
        raise FileNotFoundError(f"no shard_*.npz files in {path}")
    parts = [np.load(f) for f in files]
    modes = {str(p["reward_mode"]) for p in parts}
    if modes != {reward_mode}:
        raise ValueError(f"{path}: recorded under reward mode {', '.join(sorted(modes))}, "
                         f"not {reward_mode}")  # fmt: skip
    if len({str(p["phases"]) if "phases" in p else PHASES[0] for p in parts}) > 1:
        raise ValueError(f"{path}: mixes shards of every decision with contract-only ones")
    data: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in KEYS}
    data["return"] = data["return"] * np.float32(reward_scale)
    data["games"] = int(sum(int(p["games"]) for p in parts))
    return data


__all__ = ["Labelling", "Shards", "load_shards", "record_games", "write_shards"]
