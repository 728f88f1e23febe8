"""What the server accepts (skat_env.web.limits): request sizes (413 on every route, by
Content-Length and for streamed bodies), JSON nesting and encodings (400 with a message,
never a 500), and the byte budget of the uploads kept."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from skat_env.core.game import Game  # noqa: E402
from skat_env.core.records import dumps  # noqa: E402
from skat_env.web.app import SkatServer, create_app  # noqa: E402
from skat_env.web.limits import (  # noqa: E402
    MAX_BODY_BYTES,
    MAX_JSON_DEPTH,
    MAX_UPLOAD_BYTES,
    ApiError,
    decode_utf8,
    depth,
    loads,
)

JSON = {"content-type": "application/json"}


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(SkatServer(["random", "random"], seed=0)))


def records_text(n: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        game = Game.random(seed * 1000 + i, dealer=i % 3)
        while not game.is_over:
            game.step(rng.choice(game.legal_actions()))
        lines.append(dumps(game))
    return "\n".join(lines) + "\n"


def test_depth_and_loads() -> None:
    assert depth(1) == 0 and depth([]) == 1 and depth({"a": [1, {"b": []}]}) == 4
    assert loads('{"a": [1]}') == {"a": [1]}
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert depth(loads(deep)) == MAX_JSON_DEPTH
    for text in ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "[" * 100_000):
        with pytest.raises(ApiError, match="nested too deeply") as e:
            loads(text)
        assert e.value.status == 400


def test_decode_utf8_names_the_byte_and_line() -> None:
    assert decode_utf8("\ufeffä".encode(), "x") == "ä"  # a BOM is dropped
    with pytest.raises(ApiError, match=r"not UTF-8 text: byte 0xff at offset 5 \(line 2\)"):
        decode_utf8(b"ab\ncd\xff", "the file")


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("POST", "/api/games"),
        ("POST", "/api/games/nope/moves"),
        ("POST", "/api/games/nope/agent"),
        ("GET", "/api/config"),
        ("GET", "/"),
    ],
)
def test_every_route_has_a_size_limit(client: TestClient, method: str, url: str) -> None:
    big = json.dumps({"opponents": ["random", "random"], "pad": "x" * MAX_BODY_BYTES})
    r = client.request(method, url, content=big, headers=JSON)
    assert r.status_code == 413
    assert "too large" in r.json()["error"] and f"{MAX_BODY_BYTES:,}" in r.json()["error"]


def test_a_streamed_body_is_counted(client: TestClient) -> None:
    def chunks():  # no Content-Length: the bytes are counted as they come
        yield b'{"opponents": ["random", "random"], "pad": "'
        for _ in range(20):
            yield b"x" * 8192
        yield b'"}'

    r = client.post("/api/games", content=chunks(), headers=JSON)
    assert r.status_code == 413 and "too large" in r.json()["error"]


@pytest.mark.slow
def test_a_25_mb_body_is_refused(client: TestClient) -> None:
    pad = "x" * 25_000_000
    for url in ("/api/games", "/api/records"):
        r = client.post(url, content=json.dumps({"text": pad}), headers=JSON)
        assert r.status_code == 413, url
    assert MAX_UPLOAD_BYTES < 25_000_000


def test_deeply_nested_json_is_a_400(client: TestClient) -> None:
    for url in ("/api/games", "/api/records"):
        r = client.post(url, content="[" * 60_000, headers=JSON)  # under the size limit
        assert r.status_code == 400, url
        assert "nested too deeply" in r.json()["error"]
    r = client.post("/api/records", json={"text": "[" * 100_000, "name": "deep.jsonl"})
    assert r.status_code == 400
    assert "deep.jsonl, line 1" in r.json()["error"] and "nested too deeply" in r.json()["error"]


def test_bad_encodings_get_a_clear_message(client: TestClient) -> None:
    body = b'{"text": "\xff\xfe caf\xe9", "name": "x"}'
    r = client.post("/api/records", content=body, headers=JSON)
    assert r.status_code == 400
    msg = r.json()["error"]
    assert "not UTF-8" in msg and "0xff" in msg and "utf-16" not in msg
    r = client.post("/api/games", content=b"\xff\xfe{\x00}\x00", headers=JSON)
    assert r.status_code == 400 and "not UTF-8" in r.json()["error"]


def test_an_unexpected_error_is_json(client: TestClient, monkeypatch) -> None:
    def boom(*_):
        raise RuntimeError("boom")

    monkeypatch.setattr(SkatServer, "record_list", boom)
    r = TestClient(client.app, raise_server_exceptions=False).get("/api/records")
    assert r.status_code == 500 and r.json() == {
        "error": "internal error: RuntimeError",
        "code": "internal",
        "params": {},
    }


def test_uploads_are_bounded_by_a_byte_budget() -> None:
    text = records_text(3)
    server = SkatServer(["random", "random"], seed=0, upload_budget=3 * len(text))
    client = TestClient(create_app(server))
    ids = []
    for i in range(4):
        r = client.post("/api/records", json={"text": text, "name": f"f{i}.jsonl"})
        assert r.status_code == 200
        ids.append(r.json()["records"][0]["id"])
    assert server.uploads.weight == 3 * len(text) and len(server.uploads) == 3
    gone = client.get(f"/api/records/{ids[0]}")  # the oldest went
    assert gone.status_code == 410 and "bytes of text" in gone.json()["error"]
    assert all(client.get(f"/api/records/{rid}").status_code == 200 for rid in ids[1:])
