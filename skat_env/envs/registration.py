"""Gymnasium registration: ``gymnasium.make("skat_env/Skat-v0", ...)`` builds
:class:`~skat_env.envs.single_agent.SkatSingleAgentEnv` (keyword arguments go to it) and
``gymnasium.make_vec("skat_env/Skat-v0", num_envs=n, ...)`` the batched
:class:`~skat_env.envs.vector_env.SkatVectorEnv`. Registered when ``skat_env`` is imported."""

from __future__ import annotations

ENV_ID = "skat_env/Skat-v0"


def register_envs() -> None:
    """Register the learner-seat env once (a repeated call is a no-op)."""
    from gymnasium.envs.registration import register, registry

    if ENV_ID in registry:
        return
    register(
        id=ENV_ID,
        entry_point="skat_env.envs.single_agent:SkatSingleAgentEnv",
        vector_entry_point="skat_env.envs.vector_env:SkatVectorEnv",
        disable_env_checker=False,
    )


__all__ = ["ENV_ID", "register_envs"]
