"""Building trained players: the pieces of the PPO pipeline behind ``skat-train`` and of the
contract model behind ``skat-contracts``. They take policies (:mod:`skat_env.envs.policy`),
never agent specs, which the front ends (:mod:`skat_env.cli`) resolve with the registry.

* :mod:`.opponents`: self-play slots, the fixed opponent mix and the training ``VecEnv``;
  :mod:`.pool`: the opponent pool whose mix follows the learner's results (PFSP).
* :mod:`.cloning`: a teacher's decisions and behaviour cloning (the warm start);
  :mod:`.distill`: a teacher's decisions recorded in resumable shards;
  :mod:`.iss_data`: human games of the International Skat Server as cloning data.
* :mod:`.callbacks`: Stable-Baselines3 callbacks (snapshots, wall-clock budget, progress),
  the logger and atomic saves.
* :mod:`.contract_data` and :mod:`.contract_train`: the data set, training and calibration
  plots of the contract model that :mod:`skat_env.agents.contract_model` plays with.
"""
