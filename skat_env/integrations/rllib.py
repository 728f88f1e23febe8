"""Ray RLlib adapter (extra ``rllib``, own venv: ``scripts/setup_rllib.sh``; see ``docs/rllib.md``).

* :class:`SkatRLlibEnv`: ``skat_v0.env()`` in RLlib's own PettingZoo wrapper, with the
  observation keys RLlib's action-masking modules expect (``{"observations", "action_mask"}``,
  mask as float32) and a count of illegal actions sampled (:attr:`SkatRLlibEnv.illegal_actions`,
  :data:`illegal_actions_sampled` per process; an illegal action ends the game with
  ``illegal_reward``, the worst game outcome by default, as in ``skat_v0.env()``).
* :class:`MaskedPPOModule`: a PPO RLModule whose policy gives illegal moves probability 0.
  Separate policy and value MLPs; the policy MLP is the torch-only
  :func:`skat_env.integrations.masked_mlp.mlp`, exportable with :func:`export_policies`.
* :func:`ppo_config`: PPO with masks, one shared policy (self-play) or one policy per seat.
* :class:`IllegalActionCallback`: reports the count as the ``illegal_actions`` metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

from .. import skat_v0
from ..envs.aec import AGENTS
from .masked_mlp import SUFFIX, mask_logits, mlp, save_policy

ENV_NAME = "skat_v0"
SHARED = "shared"
POLICY_MAPPINGS = ("shared", "per_seat")
DEFAULT_HIDDENS = (256, 256)
ILLEGAL_METRIC = "illegal_actions"
# Options of skat_v0.env() that SkatRLlibEnv passes on (illegal moves always "terminate").
ENV_OPTIONS = ("reward_mode", "observation_mode", "reward_scale", "illegal_reward")

#: Illegal actions sampled by every SkatRLlibEnv of this process (each env runner is a process).
illegal_actions_sampled = 0


class SkatRLlibEnv(PettingZooEnv):
    """``skat_v0.env()`` as an RLlib ``MultiAgentEnv`` with RLlib's action-mask observation keys.

    ``config`` (RLlib's ``env_config``): ``reward_mode``, ``observation_mode``,
    ``reward_scale`` (multiplies every reward; PPO's value function learns better on roughly
    unit-sized returns than on list scores of several hundred) and ``illegal_reward``, as for
    ``skat_v0.env``.
    """

    def __init__(self, config: dict | None = None):
        config = dict(config or {})
        unknown = set(config) - set(ENV_OPTIONS)
        if unknown:
            raise ValueError(
                f"unknown env_config key(s) {sorted(unknown)}; known: {', '.join(ENV_OPTIONS)}"
            )
        super().__init__(skat_v0.env(**config))
        space = self.env.observation_space(AGENTS[0])
        n_actions = self.env.action_space(AGENTS[0]).n
        obs_space = gym.spaces.Dict(
            {
                "observations": space["observation"],
                "action_mask": gym.spaces.Box(0.0, 1.0, (n_actions,), np.float32),
            }
        )
        self.observation_spaces: dict[str, gym.spaces.Space[Any]] = dict.fromkeys(
            self._agent_ids, obs_space
        )
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.illegal_actions = 0
        self._masks: dict[str, np.ndarray] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._masks.clear()
        obs, info = super().reset(seed=seed, options=options)
        return self._convert(obs), info

    def step(self, action_dict: dict[str, Any]):
        agent = self.env.agent_selection
        action = action_dict[agent]
        mask = self._masks.get(agent)
        if mask is None or not 0 <= int(action) < mask.size or not mask[int(action)]:
            self._count_illegal()
        obs, rew, terminated, truncated, info = super().step(action_dict)
        return self._convert(obs), rew, terminated, truncated, info

    def _count_illegal(self) -> None:
        global illegal_actions_sampled
        self.illegal_actions += 1
        illegal_actions_sampled += 1

    def _convert(self, obs: dict[str, dict[str, np.ndarray]]) -> dict[str, dict[str, np.ndarray]]:
        out = {}
        for agent, o in obs.items():
            mask = o["action_mask"].astype(np.float32)
            self._masks[agent] = o["action_mask"]
            out[agent] = {"observations": o["observation"], "action_mask": mask}
        return out


def env_creator(config: dict | None = None) -> SkatRLlibEnv:
    """RLlib env creator (``config`` is RLlib's ``EnvContext``, a dict of ``env_config``)."""
    return SkatRLlibEnv(dict(config or {}))


def register() -> str:
    """Register :func:`env_creator` under :data:`ENV_NAME` with Ray; returns the name."""
    register_env(ENV_NAME, env_creator)
    return ENV_NAME


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """PPO RLModule over ``{"observations", "action_mask"}``: masked logits and a value head.

    ``model_config``: ``{"hiddens": [256, 256]}`` (both MLPs). The policy network ``pi`` is
    a plain :func:`~skat_env.integrations.masked_mlp.mlp`, so it can be exported for torch-only
    play; masking uses :func:`~skat_env.integrations.masked_mlp.mask_logits` (illegal moves get
    probability exactly 0 when sampling, in the loss and in evaluation alike).
    """

    def setup(self) -> None:
        obs_space = self.observation_space
        if not isinstance(obs_space, gym.spaces.Dict) or set(obs_space.spaces) != {
            "observations",
            "action_mask",
        }:
            raise ValueError(
                "MaskedPPOModule needs a Dict observation space with keys 'observations' and "
                f"'action_mask' (SkatRLlibEnv provides it), got {obs_space}"
            )
        shape = cast("tuple[int, ...]", obs_space["observations"].shape)  # a Box has one
        n_obs = int(np.prod(shape))
        hiddens = [int(h) for h in (self.model_config or {}).get("hiddens", DEFAULT_HIDDENS)]
        self.pi = mlp([n_obs, *hiddens, int(self.action_space.n)])
        self.vf = mlp([n_obs, *hiddens, 1])

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.pi(obs["observations"])
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, obs["action_mask"])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.vf(batch[Columns.OBS]["observations"]).squeeze(-1)


class IllegalActionCallback(RLlibCallback):
    """Logs the illegal actions each env runner sampled as the ``illegal_actions`` metric
    (lifetime sum over all runners: ``result["env_runners"]["illegal_actions"]``)."""

    def __init__(self) -> None:
        super().__init__()
        self._reported = illegal_actions_sampled

    def on_sample_end(self, *, metrics_logger=None, **kwargs) -> None:
        new = illegal_actions_sampled - self._reported
        self._reported = illegal_actions_sampled
        if metrics_logger is not None:
            metrics_logger.log_value(ILLEGAL_METRIC, new, reduce="lifetime_sum")


def policy_ids(mapping: str) -> list[str]:
    """Module ids of a policy mapping: one shared module, or one per seat (``player_0..2``)."""
    if mapping not in POLICY_MAPPINGS:
        raise ValueError(f"policy mapping must be one of {POLICY_MAPPINGS}, got {mapping!r}")
    return [SHARED] if mapping == "shared" else list(AGENTS)


def _map_shared(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    return SHARED


def _map_seat(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    return agent_id


def ppo_config(
    *,
    policies: str = "shared",
    num_env_runners: int = 0,
    num_envs_per_env_runner: int = 1,
    hiddens: Sequence[int] = DEFAULT_HIDDENS,
    train_batch_size: int = 4000,
    minibatch_size: int = 256,
    num_epochs: int = 4,
    lr: float = 3e-4,
    entropy_coeff: float = 0.01,
    env_config: dict | None = None,
    seed: int | None = None,
) -> PPOConfig:
    """PPO on :class:`SkatRLlibEnv` with :class:`MaskedPPOModule` (new API stack).

    ``policies="shared"``: every seat plays the one module ``"shared"`` (self-play);
    ``"per_seat"``: seat ``player_k`` trains its own module ``"player_k"``.
    """
    ids = policy_ids(policies)
    spec = MultiRLModuleSpec(
        rl_module_specs={
            mid: RLModuleSpec(module_class=MaskedPPOModule, model_config={"hiddens": list(hiddens)})
            for mid in ids
        }
    )
    return (
        PPOConfig()
        # RLlib's env pre-check steps one random action that ignores the mask; it would count
        # as an illegal action sampled (the env is checked by the project's own tests).
        .environment(register(), env_config=dict(env_config or {}), disable_env_checking=True)
        .env_runners(
            num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner
        )
        .multi_agent(
            policies=set(ids),
            policy_mapping_fn=_map_shared if policies == "shared" else _map_seat,
        )
        .rl_module(rl_module_spec=spec)
        .training(
            train_batch_size_per_learner=train_batch_size,
            minibatch_size=minibatch_size,
            num_epochs=num_epochs,
            lr=lr,
            entropy_coeff=entropy_coeff,
            vf_clip_param=1e6,  # returns are not unit-scaled for every reward_scale
        )
        .callbacks(IllegalActionCallback)
        .debugging(seed=seed)
    )


def policy_file(checkpoint: str | Path, module_id: str = SHARED) -> Path:
    """Where :func:`export_policies` puts a module's policy (safetensors) in a checkpoint dir."""
    return Path(checkpoint) / f"skat_policy_{module_id}{SUFFIX}"


def export_policies(checkpoint: str | Path, **meta: Any) -> list[Path]:
    """Write the policy network of each module in an RLlib checkpoint into it (safetensors,
    :func:`~skat_env.integrations.masked_mlp.save_policy`).

    Reads the learner's modules from the checkpoint itself (what ``--restore`` would resume),
    so the files match the checkpoint wherever the learner ran. A relative ``checkpoint`` is
    taken from the working directory (RLlib itself only reads absolute paths or URIs).
    """
    root = Path(checkpoint).resolve() / "learner_group" / "learner" / "rl_module"
    if not root.is_dir():
        raise FileNotFoundError(f"{checkpoint} is not an RLlib algorithm checkpoint (no {root})")
    paths = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        module = RLModule.from_checkpoint(sub)
        if not isinstance(module, MaskedPPOModule):
            raise TypeError(
                f"module {sub.name!r} is a {type(module).__name__}, not MaskedPPOModule"
            )
        path = policy_file(checkpoint, sub.name)
        paths.append(save_policy(path, module.pi, module_id=sub.name, **meta))
    return paths


def illegal_count(result: dict) -> int:
    """Illegal actions sampled so far, from a training result dict (0 if none was logged)."""
    return int(result.get("env_runners", {}).get(ILLEGAL_METRIC, 0))


__all__ = [
    "ENV_NAME",
    "illegal_actions_sampled",
    "IllegalActionCallback",
    "MaskedPPOModule",
    "SHARED",
    "SkatRLlibEnv",
    "env_creator",
    "export_policies",
    "illegal_count",
    "policy_file",
    "policy_ids",
    "ppo_config",
    "register",
]
