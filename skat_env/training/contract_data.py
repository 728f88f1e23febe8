"""Training data for the contract model: deals played out under chosen contracts.

For each deal ``i`` of a seed (its own generator ``default_rng([seed, i])``, so any worker
count and any resumption give the same rows), the hand of position ``i % 3`` becomes the
declarer's: the two others bid as a bidder agent would (``auction``, by default the
heuristic's bidding), the declarer bids and holds until they pass, so he wins the auction
at the bid his opponents' hands push him to, and the model learns what their bids say of the
cards he will meet (``auction=""``: the others pass at once and he declares at 18, the
format-1 datasets). Then a few *variants* (game kind, hand or pickup, discard pair; a null
worth less than the bid is left out) are each played to the end with the same card player
in every seat (by default
the heuristic's card play: cheap, about 300 games per second per core). The variants are the
plausible contracts of the hand (suits with 4+ trumps over twelve cards, grand with jacks,
null when two discards leave few unsafe cards, hand games of strong hands) plus, in a fifth
of the deals, one drawn from all fourteen, so the model also sees what bad contracts give.
Pickup discards: the heuristic's best pair for the contract half the time, one of its eight
best otherwise, a random pair one time in ten (so the model learns to score every pair).

The dataset is a folder of shards ``shard_NNNNN.npz`` (``shard_deals`` deals each, written
atomically) and ``dataset.json`` (format, seed, card player, columns). A run resumes by
skipping shards already written; see ``docs/contracts.md`` for the columns.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.core.cards import cards_of
from skat_env.core.game import BIDDING, PLAY, Game
from skat_env.core.scoring import WIN_POINTS
from skat_env.core.tables import GAME_NAMES, JACKS, NULL_VALUES
from skat_env.encoding.view import player_view
from skat_env.envs.policy import decide

from ..agents import heuristic as h
from ..agents.contract_model import GRAND_KIND, KINDS, NULL_KIND, NULL_OUVERT_KIND
from ..agents.registry import make_agent

FORMAT = "skat-contracts-v2"  # v1: no auction (its rows read bid 18, opponents' bids -1)
COLUMNS = {
    "deal": "deal index (its generator: numpy default_rng([seed, deal]))",
    "position": "declarer's position: 0 forehand, 1 middlehand, 2 rearhand (dealer seat 2)",
    "kind": "0 clubs, 1 spades, 2 hearts, 3 diamonds, 4 grand, 5 null, 6 null ouvert",
    "hand": "1 hand game, 0 pickup",
    "kept": "the declarer's ten cards in play (card-set bitmask, bit c = card id c)",
    "buried": "the two cards discarded after the pickup (0 in a hand game)",
    "skat": "the two skat cards as dealt",
    "won": "1 when the declarer took 61+ card points (null: no trick), whatever the bid",
    "declarer_points": "card points of the declarer incl. the skat",
    "declarer_tricks": "tricks the declarer took",
    "bid": "the bid the declarer won the auction at",
    "opp_high": "the higher of the two opponents' highest bids (0: no bid; -1: not known)",
    "opp_low": "the lower of the two opponents' highest bids (0: no bid; -1: not known)",
}
# the columns a format-1 shard lacks: its opponents passed whatever they held, so their
# bids say nothing (-1: not known)
V1_DEFAULTS = {"bid": 18, "opp_high": -1, "opp_low": -1}
DECLARATION = (*GAME_NAMES[:5], "null", "null ouvert")  # by variant kind
EXPLORE = 0.2  # share of deals with one extra variant drawn from all fourteen
MAX_VARIANTS = 3


def _pairs(twelve: int) -> list[int]:
    return [(1 << a) | (1 << b) for a, b in combinations(cards_of(twelve), 2)]


def _ranked_pairs(kind: int, twelve: int, forehand: bool) -> list[int]:
    """All 66 pairs of twelve cards, the heuristic's best discard for ``kind`` first."""
    game = min(kind, NULL_KIND)
    pairs = _pairs(twelve)
    score = {p: h.contract_score(game, twelve & ~p, p, 18, forehand) for p in pairs}
    return sorted(pairs, key=lambda p: (-score[p], p))


def candidate_variants(ten: int, skat: int) -> list[tuple[int, int]]:
    """(kind, hand) pairs worth playing for a hand (see the module docstring)."""
    twelve = ten | skat
    out = []
    jacks12, jacks10 = (twelve & JACKS).bit_count(), (ten & JACKS).bit_count()
    aces12 = sum(twelve >> (8 * s) & 1 for s in range(4))
    for g in range(4):
        trumps = (twelve & (JACKS | 0xFF << (8 * g))).bit_count()
        if trumps >= 4:
            out.append((g, 0))
        if (ten & (JACKS | 0xFF << (8 * g))).bit_count() >= 5:
            out.append((g, 1))
    if jacks12 >= 2 or jacks12 and aces12 >= 2:
        out.append((GRAND_KIND, 0))
    if jacks10 >= 2:
        out.append((GRAND_KIND, 1))
    danger12 = min(h.null_danger(twelve & ~p) for p in _pairs(twelve))
    if danger12 <= 4:
        out.append((NULL_KIND, 0))
    if danger12 <= 1:
        out.append((NULL_OUVERT_KIND, 0))
    danger10 = h.null_danger(ten)
    if danger10 <= 2:
        out.append((NULL_KIND, 1))
    if danger10 <= 1:
        out.append((NULL_OUVERT_KIND, 1))
    return out


def deal_variants(seed: int, index: int) -> tuple[list[int], int, list[tuple[int, int, int]]]:
    """(deal, declarer position, [(kind, hand, discard pair)]) of deal ``index``."""
    rng = np.random.default_rng([seed, index])
    deal = rng.permutation(32).tolist()
    position = index % 3
    ten = sum(1 << c for c in deal[10 * position : 10 * position + 10])
    skat = (1 << deal[30]) | (1 << deal[31])
    cands = candidate_variants(ten, skat)
    picked = [cands[i] for i in sorted(rng.permutation(len(cands))[:MAX_VARIANTS])]
    if rng.random() < EXPLORE:
        extra = (int(rng.integers(KINDS)), int(rng.integers(2)))
        if extra not in picked:
            picked.append(extra)
    out = []
    for kind, hand in picked:
        pair = 0
        if not hand:
            ranked = _ranked_pairs(kind, ten | skat, position == 0)
            u = rng.random()
            pair = ranked[0] if u < 0.5 else ranked[int(rng.integers(8 if u < 0.9 else 66))]
        out.append((kind, hand, pair))
    return deal, position, out


_AUCTION = {0: ("pass", "pass", "18"), 1: ("18", "pass", "pass"), 2: ("pass", "18", "pass")}


def auction(deal: list[int], position: int, bidder=None) -> Game:
    """The game of ``deal`` (dealer seat 2) after an auction that ``position`` wins: the
    others bid as ``bidder`` does (an agent; None: they pass at once and he bids 18), he
    bids and holds as long as one of them bids."""
    game = Game(deal, dealer=2)
    if bidder is None:
        for call in _AUCTION[position]:
            game.play(call)
        return game
    seat = game.seat_of(position)
    while game.phase == BIDDING:
        s = game.to_act
        move = h.choose_bid(player_view(game, s), 10**6) if s == seat else decide(bidder, game, s)
        game.step(move)
    return game


def playable(kind: int, hand: int, bid: int) -> bool:
    """Whether the variant may be declared at ``bid`` (a null is worth its fixed value)."""
    return kind < NULL_KIND or NULL_VALUES[(bool(hand), kind == NULL_OUVERT_KIND)] >= bid


def play_variant(
    deal: list[int] | Game, position: int, kind: int, hand: int, pair: int, card_agent
) -> Game:
    """The game in which ``position`` declares the variant and ``card_agent`` plays every
    card: from ``deal`` (dealer seat 2) at 18 with the others passing, or from a game whose
    auction ``position`` won (:func:`auction`; not changed)."""
    game = deal.copy() if isinstance(deal, Game) else auction(deal, position)
    game.play("hand" if hand else "pickup")
    for card in cards_of(pair):
        game.step(card)
    game.play(DECLARATION[kind])
    while not game.is_over:
        assert game.phase == PLAY
        game.step(decide(card_agent, game, game.to_act))
    return game


def deal_rows(seed: int, index: int, card_agent, bidder=None) -> list[tuple[int, ...]]:
    """The dataset rows (``COLUMNS`` order) of one deal (``bidder``: see :func:`auction`)."""
    deal, position, variants = deal_variants(seed, index)
    seat = (2 + 1 + position) % 3
    start = auction(deal, position, bidder)
    assert start.declarer == seat, "the declarer bids until the others pass"
    # without an auction the others passed whatever they held: their bids are not known
    opp = sorted((start.bids[s] if bidder else -1 for s in range(3) if s != seat), reverse=True)
    rows = []
    for kind, hand, pair in variants:
        if not playable(kind, hand, start.bid):
            continue
        game = play_variant(start, position, kind, hand, pair, card_agent)
        r = game.result
        assert r is not None  # played out
        kept = game.hands[seat] | game.played[seat]
        # the card play's result, whatever the bid (the model prices the overbid itself)
        won = r.declarer_tricks == 0 if kind >= NULL_KIND else r.declarer_points >= WIN_POINTS
        rows.append((index, position, kind, hand, kept, pair, game.skat, int(won),
                     r.declarer_points, r.declarer_tricks, start.bid, *opp))  # fmt: skip
    return rows


def _shard(args: tuple[str, int, int, int, str, str]) -> int:
    """Write shard ``k`` (deals ``[start, stop)``); returns its row count."""
    folder, seed, start, stop, player, bidder = args
    agent = make_agent(player)
    by = make_agent(bidder) if bidder else None
    rows = [row for i in range(start, stop) for row in deal_rows(seed, i, agent, by)]
    arr = np.array(rows, dtype=np.int64).reshape(-1, len(COLUMNS))
    path = Path(folder) / f"shard_{start:08d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    columns: dict[str, Any] = {name: arr[:, j] for j, name in enumerate(COLUMNS)}
    np.savez(tmp, **columns, stop=np.int64(stop))
    os.replace(tmp, path)
    return len(rows)


def generate(folder: str | Path, seed: int, deals: int, shard_deals: int = 500, workers: int = 1,
             player: str = "heuristic", progress: bool = True,
             bidder: str = "heuristic") -> dict:  # fmt: skip
    """Write (or complete) the dataset of deals ``0..deals-1``; returns its manifest.
    ``bidder``: the agent spec the declarer's opponents bid by ("": they pass at once)."""
    folder = Path(folder)
    if bidder:
        make_agent(bidder)  # an unknown spec fails here, not in a worker
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"format": FORMAT, "seed": seed, "shard_deals": shard_deals,
                "card_player": player, "auction": bidder, "columns": COLUMNS}  # fmt: skip
    mpath = folder / "dataset.json"
    if mpath.exists():
        old = json.loads(mpath.read_text())
        keys = ("format", "seed", "shard_deals", "card_player", "auction")
        same = {k: old.get(k) for k in keys}
        if same != {k: manifest[k] for k in same}:
            raise ValueError(f"{folder} holds another dataset ({same}); use a new folder")
    mpath.write_text(json.dumps({**manifest, "deals": max(deals, _done_deals(folder))}, indent=1))
    todo = [(str(folder), seed, s, min(s + shard_deals, deals), player, bidder)
            for s in range(0, deals, shard_deals)
            if not (folder / f"shard_{s:08d}.npz").exists()]  # fmt: skip
    bar = _bar(len(todo), progress)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for _ in pool.map(_shard, todo):
                bar.update(1)
    else:
        for job in todo:
            _shard(job)
            bar.update(1)
    bar.close()
    return json.loads(mpath.read_text())


def _done_deals(folder: Path) -> int:
    return max((int(np.load(p)["stop"]) for p in folder.glob("shard_*[0-9].npz")), default=0)


def _bar(total: int, on: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="shard", disable=not on)


def shards(folder: str | Path) -> Iterator[Path]:
    return iter(sorted(Path(folder).glob("shard_*[0-9].npz")))


def load(folder: str | Path) -> dict[str, np.ndarray]:
    """Every row of a dataset folder as columns (``ValueError`` when it holds none); a
    format-1 shard (no auction played) reads bid 18 and opponents' bids not known (-1)."""
    parts = [np.load(p) for p in shards(folder)]
    if not parts:
        raise ValueError(f"{folder}: no dataset shards (shard_*.npz)")

    def column(p, name: str) -> np.ndarray:
        if name in p.files or name not in V1_DEFAULTS:
            return p[name]
        return np.full(len(p["deal"]), V1_DEFAULTS[name], dtype=np.int64)

    return {name: np.concatenate([column(p, name) for p in parts]) for name in COLUMNS}


__all__ = ["COLUMNS", "FORMAT", "auction", "candidate_variants", "deal_rows", "deal_variants",
           "generate", "load", "play_variant", "playable"]  # fmt: skip
