"""The web server's JSON API (FastAPI TestClient): whole games, what the page may see, and
bad requests answered with a 4xx that leaves the game unchanged."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402
from helpers import seeded_records  # noqa: E402

from skat_env.core.cards import CARD_NAMES  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.core.records import replay  # noqa: E402
from skat_env.core.tables import BASE_VALUES  # noqa: E402
from skat_env.encoding.view import player_view  # noqa: E402
from skat_env.web.app import SkatServer, create_app  # noqa: E402
from skat_env.web.records import parse_records  # noqa: E402
from skat_env.web.state import score_sheet  # noqa: E402

ISS = Path(__file__).parent / "data" / "iss_records.sgf"
CARDS = set(CARD_NAMES)


@pytest.fixture
def server() -> SkatServer:
    return SkatServer(["random", "random"], seed=0)


@pytest.fixture
def client(server: SkatServer) -> TestClient:
    return TestClient(create_app(server))


def new_game(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def cards_in(obj) -> set[str]:
    """Every card name anywhere in a JSON answer (also inside texts like 'plays CA')."""
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    if isinstance(obj, str):
        return {w for w in obj.split() if w in CARDS}
    return set()


def visible_cards(game: Game, seat: int) -> set[str]:
    """What ``seat`` may have seen by now: its dealt hand, every card played, the skat
    after its own pickup, an ouvert declarer's hand."""
    pos = game.position_of(seat)
    view = player_view(game, seat)
    seen = set(game.deal[10 * pos : 10 * pos + 10]) | {c for _, c in game.plays}
    seen |= {c for c in range(32) if (view.skat | view.open_hand) >> c & 1}
    if game.is_over:
        seen = set(range(32))
    return {CARD_NAMES[c] for c in seen}


def play_out(client: TestClient, server: SkatServer, answer: dict, rng: random.Random) -> dict:
    """Play random legal moves for the human until the game is over, checking at every
    answer that nothing hidden reached the page."""
    gid = answer["game_id"]
    while True:
        game = server.tables.get(gid, "game").game
        assert cards_in(answer) <= visible_cards(game, answer["seat"])
        state = answer["state"]
        if state["result"] is not None:
            return answer
        assert state["to_act"] == answer["seat"]
        move = rng.choice(state["legal"]["moves"])
        r = client.post(
            f"/api/games/{gid}/moves", json={"move": move, "moves_played": state["moves_played"]}
        )
        assert r.status_code == 200, r.text
        answer = r.json()


def test_whole_games_through_the_api(client: TestClient, server: SkatServer) -> None:
    rng = random.Random(1)
    played = 0
    for rnd in range(6):
        answer = play_out(client, server, new_game(client, round=rnd), rng)
        state = answer["state"]
        gid = answer["game_id"]
        record = client.get(f"/api/games/{gid}/record")
        assert record.status_code == 200
        assert "attachment" in record.headers["content-disposition"]
        game = replay(record.text)  # checks the stored result too
        assert state["result"]["result"] == game.result.to_dict()
        assert state["dealt"]["hands"][answer["seat"]] is not None
        assert len(state["log"]) == len(game.history)
        played += not game.result.passed_in
        if not game.result.passed_in and game.contract.game < 5:
            levels = sum(n for _, n in state["result"]["levels"])
            assert levels * BASE_VALUES[game.contract.game] == game.result.game_value
    assert played


def test_agent_moves_come_as_events_with_the_humans_view(client: TestClient) -> None:
    answer = new_game(client, seat=1, dealer=0, seed=3)  # seat 1 forehand, seat 2 opens
    assert answer["events"][0]["seat"] == 2 and answer["events"][0]["kind"] in ("bid", "pass")
    assert answer["state"]["seats"][1]["name"] == "You"
    state = answer["state"]
    move = "pass" if "pass" in state["legal"]["moves"] else state["legal"]["moves"][0]
    after = client.post(f"/api/games/{answer['game_id']}/moves", json={"move": move}).json()
    events = after["events"]
    assert events[0]["seat"] == 1 and events[0]["move"] == move
    assert "state" not in events[-1]  # the last event's view is the answer's state
    views = [ev.get("state", after["state"]) for ev in events]
    assert all(v["seats"][s]["hand"] is None for v in views for s in (0, 2))
    assert [v["moves_played"] for v in views] == list(
        range(state["moves_played"] + 1, after["state"]["moves_played"] + 1)
    )


def test_seat_and_dealer_rotate_between_games(client: TestClient) -> None:
    seen = set()
    for rnd in range(3):
        answer = new_game(client, round=rnd)
        state = answer["state"]
        seen.add((answer["seat"], state["dealer"], state["seats"][answer["seat"]]["position"]))
    assert {p for _, _, p in seen} == {"forehand", "middlehand", "rearhand"}
    assert len({d for _, d, _ in seen}) == 3


def test_unknown_game_id(client: TestClient) -> None:
    for r in (
        client.get("/api/games/nope"),
        client.post("/api/games/nope/moves", json={"move": "pass"}),
        client.get("/api/games/nope/record"),
    ):
        assert r.status_code == 404
        assert "unknown game" in r.json()["error"] and r.json()["code"] == "game_unknown"


def human_turn(client: TestClient) -> dict:
    return new_game(client, seat=0, dealer=2, seed=5)  # seat 0 is forehand


@pytest.mark.parametrize(
    ("body", "status", "words", "code"),
    [
        ({"move": "CA"}, 400, "illegal move", "illegal_move"),  # a card during the auction
        ({"move": "grand"}, 400, "illegal move", "illegal_move"),
        ({"move": "banana"}, 400, "unknown move", "illegal_move"),
        ({"move": 500}, 400, "not a move id", "illegal_move"),
        ({"move": True}, 400, "must be a move name", "bad_move_field"),
        ({"move": 96.0}, 400, "must be a move name", "bad_move_field"),
        ({"move": None}, 400, "must be a move name", "bad_move_field"),
        ({"move": ["pass"]}, 400, "must be a move name", "bad_move_field"),
        ({}, 400, "'move'", "bad_move_field"),
        ({"move": "pass", "moves_played": 7}, 409, "stale", "stale"),
        ({"move": "pass", "moves_played": "x"}, 400, "moves_played", "bad_field"),
    ],
)
def test_bad_moves_leave_the_game_unchanged(
    client: TestClient, body: dict, status: int, words: str, code: str
) -> None:
    """Each refusal says what was wrong in English and as a code the page translates."""
    answer = human_turn(client)
    gid = answer["game_id"]
    before = client.get(f"/api/games/{gid}").json()["state"]
    r = client.post(f"/api/games/{gid}/moves", json=body)
    assert r.status_code == status
    assert words in r.json()["error"] and r.json()["code"] == code
    assert client.get(f"/api/games/{gid}").json()["state"] == before


def test_malformed_json(client: TestClient) -> None:
    gid = human_turn(client)["game_id"]
    for raw in ("{not json", "[1, 2]", '"pass"'):
        r = client.post(
            f"/api/games/{gid}/moves", content=raw, headers={"content-type": "application/json"}
        )
        assert r.status_code == 400
        assert "JSON" in r.json()["error"]
    r = client.post("/api/games", content="{", headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_bad_new_game_requests(client: TestClient) -> None:
    cases = [
        ({"opponents": ["random"]}, "two agent specs"),
        ({"opponents": ["human", "random"]}, "not offered"),
        ({"opponents": ["ppo:/etc/passwd", "random"]}, "not offered"),
        ({"seat": 3}, "'seat'"),
        ({"dealer": True}, "'dealer'"),
        ({"round": -1}, "'round'"),
        ({"seed": 1.5}, "'seed'"),
    ]
    for body, words in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["error"]


def test_moves_after_the_end_and_records_before_it(client: TestClient, server) -> None:
    answer = human_turn(client)
    gid = answer["game_id"]
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and "once the game is over" in r.json()["error"]
    play_out(client, server, answer, random.Random(0))
    r = client.post(f"/api/games/{gid}/moves", json={"move": "pass"})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_evicted_game_gets_a_clear_answer() -> None:
    client = TestClient(create_app(SkatServer(["random", "random"], max_games=2, seed=0)))
    first = new_game(client)["game_id"]
    second = new_game(client)["game_id"]
    client.get(f"/api/games/{first}")  # used: now the second is the least recently used
    new_game(client)
    assert client.get(f"/api/games/{first}").status_code == 200
    r = client.post(f"/api/games/{second}/moves", json={"move": "pass"})
    assert r.status_code == 410
    assert "expired" in r.json()["error"] and r.json()["code"] == "game_expired"


def test_two_tabs_play_independently(client: TestClient) -> None:
    a, b = human_turn(client), human_turn(client)
    assert a["game_id"] != b["game_id"]
    move = a["state"]["legal"]["moves"][-1]  # pass
    client.post(f"/api/games/{a['game_id']}/moves", json={"move": move})
    assert client.get(f"/api/games/{b['game_id']}").json()["state"] == b["state"]


def test_watch_an_uploaded_record(client: TestClient) -> None:
    text = seeded_records(3)
    r = client.post("/api/records", json={"text": text, "name": "mine.jsonl"})
    assert r.status_code == 200, r.text
    recs = r.json()["records"]
    assert len(recs) == 3
    rid = recs[0]["id"]
    game = replay(text.splitlines()[0])
    end = client.get(f"/api/records/{rid}").json()
    assert end["step"] == end["steps"] == len(game.history)
    assert end["state"]["result"]["result"] == game.result.to_dict()
    start = client.get(f"/api/records/{rid}?step=0&view=all").json()
    assert all(len(s["hand"]) == 10 for s in start["state"]["seats"])
    assert start["next"]["seat"] == game.history[0][0]
    seat_view = client.get(f"/api/records/{rid}?step=3&view=1").json()["state"]
    assert seat_view["seats"][1]["hand"] is not None
    assert seat_view["seats"][0]["hand"] is None and seat_view["seats"][2]["hand"] is None
    for query, words in (("step=999", "'step'"), ("step=x", "'step'"), ("view=3", "'view'")):
        bad = client.get(f"/api/records/{rid}?{query}")
        assert bad.status_code == 400 and words in bad.json()["error"]
    assert client.get("/api/records/u123.0").status_code == 404


def test_bad_uploads(client: TestClient) -> None:
    for body, words in (
        ({"text": "hello\n"}, "line 1"),
        ({"text": '{"deal": "CA", "moves": []}\n'}, "malformed deal"),
        ({"text": ""}, "no records"),
        ({"name": "x"}, "'text'"),
    ):
        r = client.post("/api/records", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["error"]


def test_preloaded_iss_records() -> None:
    records, notes = parse_records(ISS.read_text(), ISS.name)
    client = TestClient(create_app(SkatServer(["random", "random"], records)))
    listed = client.get("/api/config").json()["records"]
    assert len(listed) == len(records) > 0
    complete = [r for r in listed if r["status"] == "complete"]
    unfinished = [r for r in listed if r["status"] not in ("complete", "passed")]
    assert complete and unfinished
    shown = client.get(f"/api/records/{complete[0]['id']}").json()
    assert shown["state"]["result"]["result"]["score"] == complete[0]["score"]
    assert shown["state"]["seats"][0]["name"] != "player_0"  # ISS player names
    assert client.get(f"/api/records/{unfinished[0]['id']}").json()["state"]["result"] is None


def test_score_sheets_of_iss_games_add_up() -> None:
    records, _ = parse_records(ISS.read_text(), ISS.name)
    for rec in records:
        game = rec.game
        if game.result is None or game.result.passed_in:
            continue
        sheet = score_sheet(game, rec.names)
        r = game.result
        assert rec.names[r.declarer] in sheet["summary"]
        if game.contract.game < 5:
            assert sum(n for _, n in sheet["levels"]) * sheet["base_value"] == r.game_value
        if r.overbid:
            assert sheet["lost_value"] * -2 == r.score


def test_passed_in_sheet() -> None:
    game = Game.random(0)
    for _ in range(3):
        game.play("pass")
    sheet = score_sheet(game)
    assert sheet["result"]["passed_in"] and "Passed in" in sheet["summary"]


def test_concurrent_moves_on_one_game_apply_once(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    answer = human_turn(client)
    gid, state = answer["game_id"], answer["state"]
    body = {"move": "pass", "moves_played": state["moves_played"]}
    url = f"/api/games/{gid}/moves"
    with ThreadPoolExecutor(6) as pool:
        codes = list(pool.map(lambda _: client.post(url, json=body), range(6)))
    assert sorted(r.status_code for r in codes) == [200] + [409] * 5
    after = client.get(f"/api/games/{gid}").json()["state"]
    mine = [ev for ev in after["log"] if ev["seat"] == answer["seat"]]
    assert len(mine) == 1 + sum(ev["seat"] == answer["seat"] for ev in state["log"])


def test_agents_one_move_at_a_time_with_their_time(client: TestClient, server) -> None:
    """The page asks for agent moves one by one, to show who is thinking and for how long."""
    answer = new_game(client, seat=0, dealer=0, seed=4, run_agents=False)  # seat 2 opens
    assert answer["events"] == [] and answer["state"]["to_act"] == 2
    assert answer["agents"] == [None, "random", "random"]
    gid, state = answer["game_id"], answer["state"]
    while state["to_act"] != answer["seat"]:
        r = client.post(f"/api/games/{gid}/agent", json={"moves_played": state["moves_played"]})
        assert r.status_code == 200, r.text
        (ev,) = r.json()["events"]
        assert ev["seat"] == state["to_act"] and ev["think_ms"] >= 0
        state = r.json()["state"]
    r = client.post(f"/api/games/{gid}/agent", json={})
    assert r.status_code == 409 and "your turn" in r.json()["error"]
    move = state["legal"]["moves"][-1]
    body = {"move": move, "run_agents": False}
    after = client.post(f"/api/games/{gid}/moves", json=body).json()
    assert [ev["seat"] for ev in after["events"]] == [answer["seat"]]
    stale = client.post(f"/api/games/{gid}/agent", json={"moves_played": 0})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    bad = client.post(f"/api/games/{gid}/moves", json={"move": "pass", "run_agents": 1})
    assert bad.status_code == 400 and "'run_agents'" in bad.json()["error"]


def test_the_first_dealer_is_random(client: TestClient) -> None:
    rounds = [new_game(client)["round"] for _ in range(24)]
    assert set(rounds) == {0, 1, 2}
    answer = new_game(client, round=4)
    assert answer["round"] == 4 and answer["state"]["seats"][answer["seat"]]["position"] == (
        "middlehand"
    )


def test_watching_shows_the_trick_a_move_completes(client: TestClient) -> None:
    text = seeded_records(1)
    rid = client.post("/api/records", json={"text": text}).json()["records"][0]["id"]
    game = replay(text)
    first_play = len(game.history) - len(game.plays)
    for k in range(first_play, first_play + 4):
        shown = client.get(f"/api/records/{rid}?step={k}").json()
        done = shown["trick_done"]
        if k - first_play == 3:  # the third card of the first trick
            assert [c["card"] for c in done["cards"]] == [CARD_NAMES[c] for _, c in game.plays[:3]]
            assert done["winner"] == shown["state"]["to_act"]
            assert shown["state"]["trick"] == []
        else:
            assert done is None


def test_unfinished_iss_records_show_the_recorded_result() -> None:
    records, _ = parse_records(ISS.read_text(), ISS.name)
    client = TestClient(create_app(SkatServer(["random", "random"], records)))
    listed = client.get("/api/records").json()
    claimed = next(r for r in listed if r["status"] == "claimed")
    assert claimed["recorded"]["score"] == claimed["score"] is not None
    assert claimed["names"][0] != "player_0" and claimed["iss_id"]
    end = client.get(f"/api/records/{claimed['id']}").json()
    assert end["record"]["recorded"] == claimed["recorded"] and end["state"]["result"] is None


def test_a_large_upload_lists_its_first_records(client: TestClient) -> None:
    text = seeded_records(3) * 334  # 1002 records
    answer = client.post("/api/records", json={"text": text, "name": "big.jsonl"}).json()
    assert answer["count"] == 1002 and len(answer["records"]) == 1000
    uid = answer["records"][0]["id"].split(".")[0]
    last = client.get(f"/api/records/{uid}.1001?step=0").json()
    assert last["record"]["line"] == 1002 and last["step"] == 0
    assert client.get(f"/api/records/{uid}.1002").status_code == 404


def test_the_bundled_model_is_offered_and_plays(client: TestClient, server: SkatServer) -> None:
    """``ppo`` (the model shipped in the package) is among the opponents a player may pick."""
    assert "ppo" in client.get("/api/config").json()["allowed"]
    answer = new_game(client, opponents=["ppo", "heuristic"])
    final = play_out(client, server, answer, random.Random(0))
    assert final["state"]["phase"] == "done" and final["state"]["result"] is not None
