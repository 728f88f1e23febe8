"""Game records: compact JSON lines, replay, and import of ISS (International Skat
Server) records.

A record is one JSON object a line::

    {"deal": "CJ S7 ... D7", "dealer": 2, "moves": ["18", "pass", ...], "result": {...}}

``deal`` lists 32 cards: forehand 10, middlehand 10, rearhand 10, skat 2 (ISS order);
``moves`` are names of the move vocabulary; ``result`` is :meth:`Result.to_dict`
(absent for a game still running). :func:`replay` rebuilds the game and checks that
it reproduces the stored result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import CARD_INDEX, CARD_NAMES, parse_cards
from .game import Game, IllegalMoveError, Result

# --- JSON-lines records ---


def to_record(game: Game) -> dict[str, Any]:
    """A JSON-ready record of a game (finished or running)."""
    rec: dict[str, Any] = {
        "deal": " ".join(CARD_NAMES[c] for c in game.deal),
        "dealer": game.dealer,
        "moves": game.moves_played(),
    }
    if game.result is not None:
        rec["result"] = game.result.to_dict()
    return rec


def dumps(game: Game) -> str:
    """One JSON line for a game."""
    return json.dumps(to_record(game), separators=(",", ":"))


class ReplayError(ValueError):
    """A record that is malformed or does not replay to its stored result."""


RECORD_FIELDS = ("deal", "dealer", "moves", "result")


def replay(record: dict[str, Any] | str) -> Game:
    """Rebuild a game from a record (dict or JSON line). A finished game's record must hold
    its complete result, which the replay must match; a running game's record has none.
    Anything else raises :class:`ReplayError` saying what is wrong."""
    record = _record_object(record)
    try:
        game = Game(record["deal"], record.get("dealer", 2))
    except (TypeError, ValueError) as e:
        raise ReplayError(f"bad deal or dealer: {e}") from None
    for i, move in enumerate(_moves_of(record)):
        try:
            game.play(move)
        except (IllegalMoveError, TypeError) as e:
            raise ReplayError(f"move {i} ({move!r}) is illegal: {e}") from None
    _check_result(record, game)
    return game


def _record_object(record: object) -> dict[str, Any]:
    """The record as a dict with only known fields."""
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise ReplayError(f"not valid JSON ({e})") from None
    if not isinstance(record, dict):
        raise ReplayError(
            f"a record is a JSON object with the fields {', '.join(RECORD_FIELDS)}, "
            f"got {type(record).__name__}"
        )
    unknown = sorted(map(str, set(record) - set(RECORD_FIELDS)))
    if unknown:
        raise ReplayError(f"unknown record field(s) {unknown}; known: {', '.join(RECORD_FIELDS)}")
    for name in ("deal", "moves"):  # "dealer" defaults to 2, the ISS seating
        if name not in record:
            raise ReplayError(f"record lacks the field {name!r}")
    return record


def _moves_of(record: dict[str, Any]) -> list[Any]:
    moves = record["moves"]
    if not isinstance(moves, list):
        raise ReplayError(f"'moves' must be a list of move names, got {type(moves).__name__}")
    return moves


def _check_result(record: dict[str, Any], game: Game) -> None:
    """The stored result is complete and equals the replayed one (or both are absent)."""
    if "result" not in record:
        if game.result is not None:
            raise ReplayError("the moves finish the game but the record has no 'result'")
        return
    stored = record["result"]
    if not isinstance(stored, dict):
        raise ReplayError(f"'result' must be an object (Result.to_dict()), got {stored!r}")
    missing = [k for k in _RESULT_KEYS if k not in stored]
    unknown = sorted(map(str, set(stored) - set(_RESULT_KEYS)))
    if missing or unknown:
        raise ReplayError(f"incomplete result: missing {missing}, unknown {unknown}")
    if game.result is None:
        raise ReplayError("record has a result but its moves do not finish the game")
    actual = game.result.to_dict()
    diff = {k: (v, actual[k]) for k, v in stored.items() if actual[k] != v}
    if diff:
        raise ReplayError(f"replay differs from the stored result (stored, replayed): {diff}")


_RESULT_KEYS = tuple(Result(passed_in=True).to_dict())


def write_records(path: str | Path, games: list[Game], append: bool = False) -> None:
    with open(path, "a" if append else "w") as f:
        for g in games:
            f.write(dumps(g) + "\n")


def read_records(path: str | Path) -> Iterator[Game]:
    """Replay every record of a JSON-lines file; a bad record raises :class:`ReplayError`
    naming the file and the line."""
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield replay(line)
                except ReplayError as e:
                    raise ReplayError(f"{path}, line {lineno}: {e}") from None


# --- ISS records ---

# How an ISS game can end without being played out; such games cannot be replayed to
# their result (the server assigned the unplayed cards), so they are reported, not guessed.
UNFINISHED_ENDINGS = {
    "RE": "resigned",
    "SC": "claimed",  # declarer showed cards
    "TI": "timeout",
    "LE": "left",
}


@dataclass
class IssRecord:
    """A parsed ISS record: header fields, translated moves and the recorded result."""

    fields: dict[str, str]
    deal: list[int] | None
    moves: list[str]  # engine move names, as far as they could be translated
    status: str  # "complete", "passed", or why it stops: resigned/claimed/timeout/left/hidden
    result: dict[str, str | int] = field(default_factory=dict)  # the R[...] fields

    @property
    def id(self) -> str:
        return self.fields.get("ID", "")

    @property
    def playable(self) -> bool:
        """Whether the moves play the game to its end (played out or passed in)."""
        return self.status in ("complete", "passed")

    def replay(self) -> Game:
        """Replay the moves through the engine (dealer 2: ISS seat = engine seat)."""
        if self.deal is None:
            raise ReplayError(f"ISS record {self.id}: the deal is hidden")
        game = Game(self.deal, dealer=2)
        for i, move in enumerate(self.moves):
            try:
                game.play(move)
            except IllegalMoveError as e:
                raise ReplayError(f"ISS record {self.id}, move {i} ({move!r}): {e}") from None
        return game


_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[((?:[^\]\\]|\\.)*)\]")
_CONTRACT = re.compile(r"^([GCSHDN])([HSZO]*)$")
_GAMES = {"G": "grand", "C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


def parse_iss_result(text: str) -> dict[str, str | int]:
    """The ``R[...]`` field as a dict: ``passed`` or d, outcome, v, m, bid, p, t, s, z..."""
    text = text.strip()
    if text == "passed":
        return {"passed": 1}
    out: dict[str, str | int] = {}
    for token in text.split():
        if ":" in token:
            k, v = token.split(":", 1)
            out[k] = int(v)
        elif token in ("win", "loss", "penalty"):
            out["outcome"] = token
        elif token in ("bidok", "overbid"):
            out["bid"] = token
    return out


def _translate_contract(token: str, picked_up: bool) -> tuple[list[str], int]:
    """Engine moves for an ISS contract token like ``GHS`` or ``NO.HA.HQ``, and how many
    discards follow in the token (2 after a pickup; ouvert cards are ignored)."""
    parts = token.split(".")
    m = _CONTRACT.match(parts[0])
    if not m:
        raise ValueError(f"unknown ISS contract {parts[0]!r}")
    kind, mods = m.group(1), set(m.group(2))
    moves: list[str] = []
    if kind == "N":
        if not picked_up:
            moves.append("hand")
        moves.append("null ouvert" if "O" in mods else "null")
    else:
        if not picked_up:
            moves.append("hand")
        game = _GAMES[kind]
        ann = (
            "ouvert"
            if "O" in mods
            else "schwarz"
            if "Z" in mods
            else ("schneider" if "S" in mods else "")
        )
        moves.append(f"{game} {ann}".strip())
    discards = parts[1:3] if picked_up and len(parts) >= 3 else []
    return moves, len(discards)


def parse_iss(line: str) -> IssRecord:
    """Parse one ISS record line ``(;GM[Skat]...MV[...]R[...] ;)``."""
    fields = {k: v for k, v in _FIELD.findall(line)}
    if "MV" not in fields:
        raise ValueError("not an ISS record: no MV[...] field")
    result = parse_iss_result(fields.get("R", ""))
    tokens = fields["MV"].split()
    pairs = list(zip(tokens[::2], tokens[1::2], strict=False))
    deal: list[int] | None = None
    moves: list[str] = []
    status = "complete"
    picked_up = discarded = pending_discards = False
    for actor, action in pairs:
        head = action.split(".")[0]
        if actor == "w":
            if deal is None and action.count(".") + action.count("|") >= 31:
                if "??" in action:
                    status = "hidden"
                    break
                deal = parse_cards(action)
            elif head in UNFINISHED_ENDINGS:
                status = UNFINISHED_ENDINGS[head]
                break
            # else: the server shows the skat after a pickup; the engine knows it
            continue
        if head in UNFINISHED_ENDINGS:
            status = UNFINISHED_ENDINGS[head]
            break
        if action.isdigit():
            moves.append(action)
        elif action == "y":
            moves.append("hold")
        elif action == "p":
            moves.append("pass")
        elif action == "s":
            moves.append("pickup")
            picked_up = True
        elif action == "??":
            status = "hidden"
            break
        elif all(c in CARD_INDEX for c in action.split(".")):
            cards = action.split(".")
            if len(cards) == 1:
                moves.append(action)  # a card played
            elif pending_discards:  # newer records: "TYPE" first, then "d1.d2"
                contract_move = moves.pop()
                moves.extend([*cards, contract_move])
                pending_discards = False
            else:
                moves.extend(cards)  # discards sent before the contract
                discarded = True
        else:
            contract, n_discards = _translate_contract(action, picked_up)
            moves.extend(action.split(".")[1 : 1 + n_discards])
            moves.extend(contract)
            pending_discards = picked_up and not n_discards and not discarded
    if pending_discards:  # the contract was named but the discards never came
        moves.pop()
    if status == "complete" and result.get("passed"):
        status = "passed"
    if status == "complete" and result.get("outcome") == "penalty":
        status = "penalty"
    return IssRecord(fields, deal, moves, status, result)


def read_iss(path: str | Path) -> Iterator[IssRecord]:
    """Parse every record of an ISS ``.sgf`` file (one record a line)."""
    with open(path) as f:
        for line in f:
            if line.strip().startswith("("):
                yield parse_iss(line)


def iss_fields_of(game: Game) -> dict[str, str | int]:
    """The engine's result in the vocabulary of ISS's ``R[...]`` field, for comparison."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    if r.passed_in or r.declarer is None:
        return {"passed": 1}
    return {
        "d": r.declarer,
        "outcome": "win" if r.won else "loss",
        "v": r.score,
        "m": r.matadors,
        "bid": "overbid" if r.overbid else "bidok",
        "p": r.declarer_points,
        "t": r.declarer_tricks,
        "s": int(r.schneider),
        "z": int(r.schwarz),
    }
