"""The web server: play Skat against agents and watch records, one FastAPI app.

The server is authoritative: every move goes through :class:`skat_env.core.game.Game`,
agents decide through :func:`skat_env.envs.policy.decide` from exactly the environment's
observation (only the ``oracle`` benchmark reference, which sees every card, gets the game),
and the page receives only what the human's seat may see (:mod:`skat_env.web.state`).
Bad requests get a 4xx JSON ``{"error": "..."}`` and leave every game unchanged.
"""

from __future__ import annotations

import asyncio
import copy
import ctypes
import ctypes.util
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from skat_env.agents.base import Agent
from skat_env.agents.registry import AgentSpecError, make_agent

from ..core.game import PLAY, Game, IllegalMoveError, random_deal
from ..core.moves import NUM_MOVES
from ..core.records import dumps
from ..encoding.observation import observe
from ..envs.policy import decide
from ..search.solver import Solver
from .limits import (
    MAX_UPLOAD_TEXT,
    UPLOAD_BUDGET_BYTES,
    ApiError,
    BodyLimit,
    decode_utf8,
    loads,
)
from .records import RecordFileError, WatchRecord, parse_records
from .state import completed_trick, discard_visible, event, snapshot
from .tables import Tables

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 256  # games kept in memory; the least recently used is evicted beyond this
MAX_UPLOADS = 64  # uploaded record files kept (and at most UPLOAD_BUDGET_BYTES of text)
DEFAULT_OPPONENTS = ("heuristic", "heuristic")
_UPLOADER = ThreadPoolExecutor(1, "skat-upload")
try:
    _LIBC: Any = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    _LIBC.malloc_trim  # noqa: B018 (glibc only)
except (OSError, AttributeError):
    _LIBC = None
LISTED = 1000  # an upload's answer lists its first records; the others are "{uid}.{i}"
BUILTIN_SPECS = ("heuristic", "random", "ppo", "pimc")
AGENT_WORKERS = 4  # threads computing agent moves (each search player's tables: one per thread)


@dataclass
class Table:
    """One game against two agents; ``lock`` serialises its moves."""

    id: str
    game: Game
    seat: int  # the human's seat
    names: list[str]
    players: list[int]  # per seat: 0 the human, 1 and 2 the opponents (in request order)
    agents: dict[int, Agent]
    specs: list[str | None]  # per seat: the agent spec (None: the human)
    round: int
    lock: threading.Lock = field(default_factory=threading.Lock)


class LRU:
    """A bounded, thread-safe map that evicts the least recently used entries (beyond
    ``size`` entries or ``budget`` total weight) and remembers (a bounded number of)
    evicted keys, so a stale id gets a clear answer."""

    def __init__(self, size: int, budget: int | None = None, kept: str = ""):
        self.size = size
        self.budget = budget
        self.kept = kept or f"the {size} most recently used"
        self.weight = 0
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._evicted: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, key: str, value: Any, weight: int = 0) -> None:
        with self._lock:
            self._items[key] = (value, weight)
            self._items.move_to_end(key)
            self.weight += weight
            while len(self._items) > self.size or (
                self.budget is not None and self.weight > self.budget and len(self._items) > 1
            ):
                old, (_, w) = self._items.popitem(last=False)
                self.weight -= w
                self._evicted[old] = None
                if len(self._evicted) > 16 * self.size:
                    self._evicted.popitem(last=False)

    def get(self, key: str, what: str) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key][0]
            code = "game" if what == "game" else "upload"
            if key in self._evicted:
                msg = f"{what} {key!r} has expired (the server keeps {self.kept})"
                raise ApiError(410, msg, f"{code}_expired")
        raise ApiError(404, f"unknown {what} {key!r}", f"{code}_unknown")

    def __len__(self) -> int:
        return len(self._items)


class SkatServer:
    """The state behind the app: tables, records and the opponents on offer."""

    def __init__(
        self,
        opponents: tuple[str, str] | list[str] = DEFAULT_OPPONENTS,
        records: Sequence[WatchRecord] | None = None,
        max_games: int = MAX_GAMES,
        seed: int | None = None,
        upload_budget: int = UPLOAD_BUDGET_BYTES,
        agent_workers: int = AGENT_WORKERS,
        table_pace: float = 0.7,
        table_records: str | Path | None = None,
        seat_grace: float = 30.0,
    ):
        self.opponents = list(opponents)
        # Agent moves run in a bounded pool: a slow search waits there, not in the threads
        # that answer the other players; each thread has its own search tables.
        self.movers = ThreadPoolExecutor(agent_workers, "skat-agent")
        self._local = threading.local()
        self._prototypes: dict[str, Agent] = {}
        self._proto_lock = threading.Lock()
        self.allowed = list(dict.fromkeys([*self.opponents, *_available(BUILTIN_SPECS)]))
        self.tables = LRU(max_games)
        kept = f"the most recently used uploads, up to {upload_budget:,} bytes of text"
        self.uploads = LRU(MAX_UPLOADS, upload_budget, kept)
        self.preloaded: dict[str, WatchRecord] = {}
        for i, rec in enumerate(records or []):
            self.preloaded[f"p{i}"] = rec
        self._rng = np.random.default_rng(seed)
        self._rng_lock = threading.Lock()
        self.rooms = Tables(
            self._make,
            self._decide,
            self.movers.submit,
            self.allowed,
            table_pace,
            table_records,
            grace=seat_grace,
        )

    def _seed(self) -> int:
        with self._rng_lock:
            return int(self._rng.integers(2**31))

    # --- playing ---
    def new_game(self, body: dict[str, Any]) -> dict[str, Any]:
        opponents = body.get("opponents", self.opponents)
        if not _is_list_of(opponents, str, 2):
            raise ApiError(400, "'opponents' must be a list of two agent specs", "bad_opponents")
        for spec in opponents:
            if spec not in self.allowed:
                msg = f"agent {spec!r} is not offered; choose from {self.allowed}"
                raise ApiError(400, msg, "agent_not_offered", agent=spec)
        run = _bool_field(body, "run_agents", True)
        rnd = _int_field(body, "round", 0, 10**9, None)
        if rnd is None:  # the first game of a page: a random first dealer
            rnd = self._seed() % 3 if "seat" not in body and "dealer" not in body else 0
        seat = _int_field(body, "seat", 0, 2, (2 * rnd) % 3)
        dealer = _int_field(body, "dealer", 0, 2, (2 + rnd) % 3)
        seed = _int_field(body, "seed", 0, 2**63 - 1, None)
        rng = np.random.default_rng(self._seed() if seed is None else seed)
        game = Game(random_deal(rng), dealer)
        names, players, agents = ["", "", ""], [0, 0, 0], {}
        specs: list[str | None] = [None, None, None]
        names[seat] = "You"
        for k, spec in enumerate(opponents, 1):
            s = (seat + k) % 3
            agents[s] = self._make(spec, int(rng.integers(2**31)))
            agents[s].reset(int(rng.integers(2**31)))  # the agent interface: once per game
            names[s] = spec if opponents[0] != opponents[1] else f"{spec} ({'AB'[k - 1]})"
            players[s] = k
            specs[s] = spec
        table = Table(secrets.token_hex(8), game, seat, names, players, agents, specs, rnd)
        with table.lock:
            events = self._run_agents(table) if run else []
            self.tables.put(table.id, table)
            return self._answer(table, events)

    def game_state(self, gid: str) -> dict[str, Any]:
        table: Table = self.tables.get(gid, "game")
        with table.lock:
            return self._answer(table, [])

    def human_move(self, gid: str, body: dict[str, Any]) -> dict[str, Any]:
        table: Table = self.tables.get(gid, "game")
        if "move" not in body:
            msg = "the body must hold 'move': a move name ('CJ', '18', 'hold') or id"
            raise ApiError(400, msg, "bad_move_field")
        move = body["move"]
        if isinstance(move, bool) or not isinstance(move, (str, int)):
            raise ApiError(
                400,
                f"'move' must be a move name (string) or a move id (integer 0..{NUM_MOVES - 1}), "
                f"got {json.dumps(move)}",
                "bad_move_field",
            )
        run = _bool_field(body, "run_agents", True)
        with table.lock:
            game = table.game
            _check_turn(table, body)
            if game.to_act != table.seat:
                msg = f"it is not your turn (player_{game.to_act} is to act)"
                raise ApiError(409, msg, "not_your_turn")
            phase = game.phase
            try:
                game.play(move) if isinstance(move, str) else game.step(move)
            except IllegalMoveError as e:
                raise ApiError(400, f"illegal move: {e}", "illegal_move", move=str(move)) from None
            moved = game.history[-1][1]
            events = [self._event(table, phase, table.seat, moved)]
            events += self._run_agents(table) if run else []
            return self._answer(table, events)

    def agent_move(self, gid: str, body: dict[str, Any]) -> dict[str, Any]:
        """One agent move (the page asks for them one at a time, to show who is thinking)."""
        table: Table = self.tables.get(gid, "game")
        with table.lock:
            _check_turn(table, body)
            if table.game.to_act == table.seat:
                raise ApiError(409, "it is your turn, not an agent's", "your_turn")
            return self._answer(table, self._run_agents(table, 1))

    def record(self, gid: str) -> str:
        table: Table = self.tables.get(gid, "game")
        with table.lock:
            if not table.game.is_over:
                msg = "the record holds every card: it is available once the game is over"
                raise ApiError(409, msg, "record_not_over")
            return dumps(table.game) + "\n"

    def _run_agents(self, table: Table, limit: int = 1000) -> list[dict[str, Any]]:
        """Let the agents move until the human is to act, the game is over or ``limit``
        agent moves are made; each event says how long its agent thought."""
        game = table.game
        events: list[dict[str, Any]] = []
        while not game.is_over and game.to_act != table.seat and len(events) < limit:
            seat, phase = game.to_act, game.phase
            agent = table.agents[seat]
            start = time.perf_counter()
            move = self._decide(agent, game, seat)
            think_ms = round(1000 * (time.perf_counter() - start))
            try:
                game.step(move)
            except IllegalMoveError as e:
                who = table.names[seat]
                msg = f"agent {who!r} made an illegal move: {e}"
                raise ApiError(500, msg, "agent_illegal", seat=seat) from None
            events.append(self._event(table, phase, seat, move) | {"think_ms": think_ms})
        if game.is_over:
            for seat, agent in table.agents.items():
                if type(agent).game_over is not Agent.game_over:
                    agent.game_over(observe(game, seat))
        return events

    def _make(self, spec: str, seed: int) -> Agent:
        """A game's agent. A search player is a copy of one prototype per spec: the copy
        keeps its own seed and caches but no search tables of its own (they are lent per
        move, :meth:`_lend_tables`), so a kept game costs kilobytes, not tens of MB."""
        with self._proto_lock:
            proto = self._prototypes.get(spec)
            if proto is None:
                proto = _make(spec, seed)
                if not isinstance(getattr(proto, "solver", None), Solver):
                    return proto
                self._prototypes[spec] = proto
        return copy.deepcopy(proto)  # shares the prototype's solver, replaced per move

    def _decide(self, agent: Agent, game: Game, seat: int) -> int:
        self._lend_tables(agent)
        return decide(agent, game, seat)

    def _lend_tables(self, agent: Agent) -> None:
        """Give a search player this thread's solver for its move: its transposition table
        is a cache of exact bounds (the move does not depend on what it holds), and one
        per thread keeps concurrent searches apart."""
        if isinstance(getattr(agent, "solver", None), Solver):
            solver = getattr(self._local, "solver", None)
            if solver is None:
                solver = self._local.solver = Solver()
            agent.solver = solver  # type: ignore[attr-defined]

    def _event(self, table: Table, phase: int, seat: int, move: int) -> dict[str, Any]:
        """A move just made, as the human saw it, with the human's view after it."""
        game = table.game
        ev = event(phase, seat, move, discard_visible(phase, seat, table.seat, game.is_over))
        state = snapshot(game, table.seat, table.names)
        if phase == PLAY and len(game.plays) % 3 == 0:  # this card completed a trick
            ev["trick_done"] = state["tricks_done"][-1]
        ev["state"] = state
        return ev

    def _answer(self, table: Table, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The answer to a request; the last event's view is the answer's ``state`` (sent
        once, not twice)."""
        state = events[-1].pop("state") if events else snapshot(table.game, table.seat, table.names)
        return {
            "game_id": table.id,
            "seat": table.seat,
            "round": table.round,
            "players": table.players,
            "agents": table.specs,
            "events": events,
            "state": state,
        }

    # --- watching ---
    def record_list(self) -> list[dict[str, Any]]:
        return [rec.summary(rid) for rid, rec in self.preloaded.items()]

    def upload(self, body: dict[str, Any]) -> dict[str, Any]:
        text = body.get("text")
        if not isinstance(text, str):
            msg = "the body must hold 'text': the content of a record file"
            raise ApiError(400, msg, "bad_upload")
        if len(text) > MAX_UPLOAD_TEXT:
            msg = f"record file too large (at most {MAX_UPLOAD_TEXT:,} characters)"
            raise ApiError(413, msg, "upload_too_large", limit=MAX_UPLOAD_TEXT)
        name = body.get("name", "upload")
        name = name if isinstance(name, str) and name else "upload"
        try:
            records, notes = parse_records(text, name[:200])
        except RecordFileError as e:
            raise ApiError(400, str(e), "record_file", file=name[:200]) from None
        uid = "u" + secrets.token_hex(6)
        self.uploads.put(uid, records, len(text))
        return {
            "count": len(records),
            "records": [rec.summary(f"{uid}.{i}") for i, rec in enumerate(records[:LISTED])],
            "notes": notes[:LISTED],
        }

    def watch(self, rid: str, step: str | None, view: str | None) -> dict[str, Any]:
        rec = self._watch_record(rid)
        steps = len(rec.moves)
        k = steps if step in (None, "", "end") else _parse_int("step", step, 0, steps)
        view = view or "all"
        if view not in ("all", "0", "1", "2"):
            msg = f"'view' must be 'all', '0', '1' or '2' (a seat), got {view!r}"
            raise ApiError(400, msg, "bad_view")
        viewer = None if view == "all" else int(view)
        game = rec.at_step(k)
        upcoming = None
        if k < steps:
            seat, move = game.to_act, rec.moves[k]
            visible = discard_visible(game.phase, seat, viewer, False)
            upcoming = event(game.phase, seat, move, visible)
        return {
            "record": rec.summary(rid),
            "step": k,
            "steps": steps,
            "next": upcoming,
            "trick_done": completed_trick(game, rec.moves[k - 1] if k else None),
            "state": snapshot(game, viewer, list(rec.names)),
        }

    def _watch_record(self, rid: str) -> WatchRecord:
        if rid in self.preloaded:
            return self.preloaded[rid]
        uid, _, index = rid.partition(".")
        if not uid.startswith("u") or not index.isdigit():
            raise ApiError(404, f"unknown record {rid!r}", "record_unknown")
        records = self.uploads.get(uid, "uploaded record file")
        if int(index) >= len(records):
            raise ApiError(404, f"unknown record {rid!r}", "record_unknown")
        return records[int(index)]


def _available(specs: tuple[str, ...]) -> list[str]:
    """The built-in specs the registry knows (``pimc`` only where it exists)."""
    out = []
    for spec in specs:
        try:
            make_agent(spec)
        except (AgentSpecError, ImportError):
            continue
        out.append(spec)
    return out


def _make(spec: str, seed: int) -> Agent:
    try:
        return make_agent(spec, seed=seed)
    except (AgentSpecError, ImportError) as e:
        raise ApiError(400, str(e), "bad_opponents") from None


def _is_list_of(value: Any, kind: type, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(isinstance(v, kind) for v in value)


def _check_turn(table: Table, body: dict[str, Any]) -> None:
    """409 for a request made on a stale view of the game, or after its end."""
    game = table.game
    expected = _int_field(body, "moves_played", 0, 10**6, None)
    if expected is not None and expected != len(game.history):
        raise ApiError(
            409,
            f"stale request: the game has {len(game.history)} moves, the request "
            f"expected {expected}; reload the game",
            "stale",
            have=len(game.history),
            expected=expected,
        )
    if game.is_over:
        raise ApiError(409, "the game is over; start a new game", "game_over")


def _bool_field(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        msg = f"'{name}' must be true or false, got {json.dumps(value)}"
        raise ApiError(400, msg, "bad_field", name=name)
    return value


def _int_field(body: dict[str, Any], name: str, lo: int, hi: int, default: int | None) -> Any:
    if name not in body or body[name] is None:
        return default
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        msg = f"'{name}' must be an integer {lo}..{hi}, got {json.dumps(value)}"
        raise ApiError(400, msg, "bad_field", name=name)
    return value


def _parse_int(name: str, text: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        msg = f"'{name}' must be an integer {lo}..{hi}, got {text!r}"
        raise ApiError(400, msg, "bad_step") from None
    if not lo <= value <= hi:
        raise ApiError(400, f"'{name}' must be an integer {lo}..{hi}, got {value}", "bad_step")
    return value


async def _post(
    request: Request, method: Any, *args: Any, movers: ThreadPoolExecutor | None = None
) -> JSONResponse:
    """Run ``method(*args, body)`` and encode its answer in a worker thread: encoding a
    snapshot must not hold up the other requests. A request that lets agents move runs in
    ``movers`` (the bounded agent pool), awaited without holding one of the request threads."""
    body = _parse(await request.body())  # at most MAX_BODY_BYTES on these routes

    def work() -> JSONResponse:
        return JSONResponse(method(*args, body))

    if movers is not None and body.get("run_agents", True) is not False:
        return await asyncio.get_running_loop().run_in_executor(movers, work)
    return await run_in_threadpool(work)


async def _upload(request: Request, method: Any) -> JSONResponse:
    """Uploads are parsed one at a time in one thread of their own: at most one large text
    is in memory, and its freed memory is reused by the next (a thread per upload would
    leave each of them a malloc arena holding its freed pages)."""
    raw = await request.body()

    def work() -> JSONResponse:
        try:
            return JSONResponse(method(_parse(raw)))
        finally:
            _release_free_memory()

    return await asyncio.get_running_loop().run_in_executor(_UPLOADER, work)


def limit_heap_growth() -> None:
    """For a server process: blocks of 1 MB and more get their own pages (glibc mallopt
    ``M_MMAP_THRESHOLD``), given back when freed. glibc otherwise raises that threshold after
    the first large free, and an upload's text, body and lines then stay in the heap."""
    if _LIBC is not None:
        _LIBC.mallopt(-3, 1 << 20)  # M_MMAP_THRESHOLD


def _release_free_memory() -> None:
    """Give the pages freed by parsing an upload back to the system (glibc's malloc_trim;
    elsewhere nothing): the parse's transient memory is many times the records it keeps."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _parse(raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        return {}
    data = loads(decode_utf8(raw, "the request body"), "the JSON body")
    if not isinstance(data, dict):
        raise ApiError(400, "the JSON body must be an object", "bad_json")
    return data


async def _table_stream(rooms: Tables, tid: str, token: str, request: Request) -> Any:
    """Server-sent events: the seat's view each time the table changes (polled every 50 ms,
    a comment line every 15 s keeps proxies from closing a quiet stream); the stream ends
    when the seat is left or the table is gone. While a stream is open the seat's person
    counts as present (:meth:`Tables.unwatch`)."""
    seen, quiet = -1, time.monotonic()
    try:
        rooms.watch(tid, token)
    except ApiError as e:  # left between the check and the stream's start
        yield f"event: gone\ndata: {json.dumps(e.body())}\n\n"
        return
    try:
        while not await request.is_disconnected():
            try:
                version = rooms.get(tid).version
                if version != seen:
                    view = await run_in_threadpool(rooms.view, tid, token)
                    seen = view["version"]
                    quiet = time.monotonic()
                    yield f"data: {json.dumps(view)}\n\n"
            except ApiError as e:
                yield f"event: gone\ndata: {json.dumps(e.body())}\n\n"
                return
            if time.monotonic() - quiet > 15:
                quiet = time.monotonic()
                yield ": still here\n\n"
            await asyncio.sleep(0.05)
    finally:
        rooms.unwatch(tid, token)


def create_app(server: SkatServer | None = None) -> FastAPI:
    """The FastAPI app serving the page and the JSON API of ``server``."""
    srv = server or SkatServer()
    app = FastAPI(title="skat-env web", docs_url=None, redoc_url=None)
    app.state.skat = srv
    app.add_middleware(BodyLimit)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "bad_request"
        body = {"error": str(exc.detail), "code": code, "params": {}}
        return JSONResponse(body, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        body = {"error": f"internal error: {type(exc).__name__}", "code": "internal", "params": {}}
        return JSONResponse(body, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        body = {"error": f"bad request: {exc.errors()}", "code": "bad_request", "params": {}}
        return JSONResponse(body, status_code=400)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # Answers are JSONResponse (plain json.dumps): FastAPI's encoder would walk every
    # snapshot again. Sync routes run in FastAPI's worker threads.
    @app.get("/api/config")
    def config() -> JSONResponse:
        records = srv.record_list()
        return JSONResponse(
            {"opponents": srv.opponents, "allowed": srv.allowed, "records": records}
        )

    @app.post("/api/games")
    async def new_game(request: Request) -> JSONResponse:
        return await _post(request, srv.new_game, movers=srv.movers)

    @app.get("/api/games/{gid}")
    def game_state(gid: str) -> JSONResponse:
        return JSONResponse(srv.game_state(gid))

    @app.post("/api/games/{gid}/moves")
    async def move(gid: str, request: Request) -> JSONResponse:
        return await _post(request, srv.human_move, gid, movers=srv.movers)

    @app.post("/api/games/{gid}/agent")
    async def agent_move(gid: str, request: Request) -> JSONResponse:
        return await _post(request, srv.agent_move, gid, movers=srv.movers)

    @app.get("/api/games/{gid}/record")
    def record(gid: str) -> Response:
        text = srv.record(gid)
        headers = {"Content-Disposition": f'attachment; filename="skat-{gid}.jsonl"'}
        return Response(text, media_type="application/x-ndjson", headers=headers)

    @app.post("/api/tables")
    async def open_table(request: Request) -> JSONResponse:
        return await _post(request, srv.rooms.open)

    @app.post("/api/tables/{tid}/{action}")
    async def table_action(tid: str, action: str, request: Request) -> JSONResponse:
        rooms = srv.rooms
        actions = {"join": rooms.join, "start": rooms.start, "moves": rooms.move}
        actions["leave"] = rooms.leave
        if action not in actions:
            raise ApiError(404, f"no table action {action!r}", "not_found")
        return await _post(request, actions[action], tid)

    @app.get("/api/tables/{tid}")
    def table_view(tid: str, token: str = "") -> JSONResponse:
        return JSONResponse(srv.rooms.view(tid, token))

    @app.get("/api/tables/{tid}/events")
    async def table_events(tid: str, request: Request, token: str = "") -> StreamingResponse:
        srv.rooms.view(tid, token)  # 404 or 403 before the stream starts
        stream = _table_stream(srv.rooms, tid, token, request)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    @app.get("/api/agents/stats")
    def agent_stats() -> JSONResponse:
        return JSONResponse(srv.rooms.agent_stats())

    @app.get("/api/records")
    def records() -> JSONResponse:
        return JSONResponse(srv.record_list())

    @app.post("/api/records")
    async def upload(request: Request) -> JSONResponse:
        return await _upload(request, srv.upload)

    @app.get("/api/records/{rid}")
    def watch(rid: str, step: str | None = None, view: str | None = None) -> JSONResponse:
        return JSONResponse(srv.watch(rid, step, view))

    return app


__all__ = ["ApiError", "MAX_GAMES", "SkatServer", "create_app"]
