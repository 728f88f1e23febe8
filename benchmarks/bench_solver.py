"""Double-dummy solver timing: full solves right after the declaration, per game kind.

Fixed seeded deals (``random_deal(seed)``). The declarer keeps its 10 cards and the skat is
the discard (its points count for the declarer); it is the seat with the strongest hand for
the game kind: suit, the seat and trump suit with the most trumps (jacks counted), then
jacks; grand, the most jacks, then aces; null, the fewest cards above a nine. Forehand (seat
0) leads. One thread, numba compile excluded (warm-up first). Prints median / p90 / p99 /
max and total time and median / mean / p99 nodes per query (solve: exact value; reaches 61;
best_moves: the exact value of every legal first card; best_moves 61: 1/0 per first card),
each from an empty table. Times are the process's CPU time (``--clock cpu``, the default:
what one core spends, robust to other jobs sharing the cores; ``--clock wall`` for
wall-clock time). The solver's answers are checked against stored exact ones by
tests/test_search_solver.py:

    OMP_NUM_THREADS=1 python benchmarks/bench_solver.py --deals 1000
    OMP_NUM_THREADS=1 python benchmarks/bench_solver.py --deals 1000 --queries solve
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable, Iterator

import numpy as np

from skat_env.cli.options import seed_arg
from skat_env.core.game import random_deal
from skat_env.core.tables import EFFECTIVE_SUIT_MASK, GRAND, NULL, TRUMP, points_of
from skat_env.search import Position, Solver

KINDS = ("suit", "grand", "null")
QUERIES = ("solve", "reaches 61", "best_moves", "best_moves 61")
JACKS = sum(1 << (8 * s + 3) for s in range(4))
ACES = sum(1 << (8 * s) for s in range(4))
LOW = sum(1 << (8 * s + r) for s in range(4) for r in (5, 6, 7))  # nines, eights, sevens


def _count(hand: int, mask: int) -> int:
    return (hand & mask).bit_count()


def deal_position(seed: int, kind: str) -> Position:
    """The position after the declaration for deal ``seed`` (see the module doc)."""
    cards = random_deal(seed)
    hands = [0, 0, 0]
    for seat in range(3):
        for c in cards[10 * seat : 10 * seat + 10]:
            hands[seat] |= 1 << c
    skat = (1 << cards[30]) | (1 << cards[31])
    if kind == "null":  # the seat with the fewest cards above a nine
        decl = min(range(3), key=lambda i: (_count(hands[i], ~LOW), i))
        game = NULL
    elif kind == "grand":  # the seat with the most jacks, then aces
        decl = max(range(3), key=lambda i: (_count(hands[i], JACKS), _count(hands[i], ACES), -i))
        game = GRAND
    else:  # the seat and trump suit with the most trumps, then jacks
        decl, game = max(
            ((i, g) for i in range(3) for g in range(4)),
            key=lambda ig: (
                _count(hands[ig[0]], EFFECTIVE_SUIT_MASK[ig[1]][TRUMP]),
                _count(hands[ig[0]], JACKS),
                -ig[0],
                -ig[1],
            ),
        )
    return Position(game, decl, tuple(hands), leader=0, declarer_points=points_of(skat))


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _time(fn, pos: Position, solver: Solver, clock=time.process_time) -> tuple[float, int]:
    solver.clear()  # every query starts from an empty table
    solver.reset_nodes()
    t = clock()
    fn(solver, pos)
    return clock() - t, solver.nodes


QUERY_FNS = {
    "solve": lambda s, p: s.solve(p),
    "reaches 61": lambda s, p: s.reaches(p, 61),
    "best_moves": lambda s, p: s.best_moves(p),
    "best_moves 61": lambda s, p: s.best_moves(p, 61),
}


def run(
    deals: int,
    seed0: int = 0,
    kinds: tuple[str, ...] = KINDS,
    tt_bits: int = 20,
    only: tuple[str, ...] = QUERIES,
    clock: str = "cpu",
) -> Iterator[tuple]:
    """Rows (kind, query, times in s, nodes) over ``deals`` deals per kind (queries
    ``only``); each query's row as soon as it is done."""
    solver = Solver(tt_bits=tt_bits)
    solver.solve(deal_position(10**6, "grand"))  # warm-up: compile or load the kernels
    solver.reaches(deal_position(10**6, "grand"), 61)
    solver.best_moves(deal_position(10**6, "null"))
    for kind in kinds:
        for name, fn in QUERY_FNS.items():
            if kind == "null" and name.endswith("61") or name not in only:
                continue  # "61" is the same question as solve in null
            runs = [_time(fn, deal_position(seed0 + i, kind), solver, CLOCKS[clock])
                    for i in range(deals)]  # fmt: skip
            times, nodes = (np.array(x) for x in zip(*runs, strict=True))
            yield kind, name, times, nodes


def table(rows: Iterable[tuple]) -> Iterator[str]:
    """The header, then one line per row."""
    head = f"{'game':6} {'query':13} {'median ms':>10} {'p90 ms':>8} {'p99 ms':>8}"
    head += f" {'max ms':>8} {'total s':>8} {'nodes med':>10}"
    yield head + f" {'nodes mean':>10} {'nodes p99':>10}"
    for kind, name, t, n in rows:
        q = np.percentile(t * 1e3, [50, 90, 99, 100])
        m = np.percentile(n, [50, 99])
        line = f"{kind:6} {name:13} {q[0]:10.2f} {q[1]:8.2f} {q[2]:8.1f} {q[3]:8.1f}"
        line += f" {t.sum():8.2f} {m[0]:10.0f} {n.mean():10.0f} {m[1]:10.0f}"
        yield line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per game kind (1000)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="first deal seed (0)")
    ap.add_argument("--kinds", default="suit,grand,null", help="suit,grand,null")
    ap.add_argument("--tt-bits", type=int, default=20, help="table size 2**bits (20)")
    ap.add_argument("--queries", default=",".join(QUERIES), help=",".join(QUERIES))
    ap.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="cpu: process time (default); wall"
    )
    a = ap.parse_args(argv)
    kinds = tuple(k for k in a.kinds.split(",") if k)
    only = tuple(q for q in a.queries.split(",") if q)
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        ap.error(f"--kinds takes {','.join(KINDS)} (got {a.kinds!r})")
    if a.deals < 1:
        ap.error(f"--deals must be >= 1, got {a.deals}")
    if not 10 <= a.tt_bits <= 28:
        ap.error(f"--tt-bits must be in 10..28, got {a.tt_bits}")
    if not only or any(q not in QUERIES for q in only):
        ap.error(f"--queries takes {','.join(QUERIES)} (got {a.queries!r})")
    print(f"{a.deals} deals per kind, seeds {a.seed}..{a.seed + a.deals - 1}")
    rows = run(a.deals, a.seed, kinds, a.tt_bits, only, clock=a.clock)
    print(f"times: {a.clock} clock")
    for line in table(rows):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
