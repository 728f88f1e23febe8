"""Records to watch (skat_env.web.records): compact records that replay to the same game,
ISS lines that cannot be read named with what is wrong, unfinished ISS games with the
result their file records, and files that are not UTF-8."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest

from skat_env.core.game import Game
from skat_env.core.records import dumps, parse_iss
from skat_env.web.records import RecordFileError, parse_records, read_record_file

ISS = Path(__file__).parent / "data" / "iss_records.sgf"
ISS_LINES = [line for line in ISS.read_text().splitlines() if line.startswith("(")]


def played(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.random(seed, dealer=seed % 3)
    while not game.is_over:
        game.step(rng.choice(game.legal_actions()))
    return game


def test_a_compact_record_replays_to_the_same_game() -> None:
    games = [played(s) for s in range(5)]
    records, notes = parse_records("\n".join(dumps(g) for g in games), "mine.jsonl")
    assert notes == [] and len(records) == 5
    for rec, game in zip(records, games, strict=True):
        assert rec.game.history == game.history and rec.game.result == game.result
        assert rec.score == game.result.score and rec.line == games.index(game) + 1
        k = len(game.history) // 2
        assert rec.at_step(k).history == game.history[:k]


def test_an_iss_line_with_a_garbage_deal_names_the_line_and_the_deal() -> None:
    line = ISS_LINES[1]
    deal = line.split("MV[w ")[1].split()[0]
    for bad, words in (
        (line.replace(deal, "XX.YY.ZZ"), "is not a list of cards"),
        (line.replace(deal, ".".join(deal.split(".")[:20])), "the deal has 20 cards, expected 32"),
        (line.replace("MV[w ", "MV[1 "), "does not start with the deal"),
    ):
        with pytest.raises(RecordFileError) as e:
            parse_records(ISS_LINES[0] + "\n" + bad, "games.sgf")
        assert "games.sgf, line 2: ISS record 9" in str(e.value) and words in str(e.value)


def test_unfinished_iss_games_keep_their_recorded_result() -> None:
    records, _ = parse_records(ISS.read_text(), ISS.name)
    claimed = [r for r in records if r.status == "claimed"]
    assert claimed
    for rec in claimed:
        iss = parse_iss(ISS_LINES[rec.line - 1])
        assert rec.recorded["score"] == rec.score == iss.result["v"]
        assert rec.recorded["card_points"] == iss.result["p"]
        assert rec.game.result is None  # not replayed to an end: shown as recorded
        assert "claimed" in rec.label and f"{rec.score:+d}" in rec.label
    assert all(r.recorded is None for r in records if r.status == "complete")


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "games.sgf"
    bad.write_bytes(ISS_LINES[1].encode() + b"\n" + "(;GM[Skat]P0[Jürgen]".encode("latin-1"))
    with pytest.raises(RecordFileError, match=r"not UTF-8 text: byte 0xfc .*\(line 2\)"):
        read_record_file(bad)


@pytest.mark.slow
def test_records_are_packed() -> None:
    """An upload keeps far less than its text: ~100 bytes a record, not a Game each."""
    text = ("\n".join(dumps(played(s)) for s in range(50)) + "\n") * 20  # 1000 records
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        records, _ = parse_records(text, "many.jsonl")
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(records) == 1000 and kept < 200 * len(records) < len(text) / 2
    assert records[999].game.history == played(49).history and records[-1].line == 1000
