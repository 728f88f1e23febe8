"""Environment adapters over the core: the PettingZoo AEC env and its wrappers, the learner-seat
Gymnasium env, the batched Gymnasium vector env and the text renderer."""
