"""Tables for friends: up to three people at one game, agents in the other seats.

A person opens a table and shares its link; others take the free seats (a seat an agent
plays is free: a person who sits down takes it over from the next move on). Each person
holds a secret token for their seat and sees only what that seat may see
(:func:`skat_env.web.state.snapshot`). Every change raises the table's ``version``; the
page follows it through server-sent events (``GET /api/tables/{id}/events``). Agents move in
the server's agent pool, ``pace`` seconds apart so that people can follow them. A person who
leaves hands the seat to an agent, and so does one whose page has gone: when the last event
stream of a seat closes and none reopens within ``grace`` seconds (a reload keeps the seat),
an agent plays on. Finished games with at least one person are kept as
records (and appended to ``records_path``), and each agent's Seeger-Fabian points in them
are summed: how each agent fares against people.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.agents.base import Agent

from ..core.game import Game, IllegalMoveError, random_deal
from ..core.records import dumps
from .limits import ApiError
from .state import snapshot

MAX_NAME = 40  # characters of a person's name
KEPT_RECORDS = 1000  # finished games with people kept in memory (newest)


@dataclass
class Seat:
    """Who plays a seat: a person (``token``) or, when nobody sits there, ``spec``."""

    spec: str
    name: str = ""  # the person's name
    token: str | None = None
    watchers: int = 0  # open event streams of this seat's person


@dataclass
class FriendsTable:
    id: str
    seats: list[Seat]
    round: int = 0
    game: Game | None = None
    agents: dict[int, Agent] = field(default_factory=dict)
    version: int = 0
    driving: bool = False  # an agent's move is on its way (one at a time)
    recorded: bool = False  # the finished game is kept
    lock: threading.RLock = field(default_factory=threading.RLock)

    def seat_of(self, token: Any) -> int:
        for s, seat in enumerate(self.seats):
            if seat.token is not None and seat.token == token:
                return s
        raise ApiError(403, "this token holds no seat at the table", "not_seated")

    def people(self) -> int:
        return sum(seat.token is not None for seat in self.seats)


class Tables:
    """The open tables of a server: opening, joining, moves, leaving, and the views."""

    def __init__(
        self,
        make_agent: Callable[[str, int], Agent],
        move: Callable[[Agent, Game, int], int],
        submit: Callable[[Callable[[], None]], object],
        offered: list[str],
        pace: float = 0.7,
        records_path: str | Path | None = None,
        max_tables: int = 256,
        grace: float = 30.0,
    ):
        self._make = make_agent
        self._move = move
        self._submit = submit
        self.offered = offered
        self.pace = pace
        self.records_path = Path(records_path) if records_path else None
        self.max_tables = max_tables
        self.grace = grace
        self._tables: dict[str, FriendsTable] = {}
        self._lock = threading.Lock()
        self._rng = np.random.default_rng()
        self.records: list[str] = []
        self.stats: dict[str, list[int]] = {}  # spec -> [games against people, SF sum]

    # --- the people ---
    def open(self, body: dict[str, Any]) -> dict[str, Any]:
        opponents = body.get("opponents", self.offered[:1] * 2)
        if not (isinstance(opponents, list) and len(opponents) == 2) or any(
            spec not in self.offered for spec in opponents
        ):
            msg = f"'opponents' must be two of the offered agents {self.offered}"
            raise ApiError(400, msg, "bad_opponents")
        seats = [Seat(opponents[0]), *(Seat(spec) for spec in opponents)]
        table = FriendsTable(secrets.token_hex(6), seats)
        with self._lock:
            if len(self._tables) >= self.max_tables:
                self._drop_idle()
            self._tables[table.id] = table
        return self.join(table.id, body)

    def join(self, tid: str, body: dict[str, Any]) -> dict[str, Any]:
        """Take the first seat no person holds (an agent's seat from the next move on)."""
        table = self.get(tid)
        name = _name(body)
        with table.lock:
            free = [s for s, seat in enumerate(table.seats) if seat.token is None]
            if not free:
                raise ApiError(409, "all three seats are taken", "seat_taken")
            seat = table.seats[free[0]]
            seat.name, seat.token = name, secrets.token_urlsafe(16)
            table.agents.pop(free[0], None)
            self._changed(table)
            return {"table_id": tid, "token": seat.token, **self._view(table, free[0])}

    def leave(self, tid: str, body: dict[str, Any]) -> dict[str, Any]:
        table = self.get(tid)
        with table.lock:
            s = table.seat_of(body.get("token"))
            table.seats[s].token = None
            table.seats[s].name = ""
            self._changed(table)
            self._drive(table)
        return {"left": s}

    def watch(self, tid: str, token: Any) -> None:
        """An event stream of the seat opened (its person's page is there)."""
        table = self.get(tid)
        with table.lock:
            table.seats[table.seat_of(token)].watchers += 1

    def unwatch(self, tid: str, token: Any) -> None:
        """An event stream closed; when it was the seat's last, an agent takes the seat
        unless one reopens within ``grace`` seconds."""
        table = self._tables.get(tid)
        if table is None:
            return
        with table.lock:
            seat = next((x for x in table.seats if x.token is not None and x.token == token), None)
            if seat is None:
                return
            seat.watchers -= 1
            if seat.watchers == 0:
                timer = threading.Timer(self.grace, self._expire, (tid, token))
                timer.daemon = True
                timer.start()

    def _expire(self, tid: str, token: str) -> None:
        table = self._tables.get(tid)
        if table is None:
            return
        with table.lock:
            if any(x.token == token and x.watchers == 0 for x in table.seats):
                self.leave(tid, {"token": token})

    def start(self, tid: str, body: dict[str, Any]) -> dict[str, Any]:
        """Deal the next game (the first, or after one is over); the dealer moves on."""
        table = self.get(tid)
        with table.lock:
            s = table.seat_of(body.get("token"))
            if table.game is not None and not table.game.is_over:
                raise ApiError(409, "a game is going on at this table", "game_on")
            if table.game is not None:
                table.round += 1
            seed = int(self._rng.integers(2**31)) if "seed" not in body else body["seed"]
            if not isinstance(seed, int):
                raise ApiError(400, "'seed' must be an integer", "bad_field", name="seed")
            table.game = Game(random_deal(np.random.default_rng(seed)), (2 + table.round) % 3)
            table.agents = {}
            table.recorded = False
            self._changed(table)
            self._drive(table)
            return self._view(table, s)

    def move(self, tid: str, body: dict[str, Any]) -> dict[str, Any]:
        table = self.get(tid)
        with table.lock:
            s = table.seat_of(body.get("token"))
            game = table.game
            if game is None or game.is_over:
                raise ApiError(409, "no game is going on; start one", "game_over")
            expected = body.get("moves_played")
            if expected is not None and expected != len(game.history):
                msg = f"stale request: the game has {len(game.history)} moves"
                raise ApiError(409, msg, "stale", have=len(game.history), expected=expected)
            if game.to_act != s:
                raise ApiError(409, "it is not your turn", "not_your_turn")
            move = body.get("move")
            if isinstance(move, bool) or not isinstance(move, (str, int)):
                raise ApiError(400, "'move' must be a move name or id", "bad_move_field")
            try:
                game.play(move)
            except IllegalMoveError as e:
                raise ApiError(400, f"illegal move: {e}", "illegal_move", move=str(move)) from None
            self._changed(table)
            self._drive(table)
            return self._view(table, s)

    def view(self, tid: str, token: Any) -> dict[str, Any]:
        table = self.get(tid)
        with table.lock:
            return self._view(table, table.seat_of(token))

    def get(self, tid: str) -> FriendsTable:
        table = self._tables.get(tid)
        if table is None:
            raise ApiError(404, f"unknown table {tid!r}", "table_unknown")
        return table

    def agent_stats(self) -> list[dict[str, Any]]:
        return [
            {"agent": spec, "games": n, "sf_per_game": round(sf / n, 1)}
            for spec, (n, sf) in sorted(self.stats.items())
        ]

    # --- inside ---
    def _view(self, table: FriendsTable, seat: int) -> dict[str, Any]:
        names = [p.name if p.token else p.spec for p in table.seats]
        seats = [
            {"name": names[s], "person": p.token is not None, "spec": p.spec, "you": s == seat}
            for s, p in enumerate(table.seats)
        ]
        state = snapshot(table.game, seat, names) if table.game is not None else None
        return {"table_id": table.id, "seat": seat, "version": table.version,
                "round": table.round, "seats": seats, "state": state}  # fmt: skip

    def _changed(self, table: FriendsTable) -> None:
        table.version += 1
        if table.game is not None and table.game.is_over and not table.recorded:
            table.recorded = True
            self._keep(table)

    def _keep(self, table: FriendsTable) -> None:
        """A finished game with people: its record, and the agents' points against them."""
        game = table.game
        assert game is not None and game.result is not None  # called once the game is over
        if table.people() == 0:
            return
        line = dumps(game)
        self.records = [*self.records[-KEPT_RECORDS + 1 :], line]
        if self.records_path is not None:
            with self.records_path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
        for s, seat in enumerate(table.seats):
            if seat.token is None:
                n, sf = self.stats.get(seat.spec, [0, 0])
                self.stats[seat.spec] = [n + 1, sf + game.result.seeger_fabian[s]]

    def _drive(self, table: FriendsTable, delay: float = 0.0) -> None:
        """Have the agent to act (if one is) move in the agent pool, after ``delay``
        seconds (a timer, not a pool thread, waits them)."""
        game = table.game
        if table.driving or game is None or game.is_over:
            return
        if table.seats[game.to_act].token is not None:
            return
        table.driving = True
        if delay > 0:
            threading.Timer(delay, self._submit, (lambda: self._agent_move(table),)).start()
        else:
            self._submit(lambda: self._agent_move(table))

    def _agent_move(self, table: FriendsTable) -> None:
        """One agent move; the next one follows ``pace`` seconds later."""
        with table.lock:
            table.driving = False
            game = table.game
            if game is None or game.is_over or table.seats[game.to_act].token is not None:
                return
            s = game.to_act
            if s not in table.agents:
                agent = self._make(table.seats[s].spec, int(self._rng.integers(2**31)))
                agent.reset(int(self._rng.integers(2**31)))
                table.agents[s] = agent
            game.step(self._move(table.agents[s], game, s))
            self._changed(table)
            self._drive(table, self.pace)

    def _drop_idle(self) -> None:
        """Room for a new table: drop those nobody sits at, else the oldest."""
        idle = [tid for tid, t in self._tables.items() if t.people() == 0]
        for tid in idle or list(self._tables)[:1]:
            del self._tables[tid]


def _name(body: dict[str, Any]) -> str:
    name = body.get("name", "")
    if not isinstance(name, str):
        raise ApiError(400, "'name' must be a string", "bad_field", name="name")
    return " ".join(name.split())[:MAX_NAME]
