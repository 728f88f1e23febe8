"""Adapters to third-party training and game libraries (optional extras; each module imports its
library). They sit below the players: opponents, teachers and learners come in as policies
(:mod:`skat_env.envs.policy`), never as agent specs, which the front ends (:mod:`skat_env.cli`)
resolve with the registry.

* :mod:`.numpy_policy`: NumPy inference of trained ``MaskablePPO`` policies (the ``ppo:`` agent,
  self-play snapshots, batched opponents).
* Stable-Baselines3 training, one module per job: :mod:`.opponents` (self-play slots, opponent
  pools, the training ``VecEnv``), :mod:`.cloning` (a teacher's decisions, behaviour cloning),
  :mod:`.callbacks` (snapshots, wall-clock budget, progress, logger, atomic saves).
* :mod:`.distill`: a teacher's decisions recorded in resumable shards (distillation data);
  :mod:`.iss_data`: human games of the International Skat Server as cloning data.
* :mod:`.masked_mlp`: the masked policy network and its portable file format (torch only),
  shared by the RLlib module and the ``rllib:`` agent.
* :mod:`.rllib`: Ray RLlib env creator, action-masking RLModule, PPO config (extra ``rllib``;
  see ``docs/rllib.md``); :mod:`.openspiel`: our Skat as the OpenSpiel game ``python_skat``.
"""
