"""``random``: uniform over the legal moves, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Picks each move uniformly among the legal ones (the floor every agent must beat)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)

    def act(self, observation: dict[str, Any]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("random agent asked to act with an empty action mask")
        return int(legal[self._rng.randrange(len(legal))])


__all__ = ["RandomAgent"]
