"""Random play through the bare rules engine: games/s and moves/s.

    python benchmarks/bench_engine.py [--games 20000] [--seed 0]

Each move draws uniformly from the legal set (as a bitmask), so the figure includes
legal-move generation. Single process, single thread.
"""

from __future__ import annotations

import argparse
import random
import time

from skat_env.core.game import Game, random_deal


def random_game(rng: random.Random, deal: list[int], dealer: int) -> int:
    game = Game(deal, dealer)
    moves = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
        moves += 1
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    deals = [random_deal(args.seed + i) for i in range(args.games)]
    t0 = time.perf_counter()
    moves = sum(random_game(rng, d, i % 3) for i, d in enumerate(deals))
    dt = time.perf_counter() - t0
    print(f"engine random play: {args.games} games, {moves} moves in {dt:.2f}s")
    print(f"  {args.games / dt:,.0f} games/s   {moves / dt:,.0f} moves/s")


if __name__ == "__main__":
    main()
