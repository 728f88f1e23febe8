"""``ppo`` (the bundled model) and ``ppo:PATH``: a trained sb3-contrib ``MaskablePPO`` model.

``ppo`` alone plays the shipped model, installed with the package as NumPy weights
(``skat_env/agents/models/ppo_skat.npz``, exported from ``models/ppo_skat.zip``; its training
record beside it): it needs neither torch nor the repository. ``ppo:DATE`` plays an earlier
shipped model, kept as package data too (:data:`RELEASES`; the benchmark panel plays them,
so its figures never change). ``ppo:PATH`` loads a saved model zip (torch and sb3-contrib)
or such an ``.npz``; a release name wins over a file of that name (write ``./NAME``).

Plays greedily (the best legal move of the policy's logits) through a NumPy forward pass,
:class:`skat_env.integrations.numpy_policy.NumpyPolicy`: the moves of SB3's
``predict(obs, action_masks=mask, deterministic=True)`` (a test checks it) at a fraction of
the cost. The model is loaded on first use (torch only for a zip). ``act_batch`` plays
many games at once (batched opponents in ``SkatVectorEnv``).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.envs.policy import Observation
from skat_env.integrations.numpy_policy import NumpyPolicy

from .base import Agent

#: the shipped model as package data, policy and value (numpy_policy.export(zip, npz))
BUNDLED_MODEL = Path(__file__).with_name("models") / "ppo_skat.npz"
#: earlier shipped models by the date they shipped (``ppo:DATE``): their policy weights
RELEASES = {
    date: BUNDLED_MODEL.with_name(f"ppo_skat_{date}.npz") for date in ("2026-12-02", "2026-12-05")
}


class PPOAgent(Agent):
    """Greedy play of a saved ``MaskablePPO`` policy (``model.zip``)."""

    deterministic = True  # greedy on the observation alone: batched across games

    #: the model file; None for a frozen copy of a live policy (:meth:`from_policy`)
    path: Path | None

    def __init__(self, path: str | Path | None = None):
        self.path = file = BUNDLED_MODEL if path is None else RELEASES.get(str(path), Path(path))
        if not file.is_file():
            raise FileNotFoundError(f"no model file at {str(file)!r}")
        if not zipfile.is_zipfile(file):  # an .npz is a zip too
            raise ValueError(f"{str(file)!r} is not a saved model (.zip or .npz)")
        self.name = "ppo" if path is None else f"ppo:{path}"
        self._model: Any = None

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo") -> PPOAgent:
        """An agent playing a frozen copy of a live SB3 policy (no file)."""
        agent = cls.__new__(cls)
        agent.path, agent.name = None, name
        agent._model = NumpyPolicy.from_policy(policy)
        return agent

    @property
    def policy(self) -> Any:
        """The :class:`~skat_env.integrations.numpy_policy.NumpyPolicy`, loaded on first use."""
        if self._model is None:
            assert self.path is not None  # only a copy of a live policy has none, and a model
            try:
                self._model = NumpyPolicy.load(self.path)
            except Exception as e:  # a zip that is not an sb3 model
                raise ValueError(f"cannot load MaskablePPO model {str(self.path)!r}: {e}") from None
        return self._model

    def act(self, observation: Observation) -> int:
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


__all__ = ["BUNDLED_MODEL", "RELEASES", "PPOAgent"]
