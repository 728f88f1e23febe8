"""Opponent pools of SB3 training: frozen copies of the learner (self-play) and any other
policies, for the batched (:class:`~skat_env.envs.vector_env.SkatVectorEnv`) and the
single-game (:class:`~skat_env.envs.single_agent.SkatSingleAgentEnv`) envs.

Opponents are passed in as policies (``{"heuristic": agent, "self": None, ...}``, built by the
front end from agent specs); ``self`` stands for the self-play slots, ``random`` for the env's
own seeded random play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..envs.policy import BasePolicy, Policy, batched
from ..integrations.numpy_policy import NumpyPolicy


class SelfPlaySlots:
    """``size`` frozen copies of the learner; :meth:`push` replaces the oldest one.

    Each slot is a policy (batched: ``slot(obs, masks)``) whose weights change in place, so
    the envs keep their references and always play recent snapshots.
    """

    class Slot(BasePolicy):
        name = "self"
        deterministic = True

        def __init__(self) -> None:
            self.policy: NumpyPolicy | None = None

        def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
            assert self.policy is not None, "fill the slots before play"
            return self.policy.act_batch(obs, masks)

        __call__ = act_batch

        def act(self, observation: Mapping[str, np.ndarray]) -> int:
            assert self.policy is not None, "fill the slots before play"
            return self.policy.act(observation)

    def __init__(self, size: int):
        self.slots = [self.Slot() for _ in range(size)]
        self._next = 0

    def fill(self, policy: Any) -> None:
        """Every slot a copy of ``policy`` (an SB3 policy; at the start and on resume)."""
        frozen = NumpyPolicy.from_policy(policy)
        for slot in self.slots:
            slot.policy = frozen

    def push(self, policy: Any) -> None:
        """Freeze ``policy`` (an SB3 policy) into the oldest slot."""
        self.slots[self._next].policy = NumpyPolicy.from_policy(policy)
        self._next = (self._next + 1) % len(self.slots)


def vector_pool(
    weights: Mapping[str, float], policies: Mapping[str, Policy], slots: SelfPlaySlots
) -> tuple[dict[str, Any], list[float]]:
    """The opponent pool of :class:`~skat_env.envs.vector_env.SkatVectorEnv`: batched
    policies and weights. ``self`` is split evenly over the self-play slots; ``random`` is the
    env's own seeded random play; every other name is ``policies[name]``, batched."""
    pool: dict[str, Any] = {}
    w: list[float] = []
    for name, weight in weights.items():
        if name == "self":
            for k, slot in enumerate(slots.slots):
                pool[f"self{k}"] = slot
                w.append(weight / len(slots.slots))
        else:
            pool[name] = "random" if name == "random" else batched(policies[name])
            w.append(weight)
    return pool, w


class SingleGamePool:
    """Opponent sampler of :class:`~skat_env.envs.single_agent.SkatSingleAgentEnv`: one kind
    per game by weight, both seats of that kind; each ``self`` seat draws its own slot."""

    def __init__(
        self, weights: Mapping[str, float], policies: Mapping[str, Policy], slots: SelfPlaySlots
    ):
        self.specs = list(weights)
        self.p = np.array([weights[s] for s in self.specs])
        self.slots = slots
        self.agents = {s: policies[s] for s in self.specs if s != "self"}

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
    policies: Mapping[str, Policy],
    slots: SelfPlaySlots,
    seed: int,
    **env_kwargs: Any,
) -> Any:
    """The SB3 ``VecEnv`` a learner trains on, with episode statistics: ``kind="vector"``
    runs ``n_envs`` games in one :class:`~skat_env.envs.vector_env.SkatVectorEnv` (batched
    opponents); ``"single"`` one :class:`~skat_env.envs.single_agent.SkatSingleAgentEnv` per
    env in a ``DummyVecEnv``. ``weights`` name the opponents (``self``, ``random`` or a key of
    ``policies``); ``env_kwargs`` (``seat``, ``reward_mode``, ``reward_scale``) go to the env."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from ..envs.single_agent import SkatSingleAgentEnv
    from ..envs.vector_env import sb3_vec_env

    if kind == "vector":
        pool, w = vector_pool(weights, policies, slots)
        venv: Any = VecMonitor(sb3_vec_env(n_envs, opponents=pool, weights=w, **env_kwargs))
    elif kind == "single":
        sampler = SingleGamePool(weights, policies, slots)
        make = lambda: Monitor(SkatSingleAgentEnv(opponents=sampler, **env_kwargs))  # noqa: E731
        venv = DummyVecEnv([make] * n_envs)
    else:
        raise ValueError(f"the env kind is vector or single, got {kind!r}")
    venv.seed(seed)
    return venv


__all__ = ["SelfPlaySlots", "SingleGamePool", "make_vec_env", "vector_pool"]
