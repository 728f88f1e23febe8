"""What the server accepts: request sizes, JSON nesting and text encodings.

A request over its size limit is refused with 413 before its body is read (by its
``Content-Length``) or while it streams in (chunked bodies are counted), so no route can
be made to hold an unbounded body. JSON bodies must be UTF-8 and nested at most
:data:`MAX_JSON_DEPTH` deep: anything else is a 400 with a message, never a 500.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

MAX_BODY_BYTES = 64 * 1024  # every route but the upload: moves and new games are tiny
MAX_UPLOAD_BYTES = 24_000_000  # POST /api/records: a record file as JSON (escapes add ~10%)
MAX_UPLOAD_TEXT = 20_000_000  # characters of the record file itself
UPLOAD_BUDGET_BYTES = 64_000_000  # the uploaded record files kept, in bytes of their text
MAX_JSON_DEPTH = 16  # our bodies are 2 deep; records 3
UPLOAD_PATH = "/api/records"


# What a refusal can say: the page shows ``err.<code>`` of its language (``params`` fill
# the text); ``message`` is the same in English, for other clients and the logs.
ERROR_CODES = frozenset(
    """bad_request bad_json bad_field bad_move_field bad_opponents agent_not_offered
    bad_view bad_step bad_upload not_utf8 too_large upload_too_large record_file
    game_unknown game_expired upload_unknown upload_expired record_unknown stale
    not_your_turn your_turn game_over record_not_over illegal_move agent_illegal
    not_found internal table_unknown seat_taken not_seated game_on""".split()
)


class ApiError(ValueError):
    """A request the server refuses: HTTP status, a message, and a code with parameters
    that the page translates."""

    def __init__(self, status: int, message: str, code: str = "bad_request", **params: str | int):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.params = params

    def body(self) -> dict:
        """The JSON answer."""
        return {"error": self.message, "code": self.code, "params": self.params}


def body_limit(method: str, path: str) -> int:
    """The largest body a request may carry, in bytes."""
    return (
        MAX_UPLOAD_BYTES if (method, path.rstrip("/")) == ("POST", UPLOAD_PATH) else MAX_BODY_BYTES
    )


def too_large(limit: int) -> ApiError:
    msg = f"request body too large: at most {limit:,} bytes on this route"
    return ApiError(413, msg, "too_large", limit=limit)


def decode_utf8(raw: bytes, what: str) -> str:
    """``raw`` as text; a clear message naming the bad byte and its line if it is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        bad = raw[e.start : e.start + 1].hex()
        raise ApiError(
            400,
            f"{what} is not UTF-8 text: byte 0x{bad} at offset {e.start} (line {line}) "
            f"is not valid UTF-8; save the file as UTF-8",
            "not_utf8",
            line=line,
        ) from None


def depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar is 0)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d + 1)
            stack.extend((x, d + 1) for x in v if isinstance(x, (list, dict)))
    return deepest


def loads(text: str, what: str = "the JSON body") -> Any:
    """Parse JSON nested at most :data:`MAX_JSON_DEPTH` deep; :class:`ApiError` (400)
    for malformed or too deeply nested text (instead of a ``RecursionError``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ApiError(400, f"malformed JSON in {what}: {e}", "bad_json") from None
    except RecursionError:
        data = None
        deep = True
    else:
        deep = depth(data) > MAX_JSON_DEPTH
    if deep:
        msg = f"{what} is nested too deeply (at most {MAX_JSON_DEPTH} levels)"
        raise ApiError(400, msg, "bad_json")
    return data


ASGIApp = Callable[[dict, Callable, Callable], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: 413 for a body over :func:`body_limit`, by ``Content-Length`` before
    the app runs, or raised from ``receive`` as a :class:`ApiError` once the bytes
    counted so far exceed it (the app's error handler answers that)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["method"], scope["path"])
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            err = too_large(limit) if length.isdigit() else ApiError(400, "bad Content-Length")
            await _send_error(send, err)
            return
        seen = 0

        async def counted() -> dict:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise too_large(limit)
            return message

        await self.app(scope, counted, send)


async def _send_error(send: Callable, err: ApiError) -> None:
    body = json.dumps(err.body()).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "MAX_BODY_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_UPLOAD_BYTES",
    "MAX_UPLOAD_TEXT",
    "UPLOAD_BUDGET_BYTES",
    "BodyLimit",
    "ApiError",
    "ERROR_CODES",
    "body_limit",
    "decode_utf8",
    "depth",
    "loads",
]
