"""Distillation of a teacher's recorded decisions as an auxiliary loss during PPO.

The data are the shards of :mod:`.distill` (``obs``, ``mask``, ``move`` and, for a search
teacher's card play, ``values``: the search's mean utility of every card it solved, NaN
elsewhere). Each decision gets a *soft target* over the moves: where the teacher solved two or
more cards, ``softmax(values / temperature)`` over those cards (a card ``temperature`` utility
points worse than another gets ``1/e`` of its share; the utility tracks Seeger-Fabian points,
so the default 10 is about a fifth of a game's value); elsewhere (contract decisions, a single
legal card), and everywhere with temperature 0, the teacher's move alone. Double-dummy values
tie often (the soft targets of the recorded default ``pimc`` have a mean entropy of 1.04 nats
over about four cards at temperature 10), so soft targets also pull towards cards the teacher
only found equal in its worlds; its move breaks those ties by the heuristic's conventions.

:meth:`DistillationLoss.attach` hooks the loss into a ``MaskablePPO`` model's optimizer (a
step pre-hook, so SB3's training loop is untouched): before every PPO gradient step it draws a
minibatch of teacher decisions, adds the gradient of ``coef`` times the cross-entropy
``-sum target * log pi(move)`` (the policy's masked log-probabilities) to PPO's, clips the sum
to the model's ``max_grad_norm`` again, and logs the loss as ``train/distill_loss``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .cloning import policy_outputs

CARDS = 32  # move ids 0..31 are the cards, in card-id order (the index of ``values``)


def soft_targets(
    move: np.ndarray, values: np.ndarray | None, temperature: float = 10.0
) -> np.ndarray:
    """float32[n, 121]: per decision, the distribution the policy is pulled towards (see the
    module docstring)."""
    n = len(move)
    target = np.zeros((n, 121), np.float32)
    target[np.arange(n), move] = 1.0
    if values is None or temperature == 0:
        return target
    solved = ~np.isnan(values)
    rows = np.flatnonzero(searched_rows(values))
    v = np.where(solved[rows], values[rows], -np.inf) / temperature
    p = np.exp(v - v.max(1, keepdims=True))
    target[rows] = 0.0
    target[rows, :CARDS] = p / p.sum(1, keepdims=True)
    return target


def searched_rows(values: np.ndarray) -> np.ndarray:
    """bool[n] over the recorded ``values[n, 32]``: the decisions where the teacher searched
    two or more cards (its card play with a choice)."""
    return (~np.isnan(values)).sum(1) >= 2


class DistillationLoss:
    """``coef`` times the cross-entropy of the policy against a teacher's soft targets."""

    def __init__(
        self,
        data: Mapping[str, np.ndarray],
        coef: float,
        batch_size: int = 256,
        temperature: float = 10.0,
        seed: int = 0,
    ):
        import torch

        checks = {
            "coef must be a number > 0": _positive(coef),
            "batch_size must be an int > 0": isinstance(batch_size, int)
            and not isinstance(batch_size, bool)
            and batch_size > 0,
            "temperature must be a number >= 0": temperature == 0
            and type(temperature) is not bool
            or _positive(temperature),
            "data must have obs, mask and move rows": all(
                k in data for k in ("obs", "mask", "move")
            )
            and len(data["move"]) > 0,
        }
        for message, ok in checks.items():
            if not ok:
                raise ValueError(message)
        n = len(data["move"])
        values = data.get("values")
        if any(len(data[k]) != n for k in ("obs", "mask")) or (
            values is not None and values.shape != (n, CARDS)
        ):
            raise ValueError("data rows disagree: obs, mask, move (and values[n, 32]) must match")
        self.coef, self.batch_size = float(coef), batch_size
        self.obs = torch.as_tensor(np.asarray(data["obs"], np.float32))
        self.mask = torch.as_tensor(np.asarray(data["mask"], bool))
        self.target = torch.as_tensor(soft_targets(np.asarray(data["move"]), values, temperature))
        self.soft = int((self.target > 0).sum(1).gt(1).sum())  # decisions with soft targets
        self.gen = torch.Generator().manual_seed(seed)
        self.model: Any = None

    def loss(self, policy: Any, idx: Any = None) -> Any:
        """The cross-entropy (a torch scalar, with gradient) on the rows ``idx`` (all: None)."""
        import torch

        idx = slice(None) if idx is None else idx
        logits, _ = policy_outputs(policy, self.obs[idx], self.mask[idx])
        logp = torch.log_softmax(logits, -1)
        target = self.target[idx]
        return -(target * logp.masked_fill(target == 0, 0.0)).sum(-1).mean()

    def attach(self, model: Any) -> Any:
        """Add the loss to every optimizer step of ``model`` (a ``MaskablePPO``); returns the
        hook's handle (``.remove()`` detaches it). Attach again after loading a model."""
        self.model = model
        return model.policy.optimizer.register_step_pre_hook(self._before_step)

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        import torch

        policy = self.model.policy
        idx = torch.randint(len(self.target), (self.batch_size,), generator=self.gen)
        with torch.enable_grad():
            loss = self.loss(policy, idx)
            (self.coef * loss).backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), self.model.max_grad_norm)
        self.model.logger.record_mean("train/distill_loss", loss.item())


def _positive(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and v > 0 and np.isfinite(v)


__all__ = ["DistillationLoss", "searched_rows", "soft_targets"]
