"""Records to watch: JSON-lines records of this project and ISS ``.sgf`` lines, parsed and
replayed through :mod:`skat_env.core.records` into games the page can step through.

A record is kept compact (the deal, the dealer and the moves as bytes, and what its list
entry shows) and replayed when it is watched, so an uploaded file costs less memory than
its text; :data:`skat_env.web.limits.UPLOAD_BUDGET_BYTES` bounds the text kept.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.cards import parse_cards
from ..core.game import DealError, Game
from ..core.records import ReplayError, parse_iss, replay
from .limits import ApiError, decode_utf8, loads

SEAT_NAMES = ("player_0", "player_1", "player_2")
_MV = re.compile(r"MV\[([^\]]*)\]")


class RecordFileError(ValueError):
    """A record file or upload that cannot be read; the message names the line."""


@dataclass(slots=True)
class WatchRecord:
    """One record: enough to replay it and to list it."""

    source: str  # the file name
    line: int
    deal: bytes
    dealer: int
    moves: bytes  # move ids
    names: tuple[str, ...]
    status: str  # complete, passed, running, or why an ISS game stops (resigned, ...)
    contract: str | None  # as far as the moves go
    score: int | None  # the list score, replayed or (for unfinished ISS games) recorded
    declarer: int | None
    iss_id: str | None = None
    recorded: dict[str, Any] | None = None  # an unfinished ISS game's result, as recorded

    @property
    def label(self) -> str:
        """An English one-line description (the page builds its own, translated)."""
        head = (
            f"ISS {self.iss_id}" if self.iss_id is not None else f"{self.source}, line {self.line}"
        )
        what = self.contract or ("passed in" if self.status == "passed" else "no contract")
        score = "" if self.score is None else f" ({self.score:+d})"
        unfinished = "" if self.status in ("complete", "passed") else f", {self.status}"
        return f"{head}: {what}{score}{unfinished}"

    def summary(self, rid: str) -> dict[str, Any]:
        return {
            "id": rid,
            "label": self.label,
            "source": self.source,
            "line": self.line,
            "iss_id": self.iss_id,
            "names": list(self.names),
            "steps": len(self.moves),
            "status": self.status,
            "contract": self.contract,
            "score": self.score,
            "declarer": self.declarer,
            "recorded": self.recorded,
        }

    def at_step(self, step: int) -> Game:
        """The game after its first ``step`` moves."""
        game = Game(list(self.deal), self.dealer)
        for move in self.moves[:step]:
            game.step(move)
        return game

    @property
    def game(self) -> Game:
        """The game as far as its moves go."""
        return self.at_step(len(self.moves))


def _compact(
    game: Game, source: str, line: int, names: tuple[str, ...], status: str, **kw
) -> WatchRecord:
    r = game.result
    declarer = None if r is None else r.declarer
    if declarer is None and game.contract is not None:
        declarer = game.declarer
    return WatchRecord(
        source=source,
        line=line,
        deal=bytes(game.deal),
        dealer=game.dealer,
        moves=bytes(m for _, m in game.history),
        names=names,
        status=status,
        contract=game.contract.name() if game.contract is not None else None,
        score=None if r is None else r.score,
        declarer=declarer,
        **kw,
    )


def parse_records(text: str, source: str) -> tuple[list[WatchRecord], list[str]]:
    """Records of a JSON-lines or ISS text, and notes on lines skipped (hidden deals).

    Raises :class:`RecordFileError` naming the first bad line and what is wrong with it."""
    records: list[WatchRecord] = []
    notes: list[str] = []
    for number, line in enumerate(io.StringIO(text), 1):  # one line at a time, not a list
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("("):
                rec = _parse_iss(line, source, number)
            else:
                rec = _parse_json(line, source, number)
        except (ValueError, DealError, ReplayError, TypeError, AttributeError) as e:
            msg = e.message if isinstance(e, ApiError) else str(e)
            raise RecordFileError(f"{source}, line {number}: {msg}") from None
        if rec is None:
            notes.append(f"{source}, line {number}: ISS record with a hidden deal, skipped")
        else:
            records.append(rec)
    if not records:
        raise RecordFileError(
            f"{source}: no records found (expected JSON lines with 'deal', 'dealer', 'moves' "
            "as written by skat_env.core.records, or ISS lines '(;GM[Skat]...)')"
        )
    return records, notes


def read_record_file(path: str | Path) -> tuple[list[WatchRecord], list[str]]:
    """:func:`parse_records` of a UTF-8 file; :class:`RecordFileError` if it cannot be read."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise RecordFileError(f"cannot read record file {str(path)!r}: {e}") from None
    try:
        text = decode_utf8(raw, f"record file {str(path)!r}")
    except ApiError as e:
        raise RecordFileError(e.message) from None
    return parse_records(text, Path(path).name)


def _parse_json(line: str, source: str, number: int) -> WatchRecord:
    data = loads(line, "the record")
    if not isinstance(data, dict):
        raise ValueError("a record is a JSON object with 'deal', 'dealer' and 'moves'")
    game = replay(data)
    r = game.result
    status = "running" if r is None else "passed" if r.passed_in else "complete"
    return _compact(game, source, number, SEAT_NAMES, status)


def _parse_iss(line: str, source: str, number: int) -> WatchRecord | None:
    rec = parse_iss(line)
    if rec.deal is None:
        if rec.status == "hidden":
            return None
        raise ValueError(f"ISS record {rec.id or '?'}: {_deal_problem(line)}")
    game = rec.replay()
    names = tuple(rec.fields.get(f"P{s}", SEAT_NAMES[s]) for s in range(3))
    recorded = None if rec.playable else _recorded(rec.result)
    out = _compact(game, source, number, names, rec.status, iss_id=rec.id, recorded=recorded)
    if recorded is not None:
        out.score = recorded.get("score")
        if recorded.get("declarer") is not None:
            out.declarer = recorded["declarer"]
    return out


def _deal_problem(line: str) -> str:
    """What is wrong with the deal of an ISS line that :func:`parse_iss` found none in."""
    m = _MV.search(line)
    tokens = m.group(1).split() if m else []
    if len(tokens) < 2 or tokens[0] != "w":
        return "the MV[...] field does not start with the deal ('w' and 32 cards)"
    deal = tokens[1]
    try:
        cards = parse_cards(deal)
    except ValueError as e:
        return f"the deal {deal[:60]!r} is not a list of cards: {e}"
    return f"the deal has {len(cards)} cards, expected 32 (10 per player and the skat)"


def _recorded(result: dict[str, Any]) -> dict[str, Any]:
    """An unfinished ISS game's recorded result (the ``R[...]`` field) in page terms."""
    d = result.get("d")
    return {
        "declarer": d if isinstance(d, int) and 0 <= d <= 2 else None,
        "outcome": result.get("outcome"),  # win, loss or penalty
        "score": result.get("v"),
        "card_points": result.get("p"),
        "tricks": result.get("t"),
        "matadors": result.get("m"),
        "schneider": bool(result.get("s")),
        "schwarz": bool(result.get("z")),
        "overbid": result.get("bid") == "overbid",
    }


__all__ = ["RecordFileError", "WatchRecord", "parse_records", "read_record_file"]
