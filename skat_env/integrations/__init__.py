"""Adapters to third-party training and game libraries (optional extras; each module imports its
library). They sit below the players: policies come in as :mod:`skat_env.envs.policy` objects,
never as agent specs. The PPO pipeline built on them is :mod:`skat_env.training`.

* :mod:`.numpy_policy`: NumPy inference of trained ``MaskablePPO`` policies (the ``ppo:`` agent,
  self-play snapshots, batched opponents).
* :mod:`.masked_mlp`: the masked policy network and its portable file format (torch only),
  shared by the RLlib module and the ``rllib:`` agent.
* :mod:`.rllib`: Ray RLlib env creator, action-masking RLModule, PPO config (extra ``rllib``;
  see ``docs/rllib.md``); :mod:`.openspiel`: our Skat as the OpenSpiel game ``python_skat``.
"""
