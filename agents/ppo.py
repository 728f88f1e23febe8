"""``ppo:PATH``: a trained sb3-contrib ``MaskablePPO`` model as an agent.

Plays greedily (the best legal move of the policy's logits) through a NumPy forward pass,
:class:`skat_env.integrations.sb3.NumpyPolicy`: the moves of SB3's
``predict(obs, action_masks=mask, deterministic=True)`` (a test checks it) at a fraction of
the cost. The model is loaded on first use (torch is imported only then). ``act_batch`` plays
many games at once (batched opponents in ``SkatVectorEnv``).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import Agent


class PPOAgent(Agent):
    """Greedy play of a saved ``MaskablePPO`` policy (``model.zip``)."""

    deterministic = True  # greedy on the observation alone: batched across games

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"no model file at {str(self.path)!r}")
        if not zipfile.is_zipfile(self.path):
            raise ValueError(f"{str(self.path)!r} is not a saved model (.zip)")
        self.name = f"ppo:{path}"
        self._model: Any = None

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo") -> PPOAgent:
        """An agent playing a frozen copy of a live SB3 policy (no file)."""
        from skat_env.integrations.sb3 import NumpyPolicy

        agent = cls.__new__(cls)
        agent.path, agent.name = None, name
        agent._model = NumpyPolicy.from_policy(policy)
        return agent

    @property
    def policy(self) -> Any:
        """The :class:`~skat_env.integrations.sb3.NumpyPolicy`, loaded on first use."""
        if self._model is None:
            from skat_env.integrations.sb3 import NumpyPolicy

            try:
                self._model = NumpyPolicy.load(self.path)
            except Exception as e:  # a zip that is not an sb3 model
                raise ValueError(f"cannot load MaskablePPO model {str(self.path)!r}: {e}") from None
        return self._model

    def act(self, observation: dict[str, Any]) -> int:
        return self.policy.act(observation)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal move per row of ``obs[B, N]`` under ``masks[B, 121]``: ``int64[B]``."""
        return self.policy.act_batch(obs, masks)

    def __deepcopy__(self, memo: dict) -> PPOAgent:
        """A copy sharing the loaded weights (read-only): tournaments copy agents per game."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # not copy.copy: that goes through __getstate__
        memo[id(self)] = new
        return new

    def __getstate__(self) -> dict:
        """Pickle without a file's loaded weights (worker processes load their own copy)."""
        state = self.__dict__.copy()
        if self.path is not None:
            state["_model"] = None
        return state


__all__ = ["PPOAgent"]
