"""Records to watch: JSON-lines records of this project and ISS ``.sgf`` lines, parsed and
replayed through :mod:`skat_env.core.records` into games the page can step through.

The records of a file are packed into a :class:`RecordStore` (the deals and moves as bytes,
what a list entry shows as integers) and replayed when watched, so an uploaded file costs
much less memory than its text; :data:`skat_env.web.limits.UPLOAD_BUDGET_BYTES` bounds the
text kept.
"""

from __future__ import annotations

import io
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

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


class RecordStore(Sequence[WatchRecord]):
    """The records of one file, packed: deals and moves in two byte buffers, the rest in
    one integer array and a table of the strings that repeat (contracts, player names).
    A few large buffers instead of thousands of small objects: the memory of a parse is
    given back whole, and an index builds its :class:`WatchRecord` on demand."""

    _FIELDS = 8  # line, dealer, status, contract, score, declarer, names (a string), iss id

    def __init__(self, source: str):
        self.source = source
        self._deals = bytearray()
        self._moves = bytearray()
        self._ends = array("I")
        self._ints = array("i")
        self._strings: list[Any] = [None]  # index 0: None
        self._index: dict[Any, int] = {None: 0}
        self._recorded: dict[int, dict[str, Any]] = {}

    def _intern(self, value: Any) -> int:
        if value not in self._index:
            self._index[value] = len(self._strings)
            self._strings.append(value)
        return self._index[value]

    def add(self, game: Game, line: int, names: tuple[str, ...], status: str,
            iss_id: str | None = None, recorded: dict[str, Any] | None = None) -> None:  # fmt: skip
        r = game.result
        declarer = r.declarer if r is not None else game.declarer if game.contract else None
        score = None if r is None else r.score
        if recorded is not None:  # an unfinished ISS game: its result as recorded
            self._recorded[len(self)] = recorded
            score = recorded["score"]
            declarer = recorded["declarer"] if recorded["declarer"] is not None else declarer
        self._deals += bytes(game.deal)
        self._moves += bytes(m for _, m in game.history)
        self._ends.append(len(self._moves))
        contract = game.contract.name() if game.contract is not None else None
        self._ints.extend((line, game.dealer, self._intern(status), self._intern(contract),
                           _NONE if score is None else score, -1 if declarer is None else declarer,
                           self._intern(names), self._intern(iss_id)))  # fmt: skip

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, i: int) -> WatchRecord: ...
    @overload
    def __getitem__(self, i: slice) -> list[WatchRecord]: ...
    def __getitem__(self, i: int | slice) -> WatchRecord | list[WatchRecord]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        line, dealer, status, contract, score, declarer, names, iss_id = self._ints[
            self._FIELDS * i : self._FIELDS * (i + 1)
        ]
        start = self._ends[i - 1] if i else 0
        return WatchRecord(
            source=self.source,
            line=line,
            deal=bytes(self._deals[32 * i : 32 * i + 32]),
            dealer=dealer,
            moves=bytes(self._moves[start : self._ends[i]]),
            names=self._strings[names],
            status=self._strings[status],
            contract=self._strings[contract],
            score=None if score == _NONE else score,
            declarer=None if declarer < 0 else declarer,
            iss_id=self._strings[iss_id],
            recorded=self._recorded.get(i),
        )


_NONE = -(2**31)  # no score


def parse_records(text: str, source: str) -> tuple[RecordStore, list[str]]:
    """Records of a JSON-lines or ISS text, and notes on lines skipped (hidden deals).

    Raises :class:`RecordFileError` naming the first bad line and what is wrong with it."""
    records = RecordStore(source)
    notes: list[str] = []
    for number, line in enumerate(io.StringIO(text), 1):  # one line at a time, not a list
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("("):
                hidden = not _add_iss(records, line, number)
            else:
                _add_json(records, line, number)
                hidden = False
        except (ValueError, DealError, ReplayError, TypeError, AttributeError) as e:
            msg = e.message if isinstance(e, ApiError) else str(e)
            raise RecordFileError(f"{source}, line {number}: {msg}") from None
        if hidden:
            notes.append(f"{source}, line {number}: ISS record with a hidden deal, skipped")
    if not records:
        raise RecordFileError(
            f"{source}: no records found (expected JSON lines with 'deal', 'dealer', 'moves' "
            "as written by skat_env.core.records, or ISS lines '(;GM[Skat]...)')"
        )
    return records, notes


def read_record_file(path: str | Path) -> tuple[RecordStore, list[str]]:
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


def _add_json(records: RecordStore, line: str, number: int) -> None:
    data = loads(line, "the record")
    if not isinstance(data, dict):
        raise ValueError("a record is a JSON object with 'deal', 'dealer' and 'moves'")
    game = replay(data)
    r = game.result
    status = "running" if r is None else "passed" if r.passed_in else "complete"
    records.add(game, number, SEAT_NAMES, status)


def _add_iss(records: RecordStore, line: str, number: int) -> bool:
    """Add an ISS line's game; False for a record whose deal is hidden."""
    rec = parse_iss(line)
    if rec.deal is None:
        if rec.status == "hidden":
            return False
        raise ValueError(f"ISS record {rec.id or '?'}: {_deal_problem(line)}")
    names = tuple(rec.fields.get(f"P{s}", SEAT_NAMES[s]) for s in range(3))
    recorded = None if rec.playable else _recorded(rec.result)
    records.add(rec.replay(), number, names, rec.status, rec.id, recorded)
    return True


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


__all__ = ["RecordFileError", "RecordStore", "WatchRecord", "parse_records", "read_record_file"]
