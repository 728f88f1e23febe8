"""Shared test helpers: building deals from hands, playing random games, copying envs."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

from skat_env.core.cards import CARD_NAMES
from skat_env.core.game import Game
from skat_env.core.records import IssRecord, dumps, read_iss


def make_deal(forehand: str, middlehand: str, rearhand: str | None = None, skat: str = "") -> str:
    """A 32-card deal string; unspecified cards fill rearhand then the skat."""
    used = (forehand + " " + middlehand + " " + (rearhand or "") + " " + skat).split()
    rest = [c for c in CARD_NAMES if c not in used]
    fh, mh = forehand.split(), middlehand.split()
    rh = rearhand.split() if rearhand else []
    sk = skat.split()
    while len(rh) < 10:
        rh.append(rest.pop(0))
    while len(sk) < 2:
        sk.append(rest.pop(0))
    cards = fh + mh + rh + sk
    assert len(cards) == 32 and len(set(cards)) == 32, cards
    return " ".join(cards)


def play_random(game: Game, rng: random.Random) -> Game:
    while not game.is_over:
        legal = game.legal_actions()
        game.step(rng.choice(legal))
    return game


ISS_FILE = Path(__file__).parent / "data" / "iss_records.sgf"


def iss_records() -> list[IssRecord]:
    """The 51 ISS records in tests/data; missing data fails the run instead of skipping tests."""
    if not ISS_FILE.exists():
        raise FileNotFoundError(f"ISS test data missing: {ISS_FILE} (see tests/data/README.md)")
    records = list(read_iss(ISS_FILE))
    if len(records) != 51:
        raise ValueError(f"{ISS_FILE} holds {len(records)} records, expected 51")
    return records


# Every route to an independent copy of an env (each env must continue alike from any of them).
COPIES = {
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "clone": lambda env: env.clone(),
}


def seeded_records(n: int) -> str:
    """JSON-lines text of ``n`` seeded random games (uploads and record files in the web tests)."""
    rng = random.Random(7)
    lines = []
    for i in range(n):
        game = Game.random(i, dealer=i % 3)
        while not game.is_over:
            game.step(rng.choice(game.legal_actions()))
        lines.append(dumps(game))
    return "\n".join(lines) + "\n"
