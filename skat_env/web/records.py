"""Records to watch: JSON-lines records of this project and ISS ``.sgf`` lines, parsed and
replayed through :mod:`skat_env.core.records` into games the page can step through."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.game import DealError, Game
from ..core.records import ReplayError, parse_iss, replay

SEAT_NAMES = ["player_0", "player_1", "player_2"]


class RecordFileError(ValueError):
    """A record file or upload that cannot be read; the message names the line."""


@dataclass
class WatchRecord:
    """One replayed record: the game as far as its moves go and how to label it."""

    label: str
    source: str
    game: Game
    names: list[str]
    status: str  # "complete", "passed", or why an ISS game stops (resigned, ...)

    def summary(self, rid: str) -> dict[str, Any]:
        r = self.game.result
        return {
            "id": rid,
            "label": self.label,
            "source": self.source,
            "steps": len(self.game.history),
            "status": self.status,
            "contract": None if r is None else r.contract,
            "score": None if r is None else r.score,
        }

    def at_step(self, step: int) -> Game:
        """The game after its first ``step`` moves."""
        game = Game(self.game.deal, self.game.dealer)
        for _, move in self.game.history[:step]:
            game.step(move)
        return game


def parse_records(text: str, source: str) -> tuple[list[WatchRecord], list[str]]:
    """Records of a JSON-lines or ISS text, and notes on lines skipped (hidden deals).

    Raises :class:`RecordFileError` naming the first bad line."""
    records: list[WatchRecord] = []
    notes: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        where = f"{source}, line {number}"
        try:
            rec = _parse_iss(line, where) if line.startswith("(") else _parse_json(line, where)
        except (ValueError, DealError, ReplayError, TypeError, AttributeError) as e:
            raise RecordFileError(f"{where}: {e}") from None
        if rec is None:
            notes.append(f"{where}: ISS record with a hidden deal, skipped")
        else:
            records.append(rec)
    if not records:
        raise RecordFileError(
            f"{source}: no records found (expected JSON lines with 'deal', 'dealer', 'moves' "
            "as written by skat_env.core.records, or ISS lines '(;GM[Skat]...)')"
        )
    return records, notes


def read_record_file(path: str | Path) -> tuple[list[WatchRecord], list[str]]:
    """:func:`parse_records` of a file; :class:`RecordFileError` if it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordFileError(f"cannot read record file {str(path)!r}: {e}") from None
    return parse_records(text, Path(path).name)


def _parse_json(line: str, where: str) -> WatchRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not a JSON record ({e.msg})") from None
    if not isinstance(data, dict):
        raise ValueError("a record is a JSON object with 'deal', 'dealer' and 'moves'")
    game = replay(data)
    r = game.result
    status = "running" if r is None else "passed" if r.passed_in else "complete"
    label = where if r is None else f"{where}: {r.contract or 'passed in'}"
    return WatchRecord(label, where, game, list(SEAT_NAMES), status)


def _parse_iss(line: str, where: str) -> WatchRecord | None:
    rec = parse_iss(line)
    if rec.deal is None:
        return None
    game = rec.replay()
    names = [rec.fields.get(f"P{s}", SEAT_NAMES[s]) for s in range(3)]
    r = game.result
    what = (r.contract or "passed in") if r is not None else f"not played to the end ({rec.status})"
    return WatchRecord(f"ISS {rec.id}: {what}", where, game, names, rec.status)


__all__ = ["RecordFileError", "WatchRecord", "parse_records", "read_record_file"]
