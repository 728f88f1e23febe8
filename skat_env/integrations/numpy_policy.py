"""NumPy inference for trained models: greedy masked play of a ``MaskablePPO`` ``MlpPolicy``.

SB3's ``predict`` costs about a millisecond per call; :class:`NumpyPolicy` is one matrix
product per layer for a whole batch, with exactly the moves of
``model.predict(obs, action_masks=mask, deterministic=True)`` (a test checks it). It is the one
inference path of trained models (the ``ppo:`` agent, self-play snapshots, batched opponents);
torch and SB3 are imported only to copy weights out of a live or saved model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.policy import BasePolicy

#: linear layers as (weight, bias) in torch's (out, in) layout
Layers = list[tuple[np.ndarray, np.ndarray]]
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
}


class NumpyPolicy(BasePolicy):
    """The greedy masked argmax of an SB3 ``MlpPolicy``'s action head, in NumPy (float32): a
    policy (``act``, ``act_batch``) and a batched policy (called as ``policy(obs, masks)``)."""

    name = "numpy-policy"
    deterministic = True  # greedy on the observation alone

    def __init__(self, layers: Layers, activation: str):
        if activation not in ACTIVATIONS:
            raise ValueError(f"only {', '.join(ACTIVATIONS)} activations are supported")
        self.layers = [(np.ascontiguousarray(w.T), b) for w, b in layers]  # x @ W.T + b
        self.activation = ACTIVATIONS[activation]
        self.activation_name = activation
        self.obs_size = layers[0][0].shape[1]

    @classmethod
    def from_policy(cls, policy: Any) -> NumpyPolicy:
        """A frozen copy of a live ``MaskableActorCriticPolicy`` (flat MLP only)."""
        if type(policy.features_extractor).__name__ != "FlattenExtractor":
            raise ValueError("only flat MLP policies (FlattenExtractor) are supported")
        return cls(_copy(linear_modules(policy, "policy")), policy.activation_fn.__name__)

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """The policy of a saved ``MaskablePPO`` zip, or of weights saved by :meth:`save`
        (``.npz``: read without torch)."""
        if Path(path).suffix == ".npz":
            with np.load(path) as f:
                n = sum(1 for k in f.files if k.startswith("weight_"))
                layers = [(f[f"weight_{i}"], f[f"bias_{i}"]) for i in range(n)]
                return cls(layers, str(f["activation"]))
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        return cls.from_policy(MaskablePPO.load(str(path), device="cpu").policy)

    def save(self, path: str | Path, value: Layers | None = None) -> None:
        """The weights as a compressed ``.npz`` that :meth:`load` reads with NumPy alone;
        ``value``: the value network's layers too (:func:`value_layers`), so that training
        can start from the file (``skat-train --init model:PATH``). The bundled model:
        :func:`export`."""
        arrays: dict[str, Any] = {"activation": np.array(self.activation_name)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"weight_{i}"], arrays[f"bias_{i}"] = w.T, b  # torch's (out, in) layout
        for i, (w, b) in enumerate(value or []):
            arrays[f"value_weight_{i}"], arrays[f"value_bias_{i}"] = w, b
        np.savez_compressed(path, **arrays)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits, ``float32[B, 121]`` for ``obs`` of shape ``[B, obs_size]``."""
        x = np.asarray(obs, np.float32)
        if x.shape[-1] != self.obs_size:
            raise ValueError(
                f"the policy takes observations of size {self.obs_size}, got shape {x.shape}"
            )
        for w, b in self.layers[:-1]:
            x = self.activation(x @ w + b)
        w, b = self.layers[-1]
        return x @ w + b

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The best legal move of each row: ``int64[B]``."""
        logits = self.logits(obs)
        return np.where(np.asarray(masks, bool), logits, -np.inf).argmax(-1)

    __call__ = act_batch  # a batched policy for SkatVectorEnv

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """One move for one observation dict (the agent interface)."""
        obs = np.asarray(observation["observation"], np.float32)[None]
        return int(self.act_batch(obs, np.asarray(observation["action_mask"])[None])[0])


def linear_modules(policy: Any, net: str) -> list[Any]:
    """The ``torch.nn.Linear`` layers of a live ``MaskableActorCriticPolicy``'s ``net``
    (``"policy"`` or ``"value"``), input first, the head last."""
    import torch

    body = getattr(policy.mlp_extractor, f"{net}_net")
    head = policy.action_net if net == "policy" else policy.value_net
    return [m for m in body if isinstance(m, torch.nn.Linear)] + [head]


def _copy(modules: list[Any]) -> Layers:
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in modules]


def value_layers(policy: Any) -> Layers:
    """The value network's linear layers of a live ``MaskableActorCriticPolicy``."""
    return _copy(linear_modules(policy, "value"))


def load_value_layers(path: str | Path) -> Layers | None:
    """The value layers saved with an ``.npz`` (None: a policy-only file)."""
    with np.load(path) as f:
        n = sum(1 for k in f.files if k.startswith("value_weight_"))
        return [(f[f"value_weight_{i}"], f[f"value_bias_{i}"]) for i in range(n)] or None


def export(zip_path: str | Path, npz_path: str | Path) -> None:
    """A saved ``MaskablePPO`` as NumPy weights, policy and value (the bundled model:
    ``export("models/ppo_skat.zip", "agents/models/ppo_skat.npz")``)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    policy = MaskablePPO.load(str(zip_path), device="cpu").policy
    NumpyPolicy.from_policy(policy).save(npz_path, value=value_layers(policy))


__all__ = [
    "ACTIVATIONS",
    "Layers",
    "NumpyPolicy",
    "export",
    "linear_modules",
    "load_value_layers",
    "value_layers",
]
