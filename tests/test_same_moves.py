"""The shipped players make the moves recorded for them (tests/same_moves.py): a refactor that
changes a default player's play fails here, whatever its own tests say."""

from __future__ import annotations

import json

import pytest
from same_moves import LINEUPS, RECORD, play

RECORDED = json.loads(RECORD.read_text())


def test_record_covers_every_lineup():
    assert {spec: len(games) for spec, games in RECORDED.items()} == LINEUPS


@pytest.mark.slow
@pytest.mark.parametrize("spec", sorted(LINEUPS))
def test_same_moves(spec):
    if spec.startswith("pimc"):
        pytest.importorskip("numba")
    for index, moves in enumerate(RECORDED[spec]):
        assert play(spec, index) == moves, f"{spec}: deal {index} played differently"
