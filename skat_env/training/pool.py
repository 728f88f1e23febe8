"""The opponent pool of a training run, mixed by prioritised fictitious self-play (PFSP).

Members are fixed policies passed in (the heuristic and its ``margin`` variants, an older
model, ``random``: the env's own seeded random play), frozen snapshots of the learner
(``snapshots`` slots, filled one by one, then the oldest replaced) and, optionally, ``best``:
the learner as it was at its best evaluation so far. Each game of the vector env
(:class:`~skat_env.envs.vector_env.SkatVectorEnv`) draws one member for both other seats;
the env reports which member each finished game used and its outcome (+1 the learner's side
won, -1 lost, 0 thrown in), and :meth:`OpponentPool.record` books them.

**Prioritisation.** ``x_k``, the learner's win rate against member ``k``, is estimated from the
training games themselves: a win counts 1, a thrown-in deal 1/2, a loss 0, with exponential
forgetting (each new game against ``k`` multiplies its earlier counts by ``1 - 1/horizon``, so
about the last ``horizon`` games count, as the learner changes) and a prior of
``prior_games`` games at 1/2 (a member nobody has played yet starts at ``x = 1/2``). A member's
weight is ``f(x_k)``, normalised over the filled members, mixed with a uniform share
``explore`` (so every member keeps being played and measured):

- ``hard``: ``f(x) = (1 - x)^2``, AlphaStar's PFSP: members the learner loses to are played
  most, ones it always beats fade (but never vanish, ``explore``);
- ``even``: ``f(x) = x (1 - x)``: members near the learner's level are played most;
- ``uniform``: ``f(x) = 1``: every member equally.

In Skat the learner's side wins less than half of its games even against its equal (a
declarer wins about three quarters of its games, a lone defender partnership a quarter), so
``x`` is around 0.4-0.5 between equals; the ordering of the members is what counts.

The pool draws nothing itself: :meth:`OpponentPool.weights` goes to the env
(``set_weights``), whose seeded generator draws, so a seeded run repeats exactly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..envs.policy import BasePolicy, Policy, batched

PRIORITIES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "hard": lambda x: (1 - x) ** 2,
    "even": lambda x: x * (1 - x),
    "uniform": lambda x: np.ones_like(x),
}
SNAPSHOT, BEST = "self", "best"  # the member names the CLI reserves


class FrozenSlot(BasePolicy):
    """A pool seat whose policy is replaced in place (a snapshot or the best model), so the
    env keeps its reference; empty (``policy is None``) until filled, and never drawn then."""

    deterministic = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.policy: Any = None

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.policy.act_batch(obs, masks)

    __call__ = act_batch

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        return self.policy.act(observation)


@dataclass
class Member:
    """One pool member and the learner's (forgetful) record against it."""

    name: str
    policy: Any  # a batched policy, a FrozenSlot, or "random"
    wins: float = 0.0  # the learner's wins (thrown-in deals 1/2), forgetting applied
    games: float = 0.0
    played: int = 0  # games recorded, no forgetting

    @property
    def filled(self) -> bool:
        return not isinstance(self.policy, FrozenSlot) or self.policy.policy is not None


class OpponentPool:
    """Training opponents with PFSP weights; see the module docstring.

    ``fixed`` maps a member name to its policy (``"random"`` for the env's random play);
    ``snapshots`` frozen-learner slots (``self0``, ``self1``, ...); ``best`` adds the
    best-model member.
    """

    def __init__(
        self,
        fixed: Mapping[str, Policy | str],
        snapshots: int = 0,
        best: bool = False,
        prioritise: str = "hard",
        horizon: float = 2000.0,
        prior_games: float = 20.0,
        explore: float = 0.1,
    ):
        if prioritise not in PRIORITIES:
            raise ValueError(
                f"prioritise must be one of {', '.join(PRIORITIES)}, got {prioritise!r}"
            )
        checks = {
            "snapshots must be an int >= 0": _is_int(snapshots) and snapshots >= 0,
            "best must be a bool": isinstance(best, bool),
            "horizon must be a number >= 1 (games)": _is_real(horizon) and horizon >= 1,
            "prior_games must be a number > 0": _is_real(prior_games) and prior_games > 0,
            "explore must be a number in [0, 1]": _is_real(explore) and 0 <= explore <= 1,
        }
        for message, ok in checks.items():
            if not ok:
                raise ValueError(message)
        if any(n == BEST or re.fullmatch(rf"{SNAPSHOT}\d*", n) for n in fixed):
            raise ValueError(f"member names {SNAPSHOT!r}, self<k> and {BEST!r} are the pool's "
                             f"own; got {sorted(fixed)}")  # fmt: skip
        self.members = [
            Member(name, p if isinstance(p, str) and p == "random" else batched(p))
            for name, p in fixed.items()
        ]
        self._snapshots = [Member(f"self{k}", FrozenSlot(f"self{k}")) for k in range(snapshots)]
        self._best = Member(BEST, FrozenSlot(BEST)) if best else None
        self.members += self._snapshots + ([self._best] if self._best is not None else [])
        if not self.members:
            raise ValueError("the pool has no members (no policies, no snapshots, no best)")
        self.prioritise, self.horizon = prioritise, float(horizon)
        self.prior_games, self.explore = float(prior_games), float(explore)
        self.best_score = -math.inf
        self._next = 0  # the snapshot slot to fill next

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    @property
    def snapshots(self) -> int:
        """How many snapshot slots the pool has."""
        return len(self._snapshots)

    @property
    def has_best(self) -> bool:
        return self._best is not None

    def env_opponents(self) -> tuple[dict[str, Any], np.ndarray]:
        """The env's ``opponents`` and ``weights``: every member, in pool order (the env's
        ``infos["opponent"]`` indices are these)."""
        return {m.name: m.policy for m in self.members}, self.weights()

    def win_rates(self) -> np.ndarray:
        """The learner's estimated win rate ``x`` against each member (prior included)."""
        wins = np.array([m.wins for m in self.members])
        games = np.array([m.games for m in self.members])
        return (wins + self.prior_games / 2) / (games + self.prior_games)

    def weights(self) -> np.ndarray:
        """The members' sampling probabilities: ``(1 - explore) f(x) / sum f + explore / n``
        over the filled members, 0 for empty slots (uniform while every member is an empty
        slot: a placeholder for building the env; fill a slot before it plays)."""
        filled = np.array([m.filled for m in self.members])
        if not filled.any():  # only empty slots yet: a placeholder, fill one before playing
            return np.full(len(self.members), 1 / len(self.members))
        f = np.where(filled, PRIORITIES[self.prioritise](self.win_rates()), 0.0)
        uniform = filled / filled.sum()
        share = f / f.sum() if f.sum() > 0 else uniform
        return (1 - self.explore) * share + self.explore * uniform

    def record(self, opponents: Sequence[int] | np.ndarray,
               outcomes: Sequence[int] | np.ndarray) -> None:  # fmt: skip
        """Book finished games: ``opponents[i]`` a member index, ``outcomes[i]`` +1 (the
        learner's side won), -1 (lost) or 0 (thrown in). Checked before anything changes."""
        opp = np.asarray(opponents)
        out = np.asarray(outcomes)
        if opp.shape != out.shape or opp.ndim != 1:
            raise ValueError(f"opponents and outcomes must be 1-d and alike, got shapes "
                             f"{opp.shape} and {out.shape}")  # fmt: skip
        if len(opp) and (
            opp.dtype.kind not in "iu" or opp.min() < 0 or opp.max() >= len(self.members)
        ):
            raise ValueError(f"opponents must be member indices 0..{len(self.members) - 1}")
        if len(out) and (out.dtype.kind not in "iu" or not np.isin(out, (-1, 0, 1)).all()):
            raise ValueError("outcomes must be -1, 0 or +1")
        keep = 1 - 1 / self.horizon
        for k in np.unique(opp):
            won = (out[opp == k] + 1) / 2  # 1, 1/2, 0
            n = len(won)
            m = self.members[k]
            # forgetting: the j-th of n new games (from the end) is worth keep**j
            decay = keep ** np.arange(n - 1, -1, -1)
            m.wins = m.wins * keep**n + float(won @ decay)
            m.games = m.games * keep**n + float(decay.sum())
            m.played += n

    def add_snapshot(self, policy: Any) -> str:
        """Freeze ``policy`` (batched, e.g. a :class:`~.numpy_policy.NumpyPolicy`) into the
        next empty slot, else the oldest; its record starts afresh. Returns the slot's name."""
        if not self._snapshots:
            raise ValueError("this pool has no snapshot slots (snapshots=0)")
        m = self._snapshots[self._next]
        self._refill(m, policy)
        self._next = (self._next + 1) % len(self._snapshots)
        return m.name

    def offer_best(self, policy: Any, score: float) -> bool:
        """Make ``policy`` the ``best`` member if ``score`` (its evaluation) beats every score
        offered before; returns whether it did."""
        if self._best is None:
            raise ValueError("this pool has no best member (best=False)")
        if not _is_real(score) or not math.isfinite(score):
            raise ValueError(f"score must be a finite number, got {score!r}")
        if score <= self.best_score:
            return False
        self.best_score = float(score)
        self._refill(self._best, policy)
        return True

    def _refill(self, m: Member, policy: Any) -> None:
        m.policy.policy = policy
        m.wins = m.games = 0.0
        m.played = 0

    def table(self) -> list[dict[str, Any]]:
        """Every member's state (for ``pool.json`` and the log)."""
        x, w = self.win_rates(), self.weights()
        return [
            {"member": m.name, "filled": m.filled, "games": m.played,
             "learner_win_rate": round(float(x[k]), 4), "weight": round(float(w[k]), 4)}
            for k, m in enumerate(self.members)
        ]  # fmt: skip

    def summary(self) -> str:
        """One line: each filled member's weight and the learner's win rate against it."""
        return "pool: " + ", ".join(
            f"{r['member']} {r['weight']:.2f} (x={r['learner_win_rate']:.2f}, {r['games']:,} games)"
            for r in self.table()
            if r["filled"]
        )


def pool_vec_env(pool: OpponentPool, n_envs: int, seed: int, **env_kwargs: Any) -> Any:
    """The SB3 ``VecEnv`` of a pool (:func:`~skat_env.envs.vector_env.sb3_vec_env` with
    episode statistics): one :class:`~skat_env.envs.vector_env.SkatVectorEnv` whose opponents
    are the pool's members; ``env_kwargs`` (``seat``, ``reward_mode``, ``reward_scale``) go
    to it."""
    from stable_baselines3.common.vec_env import VecMonitor

    from ..envs.vector_env import sb3_vec_env

    opponents, weights = pool.env_opponents()
    venv = VecMonitor(sb3_vec_env(n_envs, opponents=opponents, weights=weights, **env_kwargs))
    venv.seed(seed)
    return venv


def _is_int(v: Any) -> bool:
    return isinstance(v, int | np.integer) and not isinstance(v, bool)


def _is_real(v: Any) -> bool:
    return isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)


__all__ = ["BEST", "PRIORITIES", "SNAPSHOT", "FrozenSlot", "Member", "OpponentPool", "pool_vec_env"]
