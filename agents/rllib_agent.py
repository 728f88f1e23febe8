"""``rllib:PATH[#MODULE]``: a policy trained with Ray RLlib (``train_rllib.py``) as an agent.

``PATH`` is an RLlib checkpoint directory written by ``train_rllib.py`` (which exports each
module's policy network into it as ``skat_policy_<module>.safetensors``) or such a policy file
itself (:func:`skat_env.integrations.masked_mlp.save_policy`; any name).
``MODULE`` picks the module of a checkpoint: ``shared`` (the default; self-play) or
``player_0..2`` (``--policies per_seat``). Loading needs only torch, not Ray, so the agent
plays in the main environment. It acts greedily on the masked logits, so it never plays an
illegal move; ``act_batch`` decides for many games at once (the tournament uses it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from skat_env.envs.policy import Observation
from skat_env.integrations.masked_mlp import SUFFIX

from .base import Agent

DEFAULT_MODULE = "shared"


def resolve(arg: str) -> Path:
    """The policy file an ``rllib:`` argument names (``DIR``, ``DIR#MODULE`` or ``FILE``)."""
    where, _, module = arg.partition("#")
    path = Path(where)
    if path.is_file():
        if module:
            raise ValueError(f"#{module} selects a module of a checkpoint directory, not a file")
        return path
    if not path.is_dir():
        raise FileNotFoundError(f"no RLlib checkpoint or policy file at {where!r}")
    module = module or DEFAULT_MODULE
    file = path / f"skat_policy_{module}{SUFFIX}"
    if not file.is_file():
        found = sorted(
            p.stem.removeprefix("skat_policy_") for p in path.glob(f"skat_policy_*{SUFFIX}")
        )
        hint = f"it has: {', '.join(found)}" if found else "it was not written by train_rllib.py"
        raise FileNotFoundError(f"checkpoint {where!r} has no policy {module!r} ({hint})")
    return file


class RLlibAgent(Agent):
    """Greedy play of an exported RLlib policy network (see the module docstring)."""

    deterministic = True  # greedy on the observation alone: batched across games

    def __init__(self, arg: str):
        self.path = resolve(arg)
        self.name = f"rllib:{arg}"
        self.policy: Any = self._load()  # fails now, not mid-tournament, for a bad file

    def _load(self) -> Any:
        import torch

        from skat_env.integrations.masked_mlp import MaskedPolicy, load_policy

        torch.set_num_threads(1)
        net, self.meta = load_policy(self.path)  # ValueError for a file of another format
        return MaskedPolicy(net, deterministic=True)

    def act(self, observation: Observation) -> int:
        if self.policy is None:
            self.policy = self._load()
        return self.policy.act(observation)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal move per row of ``obs[B, N]`` under ``masks[B, 121]`` (the
        tournament plays many games in lockstep with it): ``int64[B]``."""
        if self.policy is None:
            self.policy = self._load()
        return self.policy.act_batch(obs, masks)

    def __getstate__(self) -> dict:
        """Pickle without the network (worker processes load their own copy)."""
        state = self.__dict__.copy()
        state["policy"] = None
        return state


__all__ = ["DEFAULT_MODULE", "RLlibAgent", "resolve"]
