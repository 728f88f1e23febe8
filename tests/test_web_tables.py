"""Tables for friends: two people and an agent at one game, each seeing only their own
seat's cards; moves reaching the other seat as server-sent events; a leaving person's seat
played on by an agent; the record and the agents' points against people kept. Through the
API, and in two browsers (headless Chromium) playing one game."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from skat_env.core.records import replay  # noqa: E402
from skat_env.web.app import SkatServer, create_app  # noqa: E402


@pytest.fixture
def server(tmp_path) -> SkatServer:
    return SkatServer(["random", "random"], table_pace=0, table_records=tmp_path / "t.jsonl")


def wait_for(client: TestClient, tid: str, token: str, pred, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.get(f"/api/tables/{tid}", params={"token": token}).json()
        if pred(view):
            return view
        time.sleep(0.02)
    raise AssertionError("the table did not get there")


def people_turn(view: dict) -> bool:
    """A person is to act, or the game is over (the agent has moved)."""
    state = view["state"]
    return state is not None and (state["result"] is not None or state["to_act"] in (0, 1))


def test_two_people_and_an_agent_play_one_game(server: SkatServer, tmp_path) -> None:
    client = TestClient(create_app(server))
    ann = client.post("/api/tables", json={"name": "  Ann  "}).json()
    tid = ann["table_id"]
    ben = client.post(f"/api/tables/{tid}/join", json={"name": "Ben"}).json()
    assert (ann["seat"], ben["seat"]) == (0, 1)
    assert [s["person"] for s in ben["seats"]] == [True, True, False]
    assert ben["seats"][0]["name"] == "Ann" and ben["seats"][1]["you"]
    tokens = {0: ann["token"], 1: ben["token"]}
    r = client.post(f"/api/tables/{tid}/moves", json={"token": "x", "move": "pass"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0], "seed": 3})
    rng = random.Random(1)
    while True:
        wait_for(client, tid, tokens[0], people_turn)
        views = {s: client.get(f"/api/tables/{tid}", params={"token": tok}).json()
                 for s, tok in tokens.items()}  # fmt: skip
        for s, view in views.items():  # nobody sees another person's hand during play
            state = view["state"]
            if state["result"] is None:
                hand = state["seats"][1 - s]["hand"]
                assert hand is None or "ouvert" in state["contract"]
        if any(v["state"]["result"] for v in views.values()):
            break
        s = next(s for s, v in views.items() if v["state"]["legal"])
        move = rng.choice(views[s]["state"]["legal"]["moves"])
        body = {"token": tokens[s], "move": move, "moves_played": views[s]["state"]["moves_played"]}
        r = client.post(f"/api/tables/{tid}/moves", json=body)
        assert r.status_code == 200, r.text
    game = replay(server.rooms.records[-1])
    assert game.is_over
    assert (tmp_path / "t.jsonl").read_text().strip() == server.rooms.records[-1]
    stats = client.get("/api/agents/stats").json()
    assert [row["agent"] for row in stats] == ["random"] and stats[0]["games"] == 1
    assert stats[0]["sf_per_game"] == game.result.seeger_fabian[2]
    # Ben leaves: an agent plays his seat in the next game
    client.post(f"/api/tables/{tid}/leave", json={"token": tokens[1]})
    assert client.get(f"/api/tables/{tid}", params={"token": tokens[1]}).status_code == 403
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    view = wait_for(client, tid, tokens[0], people_turn)
    assert [s["person"] for s in view["seats"]] == [True, False, False]


def test_moves_reach_the_other_seat_as_events(server: SkatServer) -> None:
    client = TestClient(create_app(server))
    ann = client.post("/api/tables", json={"name": "Ann"}).json()
    tid = ann["table_id"]
    ben = client.post(f"/api/tables/{tid}/join", json={"name": "Ben"}).json()
    with client.stream("GET", f"/api/tables/{tid}/events", params={"token": ben["token"]}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = r.iter_lines()
        first = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
        assert first["state"] is None and first["seat"] == 1
        client.post(f"/api/tables/{tid}/start", json={"token": ann["token"], "seed": 4})
        later = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
        assert later["version"] > first["version"] and later["state"] is not None
        assert later["state"]["seats"][0]["hand"] is None  # Ann's cards stay hers
        client.post(f"/api/tables/{tid}/leave", json={"token": ben["token"]})
        gone = [line for line in lines if line.startswith("event: ")]
        assert gone == ["event: gone"]


@pytest.mark.browser
def test_two_browsers_play_one_table() -> None:
    """Ann opens a table, Ben joins by its link in another browser; they play one game
    against an agent by clicks, each page showing only its own hand; Ben leaves and an
    agent takes his seat; the agent's points against people are shown."""
    browser_tests = pytest.importorskip("test_web_browser")
    srv = SkatServer(["random", "random"], table_pace=0)
    with browser_tests.sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=browser_tests.CHROMIUM, args=browser_tests.ARGS)
        url = _serve(browser_tests, srv)
        ann, ben = (browser_tests._page(b, 1024, 768) for _ in range(2))
        ann.goto(f"{url}/?delay=0")
        ann.wait_for_selector(browser_tests.READY)
        ann.fill("#friend-name", "Ann")
        ann.click("#open-table")
        link = ann.input_value("#table-link")
        ben.goto(link)
        ben.fill("#friend-name", "Ben")
        ben.click("#join-table")
        ann.wait_for_selector(
            "#friends li:has-text('Ben')"
        )  # Ben's seat reached Ann as it happened
        ben.reload()  # a reload keeps the seat
        ben.wait_for_selector("#leave-table")
        ann.click("#start-table")
        rng, seen = random.Random(2), set()
        for _ in range(300):
            if all(pg.locator("#end-panel:not(.hidden)").count() for pg in (ann, ben)):
                break
            for pg, other in ((ann, "#seat-left"), (ben, "#seat-right")):
                contract = pg.evaluate("play.state && play.state.contract") or ""
                if "ouvert" not in contract and pg.evaluate("play.state && !play.state.result"):
                    assert pg.locator(f"{other} .card:not(.back)").count() == 0
                if pg.locator(
                    "#actions button:not([disabled]), #seat-bottom .card.playable"
                ).count():
                    try:
                        browser_tests._click_one_move(pg, rng, seen)
                    except browser_tests.sync_api.Error:
                        pass  # redrawn by an event meanwhile: try again
            ann.wait_for_timeout(30)
        else:
            raise AssertionError("the game did not end")
        assert len(srv.rooms.records) == 1
        assert replay(srv.rooms.records[0]).is_over
        ann.wait_for_selector("#agent-stats .stat")
        ben.click("#leave-table")
        ann.wait_for_function("!document.querySelector('#friends').innerText.includes('Ben')")
        for pg in (ann, ben):
            assert not pg.errors, pg.errors
        b.close()


def _serve(browser_tests, srv: SkatServer) -> str:
    uvicorn = browser_tests.uvicorn
    config = uvicorn.Config(create_app(srv), host="127.0.0.1", port=browser_tests._free_port(),
                            log_level="error")  # fmt: skip
    web = uvicorn.Server(config)

    threading.Thread(target=web.run, daemon=True).start()
    deadline = time.monotonic() + 10
    while not web.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return f"http://127.0.0.1:{config.port}"


def test_a_page_that_goes_hands_its_seat_to_an_agent(tmp_path) -> None:
    """When a seat's last event stream closes (the tab is closed), an agent takes the seat
    after the grace period; a page that comes back within it (a reload) keeps the seat."""
    server = SkatServer(["random", "random"], table_pace=0, seat_grace=0.3)
    client = TestClient(create_app(server))
    ann = client.post("/api/tables", json={"name": "Ann"}).json()
    tid, token = ann["table_id"], ann["token"]
    events = f"/api/tables/{tid}/events"

    def first_event() -> None:
        with client.stream("GET", events, params={"token": token}) as r:
            next(line for line in r.iter_lines() if line.startswith("data: "))

    first_event()  # a reload: the stream closes and another opens within the grace period
    first_event()
    time.sleep(0.1)
    assert client.get(f"/api/tables/{tid}", params={"token": token}).status_code == 200
    deadline = time.monotonic() + 5
    while client.get(f"/api/tables/{tid}", params={"token": token}).status_code == 200:
        assert time.monotonic() < deadline, "the seat was not handed to an agent"
        time.sleep(0.05)
    assert not server.rooms.get(tid).seats[0].token  # nobody holds it: an agent plays it
