"""Adapters to third-party training pipelines (optional extras; each imports its library).

* :mod:`skat_env.integrations.masked_mlp`: the masked policy network and its portable file
  format (torch only), shared by the RLlib module and the ``rllib:`` agent.
* :mod:`skat_env.integrations.rllib`: Ray RLlib env creator, action-masking RLModule, PPO config
  (extra ``rllib``; see ``docs/rllib.md``).
"""
