"""Duplicate tournaments between Skat agents, scored Seeger-Fabian with bootstrap intervals.

Every deal is played under every distinct seating of the three agents (3 rotations when two
seats share an agent, 6 permutations for three different agents), so each agent plays each
deal's hands from every seat and the luck of the cards cancels. Deals and dealers come from the
seed, one independent stream per deal, so any number of workers gives identical results. Agents
see only the acting player's observation, as in the PettingZoo env.

``evaluate(["heuristic", "random", "random"], deals=2000, seed=0)`` returns every figure as a
JSON-ready dict; :func:`format_table` and :func:`write_plot` present it. ``evaluate.py`` is the
command line over this module.
"""

from __future__ import annotations

import copy
import io
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.agents.base import Agent
from skat_env.agents.registry import AgentSpecError, make_agent

from .core.game import Game, IllegalMoveError
from .core.validation import check_count
from .encoding.observation import action_mask, encode
from .encoding.view import player_view
from .envs.policy import batchable, decide, notify_game_over

FAMILIES = ("suit", "grand", "null")


class EvaluationError(ValueError):
    """Bad evaluation input (reported by the CLI without a traceback)."""


# ----------------------------------------------------------------------------------------
# Deals, seatings and seeds
# ----------------------------------------------------------------------------------------


def deal_for(seed: int, index: int) -> tuple[list[int], int]:
    """(deal, dealer) of deal ``index``: its own stream of the seed, whatever the worker."""
    rng = np.random.default_rng([seed, index])
    return rng.permutation(32).tolist(), int(rng.integers(3))


def seatings(labels: Sequence[str], duplicate: bool = True) -> list[tuple[int, int, int]]:
    """Seatings as agent indices per seat: every distinct arrangement of the labels
    (3 when two agents share a label, 6 for three different ones) or just the given one."""
    if not duplicate:
        return [(0, 1, 2)]
    out, seen = [], set()
    for perm in itertools.permutations(range(3)):
        key = tuple(labels[i] for i in perm)
        if key not in seen:
            seen.add(key)
            out.append((perm[0], perm[1], perm[2]))
    return out


def _agent_seed(seed: int, deal: int, seating: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, deal, seating, seat]).generate_state(1)[0])


# ----------------------------------------------------------------------------------------
# Playing
# ----------------------------------------------------------------------------------------


def play_game(game: Game, by_seat: Sequence[Agent], names: Sequence[str] = ()) -> Game:
    """Play a game to the end with one agent per seat; illegal moves raise with the agent."""
    while not game.is_over:
        seat = game.to_act
        agent = by_seat[seat]
        move = decide(agent, game, seat)
        try:
            game.step(move)
        except IllegalMoveError as e:
            who = names[seat] if names else agent.name
            raise IllegalMoveError(f"agent {who!r} made an illegal move: {e}") from None
    _game_over(game, by_seat)
    return game


def _family(contract: str) -> str:
    word = contract.split()[0]
    return word if word in ("grand", "null") else "suit"


def _record(deal: int, k: int, seating: Sequence[int], game: Game) -> dict:
    r = game.result
    assert r is not None  # the game is over
    rec = {"deal": deal, "seating": k, "agents": list(seating), "passed_in": r.passed_in}
    if not r.passed_in:
        rec.update(
            declarer=r.declarer,
            contract=r.contract,
            family=_family(r.contract or ""),
            won=r.won,
            overbid=r.overbid,
            game_value=r.game_value,
            score=r.score,
        )
    rec["sf"] = list(r.seeger_fabian)
    return rec


def play_deals(
    specs: Sequence[str | Agent],
    labels: Sequence[str],
    indices: Sequence[int],
    seed: int,
    duplicate: bool,
    report: Callable[[Game, list[str]], None] | None = None,
) -> list[dict]:
    """Play deals ``indices`` under every seating; one record per game (worker entry).

    When an agent can decide for many games at once (``act_batch``, e.g. ``ppo:``), all the
    games are played in lockstep and its decisions batched (:func:`play_games_batched`); the
    moves, and so the records, are the same as one game after the other."""
    agents = [make_agent(s) for s in specs]
    arrangements = seatings(labels, duplicate)
    if report is None and any(batchable(a) for a in agents):
        return play_games_batched(agents, labels, arrangements, indices, seed)
    records = []
    for i in indices:
        deal, dealer = deal_for(seed, i)
        for k, seating in enumerate(arrangements):
            by_seat = [agents[a] for a in seating]
            for seat, agent in enumerate(by_seat):
                agent.reset(_agent_seed(seed, i, k, seat))
            names = [labels[a] for a in seating]
            game = play_game(Game(deal, dealer), by_seat, names)
            if report is not None:
                report(game, names)
            records.append(_record(i, k, seating, game))
    return records


def play_games_batched(
    agents: Sequence[Agent],
    labels: Sequence[str],
    arrangements: Sequence[tuple[int, int, int]],
    indices: Sequence[int],
    seed: int,
) -> list[dict]:
    """The games of ``indices`` x ``arrangements`` in lockstep: each round, every batched
    agent decides for all games waiting on it in one call; other agents get a copy per game
    and seat, reseeded as in sequential play, so their moves do not depend on the batching
    (an agent with large read-only state shares it in ``__deepcopy__``, as ``pimc`` does)."""
    games, tables, keys = [], [], []
    for i in indices:
        deal, dealer = deal_for(seed, i)
        for k, seating in enumerate(arrangements):
            by_seat = [agents[a] if batchable(agents[a]) else copy.deepcopy(agents[a])
                       for a in seating]  # fmt: skip
            for seat, agent in enumerate(by_seat):
                agent.reset(_agent_seed(seed, i, k, seat))
            games.append(Game(deal, dealer))
            tables.append(by_seat)
            keys.append((i, k, seating))
    active = list(range(len(games)))
    while active:
        waiting: dict[int, list[int]] = {}
        for g in active:
            agent = tables[g][games[g].to_act]
            if batchable(agent):
                waiting.setdefault(id(agent), []).append(g)
            else:
                _apply(games[g], decide(agent, games[g], games[g].to_act), agent, labels, keys[g])
        for group in waiting.values():
            views = [player_view(games[g], games[g].to_act) for g in group]
            obs = np.stack([encode(v) for v in views])
            masks = np.stack([action_mask(v.legal_mask) for v in views])
            agent = tables[group[0]][games[group[0]].to_act]
            for g, move in zip(group, agent.act_batch(obs, masks), strict=True):
                _apply(games[g], int(move), agent, labels, keys[g])
        active = [g for g in active if not games[g].is_over]
    for game, by_seat in zip(games, tables, strict=True):
        _game_over(game, by_seat)
    return [_record(i, k, seating, game) for (i, k, seating), game in zip(keys, games, strict=True)]


def _apply(game: Game, move: int, agent: Agent, labels: Sequence[str], key: tuple) -> None:
    try:
        game.step(move)
    except IllegalMoveError as e:
        seat = game.to_act
        who = labels[key[2][seat]] if labels else agent.name
        raise IllegalMoveError(f"agent {who!r} made an illegal move: {e}") from None


def _game_over(game: Game, by_seat: Sequence[Agent]) -> None:
    for seat, agent in enumerate(by_seat):
        notify_game_over(agent, game, seat)


# ----------------------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------------------


def bootstrap_ci(
    per_deal: np.ndarray, samples: int, seed: int, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean, resampling deals (scipy.stats.bootstrap);
    None with fewer than two deals, where no interval exists."""
    from scipy.stats import bootstrap

    per_deal = np.asarray(per_deal, dtype=float)
    if len(per_deal) < 2:
        return None
    if np.all(per_deal == per_deal[0]):  # no spread: scipy warns on a degenerate sample
        return float(per_deal[0]), float(per_deal[0])
    res = bootstrap(
        (per_deal,), np.mean, n_resamples=samples, confidence_level=level,
        method="percentile", vectorized=True, rng=np.random.default_rng([seed, 0xB007]),
    )  # fmt: skip
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def _agent_stats(records: list[dict], labels: Sequence[str], label: str) -> dict[str, Any]:
    c: dict[str, Any] = {k: 0 for k in ("games", "sf", "score", "declared", "won", "defended",
                                       "defence_won", "passed", "overbid", "value")}  # fmt: skip
    fam = {f: {"declared": 0, "won": 0, "defended": 0, "defence_won": 0} for f in FAMILIES}
    for rec in records:
        for seat, a in enumerate(rec["agents"]):
            if labels[a] != label:
                continue
            c["games"] += 1
            c["sf"] += rec["sf"][seat]
            if rec["passed_in"]:
                c["passed"] += 1
                continue
            f = fam[rec["family"]]
            if rec["declarer"] == seat:
                c["declared"] += 1
                c["score"] += rec["score"]
                c["won"] += rec["won"]
                c["overbid"] += rec["overbid"]
                c["value"] += rec["game_value"]
                f["declared"] += 1
                f["won"] += rec["won"]
            else:
                c["defended"] += 1
                c["defence_won"] += not rec["won"]
                f["defended"] += 1
                f["defence_won"] += not rec["won"]
    n = c["games"]
    return {
        "games": n,
        "sf_per_game": c["sf"] / n,
        "list_score_per_game": c["score"] / n,
        "declarer_share": c["declared"] / n,
        "declarer_win_rate": _rate(c["won"], c["declared"]),
        "defence_win_rate": _rate(c["defence_won"], c["defended"]),
        "passed_in_share": c["passed"] / n,
        "overbid_rate": _rate(c["overbid"], c["declared"]),
        "mean_game_value": _rate(c["value"], c["declared"]),
        "by_family": {
            name: {
                "declared": f["declared"],
                "declarer_share": f["declared"] / n,
                "declarer_win_rate": _rate(f["won"], f["declared"]),
                "defended": f["defended"],
                "defence_win_rate": _rate(f["defence_won"], f["defended"]),
            }
            for name, f in fam.items()
        },
    }


def per_deal_sf(records: list[dict], labels: Sequence[str], deals: int) -> dict[str, np.ndarray]:
    """Each label's mean Seeger-Fabian points per game, per deal (the bootstrap unit)."""
    names = list(dict.fromkeys(labels))
    total = {n: np.zeros(deals) for n in names}
    count = {n: np.zeros(deals) for n in names}
    for rec in records:
        for seat, a in enumerate(rec["agents"]):
            total[labels[a]][rec["deal"]] += rec["sf"][seat]
            count[labels[a]][rec["deal"]] += 1
    return {n: total[n] / np.maximum(count[n], 1) for n in names}


def summarise(records: list[dict], labels: Sequence[str], deals: int, seed: int,
              samples: int) -> dict[str, Any]:  # fmt: skip
    """Every figure of the report from the game records."""
    per_deal = per_deal_sf(records, labels, deals)
    agents = {}
    for name, values in per_deal.items():
        stats = _agent_stats(records, labels, name)
        ci = bootstrap_ci(values, samples, seed)
        stats["sf_ci95"] = None if ci is None else list(ci)
        agents[name] = stats
    comparisons = []
    for a, b in itertools.combinations(per_deal, 2):
        diff = per_deal[a] - per_deal[b]
        ci = bootstrap_ci(diff, samples, seed)
        comparisons.append({"a": a, "b": b, "sf_diff_per_game": float(diff.mean()),
                            "ci95": None if ci is None else list(ci)})  # fmt: skip
    return {"agents": agents, "comparisons": comparisons}


# ----------------------------------------------------------------------------------------
# The API
# ----------------------------------------------------------------------------------------


def agent_labels(agents: Sequence[str | Agent]) -> list[str]:
    """Labels of the agents (spec strings; an Agent object's name, made unique if two
    different objects share it)."""
    labels: list[str] = []
    for i, a in enumerate(agents):
        if isinstance(a, str):
            labels.append(a)
            continue
        label = a.name
        for j, prev in enumerate(agents[:i]):
            if labels[j] == label and prev is not a:
                label = f"{a.name}#{i + 1}"
        labels.append(label)
    return labels


def validate(agents: Sequence[str | Agent], deals: int, workers: int, seed: int = 0) -> list[Agent]:
    """Raise :class:`EvaluationError` for bad input; the built agents otherwise."""
    if isinstance(agents, str) or len(agents) != 3:
        n = 1 if isinstance(agents, str) else len(agents)
        raise EvaluationError(f"Skat needs exactly 3 agents, one per seat; got {n}")
    if not isinstance(deals, int) or deals < 1:
        raise EvaluationError(f"deals must be a positive integer, got {deals!r}")
    if not isinstance(workers, int) or workers < 1:
        raise EvaluationError(f"workers must be a positive integer, got {workers!r}")
    try:
        check_count(seed, "seed", minimum=0)
    except (TypeError, ValueError) as e:
        raise EvaluationError(str(e)) from None
    try:
        built = [make_agent(a) for a in agents]
    except AgentSpecError as e:
        raise EvaluationError(str(e)) from None
    if workers > 1 and any(a.interactive for a in built):
        raise EvaluationError("a human agent plays in this terminal: use --workers 1")
    return built


def evaluate(
    agents: Sequence[str | Agent],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    duplicate: bool = True,
    progress: bool = False,
    bootstrap: int = 2000,
    keep_games: bool = False,
    report: Callable[[Game, list[str]], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` deals (each under every seating when ``duplicate``) and summarise.

    Returns a JSON-ready dict: ``config``, ``agents`` (label -> figures, ``sf_per_game``
    and its ``sf_ci95``), ``comparisons`` (per pair: per-deal Seeger-Fabian difference with
    interval), ``timing``, and the game ``records`` if ``keep_games``. Identical for any
    ``workers`` with the same ``seed``. ``report(game, labels_by_seat)`` sees every
    finished game (single worker only). ``progress``: a bar over the games when stderr is a
    terminal.
    """
    built = validate(agents, deals, workers, seed)
    labels = agent_labels(agents)
    specs: list[str | Agent] = [
        a if isinstance(a, str) else b for a, b in zip(agents, built, strict=True)
    ]
    if workers == 1:
        specs = list(built)
    arrangements = seatings(labels, duplicate)
    total = deals * len(arrangements)
    bar = _progress_bar(total) if progress and not any(a.interactive for a in built) else None
    t0 = time.perf_counter()
    if workers == 1:
        records = []
        step = max(1, min(64, deals // 100 or 1))  # small steps keep the progress bar moving
        if any(batchable(a) for a in built):
            step = 256  # batched agents gain from many games in lockstep
        for start in range(0, deals, step):
            idx = range(start, min(deals, start + step))
            records += play_deals(specs, labels, idx, seed, duplicate, report)
            if bar is not None:
                bar.update(len(idx) * len(arrangements))
    else:
        records = _parallel(specs, labels, deals, seed, duplicate, workers, bar, len(arrangements))
    elapsed = time.perf_counter() - t0
    if bar is not None:
        bar.close()
    out = {
        "config": {
            "agents": labels,
            "deals": deals,
            "seed": seed,
            "duplicate": duplicate,
            "seatings": [[labels[a] for a in s] for s in arrangements],
            "games": total,
            "workers": workers,
            "bootstrap_samples": bootstrap,
        },
        **summarise(records, labels, deals, seed, bootstrap),
        "timing": {"seconds": elapsed, "games_per_second": total / elapsed if elapsed else None},
    }
    if keep_games:
        out["records"] = records
    return out


def _parallel(specs, labels, deals, seed, duplicate, workers, bar, per_deal) -> list[dict]:
    chunk = max(1, min(100, deals // (workers * 8) or 1))
    chunks = [range(s, min(deals, s + chunk)) for s in range(0, deals, chunk)]
    results: list[list[dict]] = [[] for _ in chunks]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(play_deals, specs, labels, list(c), seed, duplicate): i
            for i, c in enumerate(chunks)
        }
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if bar is not None:
                bar.update(len(chunks[i]) * per_deal)
    return [r for part in results for r in part]


def _progress_bar(total: int) -> Any:
    """A bar over the games on a terminal (none when stderr is not one, or without tqdm)."""
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm comes with the eval extra
        return None
    return tqdm(total=total, unit="game", desc="evaluating", file=sys.stderr, disable=None)


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci: list[float] | None, signed: bool = False) -> str:
    if ci is None:
        return "- (1 deal)"
    f = "{:+.1f}" if signed else "{:.1f}"
    return f"[{f.format(ci[0])}, {f.format(ci[1])}]"


def format_table(results: dict[str, Any]) -> str:
    """The terminal table (rich): one row per agent, then the pairwise differences."""
    from rich.console import Console
    from rich.table import Table

    cfg = results["config"]
    title = (f"{cfg['deals']} deal{'s' * (cfg['deals'] != 1)} x {len(cfg['seatings'])} "
             f"seating{'s' * (len(cfg['seatings']) != 1)} = {cfg['games']} "
             f"game{'s' * (cfg['games'] != 1)}, seed {cfg['seed']}"
             f"{', duplicate' if cfg['duplicate'] else ''}")  # fmt: skip
    table = Table(title=title, title_justify="left", box=None, header_style="bold")
    cols = ("agent", "SF/game", "95% CI", "list/game", "decl", "decl won", "def won",
            "suit won", "grand won", "null won", "passed", "overbid", "value")  # fmt: skip
    for i, c in enumerate(cols):
        table.add_column(c, justify="left" if i == 0 else "right", no_wrap=True)
    for name, s in results["agents"].items():
        fam = s["by_family"]
        table.add_row(
            name, f"{s['sf_per_game']:.1f}", _ci(s["sf_ci95"]),
            f"{s['list_score_per_game']:.1f}", _pct(s["declarer_share"]),
            _pct(s["declarer_win_rate"]), _pct(s["defence_win_rate"]),
            *(_pct(fam[f]["declarer_win_rate"]) for f in FAMILIES),
            _pct(s["passed_in_share"]), _pct(s["overbid_rate"]),
            "-" if s["mean_game_value"] is None else f"{s['mean_game_value']:.1f}",
        )  # fmt: skip
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(table)
    out = [console.export_text().rstrip()]
    for c in results["comparisons"]:
        out.append(f"{c['a']} - {c['b']}: {c['sf_diff_per_game']:+.1f} SF/game "
                   f"{_ci(c['ci95'], signed=True)}")  # fmt: skip
    t = results.get("timing", {})
    if t.get("seconds"):
        rate = t["games_per_second"]
        out.append(f"{t['seconds']:.1f}s" + (f", {rate:.1f} games/s" if cfg["games"] > 1 else ""))
    return "\n".join(out)


def write_plot(results: dict[str, Any], path: Path) -> None:
    """Bar chart of Seeger-Fabian points per game with 95% intervals (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(results["agents"])
    means = [results["agents"][n]["sf_per_game"] for n in names]
    cis = [results["agents"][n]["sf_ci95"] or (m, m) for m, n in zip(means, names, strict=True)]
    lo = [m - ci[0] for m, ci in zip(means, cis, strict=True)]
    hi = [ci[1] - m for m, ci in zip(means, cis, strict=True)]
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(names), 4))
    ax.bar(names, means, yerr=[lo, hi], capsize=6, color="#4c72b0")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_ylabel("Seeger-Fabian points per game")
    cfg = results["config"]
    ax.set_title(f"{' vs '.join(cfg['agents'])}\n{cfg['deals']} deals, seed {cfg['seed']}",
                 fontsize=9)  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def describe_game(game: Game, labels: Sequence[str]) -> str:
    """The score sheet of a finished game, for people playing."""
    from .envs.render import describe_result

    assert game.result is not None, "the game is not over"
    return describe_result(game.result, labels)
