"""Random play through the bare rules engine: games/s and moves/s.

    python benchmarks/bench_engine.py [--games 20000] [--rounds 3] [--seed 0]

Each move draws uniformly from the legal set (as a bitmask), so the figure includes
legal-move generation. Single process, single thread; rates use CPU time
(``time.process_time``), and each round replays the same deals and moves: the best round is
the one a busy shared machine disturbed least.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from skat_env.cli.options import count_arg, seed_arg
from skat_env.core.game import Game, random_deal


def random_game(rng: random.Random, deal: list[int], dealer: int) -> int:
    game = Game(deal, dealer)
    moves = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
        moves += 1
    return moves


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=count_arg, default=20000)
    ap.add_argument("--rounds", type=count_arg, default=3)
    ap.add_argument("--seed", type=seed_arg, default=0)
    args = ap.parse_args(argv)
    deals = [random_deal(args.seed + i) for i in range(args.games)]
    rates = []
    for r in range(args.rounds):
        rng = random.Random(args.seed)
        t0 = time.process_time()
        moves = sum(random_game(rng, d, i % 3) for i, d in enumerate(deals))
        dt = time.process_time() - t0
        rates.append((args.games / dt, moves / dt))
        print(f"round {r + 1}: {args.games} games, {moves} moves in {dt:.2f}s CPU")
    games, moves = max(rates)
    median = statistics.median(m for _, m in rates)
    print(f"  best {games:,.0f} games/s   {moves:,.0f} moves/s   (median {median:,.0f} moves/s)")


if __name__ == "__main__":
    main()
