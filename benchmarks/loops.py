"""The timed loops the benchmarks share: random masked play through the AEC env and through
OpenSpiel's ``skat``, the same loop for both. A module, not a script: ``bench_env.py``,
``bench_env_parts.py`` and ``bench_vector.py`` import it.
"""

from __future__ import annotations

import random
import time

import numpy as np
from pettingzoo import AECEnv

from skat_env import skat_v0


def play_episode(env: AECEnv, rng: random.Random) -> int:
    """One deal of the timed loop: observation and mask from ``env.last()``, a uniformly
    random legal action, ``env.step``, until every agent has left. Returns the decisions."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def bench_skat_env(games: int, seed: int, raw: bool, history: bool) -> tuple[int, float, float]:
    """Play ``games`` deals at random; returns (decision steps, CPU s, wall s)."""
    mode = "history" if history else "default"
    env = (skat_v0.raw_env if raw else skat_v0.env)(observation_mode=mode)
    rng = random.Random(seed)
    steps = 0
    env.reset(seed=seed)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        env.reset()
        steps += play_episode(env, rng)
    return steps, time.process_time() - cpu, time.perf_counter() - start


def bench_openspiel(games: int, seed: int) -> tuple[int, float, float]:
    """OpenSpiel's ``skat`` through the same loop; returns (decision steps, CPU s, wall s)."""
    import pyspiel

    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            _obs = np.asarray(state.observation_tensor(player), np.float32)
            mask = np.asarray(state.legal_actions_mask(player), np.int8)
            legal = mask.nonzero()[0]
            state.apply_action(int(legal[rng.randrange(len(legal))]))
            steps += 1
        _returns = state.returns()
    return steps, time.process_time() - cpu, time.perf_counter() - start
