"""The timed loops the benchmarks share: random masked play through the AEC env and through
OpenSpiel's ``skat`` (observations by its NumPy observer, the reference, or by
``observation_tensor``), the same loop for both. A module, not a script: ``bench_env.py``,
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


OPENSPIEL_OBSERVERS = {
    "numpy": "NumPy observer",  # make_observation(game): set_from writes one float32 array
    "list": "observation_tensor()",  # state.observation_tensor(player): a new list each time
}


def bench_openspiel(
    games: int, seed: int, observer: str = "numpy", name: str = "skat"
) -> tuple[int, float, float]:
    """OpenSpiel's ``skat`` through the same loop; returns (decision steps, CPU s, wall s).

    ``observer="numpy"`` (the reference: what a careful user runs) reads the observation
    through OpenSpiel's NumPy path, ``make_observation(game)``, ``set_from(state, player)``
    and ``.tensor`` (one float32 buffer, rewritten in place); ``"list"`` calls
    ``state.observation_tensor(player)``, which builds a fresh Python list every decision.
    ``name="python_skat"`` runs this package's engine as an OpenSpiel game instead
    (:mod:`skat_env.integrations.openspiel`).
    """
    import pyspiel
    from open_spiel.python.observation import make_observation

    if observer not in OPENSPIEL_OBSERVERS:
        raise ValueError(f"observer must be one of {list(OPENSPIEL_OBSERVERS)}, got {observer!r}")
    if name == "python_skat":
        import skat_env.integrations.openspiel  # noqa: F401 (registers python_skat)
    game = pyspiel.load_game(name)
    fast = make_observation(game) if observer == "numpy" else None
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
            if fast is not None:
                fast.set_from(state, player)
                _obs = fast.tensor
            else:
                _obs = np.asarray(state.observation_tensor(player), np.float32)
            mask = np.asarray(state.legal_actions_mask(player), np.int8)
            legal = mask.nonzero()[0]
            state.apply_action(int(legal[rng.randrange(len(legal))]))
            steps += 1
        _returns = state.returns()
    return steps, time.process_time() - cpu, time.perf_counter() - start
