"""Record a teacher's decisions for behaviour cloning (distillation from search).

    python -m skat_env.cli.distill --teacher pimc --games 2000 --out data/pimc
    skat-train --init data:data/pimc                # clone those decisions, then PPO

The teacher (a policy; the front end, :mod:`skat_env.cli.distill`, builds it from an agent
spec: ``pimc``, ``heuristic``, ``ppo:PATH``) plays all three seats of
random deals. Every decision gives the acting seat's observation and legal mask (what the
learner seat sees), the teacher's move and that seat's final reward (the value head's target),
saved in compressed NumPy shards of ``--shard-games`` games
(``shard_00000.npz``, ...). With ``contracts_only`` only the decisions before the first card
(bidding, skat, discard, declaration) are kept (the games are still played out for their
rewards): the data for distilling a teacher's contract decisions and not its card play.
Shard ``k`` always holds the same deals (seed ``seed + k``), so a
stopped run resumes by skipping the shards already written, more ``--games`` later only adds
shards, and ``--workers`` processes give the same shards as one. Search teachers are slow
(``pimc``: about 0.1-0.3 s per decision on one core), hence the shards.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from ..core.game import PLAY, Game
from ..core.rewards import rewards_of
from ..encoding.observation import observe
from ..envs.policy import Policy, decide, reset_policy


def record_games(teacher: Policy, games: int, seed: int, reward_mode: str,
                 contracts_only: bool = False) -> dict[str, Any]:  # fmt: skip
    """The teacher's decisions in ``games`` random deals from ``seed`` (raw rewards; with
    ``contracts_only`` those before the first card)."""
    rng = np.random.default_rng(seed)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    moves: list[int] = []
    returns: list[float] = []
    for _ in range(games):
        game, seats = Game.random(rng), []
        reset_policy(teacher, int(rng.integers(2**31)))
        while not game.is_over:
            seat = game.to_act
            o = observe(game, seat)
            move = decide(teacher, game, seat)
            if contracts_only and game.phase == PLAY:
                game.step(move)
                continue
            obs.append(o["observation"])
            masks.append(o["action_mask"].astype(bool))
            moves.append(move)
            seats.append(seat)
            game.step(move)
        assert game.result is not None  # the game is over
        reward = rewards_of(game.result, reward_mode)
        returns.extend(float(reward[s]) for s in seats)
    return {"obs": np.array(obs, np.float32), "mask": np.array(masks, bool),
            "move": np.array(moves, np.int64),
            "return": np.array(returns, np.float32)}  # fmt: skip


TeacherFactory = Callable[[], Policy]
PHASES = ("all", "contracts")  # a shard's decisions: every one, or those before the first card
_TEACHERS: dict[str, Policy] = {}  # one teacher per label in each process


def write_shard(make_teacher: TeacherFactory, teacher_spec: str, path: Path, seed: int,
                games: int, reward_mode: str, contracts_only: bool = False) -> Path:  # fmt: skip
    """Record one shard (``games`` games of ``seed``) and write it atomically to ``path``.
    ``make_teacher()`` builds the teacher once per process (picklable, for the workers);
    ``teacher_spec`` names it in the shard and keys that cache."""
    teacher = _TEACHERS.get(teacher_spec)
    if teacher is None:
        teacher = _TEACHERS[teacher_spec] = make_teacher()
    data = record_games(teacher, games, seed, reward_mode, contracts_only)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez_compressed(tmp, **data, teacher=teacher_spec, reward_mode=reward_mode, games=games,
                        phases=PHASES[contracts_only])  # fmt: skip
    os.replace(tmp, path)  # a shard is there whole or not at all
    return path


def write_shards(make_teacher: TeacherFactory, teacher_spec: str, games: int, out: Path,
                 seed: int = 0,
                 shard_games: int = 50, reward_mode: str = "seeger_fabian",
                 progress: bool = True, workers: int = 1,
                 contracts_only: bool = False) -> list[Path]:  # fmt: skip
    """Write the shards of ``games`` games to ``out`` (those present are kept); return all.
    A shard's games depend only on its seed, so ``workers`` does not change them."""
    from tqdm import tqdm

    out.mkdir(parents=True, exist_ok=True)
    n_shards = -(-games // shard_games)
    paths = [out / f"shard_{k:05d}.npz" for k in range(n_shards)]
    todo = [k for k, p in enumerate(paths) if not p.exists()]
    bar = tqdm(total=n_shards * shard_games, initial=(n_shards - len(todo)) * shard_games,
               unit="game", desc=f"{teacher_spec} games", disable=not progress)  # fmt: skip
    if workers == 1:
        for k in todo:
            write_shard(make_teacher, teacher_spec, paths[k], seed + k, shard_games, reward_mode,
                        contracts_only)  # fmt: skip
            bar.update(shard_games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            jobs = [pool.submit(write_shard, make_teacher, teacher_spec, paths[k], seed + k,
                                shard_games, reward_mode, contracts_only)
                    for k in todo]  # fmt: skip
            for job in as_completed(jobs):
                job.result()
                bar.update(shard_games)
    bar.close()
    return paths


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
    keys = ["obs", "mask", "move", "return"]
    data: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    data["return"] = data["return"] * np.float32(reward_scale)
    data["games"] = int(sum(int(p["games"]) for p in parts))
    return data


__all__ = ["load_shards", "record_games", "write_shard", "write_shards"]
