"""The masked MLP policy network and its portable file (torch + safetensors, no Ray).

The RLlib module (:mod:`skat_env.integrations.rllib`) trains these networks; training exports
the policy network beside each RLlib checkpoint as a safetensors file (the weights; the layer
widths and plain-data metadata in its JSON header), so a trained policy plays wherever torch is
installed — ``evaluate.py`` in the main environment, which has no Ray — and loading runs no
pickled code.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

SUFFIX = ".safetensors"  # of the policy files train_rllib.py exports
FORMAT = "skat-env/masked-mlp/2"  # safetensors; /1 was a torch.save dict


def mlp(sizes: Sequence[int]) -> nn.Sequential:
    """Linear layers ``sizes[0] -> ... -> sizes[-1]`` with ReLU between them (none at the end)."""
    if len(sizes) < 2 or any(int(s) < 1 for s in sizes):
        raise ValueError(f"an MLP needs at least two positive layer widths, got {list(sizes)}")
    layers: list[nn.Module] = []
    for i, (n_in, n_out) in enumerate(pairwise(sizes)):
        if i:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(int(n_in), int(n_out)))
    return nn.Sequential(*layers)


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal move (mask <= 0) set to the lowest float.

    After a softmax those moves have probability exactly 0; a row with no legal move (the
    terminal observations RLlib also batches) becomes uniform instead of NaN.
    """
    return logits.masked_fill(mask <= 0, torch.finfo(logits.dtype).min)


def save_policy(path: str | Path, net: nn.Sequential, **meta: Any) -> Path:
    """Write ``net`` (built by :func:`mlp`) to ``path`` atomically as safetensors; ``meta``
    must be JSON data."""
    from safetensors.torch import save_file

    path = Path(path)
    sizes = [net[0].in_features] + [m.out_features for m in net if isinstance(m, nn.Linear)]
    state = {k: v.detach().cpu().contiguous() for k, v in net.state_dict().items()}
    header = {"format": FORMAT, "sizes": json.dumps(sizes), "meta": json.dumps(meta)}
    tmp = path.with_name(path.name + ".tmp")
    save_file(state, tmp, metadata=header)
    os.replace(tmp, path)
    return path


def load_policy(path: str | Path) -> tuple[nn.Sequential, dict[str, Any]]:
    """The network saved by :func:`save_policy` (in eval mode) and its metadata."""
    from safetensors import safe_open

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no policy file at {path}")
    try:
        with safe_open(path, framework="pt") as f:
            header = f.metadata() or {}
            state = {k: f.get_tensor(k) for k in f.keys()}
    except Exception as e:  # safetensors raises its own error types for foreign files
        raise ValueError(f"{path} is not a saved skat-env policy file ({FORMAT}): {e}") from None
    if header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} policy file")
    net = mlp(json.loads(header["sizes"]))
    net.load_state_dict(state)
    net.eval()
    return net, dict(json.loads(header.get("meta", "{}")))


class MaskedPolicy:
    """Chooses legal moves with a policy network: the best masked logit, or a sample."""

    def __init__(self, net: nn.Sequential, deterministic: bool = True, seed: int | None = None):
        self.net = net
        self.deterministic = deterministic
        self.obs_size = net[0].in_features
        self._gen = torch.Generator().manual_seed(0 if seed is None else seed)

    def reseed(self, seed: int) -> None:
        self._gen.manual_seed(seed)

    @torch.inference_mode()
    def logits(self, observation: dict[str, Any]) -> torch.Tensor:
        """Masked logits (shape ``[121]``) for one observation dict."""
        obs = np.asarray(observation["observation"], dtype=np.float32)
        if obs.shape != (self.obs_size,):
            raise ValueError(
                f"the policy takes observations of size {self.obs_size}, got shape {obs.shape} "
                "(was it trained with another observation_mode?)"
            )
        mask = torch.as_tensor(np.asarray(observation["action_mask"]))
        return mask_logits(self.net(torch.from_numpy(obs)), mask)

    @torch.inference_mode()
    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal move per row of ``observations[B, N]`` under ``masks[B, 121]``
        (greedy only: sampled moves would depend on the batch), ``int64[B]``."""
        if not self.deterministic:
            raise ValueError("act_batch plays greedily; sample with act() one row at a time")
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        if obs.ndim != 2 or obs.shape[1] != self.obs_size:
            raise ValueError(f"expected observations [B, {self.obs_size}], got {tuple(obs.shape)}")
        logits = mask_logits(self.net(obs), torch.as_tensor(np.asarray(masks)))
        return torch.argmax(logits, dim=-1).numpy().astype(np.int64)

    def act(self, observation: dict[str, Any]) -> int:
        """A legal move id; raises ``ValueError`` when the mask allows none."""
        if not np.any(observation["action_mask"]):
            raise ValueError("asked to act with an empty action mask")
        logits = self.logits(observation)
        if self.deterministic:
            return int(torch.argmax(logits))
        probs = torch.softmax(logits, dim=-1)
        return int(torch.multinomial(probs, 1, generator=self._gen))


__all__ = ["FORMAT", "SUFFIX", "MaskedPolicy", "load_policy", "mask_logits", "mlp", "save_policy"]
