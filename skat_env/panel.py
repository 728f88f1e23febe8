"""A fixed benchmark panel for any policy: duplicate tournaments against unlike opponents.

Beating one opponent says little about a policy: a player that learned against the heuristic's
weak defence can overbid against a stronger one. The panel plays the policy against a fixed,
versioned list of opponents (random, the heuristic and two bidding variants, the learned
contracts, a shipped PPO model, ``pimc:fast``, ``pimc``) on fixed deal sets, in both line-ups:

- ``alone``: the policy against two copies of the opponent;
- ``pair``: two copies of the policy against the opponent.

Every deal is played under every seating (duplicate; 3 rotations), so the luck of the cards
cancels. Per opponent and line-up it reports the margin (the policy's Seeger-Fabian points per
game minus the opponent's, per deal) with a 95% bootstrap interval over deals, and each side's
declarer share and declarer win rate. The **rating** is the mean of the margins over the rated
opponents (all but ``random``, a floor check whose huge margins would swamp the mean) and both
line-ups, each weighing the same; its interval resamples each opponent's deals, both line-ups
together, and averages the resampled margins.

Games depend only on the opponent's seed, the deal and the seating, so the results are the same
for any number of worker processes (``workers``) and on a Ray cluster (``address``).
``run_panel("ppo")`` returns a JSON-ready dict; :func:`format_table` prints it;
``skat-bench`` (:mod:`skat_env.cli.bench`) is the command line.
"""

from __future__ import annotations

import copy
import io
import math
import pickle
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from skat_env.agents.base import Agent
from skat_env.agents.registry import AgentSpecError, make_agent

from .cluster import ClusterError, ray_tasks
from .envs.policy import (
    as_policy,
    batchable,
    batched,
    pass_game_over,
    reset_policy,
    sees_everything,
    view_hook,
)
from .tournament import bootstrap_ci, per_deal_sf, play_deals, seatings, summarise

#: the two line-ups: who sits in the three seats (the policy alone, or two copies of it)
LINEUPS: dict[str, tuple[str, str, str]] = {
    "alone": ("policy", "opponent", "opponent"),
    "pair": ("policy", "policy", "opponent"),
}
#: the shipped players of the leaderboard (``skat-bench --leaderboard``)
LEADERBOARD = ("heuristic", "learned", "ppo", "ppo:2026-12-05", "ppo:2026-12-02", "pimc:fast")
CHUNK_MAX = 64  # deals per job at most: small jobs keep the workers and the progress bar busy


class PanelError(ValueError):
    """Bad panel input (the CLI reports it in one line, exit status 2)."""


@dataclass(frozen=True)
class Opponent:
    """One panel opponent: its short name, agent spec and fixed deal set (``deals`` deals
    of the stream ``seed``, the same deals in both line-ups). ``rated``: counted in the
    rating (``random`` is a floor check: its huge margins would swamp the mean)."""

    name: str
    spec: str
    deals: int
    seed: int
    what: str
    rated: bool = True


@dataclass(frozen=True)
class Panel:
    """A versioned list of opponents: a version's deals and specs never change, and a change to
    how an opponent plays (the search players are not pinned by date) gets a new version."""

    version: str
    opponents: tuple[Opponent, ...]


# v2: the search players' declarer breaks near-ties with a network (v1 played them before)
PANEL_V2 = Panel("v2", (
    Opponent("random", "random", 200, 101, "uniform over the legal moves", rated=False),
    Opponent("heuristic", "heuristic", 1000, 102, "the hand-written rules"),
    Opponent("bold", "heuristic:margin=-2", 500, 103, "the heuristic, bidding bolder"),
    Opponent("careful", "heuristic:margin=2", 500, 104, "the heuristic, bidding more carefully"),
    Opponent("learned", "learned", 500, 105, "learned contract decisions, the heuristic's cards"),
    Opponent("ppo", "ppo:2026-12-02", 1000, 106, "the PPO model shipped on 2026-12-02"),
    Opponent("pimc:fast", "pimc:fast", 300, 107, "the search player, quick preset"),
    Opponent("pimc", "pimc", 200, 108, "the search player, default"),
))  # fmt: skip
PANELS = {p.version: p for p in (PANEL_V2,)}
DEFAULT_PANEL = PANEL_V2.version


# ----------------------------------------------------------------------------------------
# The policy
# ----------------------------------------------------------------------------------------


class PolicyAgent(Agent):
    """Any policy (an object with ``act``, or a function ``observation -> move id``) as an
    :class:`Agent`, its hooks passed through (``act_batch`` only when it is batchable)."""

    def __init__(self, policy: Any, name: str):
        self.policy = as_policy(policy)
        self.name = name
        self.deterministic = batchable(self.policy)
        self.perfect_information = sees_everything(self.policy)
        self.act_view = view_hook(self.policy)

    def act(self, observation: Any) -> int:
        return int(self.policy.act(observation))

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.asarray(batched(self.policy)(obs, masks))

    def act_game(self, game: Any, seat: int) -> int:
        # an optional hook (policies flagged perfect_information), not in the Policy protocol
        return int(cast(Any, self.policy).act_game(game, seat))

    def reset(self, seed: int | None = None) -> None:
        reset_policy(self.policy, seed)

    def game_over(self, observation: Any) -> None:
        pass_game_over(self.policy, observation)


def policy_agent(policy: Any, name: str | None = None) -> tuple[str | Agent, str]:
    """(what the workers build the policy from, its label): a spec string as it is (checked
    now), an :class:`Agent` as it is, any other policy wrapped in :class:`PolicyAgent`."""
    if isinstance(policy, (str, Agent)):
        try:
            agent = make_agent(policy)
        except AgentSpecError as e:
            raise PanelError(f"bad policy: {e}") from None
        if agent.interactive:
            raise PanelError(f"policy {agent.name!r} needs a person at the terminal; it cannot "
                             "be benchmarked")  # fmt: skip
        return policy, name or (policy if isinstance(policy, str) else agent.name)
    try:
        as_policy(policy)
    except TypeError as e:
        raise PanelError(str(e)) from None
    label = name or getattr(policy, "name", None) or getattr(policy, "__name__", "policy")
    return PolicyAgent(policy, str(label)), str(label)


# ----------------------------------------------------------------------------------------
# Jobs: one line-up against one opponent on a range of deals
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """Deals ``start``..``stop`` of opponent ``entry`` in one line-up."""

    entry: int
    lineup: str
    start: int
    stop: int

    def games(self) -> int:
        return (self.stop - self.start) * len(seatings(LINEUPS[self.lineup]))


def play_job(policy: str | Agent, opponent: str, lineup: str, indices: Sequence[int],
             seed: int) -> tuple[list[dict], float]:  # fmt: skip
    """The game records of one job and its CPU seconds (the worker entry, Ray's included).
    Each seat gets its own policy instance (a copy of an object), as spec strings do."""
    roles = LINEUPS[lineup]
    seats = [policy if r == "policy" else opponent for r in roles]
    if lineup == "pair" and not isinstance(policy, str):
        seats[1] = copy.deepcopy(policy)
    t0 = time.process_time()
    records = play_deals(seats, roles, indices, seed, duplicate=True)
    return records, time.process_time() - t0


def make_jobs(opponents: Sequence[Opponent], workers: int) -> list[Job]:
    """Every opponent's deals cut into jobs of at most :data:`CHUNK_MAX` deals, about four
    per worker (the results do not depend on the cut)."""
    jobs = []
    for k, opp in enumerate(opponents):
        size = max(1, min(CHUNK_MAX, math.ceil(opp.deals / (4 * workers))))
        for lineup in LINEUPS:
            jobs += [Job(k, lineup, s, min(opp.deals, s + size)) for s in range(0, opp.deals, size)]
    return jobs


Done = Callable[[Job], None]


def _serial(jobs, policy, opponents, done: Done) -> Iterator[tuple[Job, tuple]]:
    for job in jobs:
        opp = opponents[job.entry]
        out = play_job(policy, opp.spec, job.lineup, range(job.start, job.stop), opp.seed)
        done(job)
        yield job, out


def _processes(jobs, policy, opponents, done: Done, workers: int) -> Iterator[tuple[Job, tuple]]:
    if not isinstance(policy, str):
        try:
            pickle.dumps(policy)
        except (pickle.PicklingError, AttributeError, TypeError) as e:
            raise PanelError(
                f"the policy cannot be sent to worker processes ({e}); pass a "
                "module-level function or object, or use workers=1"
            ) from None
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {}
        for job in jobs:
            opp = opponents[job.entry]
            args = (policy, opp.spec, job.lineup, list(range(job.start, job.stop)), opp.seed)
            futures[pool.submit(play_job, *args)] = job
        for fut in as_completed(futures):
            done(futures[fut])
            yield futures[fut], fut.result()


def _ray(jobs, policy, opponents, done: Done, address: str) -> Iterator[tuple[Job, tuple]]:
    """The jobs as Ray tasks (one CPU each) on the cluster at ``address``."""

    def args(job: Job) -> tuple[Any, ...]:
        opp = opponents[job.entry]
        return opp.spec, job.lineup, list(range(job.start, job.stop)), opp.seed

    try:
        for job, out in ray_tasks(play_job, policy, ((job, args(job)) for job in jobs), address):
            done(job)
            yield job, out
    except ClusterError as e:
        raise PanelError(str(e)) from None


# ----------------------------------------------------------------------------------------
# The API
# ----------------------------------------------------------------------------------------


def select(panel: str | Panel = DEFAULT_PANEL, only: Sequence[str] = (),
           deals_scale: float = 1.0) -> list[Opponent]:  # fmt: skip
    """The opponents of a panel (or those named in ``only``), their deal counts scaled (at
    least 2 each, so every interval exists)."""
    if isinstance(panel, str):
        if panel not in PANELS:
            raise PanelError(f"unknown panel {panel!r}; panels: {', '.join(PANELS)}")
        panel = PANELS[panel]
    if not isinstance(deals_scale, (int, float)) or not deals_scale > 0:
        raise PanelError(f"deals_scale must be a positive number, got {deals_scale!r}")
    names = [o.name for o in panel.opponents]
    unknown = [n for n in only if n not in names]
    if unknown:
        raise PanelError(f"no opponent {unknown[0]!r} in panel {panel.version}; its "
                         f"opponents: {', '.join(names)}")  # fmt: skip
    chosen = [o for o in panel.opponents if not only or o.name in only]
    return [replace(o, deals=max(2, round(o.deals * deals_scale))) for o in chosen]


def run_panel(
    policy: Any,
    panel: str | Panel = DEFAULT_PANEL,
    only: Sequence[str] = (),
    deals_scale: float = 1.0,
    workers: int = 1,
    address: str | None = None,
    bootstrap: int = 2000,
    progress: bool = False,
    name: str | None = None,
) -> dict[str, Any]:
    """Benchmark ``policy`` (a spec string such as ``"ppo:model.zip"``, an :class:`Agent`,
    an object with ``act``, or a function ``observation -> move id``) against the panel.

    ``workers`` processes, or Ray tasks on the cluster at ``address`` (``"auto"``,
    ``"HOST:PORT"``, or an already started ``ray.init``); identical results either way.
    Returns a JSON-ready dict: ``panel``, ``policy``, ``config``, ``opponents`` (per
    opponent: per line-up the margin, its ``margin_ci95`` and the ``policy``'s and
    ``opponent``'s figures), ``rating`` and ``timing``."""
    if not isinstance(workers, int) or workers < 1:
        raise PanelError(f"workers must be a positive integer, got {workers!r}")
    if not isinstance(bootstrap, int) or bootstrap < 1:
        raise PanelError(f"bootstrap must be a positive integer, got {bootstrap!r}")
    opponents = select(panel, only, deals_scale)
    for opp in opponents:  # an opponent that cannot be built (a missing extra) fails now
        try:
            make_agent(opp.spec)
        except AgentSpecError as e:
            raise PanelError(f"panel opponent {opp.name}: {e}") from None
    version = panel if isinstance(panel, str) else panel.version
    played, label = policy_agent(policy, name)
    jobs = make_jobs(opponents, workers)
    records, timing = _play(jobs, played, opponents, workers, address, progress)
    return {
        "panel": version,
        "policy": label,
        "config": {
            "deals_scale": deals_scale,
            "bootstrap_samples": bootstrap,
            "workers": workers,
            "address": address,
        },  # fmt: skip
        **report(opponents, records, timing, bootstrap),
    }


def _play(jobs, policy, opponents, workers, address, progress) -> tuple[dict, dict]:
    """Every job's records by (opponent index, line-up), in deal order, and the timing:
    wall seconds and each opponent's CPU seconds summed over its jobs (worker processes'
    included, so a loaded machine does not inflate them)."""
    from tqdm import tqdm

    bar = tqdm(total=sum(j.games() for j in jobs), unit="game", desc="panel",
               disable=not progress)  # fmt: skip
    t0 = time.perf_counter()
    if address is not None:
        stream = _ray(jobs, policy, opponents, lambda j: bar.update(j.games()), address)
    elif workers > 1:
        stream = _processes(jobs, policy, opponents, lambda j: bar.update(j.games()), workers)
    else:
        stream = _serial(jobs, policy, opponents, lambda j: bar.update(j.games()))
    parts: dict[Job, list[dict]] = {}
    seconds = np.zeros(len(opponents))
    try:
        for job, (recs, secs) in stream:
            parts[job] = recs
            seconds[job.entry] += secs
    finally:
        bar.close()
    out: dict[tuple[int, str], list[dict]] = {
        (k, lineup): [] for k in range(len(opponents)) for lineup in LINEUPS
    }
    for job in sorted(parts, key=lambda j: (j.entry, j.lineup, j.start)):
        out[job.entry, job.lineup] += parts[job]
    return out, {"seconds": time.perf_counter() - t0, "cpu_seconds": seconds.tolist()}


def report(opponents: Sequence[Opponent], records: dict, timing: dict,
           bootstrap: int) -> dict[str, Any]:  # fmt: skip
    """The figures per opponent and line-up, the rating and the timing."""
    entries, diffs = [], []
    for k, opp in enumerate(opponents):
        lineups = {}
        pair = []
        for lineup, roles in LINEUPS.items():
            recs = records[k, lineup]
            s = summarise(recs, roles, opp.deals, opp.seed, bootstrap)
            (cmp,) = s["comparisons"]
            pair.append(_diff(recs, roles, opp.deals))
            lineups[lineup] = {"games": len(recs), "margin": cmp["sf_diff_per_game"],
                               "margin_ci95": cmp["ci95"], **s["agents"],
                               "deal_margins": [round(float(x), 4) for x in pair[-1]]}  # fmt: skip
        if opp.rated:
            diffs.append((pair, opp.seed))
        secs = timing["cpu_seconds"][k]
        games = sum(v["games"] for v in lineups.values())
        entries.append({**asdict(opp), "lineups": lineups, "cpu_seconds": secs,
                        "cpu_seconds_per_game": secs / games})  # fmt: skip
    games = sum(e["lineups"][x]["games"] for e in entries for x in LINEUPS)
    wall = timing["seconds"]
    return {
        "opponents": entries,
        "rating": rating(diffs, bootstrap) if diffs else None,
        "timing": {"seconds": wall, "games": games, "games_per_second": games / wall},
    }


def _diff(records: list[dict], roles: Sequence[str], deals: int) -> np.ndarray:
    sf = per_deal_sf(records, roles, deals)
    return sf["policy"] - sf["opponent"]


def rating(diffs: Sequence[tuple[Sequence[np.ndarray], int]], samples: int) -> dict[str, Any]:
    """The mean margin over the rated opponents and both line-ups (``diffs``: per opponent
    the per-deal margins of its line-ups and its seed), with a 95% percentile bootstrap
    interval: each resample draws every opponent's deals with replacement (one draw for both
    line-ups, which share the deals) and averages the resampled margins."""
    means = [d.mean() for pair, _ in diffs for d in pair]
    total = np.zeros(samples)
    for pair, seed in diffs:
        n = len(pair[0])
        idx = np.random.default_rng([seed, 0xB007]).integers(0, n, (samples, n))
        for d in pair:
            total += d[idx].mean(axis=1)
    boot = total / len(means)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return {
        "sf_margin": float(np.mean(means)),
        "ci95": [float(lo), float(hi)],
        "opponents": len(diffs),
        "how": "mean over the rated opponents and both line-ups of the policy's SF/game minus "
        "the opponent's; interval: bootstrap over each opponent's deals",
    }


def compare(base: dict[str, Any], other: dict[str, Any], bootstrap: int = 2000) -> dict[str, Any]:
    """``other`` minus ``base``, two results of :func:`run_panel` on the same panel, opponents
    and deals: per opponent and line-up the difference of the margins, and the difference of
    the ratings, each with a *paired* 95% bootstrap interval (both policies played the same
    deals, so the luck of the cards cancels once more and the interval is narrower than
    either rating's). Raises :class:`PanelError` for results that cannot be compared."""
    if not isinstance(bootstrap, int) or bootstrap < 1:
        raise PanelError(f"bootstrap must be a positive integer, got {bootstrap!r}")
    for r in (base, other):
        if not isinstance(r, dict) or "opponents" not in r or "panel" not in r:
            raise PanelError("a comparison takes two panel results (skat-bench JSON files)")
    if base["panel"] != other["panel"]:
        raise PanelError(f"the results are of different panels ({base['panel']} and "
                         f"{other['panel']})")  # fmt: skip
    deals = [[(e["name"], e["deals"]) for e in r["opponents"]] for r in (base, other)]
    if deals[0] != deals[1]:
        raise PanelError(f"the results played different opponents or deal counts: "
                         f"{deals[0]} and {deals[1]}; compare runs with the same --only "
                         "and --deals-scale")  # fmt: skip
    entries, diffs = [], []
    for a, b in zip(base["opponents"], other["opponents"], strict=True):
        pair, lineups = [], {}
        for lineup in LINEUPS:
            try:
                d = np.subtract(b["lineups"][lineup]["deal_margins"],
                                a["lineups"][lineup]["deal_margins"])  # fmt: skip
            except KeyError:
                raise PanelError("a result without per-deal margins (written by an older "
                                 "version): benchmark that policy again") from None  # fmt: skip
            pair.append(d)
            ci = bootstrap_ci(d, bootstrap, a["seed"])
            lineups[lineup] = {"diff": float(d.mean()), "ci95": None if ci is None else list(ci)}
        if a["rated"]:
            diffs.append((pair, a["seed"]))
        entries.append({"name": a["name"], "deals": a["deals"], "lineups": lineups})
    return {
        "panel": base["panel"],
        "base": base["policy"],
        "other": other["policy"],
        "opponents": entries,
        "rating_diff": {**rating(diffs, bootstrap), "how": "the other's rating minus the "
                        "base's; interval: bootstrap over each opponent's deals, both "
                        "policies' games of a deal drawn together"} if diffs else None,
    }  # fmt: skip


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _ci(ci: list[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:+.1f}, {ci[1]:+.1f}]"


def _render(table: Any) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(table)
    return console.export_text().rstrip()


def format_table(results: dict[str, Any]) -> str:
    """The terminal table (rich): one row per opponent and line-up, then the rating."""
    from rich.table import Table

    table = Table(title=f"{results['policy']} against panel {results['panel']} (duplicate "
                  "deals; alone: 1 vs 2 opponents, pair: 2 vs 1)", title_justify="left",
                  box=None, header_style="bold")  # fmt: skip
    cols = ("opponent", "line-up", "deals", "margin", "95% CI", "decl", "decl won",
            "opp decl", "opp decl won", "CPU s/game")  # fmt: skip
    for i, c in enumerate(cols):
        table.add_column(c, justify="left" if i < 2 else "right", no_wrap=True)
    for e in results["opponents"]:
        for lineup, r in e["lineups"].items():
            p, o = r["policy"], r["opponent"]
            table.add_row(
                e["name"] if lineup == "alone" else "", lineup, str(e["deals"]),
                f"{r['margin']:+.1f}", _ci(r["margin_ci95"]),
                _pct(p["declarer_share"]), _pct(p["declarer_win_rate"]),
                _pct(o["declarer_share"]), _pct(o["declarer_win_rate"]),
                f"{e['cpu_seconds_per_game']:.3f}" if lineup == "alone" else "",
            )  # fmt: skip
    t = results["timing"]
    return "\n".join([
        _render(table),
        f"rating: {_rating(results['rating'])}",
        f"{t['games']} games in {t['seconds']:.1f}s, {t['games_per_second']:.1f} games/s",
    ])  # fmt: skip


def _rating(r: dict[str, Any] | None) -> str:
    if r is None:
        return "- (no rated opponent played)"
    return (f"{r['sf_margin']:+.1f} {_ci(r['ci95'])} SF/game (the mean margin over "
            f"{r['opponents']} rated opponents x 2 line-ups)")  # fmt: skip


def leaderboard(runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players of several panel runs, best rating first: rating, interval and the mean
    margin of both line-ups per opponent."""
    rows = [{"policy": r["policy"], "rating": (r["rating"] or {}).get("sf_margin", math.nan),
             "ci95": (r["rating"] or {}).get("ci95"),
             "margins": {e["name"]: float(np.mean([x["margin"] for x in e["lineups"].values()]))
                         for e in r["opponents"]}}
            for r in runs]  # fmt: skip
    return sorted(rows, key=lambda row: (math.isnan(row["rating"]), -row["rating"]))


def format_comparison(result: dict[str, Any]) -> str:
    """A :func:`compare` result as a terminal table (rich)."""
    from rich.table import Table

    table = Table(title=f"{result['other']} minus {result['base']} on panel {result['panel']} "
                  "(the same deals; paired 95% intervals)", title_justify="left", box=None,
                  header_style="bold")  # fmt: skip
    for i, c in enumerate(("opponent", "line-up", "deals", "margin diff", "95% CI")):
        table.add_column(c, justify="left" if i < 2 else "right", no_wrap=True)
    for e in result["opponents"]:
        for lineup, r in e["lineups"].items():
            table.add_row(e["name"] if lineup == "alone" else "", lineup, str(e["deals"]),
                          f"{r['diff']:+.1f}", _ci(r["ci95"]))  # fmt: skip
    r = result["rating_diff"]
    tail = "-" if r is None else f"{r['sf_margin']:+.1f} {_ci(r['ci95'])} SF/game"
    return "\n".join([_render(table), f"rating difference: {tail}"])


def format_leaderboard(rows: Sequence[dict[str, Any]]) -> str:
    """The leaderboard as a terminal table (rich)."""
    from rich.table import Table

    table = Table(
        title="leaderboard: rating and the margin per opponent (mean of both line-ups), SF/game",
        title_justify="left",
        box=None,
        header_style="bold",
    )
    names = list(rows[0]["margins"]) if rows else []
    for i, c in enumerate(("#", "player", "rating", "95% CI", *names)):
        table.add_column(c, justify="left" if i == 1 else "right", no_wrap=True)
    for i, row in enumerate(rows, 1):
        table.add_row(str(i), row["policy"], f"{row['rating']:+.1f}", _ci(row["ci95"]),
                      *(f"{row['margins'][n]:+.1f}" for n in names))  # fmt: skip
    return _render(table)


def write_plot(results: dict[str, Any], path: Path) -> None:
    """Margins per rated opponent, both line-ups, with their 95% intervals (matplotlib, Agg;
    random's margins, a floor check, would dwarf the others)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [e for e in results["opponents"] if e["rated"]] or results["opponents"]
    names = [e["name"] for e in shown]
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(names)))
    for shift, (lineup, color) in zip((-0.2, 0.2), (("alone", "#4c72b0"), ("pair", "#dd8452")),
                                      strict=True):  # fmt: skip
        rows = [e["lineups"][lineup] for e in shown]
        m = np.array([r["margin"] for r in rows])
        ci = np.array([r["margin_ci95"] or (x, x) for r, x in zip(rows, m, strict=True)])
        ax.barh(y + shift, m, height=0.4, xerr=[m - ci[:, 0], ci[:, 1] - m], capsize=3,
                color=color, label=lineup)  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("margin, Seeger-Fabian points per game")
    ax.set_title(f"{results['policy']} against panel {results['panel']}\nrating "
                 f"{_rating(results['rating'])}", fontsize=8)  # fmt: skip
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


__all__ = ["DEFAULT_PANEL", "LEADERBOARD", "LINEUPS", "PANELS", "PANEL_V2", "Opponent", "Panel",
           "PanelError", "PolicyAgent", "compare", "format_comparison", "format_leaderboard",
           "format_table", "leaderboard", "run_panel", "select", "write_plot"]  # fmt: skip
