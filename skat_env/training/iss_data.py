"""Behaviour-cloning data from human games: records of the International Skat Server (ISS).

    skat-train --init iss:iss-games.sgf.bz2 --iss-min-rating 1000 --clone-games 50000

The archive (one ``(;GM[Skat]...)`` record a line, see ``tests/data/README.md``) is read line by
line, ``.bz2`` through :mod:`bz2`, so no file is ever held in memory. Each record is parsed by
:func:`skat_env.core.records.parse_iss` and replayed through the engine; every decision becomes
one row from the acting seat's own view, the observation the environments hand out
(:func:`skat_env.encoding.observation.observe`), its legal mask, the move the person made and
that seat's final reward (the value head's target): the data set of
:func:`skat_env.training.cloning.behaviour_clone` (as ``distill`` shards load).

Which decisions are kept:

- played-out games (and passed-in deals): every decision, the reward from the engine's result;
- games that stop early (a resignation, a claim, a timeout, a player who left) but carry a
  server result (declarer, win or loss, score): the decisions before the first card (auction,
  skat, discard, declaration), the reward from the recorded score;
- nothing of records with a hidden deal, a penalty instead of a result, or a move the engine
  refuses (counted per reason in :class:`IssStats`).

``min_rating`` keeps only the decisions of seats whose rating (``R0``..``R2``, where the server
recorded one) reaches it; seats without a rating are dropped when it is set.
"""

from __future__ import annotations

import bz2
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.game import PLAY, Game, IllegalMoveError
from ..core.moves import NUM_MOVES, move_id
from ..core.records import IssRecord, parse_iss
from ..core.rewards import REWARD_MODES, rewards_of, side_rewards
from ..core.scoring import seeger_fabian
from ..encoding.observation import OBS_SIZE, observe

PLAYED_OUT = ("complete", "passed")


@dataclass
class IssStats:
    """What a pass over an archive kept and dropped, and how fast it went."""

    records: int = 0  # record lines read
    games: int = 0  # records with at least one decision kept
    played_out: int = 0  # of those, played to the end (all their decisions)
    contract_only: int = 0  # of those, stopped early (decisions before the first card)
    decisions: int = 0
    dropped: Counter = field(default_factory=Counter)  # reason -> records
    seconds: float = 0.0

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        dropped = ", ".join(f"{k} {v:,}" for k, v in sorted(self.dropped.items())) or "none"
        return (
            f"{self.records:,} ISS records in {self.seconds:.1f} s "
            f"({self.records_per_second:,.0f} records/s): {self.games:,} games kept "
            f"({self.played_out:,} played out, {self.contract_only:,} contract decisions only), "
            f"{self.decisions:,} decisions; dropped: {dropped}"
        )


def iss_lines(path: str | Path) -> Iterator[str]:
    """The record lines of an ISS file, plain or ``.bz2``, streamed."""
    path = Path(path)
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.lstrip().startswith("("):
                yield line


def rating(record: IssRecord, seat: int) -> float | None:
    """The rating the server recorded for ``seat`` (``R0``..``R2``), None when there is none."""
    try:
        value = float(record.fields.get(f"R{seat}", ""))
    except ValueError:
        return None
    return value if np.isfinite(value) and value > 0 else None


def recorded_rewards(record: IssRecord, reward_mode: str) -> tuple[float, float, float] | None:
    """Per-seat rewards of the server's result of a game that stopped early (None without a
    declarer's win or loss): the engine's reward rules applied to the recorded score."""
    r = record.result
    declarer, outcome, score = r.get("d"), r.get("outcome"), r.get("v")
    if declarer not in (0, 1, 2) or outcome not in ("win", "loss") or not isinstance(score, int):
        return None
    decl, other = side_rewards(reward_mode, score, *seeger_fabian(score, outcome == "win"))
    out = [float(other)] * 3
    out[declarer] = float(decl)
    return out[0], out[1], out[2]


def game_decisions(
    record: IssRecord, reward_mode: str, min_rating: float = 0.0
) -> tuple[dict[str, np.ndarray] | None, str]:
    """(rows, kind) of one record: the kept decisions as arrays and ``"played out"`` or
    ``"contract only"``, or (None, why it was dropped)."""
    if record.deal is None or record.status == "hidden":
        return None, "hidden deal"
    played_out = record.status in PLAYED_OUT
    rewards = None if played_out else recorded_rewards(record, reward_mode)
    if not played_out and rewards is None:
        return None, f"{record.status} without a result"
    keep = [min_rating <= 0 or (rating(record, s) or 0.0) >= min_rating for s in range(3)]
    if not any(keep):
        return None, "rating"
    game = Game(record.deal, dealer=2)  # ISS seats: forehand is seat 0
    obs, masks, moves, seats = [], [], [], []
    try:
        for name in record.moves:
            if not played_out and game.phase == PLAY:
                break
            seat, move = game.to_act, move_id(name)
            if keep[seat]:
                o = observe(game, seat)
                obs.append(o["observation"])
                masks.append(o["action_mask"])
                moves.append(move)
                seats.append(seat)
            game.step(move)
    except (IllegalMoveError, ValueError):
        return None, "illegal move"
    if played_out:
        if not game.is_over:
            return None, "unfinished moves"
        assert game.result is not None  # the game is over
        rewards = rewards_of(game.result, reward_mode)
    if not moves:
        return None, "no decision"
    assert rewards is not None  # the engine's result, or the recorded one checked above
    rows = {
        "obs": np.array(obs, np.float32),
        "mask": np.array(masks, bool),
        "move": np.array(moves, np.int64),
        "return": np.array([rewards[s] for s in seats], np.float32),
    }
    return rows, "played out" if played_out else "contract only"


def iter_games(
    path: str | Path,
    reward_mode: str = "seeger_fabian",
    min_rating: float = 0.0,
    stats: IssStats | None = None,
) -> Iterator[dict[str, np.ndarray]]:
    """The decisions of each kept game of an archive, one game at a time; ``stats`` (if
    given) is updated as the records stream by."""
    if reward_mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
    stats = IssStats() if stats is None else stats
    t0 = time.perf_counter()
    for line in iss_lines(path):
        stats.records += 1
        try:
            record = parse_iss(line)
        except ValueError:
            rows, kind = None, "unreadable record"
        else:
            rows, kind = game_decisions(record, reward_mode, min_rating)
        stats.seconds = time.perf_counter() - t0
        if rows is None:
            stats.dropped[kind] += 1
            continue
        stats.games += 1
        stats.played_out += kind == "played out"
        stats.contract_only += kind == "contract only"
        stats.decisions += len(rows["move"])
        yield rows


def _stack(games: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if not games:
        return {"obs": np.zeros((0, OBS_SIZE), np.float32), "mask": np.zeros((0, NUM_MOVES), bool),
                "move": np.zeros(0, np.int64), "return": np.zeros(0, np.float32)}  # fmt: skip
    return {k: np.concatenate([g[k] for g in games]) for k in games[0]}


def iss_decisions(
    path: str | Path,
    games: int,
    reward_mode: str = "seeger_fabian",
    reward_scale: float = 1.0,
    min_rating: float = 0.0,
    progress: bool = False,
) -> tuple[dict[str, Any], IssStats]:
    """The decisions of the first ``games`` kept games of an archive as one data set for
    :func:`.cloning.behaviour_clone` (returns times ``reward_scale``), and the pass's figures."""
    stats = IssStats()
    kept = []
    bar = _bar(progress)
    for rows in iter_games(path, reward_mode, min_rating, stats):
        kept.append(rows)
        bar.update(1)
        if len(kept) >= games:
            break
    bar.close()
    data: dict[str, Any] = _stack(kept)
    data["return"] = data["return"] * np.float32(reward_scale)
    data["games"] = len(kept)
    return data, stats


def _bar(progress: bool):
    from tqdm import tqdm

    return tqdm(desc="ISS games kept", unit="game", disable=not progress)
