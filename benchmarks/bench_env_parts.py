"""Where an AEC decision step's time goes: the same recorded games replayed through growing
parts of the stack, in microseconds per decision step.

    python benchmarks/bench_env_parts.py [--games 1000] [--repeats 7] [--seed 0]

The games are recorded once (random masked play through ``raw_env``); then each part replays
exactly the same moves, so the differences between rows are the cost of the layer added:

    engine            Game(deal) + Game.step for every move
    + tracker         ... + ObservationTracker.moved after every move (the observation rows)
    + observe         ... + the observation dict (copy + mask) of the player to act
    raw_env loop      bench_env.py's loop through raw_env (reset, last(), mask.nonzero(), a
                      random draw, step, the dead steps at the end) on the recorded deals;
                      the same seed draws the same moves
    loop floor        the same loop over a stub AEC env with a constant observation: PettingZoo's
                      agent_iter/last and the loop's own work, no Skat at all

Each figure is the fastest of ``--repeats`` replays (process CPU time) with the median beside
it: this machine is shared, and the fastest replay is the least disturbed one.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from loops import play_episode  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from skat_env import skat_v0  # noqa: E402
from skat_env.cli.options import seed_arg  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.encoding.tracker import ObservationTracker  # noqa: E402

Record = tuple[tuple[int, ...], int, list[int]]  # deal, dealer, moves


def record_games(games: int, seed: int) -> list[Record]:
    """``games`` deals of bench_env.py's loop through raw_env, with the moves played."""
    env = skat_v0.raw_env()
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        env.reset()
        play_episode(env, rng)
        game = env.unwrapped.game
        out.append((game.deal, game.dealer, [m for _, m in game.history]))
    return out


def engine(records: list[Record]) -> None:
    for deal, dealer, moves in records:
        game = Game(list(deal), dealer)
        for m in moves:
            game.step(m)


def with_tracker(records: list[Record], observe: bool = False) -> None:
    tracker = ObservationTracker()
    for deal, dealer, moves in records:
        game = Game(list(deal), dealer)
        tracker.reset(game)
        for m in moves:
            seat, phase = game.to_act, game.phase
            if observe:
                tracker.observe(seat)
            game.step(m)
            tracker.moved(seat, m, phase)


def raw_env_loop(records: list[Record], seed: int) -> None:
    """bench_env.py's loop on the recorded deals; the same seed draws the same moves."""
    env = skat_v0.raw_env()
    rng = random.Random(seed)
    for deal, dealer, _moves in records:
        env.reset(options={"deal": list(deal), "dealer": dealer})
        play_episode(env, rng)


class _StubEnv(AECEnv):
    """Three agents take ``length`` turns, observing a constant observation and mask."""

    metadata = {"name": "stub"}

    def __init__(self) -> None:
        self.possible_agents = ["a", "b", "c"]
        self._obs = np.zeros(450, np.float32)
        self._mask = np.ones(121, np.int8)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = "a"
        self._left = (options or {})["length"]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._left -= 1
        self._cumulative_rewards[agent] = 0.0
        if self._left == 0:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[(self.agents.index(agent) + 1) % 3]


def loop_floor(records: list[Record], seed: int) -> None:
    env = _StubEnv()
    rng = random.Random(seed)
    for _deal, _dealer, moves in records:
        env.reset(options={"length": len(moves)})
        play_episode(env, rng)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--seed", type=seed_arg, default=0)
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        print("error: --games and --repeats must be at least 1", file=sys.stderr)
        return 2
    records = record_games(args.games, args.seed)
    steps = sum(len(m) for _, _, m in records)
    parts: dict[str, Callable[[list[Record]], None]] = {
        "engine": engine,
        "+ tracker": with_tracker,
        "+ observe": lambda r: with_tracker(r, observe=True),
        "raw_env loop": partial(raw_env_loop, seed=args.seed),
        "loop floor": partial(loop_floor, seed=args.seed),
    }
    times: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(args.repeats):  # interleaved, so that a slow spell hits every part
        for name, run in parts.items():
            start = time.process_time()
            run(records)
            times[name].append((time.process_time() - start) / steps * 1e6)
    print(
        f"{args.games} recorded games, {steps} decision steps; us per step, best of {args.repeats}"
    )
    for name, ts in times.items():
        print(f"  {name:14s} {min(ts):6.2f}   (median {statistics.median(ts):6.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
