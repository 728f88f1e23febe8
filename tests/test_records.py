"""JSON-lines records and the ISS oracle: real server games replayed exactly."""

import json
import random

import pytest
from helpers import iss_records, play_random

from skat_env.core.game import Game
from skat_env.core.records import (
    ReplayError,
    dumps,
    iss_fields_of,
    parse_iss,
    read_records,
    replay,
    write_records,
)

ISS_RECORDS = iss_records()


def test_record__round_trip_reproduces_result(tmp_path):
    rng = random.Random(0)
    games = [play_random(Game.random(i, dealer=i % 3), rng) for i in range(50)]
    path = tmp_path / "games.jsonl"
    write_records(path, games)
    replayed = list(read_records(path))
    assert [g.result for g in replayed] == [g.result for g in games]
    assert [g.history for g in replayed] == [g.history for g in games]


def test_record__running_game_has_no_result_and_replays():
    g = Game.random(1)
    for _ in range(3):
        g.step(g.legal_actions()[0])
    rec = json.loads(dumps(g))
    assert "result" not in rec and replay(rec).history == g.history


def test_record__tampered_result_is_detected():
    g = play_random(Game.random(2), random.Random(2))
    rec = json.loads(dumps(g))
    rec["result"]["score"] += 1
    with pytest.raises(ReplayError, match="score"):
        replay(rec)


def test_record__illegal_move_in_record_is_reported():
    g = play_random(Game.random(3), random.Random(3))
    rec = json.loads(dumps(g))
    rec["moves"][0] = "hold"
    with pytest.raises(ReplayError, match="move 0"):
        replay(rec)


def test_iss__oracle_holds_51_records_with_expected_statuses():
    assert len(ISS_RECORDS) == 51
    statuses = {r.status for r in ISS_RECORDS}
    assert {"complete", "passed", "resigned", "claimed", "timeout", "left"} <= statuses
    assert sum(r.playable for r in ISS_RECORDS) >= 35


@pytest.mark.parametrize("rec", [r for r in ISS_RECORDS if r.playable], ids=lambda r: r.id)
def test_iss__replay_reproduces_recorded_result(rec):
    game = rec.replay()
    assert game.is_over, f"moves of record {rec.id} do not finish the game"
    fields = iss_fields_of(game)
    expected = {k: rec.result[k] for k in fields}
    assert fields == expected


@pytest.mark.parametrize("rec", [r for r in ISS_RECORDS if not r.playable], ids=lambda r: r.id)
def test_iss__unfinished_records_are_reported_not_guessed(rec):
    assert rec.status in {"resigned", "claimed", "timeout", "left", "hidden", "penalty"}
    if rec.deal is not None:
        assert not rec.replay().is_over


def test_iss__parses_pickup_contract_with_discards_and_newer_split_format():
    from skat_env.core.cards import CARD_NAMES

    g = Game.random(7)
    deal = ".".join(CARD_NAMES[c] for c in g.deal)
    sk = [CARD_NAMES[c] for c in g.deal[30:]]
    old = parse_iss(
        f"(;GM[Skat]MV[w {deal} 1 p 2 p 0 18 0 s w {'.'.join(sk)} 0 G.{sk[0]}.{sk[1]} ]R[] ;)"
    )
    new = parse_iss(
        f"(;GM[Skat]MV[w {deal} 1 p 2 p 0 18 0 s w {'.'.join(sk)} 0 G 0 {sk[0]}.{sk[1]} ]R[] ;)"
    )
    expected = ["pass", "pass", "18", "pickup", sk[0], sk[1], "grand"]
    assert old.moves == new.moves == expected
    hand = parse_iss(f"(;GM[Skat]MV[w {deal} 1 p 2 p 0 18 0 NOH ]R[] ;)")
    assert hand.moves == ["pass", "pass", "18", "hand", "null ouvert"]
    ouvert = parse_iss(f"(;GM[Skat]MV[w {deal} 1 p 2 p 0 18 0 GO.CJ.SJ ]R[] ;)")
    assert ouvert.moves[-2:] == ["hand", "grand ouvert"]


# --- malformed records: replayed completely, or the error says what is wrong ---
def _finished_record() -> dict:
    return json.loads(dumps(play_random(Game.random(2), random.Random(2))))


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda r: [r], "a record is a JSON object"),
        (lambda r: {**r, "result": "won"}, "'result' must be an object"),
        (lambda r: {**r, "result": None}, "'result' must be an object"),
        (lambda r: {**r, "result": {}}, "incomplete result: missing"),
        (lambda r: {**r, "result": {"score": r["result"]["score"]}}, "incomplete result"),
        (lambda r: {**r, "result": {**r["result"], "extra": 1}}, r"unknown \['extra'\]"),
        (lambda r: {k: v for k, v in r.items() if k != "result"}, "no 'result'"),
        (lambda r: {k: v for k, v in r.items() if k != "moves"}, "lacks the field 'moves'"),
        (lambda r: {**r, "moves": "18 pass"}, "'moves' must be a list"),
        (lambda r: {**r, "dealer": 1.5}, "bad deal or dealer"),
        (lambda r: {**r, "deal": r["deal"][:-3]}, "bad deal or dealer"),
        (lambda r: {**r, "winner": 0}, r"unknown record field\(s\) \['winner'\]"),
        (lambda r: {}, "lacks the field 'deal'"),
    ],
)
def test_replay__a_record_replays_completely_or_says_what_is_wrong(mutate, match):
    with pytest.raises(ReplayError, match=match):
        replay(mutate(_finished_record()))
    with pytest.raises(ReplayError, match=match):
        replay(json.dumps(mutate(_finished_record())))


@pytest.mark.parametrize("line", ['{"deal": "CA', "null", "[]", '"text"', "{}"])
def test_read_records__names_the_file_and_the_line(tmp_path, line):
    path = tmp_path / "games.jsonl"
    good = json.dumps(_finished_record())
    path.write_text(f"{good}\n\n{good}\n{line}\n")
    games = read_records(path)
    assert next(games).result is not None and next(games).result is not None
    with pytest.raises(ReplayError, match=r"games.jsonl, line 4: "):
        next(games)
