"""A league: every pair of agents on the same duplicate deals, rated with bootstrap intervals.

For each pair (A, B) the tournament engine (:func:`skat_env.tournament.evaluate`) plays every
deal with the agent lists ``[A, B, B]`` and ``[B, A, A]``, each under its 3 rotations, so both
agents sit alone against two copies of the other in every seat of every deal. A pair's
*margin* on a deal is A's mean Seeger-Fabian points per game minus B's, averaged over the two
line-ups. Every pair plays the same deals (they come from the seed), so one deal is the
bootstrap unit for everything.

The rating is the least-squares fit of ``rating[A] - rating[B] ~ margin(A, B)`` over all pairs
(a Bradley-Terry-style model on point margins, ratings summing to 0), in Seeger-Fabian points
per game against an average member of the league. The fit is linear in the margins, so each
deal gets its own rating vector and the rating is their mean; its 95% interval is a percentile
bootstrap over deals (:func:`skat_env.tournament.bootstrap_ci`).

``league(["random", "heuristic", "ppo:models/ppo_skat.zip"], deals=500, seed=0)`` returns a
JSON-ready dict; :func:`format_table` and :func:`write_plot` present it. ``skat-league`` (or
``python league.py``) is the command line.
"""

from __future__ import annotations

import io
import itertools
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.agents.registry import AgentSpecError, make_agent

from .core.validation import check_count
from .envs.policy import batchable
from .tournament import bootstrap_ci, evaluate, per_deal_sf

LINEUPS = ((0, 1, 1), (1, 0, 0))  # [A, B, B] and [B, A, A]
GAMES_PER_DEAL = 6  # two line-ups x three rotations
INNER_BOOTSTRAP = 10  # evaluate()'s own per-line-up intervals are not used; keep them cheap


class LeagueError(ValueError):
    """Bad league input (reported by the CLI without a traceback)."""


def validate(
    agents: Sequence[str], deals: int, workers: int, bootstrap: int, seed: int = 0
) -> None:
    """Raise :class:`LeagueError` for input the league cannot play."""
    if isinstance(agents, str) or len(agents) < 2:
        raise LeagueError("a league needs at least 2 agents")
    dupes = sorted({a for a in agents if list(agents).count(a) > 1})
    if dupes:
        raise LeagueError(f"agents must differ; given more than once: {', '.join(dupes)}")
    for name, value in (("deals", deals), ("workers", workers), ("bootstrap", bootstrap)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise LeagueError(f"{name} must be a positive integer, got {value!r}")
    try:
        check_count(seed, "seed", minimum=0)
    except (TypeError, ValueError) as e:
        raise LeagueError(str(e)) from None
    for spec in agents:
        if not isinstance(spec, str):
            raise LeagueError(f"league agents are spec strings, got {spec!r}")
        try:
            agent = make_agent(spec)
        except AgentSpecError as e:
            raise LeagueError(str(e)) from None
        if agent.interactive:
            raise LeagueError(f"{spec!r} plays in the terminal; a league plays unattended")


def pair_margins(a: str, b: str, deals: int, seed: int, workers: int = 1,
                 done: Callable[[int], Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """Play the pair's two line-ups; per-deal margin of ``a`` over ``b`` and their SF/game.

    ``done(n)`` is told of finished games: each game with one worker, else each line-up (with
    more workers, or when an agent decides for many games at once, which a per-game report
    would switch off).
    """
    per_deal, sf = [], {a: 0.0, b: 0.0}
    each_game = (
        done is not None and workers == 1 and not any(batchable(make_agent(x)) for x in (a, b))
    )
    for lineup in LINEUPS:
        specs = [(a, b)[i] for i in lineup]
        report = (lambda game, labels: done(1)) if each_game and done is not None else None
        res = evaluate(specs, deals, seed, workers, bootstrap=INNER_BOOTSTRAP, keep_games=True,
                       report=report)  # fmt: skip
        if done is not None and not each_game:
            done(res["config"]["games"])
        mean = per_deal_sf(res["records"], specs, deals)
        per_deal.append(mean[a] - mean[b])
        for name in (a, b):
            sf[name] += res["agents"][name]["sf_per_game"] / len(LINEUPS)
    return {"margins": np.mean(per_deal, axis=0), "sf_per_game": sf}


def fit_ratings(pairs: Sequence[tuple[int, int]], margins: np.ndarray, n: int) -> np.ndarray:
    """Least-squares ratings (columns: deals) with ``r[a] - r[b] ~ margin``, summing to 0.

    ``margins`` has one row per pair; the minimum-norm solution (pseudo-inverse) is the one
    orthogonal to the all-equal vector, i.e. the ratings that sum to 0.
    """
    design = np.zeros((len(pairs), n))
    for row, (i, j) in enumerate(pairs):
        design[row, i], design[row, j] = 1.0, -1.0
    return np.linalg.pinv(design) @ margins


def league(
    agents: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    bootstrap: int = 2000,
) -> dict[str, Any]:
    """Play every pair of ``agents`` on ``deals`` duplicate deals; ratings and pair margins.

    Returns a JSON-ready dict: ``config``, ``ratings`` (agent -> ``rating``, ``ci95``,
    ``sf_per_game``, ``games``; best first), ``pairs`` (per pair: ``margin`` with ``ci95``,
    both agents' SF/game and the per-deal margins) and ``timing``. Identical for any
    ``workers`` with the same ``seed``.
    """
    agents = list(agents)
    validate(agents, deals, workers, bootstrap, seed)
    index = list(itertools.combinations(range(len(agents)), 2))
    bar = _progress_bar(len(index) * deals * GAMES_PER_DEAL) if progress else None
    t0 = time.perf_counter()
    played = []
    for i, j in index:
        if bar is not None:
            bar.set_description(f"{agents[i]} vs {agents[j]}"[:40])
        done = bar.update if bar is not None else None
        played.append(pair_margins(agents[i], agents[j], deals, seed, workers, done))
    if bar is not None:
        bar.close()
    elapsed = time.perf_counter() - t0
    margins = np.array([p["margins"] for p in played])
    per_deal_ratings = fit_ratings(index, margins, len(agents))
    games = len(index) * deals * GAMES_PER_DEAL
    return {
        "config": {
            "agents": agents,
            "deals": deals,
            "seed": seed,
            "lineups": ["A B B", "B A A"],
            "games_per_pair": deals * GAMES_PER_DEAL,
            "games": games,
            "workers": workers,
            "bootstrap_samples": bootstrap,
        },
        "ratings": _ratings(agents, index, played, per_deal_ratings, seed, bootstrap),
        "pairs": [
            _pair(agents[i], agents[j], p, seed, bootstrap)
            for (i, j), p in zip(index, played, strict=True)
        ],
        "timing": {"seconds": elapsed, "games_per_second": games / elapsed if elapsed else None},
    }


def _ci(values: np.ndarray, seed: int, samples: int) -> list[float] | None:
    ci = bootstrap_ci(values, samples, seed)
    return None if ci is None else list(ci)


def _ratings(agents, index, played, per_deal, seed, samples) -> dict[str, dict[str, Any]]:
    rows = {}
    for k, name in enumerate(agents):
        sf = [p["sf_per_game"][name] for (i, j), p in zip(index, played, strict=True)
              if k in (i, j)]  # fmt: skip
        rows[name] = {
            "rating": float(per_deal[k].mean()),
            "ci95": _ci(per_deal[k], seed, samples),
            "sf_per_game": float(np.mean(sf)),
            "games": len(sf) * per_deal.shape[1] * GAMES_PER_DEAL,
        }
    return dict(sorted(rows.items(), key=lambda kv: -kv[1]["rating"]))


def _pair(a: str, b: str, played: dict[str, Any], seed: int, samples: int) -> dict[str, Any]:
    m = played["margins"]
    return {
        "a": a,
        "b": b,
        "margin": float(m.mean()),
        "ci95": _ci(m, seed, samples),
        "a_sf_per_game": played["sf_per_game"][a],
        "b_sf_per_game": played["sf_per_game"][b],
        "games": len(m) * GAMES_PER_DEAL,
        "per_deal_margins": [round(float(x), 4) for x in m],
    }


def _progress_bar(total: int):
    import sys

    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr)


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------


def _fmt_ci(ci: list[float] | None) -> str:
    return "- (1 deal)" if ci is None else f"[{ci[0]:+.1f}, {ci[1]:+.1f}]"


def format_table(results: dict[str, Any]) -> str:
    """The leaderboard and the pair margins as text tables (rich)."""
    from rich.console import Console
    from rich.table import Table

    cfg = results["config"]
    title = (f"League: {len(cfg['agents'])} agents, {cfg['deals']} duplicate deals per pair "
             f"({cfg['games_per_pair']} games), seed {cfg['seed']}")  # fmt: skip
    board = Table(title=title, title_justify="left", box=None, header_style="bold")
    for i, col in enumerate(("#", "agent", "rating", "95% CI", "SF/game", "games")):
        board.add_column(col, justify="left" if i == 1 else "right", no_wrap=True)
    for rank, (name, r) in enumerate(results["ratings"].items(), 1):
        board.add_row(str(rank), name, f"{r['rating']:+.1f}", _fmt_ci(r["ci95"]),
                      f"{r['sf_per_game']:.1f}", str(r["games"]))  # fmt: skip
    pairs = Table(title="Pairs (margin: A's SF/game minus B's, same deals and seats)",
                  title_justify="left", box=None, header_style="bold")  # fmt: skip
    for i, col in enumerate(("A", "B", "margin", "95% CI", "A SF/game", "B SF/game")):
        pairs.add_column(col, justify="left" if i < 2 else "right", no_wrap=True)
    for p in results["pairs"]:
        pairs.add_row(p["a"], p["b"], f"{p['margin']:+.1f}", _fmt_ci(p["ci95"]),
                      f"{p['a_sf_per_game']:.1f}", f"{p['b_sf_per_game']:.1f}")  # fmt: skip
    console = Console(width=160, record=True, file=io.StringIO(), color_system=None)
    console.print(board)
    console.print()
    console.print(pairs)
    text = console.export_text().rstrip()
    t = results.get("timing", {})
    if t.get("seconds"):
        text += f"\n{t['seconds']:.1f}s, {t['games_per_second']:.1f} games/s"
    return text


def write_plot(results: dict[str, Any], path: Path) -> None:
    """Ratings with 95% intervals beside a matrix of the pair margins (matplotlib PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = results["ratings"]
    names = list(ratings)[::-1]  # best at the top
    vals = np.array([ratings[n]["rating"] for n in names])
    cis = np.array([ratings[n]["ci95"] or (v, v) for n, v in zip(names, vals, strict=True)])
    n = len(names)
    fig, (ax, mx) = plt.subplots(1, 2, figsize=(11, 1.6 + 0.6 * n), width_ratios=(1.2, 1))
    ax.errorbar(vals, range(n), xerr=[vals - cis[:, 0], cis[:, 1] - vals], fmt="o",
                capsize=5, color="#4c72b0")  # fmt: skip
    for y, (v, (lo, hi)) in enumerate(zip(vals, cis, strict=True)):
        ax.annotate(f"{v:+.1f} [{lo:+.1f}, {hi:+.1f}]", (v, y), xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=8)  # fmt: skip
    ax.set_yticks(range(n), names)
    ax.set_ylim(-0.5, n - 0.3)
    ax.margins(x=0.15)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("rating (Seeger-Fabian points per game vs the league average)")
    cfg = results["config"]
    ax.set_title(f"{cfg['deals']} duplicate deals per pair, seed {cfg['seed']}", fontsize=9)
    _margin_matrix(mx, results, names[::-1])
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _margin_matrix(ax: Any, results: dict[str, Any], names: list[str]) -> None:
    pos = {name: k for k, name in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    for p in results["pairs"]:
        grid[pos[p["a"]], pos[p["b"]]] = p["margin"]
        grid[pos[p["b"]], pos[p["a"]]] = -p["margin"]
    lim = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
    ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim)
    for (r, c), v in np.ndenumerate(grid):
        if np.isfinite(v):
            white = abs(v) > 0.6 * lim
            ax.text(c, r, f"{v:+.0f}", ha="center", va="center", fontsize=8,
                    color="white" if white else "black")  # fmt: skip
    short = [s if len(s) <= 16 else s[:15] + "…" for s in names]
    ax.set_xticks(range(len(names)), short, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), short, fontsize=8)
    ax.set_title("margin of row over column (SF/game)", fontsize=9)


__all__ = ["LeagueError", "fit_ratings", "format_table", "league", "pair_margins",
           "validate", "write_plot"]  # fmt: skip
