"""``ppo:PATH``: a trained sb3-contrib ``MaskablePPO`` model as an agent.

The model is loaded on first use (torch is imported only then) and acts greedily on the
flat observation vector with the action mask, the way the single-agent Gymnasium view
trains it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import Agent


class PPOAgent(Agent):
    """Greedy play of a saved ``MaskablePPO`` policy (``model.zip``)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"no model file at {str(self.path)!r}")
        if not zipfile.is_zipfile(self.path):
            raise ValueError(f"{str(self.path)!r} is not a saved model (.zip)")
        self.name = f"ppo:{path}"
        self._model: Any = None

    def _load(self) -> Any:
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        try:
            return MaskablePPO.load(str(self.path), device="cpu")
        except Exception as e:  # a zip that is not an sb3 model
            raise ValueError(f"cannot load MaskablePPO model {str(self.path)!r}: {e}") from None

    def act(self, observation: dict[str, Any]) -> int:
        if self._model is None:
            self._model = self._load()
        mask = np.asarray(observation["action_mask"]).astype(bool)
        action, _ = self._model.predict(
            np.asarray(observation["observation"]), action_masks=mask, deterministic=True
        )
        return int(action)

    def __getstate__(self) -> dict:
        """Pickle without the loaded model (worker processes load their own copy)."""
        state = self.__dict__.copy()
        state["_model"] = None
        return state


__all__ = ["PPOAgent"]
