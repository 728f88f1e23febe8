"""Random masked play through the public AEC API: decision steps/s and games/s.

    python benchmarks/bench_env.py [--games 3000] [--seed 0] [--raw] [--history]
                                   [--no-openspiel]

Each decision reads the observation and the action mask (``env.last()``), draws a legal
action from the mask and steps, as an RL loop does. When ``open_spiel`` (pyspiel) is
importable, OpenSpiel's ``skat`` runs through the same loop in the same process (NumPy
observation tensor + legal-action mask each decision; chance nodes sampled, not counted)
and the ratio is printed. Single process, single thread. Rates use the process's CPU
time (``time.process_time``), which a busy shared machine disturbs less than wall time;
the wall time is printed too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from skat_env import skat_v0


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
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
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


def report(name: str, games: int, steps: int, cpu: float, wall: float) -> float:
    rate = steps / cpu
    print(f"{name}: {games} games, {steps} decisions in {cpu:.2f}s CPU ({wall:.2f}s wall)")
    print(f"  {games / cpu:,.0f} games/s   {rate:,.0f} decision steps/s")
    return rate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--raw", action="store_true", help="raw_env() instead of env()")
    ap.add_argument("--history", action="store_true", help='observation_mode="history"')
    ap.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel's skat")
    args = ap.parse_args(argv)
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    label = f"skat_v0.{'raw_env' if args.raw else 'env'}({'history' if args.history else ''})"
    ours = report(label, args.games, *bench_skat_env(args.games, args.seed, args.raw, args.history))
    if args.no_openspiel:
        return 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel not installed (pip install open-spiel): no comparison")
        return 0
    theirs = report("open_spiel skat", args.games, *bench_openspiel(args.games, args.seed))
    print(f"ratio (decision steps/s, ours / OpenSpiel): {ours / theirs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
