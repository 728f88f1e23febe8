"""A batched Skat engine: B independent games held in NumPy arrays, stepped by one call.

The single-game engine (:mod:`skat_env.core.game`) is the reference; this module runs the same
phase sequence (auction, skat, discards, declaration, card play, early ends, scoring) on
whole batches, with no Python loop over the games: every transition is a handful of array
operations on the games of one phase. Rule data comes from the core's tables
(:mod:`skat_env.core.tables`, :mod:`skat_env.core.moves`, :mod:`skat_env.core.tricks`,
:mod:`skat_env.core.scoring`), turned into NumPy arrays once at import; a differential test
(``tests/test_vector.py``) keeps this engine move-for-move equal to :class:`~..core.game.Game`.

Usage::

    from skat_env import vector
    state = vector.init(4096, seed=0)          # or vector.init_from_deals(deals, dealers)
    while training:
        obs, mask, seat = state.obs, state.legal_mask, state.to_act   # per game
        state = vector.step(state, actions)    # in place; returns the same object
        state.terminated, state.rewards        # games that just ended, per-seat rewards

Per game ``b`` the state exposes (all NumPy arrays with leading dimension B):

- ``to_act[b]``: seat (0..2) to act. Never -1: finished games are reset in the same call.
- ``legal_mask[b]``: ``int8[121]``, the legal move ids of that seat (the RL action ids).
- ``obs[b]``: ``float32[450]``, exactly :func:`skat_env.encoding.observation.observe` of the seat
  to act (``observe=False`` at init skips it).
- ``terminated[b]``: the game in slot ``b`` ended in this step. Then ``rewards[b]`` (per
  absolute seat, ``float32[3]``) and ``result`` (arrays, see :class:`Results`) describe the
  game that ended, and everything else already shows the next game of that slot: a new
  deal from the state's generator, dealer rotated to the next seat.

``obs``, ``rewards``, ``terminated`` and ``result`` are buffers overwritten by the next step:
copy what you keep.

Reward modes (as the AEC env): ``zero_sum`` declarer the list score, each defender minus
half of it; ``list`` declarer the list score, defenders 0; ``seeger_fabian`` the per-seat
Seeger-Fabian points. Thrown-in deals give 0 to everyone.

Illegal moves (the vocabulary of every env, :mod:`skat_env.core.validation`): with
``illegal_action="terminate"`` (default) the games whose move id is outside the mask end at
once: the offender gets ``illegal_reward`` (default: the worst game outcome of the reward
mode; nothing better is accepted), the others 0, ``result.illegal`` is set, and the slot is
reset like any finished game. With ``illegal_action="raise"`` they raise
:class:`IllegalActionError` naming the games, the state untouched. An illegal action is
never applied.
Actions that are not move ids (non-integer arrays, ids outside 0..120) always raise.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import cast

import numpy as np

from ..core.cards import NUM_CARDS
from ..core.game import (
    BIDDING,
    DECLARE,
    DISCARD,
    DONE,
    PLAY,
    SKAT,
    DealError,
    IllegalMoveError,
    Result,
    loss_certain,
    parse_deal,
)
from ..core.moves import FIRST_BID, FIRST_DECLARATION, HAND, HOLD, MOVE_NAMES, NUM_MOVES, PASS
from ..core.rewards import ILLEGAL_ACTIONS, REWARD_MODES, check_illegal, side_rewards
from ..core.scoring import SCHNEIDER_POINTS, Contract, outcome_kernel, seeger_fabian
from ..core.tables import GRAND, NULL
from ..core.validation import (
    check_choice,
    check_count,
    check_seat,
    check_seed,
)
from ..encoding.batched import encode_batch
from ..encoding.observation import OBS_SIZE
from . import tables as T

BIDDER_ROLE, HOLDER_ROLE, OPENER_ROLE = 0, 1, 2  # tables.AUCTION_ROLE
_I64 = np.int64


class IllegalActionError(IllegalMoveError):
    """Actions outside the legal mask; the message names the games. State untouched."""


# --- the state ---
@dataclass
class Results:
    """What the score sheet says about the game that just ended in each slot (valid where
    ``state.terminated``; the fields mirror :class:`skat_env.core.game.Result`)."""

    passed_in: np.ndarray
    declarer: np.ndarray  # seat, -1 when thrown in
    game: np.ndarray  # game kind 0..5, -1 when thrown in
    hand: np.ndarray
    schneider_announced: np.ndarray
    schwarz_announced: np.ndarray
    ouvert: np.ndarray
    bid: np.ndarray
    won: np.ndarray
    declarer_points: np.ndarray
    declarer_tricks: np.ndarray
    defender_points: np.ndarray
    matadors: np.ndarray
    game_value: np.ndarray
    overbid: np.ndarray
    schneider: np.ndarray
    schwarz: np.ndarray
    score: np.ndarray
    seeger_fabian: np.ndarray  # (B, 3) per seat
    ended_early: np.ndarray
    illegal: np.ndarray  # ended by an illegal action (illegal_action="terminate")
    offender: np.ndarray  # seat that made it, else -1
    _block: np.ndarray  # (K + 3, B): the rows above (seeger_fabian: its last three rows)

    @classmethod
    def empty(cls, n: int) -> Results:
        block = np.repeat(_result_clear()[:, None], n, 1)
        return cls(_block=block, **_result_views(block))

    # Copies (deepcopy, pickle) keep the fields views of the block.
    def __getstate__(self) -> dict:
        return {"_block": self._block}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(_block=state["_block"], **_result_views(state["_block"]))


def _result_views(block: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of a Results block: one row each, seeger_fabian the last three rows."""
    names = _result_names()
    views = {name: block[k] for k, name in enumerate(names)}
    return {**views, "seeger_fabian": block[len(names) :].T}


_MINUS_ONE = ("declarer", "game", "offender")


def _result_names() -> list[str]:
    return [f.name for f in fields(Results) if f.name not in ("seeger_fabian", "_block")]


def _result_clear() -> np.ndarray:
    """The Results column of a game that was not played (all 0, -1 for seats and game)."""
    return np.array([-1 if n in _MINUS_ONE else 0 for n in _result_names()] + [0, 0, 0], _I64)


@dataclass
class VecState:
    """B games. Seats are absolute (0..2); card sets are int64 bitmasks (bit c = card c);
    flags are int64 0/1. Arrays are only ever written in place."""

    rng: np.random.Generator
    reward_mode: str
    illegal_action: str
    illegal_reward: float
    with_obs: bool
    _games: np.ndarray  # (K, B) block holding the per-game int fields below
    _seats: np.ndarray  # (F, B, 3) block holding the per-seat fields below
    deal: np.ndarray  # (B, 32) card ids: forehand 10, middlehand 10, rearhand 10, skat 2
    dealer: np.ndarray
    forehand: np.ndarray
    phase: np.ndarray
    to_act: np.ndarray
    # auction: control state (tables.AUCTION_*: who bids, who holds, stage) and bid
    auction: np.ndarray
    bid_index: np.ndarray  # into BID_VALUES, -1 before any bid
    passed: np.ndarray  # seats that passed (bitmask over seats)
    bids: np.ndarray  # (B, 3) highest value each seat bid or held
    # declarer's choices
    declarer: np.ndarray  # -1 before the auction is won
    hand_game: np.ndarray
    game: np.ndarray  # game kind 0..5; 6 (tables.NO_GAME) before the declaration
    ann_schneider: np.ndarray
    ann_schwarz: np.ndarray
    ouvert: np.ndarray
    skat: np.ndarray
    discarded: np.ndarray
    # card play
    hands: np.ndarray  # (B, 3)
    played: np.ndarray  # (B, 3)
    voids: np.ndarray  # (B, 3) effective suits shown void in (bit s)
    trick: np.ndarray  # (B, 3) card each seat put in the current trick, 32 = none
    led: np.ndarray  # card led to the current trick, 32 = none
    trick_len: np.ndarray
    trick_leader: np.ndarray  # -1 before play
    n_tricks: np.ndarray  # completed tricks
    tricks_won: np.ndarray  # (B, 3)
    points_won: np.ndarray  # (B, 3)
    # outputs of the last step
    legal_words: np.ndarray  # (B, 4) uint32: legal moves, bit m%32 of word m//32
    legal_mask: np.ndarray  # (B, 121) int8
    obs: np.ndarray  # (B, 450) float32
    terminated: np.ndarray  # bool
    rewards: np.ndarray  # (B, 3) float32
    result: Results

    @property
    def batch_size(self) -> int:
        return self.phase.shape[0]

    # Copies (deepcopy, pickle) keep the per-game fields views of the two blocks.
    def __getstate__(self) -> dict:
        views = {*_GAME_INIT, *_SEAT_INIT}
        return {k: v for k, v in self.__dict__.items() if k not in views}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__.update({name: self._games[k] for k, name in enumerate(_GAME_INIT)})
        self.__dict__.update({name: self._seats[k] for k, name in enumerate(_SEAT_INIT)})


# Per-game ints and per-seat ints live in two blocks, (K, B) and (F, B, 3), whose rows are
# the state's fields (contiguous views): a finished game is reset with two assignments.
_GAME_INIT = dict(
    phase=BIDDING, to_act=0, auction=0, bid_index=-1, passed=0, declarer=-1, hand_game=0,
    game=T.NO_GAME, ann_schneider=0, ann_schwarz=0, ouvert=0, skat=0, discarded=0,
    led=T.NO_CARD, trick_len=0, trick_leader=-1, n_tricks=0,
)  # fmt: skip
_SEAT_INIT = dict(bids=0, hands=0, played=0, voids=0, trick=T.NO_CARD, tricks_won=0, points_won=0)
_GAME_INIT_A = np.array(list(_GAME_INIT.values()), _I64)[:, None]
_SEAT_INIT_A = np.array(list(_SEAT_INIT.values()), _I64)[:, None, None]


def _blocks(n: int) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    g = np.repeat(_GAME_INIT_A, n, 1)
    p = np.repeat(np.repeat(_SEAT_INIT_A, n, 1), 3, 2)
    views = {name: g[k] for k, name in enumerate(_GAME_INIT)}
    views.update({name: p[k] for k, name in enumerate(_SEAT_INIT)})
    return g, p, views


def _deal_cards(s: VecState, idx: np.ndarray, deal: np.ndarray, dealer: np.ndarray) -> None:
    """Start fresh games in slots ``idx`` with the given deals (n, 32) and dealers (n,)."""
    n = len(idx)
    s._games[:, idx] = _GAME_INIT_A
    s._seats[:, idx] = _SEAT_INIT_A
    s.deal[idx] = deal
    s.dealer[idx] = dealer
    fh = T.NEXT.take(dealer)
    s.forehand[idx] = fh
    bits = T.BIT.take(deal)  # (n, 32)
    hands = np.zeros((n, 3), _I64)
    for pos in range(3):
        seat = T.ADD3.take(fh * 3 + pos)
        hands[np.arange(n), seat] = np.bitwise_or.reduce(bits[:, 10 * pos : 10 * pos + 10], 1)
    s.hands[idx] = hands
    s.skat[idx] = bits[:, 30] | bits[:, 31]
    s.to_act[idx] = T.ADD3.take(fh * 3 + T.AUCTION_TO_ACT[0])


def _random_deals(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.permuted(np.broadcast_to(np.arange(NUM_CARDS, dtype=_I64), (n, NUM_CARDS)), axis=1)


def _new_state(n: int, seed, reward_mode: str, illegal_action: str, illegal_reward,
               observe: bool) -> VecState:  # fmt: skip
    """An empty state; every setting is checked first (nothing is built from bad input)."""
    check_choice("reward_mode", reward_mode, REWARD_MODES)
    illegal_action, illegal_reward = check_illegal(illegal_action, illegal_reward, reward_mode)
    seed = check_seed(seed)
    games, seats, views = _blocks(n)
    return VecState(
        rng=np.random.default_rng(seed), reward_mode=reward_mode, illegal_action=illegal_action,
        illegal_reward=illegal_reward, with_obs=bool(observe), _games=games, _seats=seats,
        deal=np.zeros((n, NUM_CARDS), _I64), dealer=np.zeros(n, _I64),
        forehand=np.zeros(n, _I64), **views,
        legal_words=np.zeros((n, 4), np.uint32), legal_mask=np.zeros((n, NUM_MOVES), np.int8),
        obs=np.zeros((n, OBS_SIZE if observe else 0), np.float32),
        terminated=np.zeros(n, bool), rewards=np.zeros((n, 3), np.float32),
        result=Results.empty(n),
    )  # fmt: skip


def init(
    batch_size: int,
    seed: int | None = None,
    *,
    dealer: int | np.ndarray = 2,
    reward_mode: str = "zero_sum",
    illegal_action: str = "terminate",
    illegal_reward: float | None = None,
    observe: bool = True,
) -> VecState:
    """``batch_size`` games with random deals from ``seed``; ``dealer`` one seat or one per
    game (each slot's dealer then rotates game by game). ``observe=False`` skips the
    observations (masks, rewards and results only)."""
    n = check_count(batch_size, "batch_size")
    dealers = _check_dealers(dealer, n)
    state = _new_state(n, seed, reward_mode, illegal_action, illegal_reward, observe)
    _deal_cards(state, np.arange(n), _random_deals(state.rng, n), dealers)
    _refresh(state)
    return state


def init_from_deals(
    deals,
    dealers: int | np.ndarray = 2,
    seed: int | None = None,
    *,
    reward_mode: str = "zero_sum",
    illegal_action: str = "terminate",
    illegal_reward: float | None = None,
    observe: bool = True,
) -> VecState:
    """Games from given deals: (B, 32) card ids or a list of deals in any form
    :func:`skat_env.core.game.parse_deal` accepts. Later deals of each slot come from ``seed``.
    A malformed deal raises :class:`~skat_env.core.game.DealError` naming the game."""
    arr = _deal_array(deals)
    n = check_count(len(arr), "the number of deals")
    dealers = _check_dealers(dealers, n)
    state = _new_state(n, seed, reward_mode, illegal_action, illegal_reward, observe)
    _deal_cards(state, np.arange(n), arr, dealers)
    _refresh(state)
    return state


def _deal_array(deals) -> np.ndarray:
    """(B, 32) card ids from a (B, 32) integer array or a list/tuple of deals."""
    if isinstance(deals, np.ndarray) and deals.ndim == 2 and deals.dtype.kind in "iu":
        arr = deals.astype(_I64)
        wrong = (np.sort(arr, 1) != np.arange(NUM_CARDS)).any(1) if arr.shape[1] == 32 else None
        if wrong is None or wrong.any():
            bad = np.flatnonzero(wrong).tolist()[:20] if wrong is not None else "all"
            raise DealError(
                f"malformed deals at games {bad}: each row must hold the 32 card ids 0..31 "
                "once (forehand 10, middlehand 10, rearhand 10, skat 2)"
            )
        return arr
    if not isinstance(deals, (list, tuple, np.ndarray)):
        raise DealError(f"deals must be a list or tuple of deals or a (B, 32) integer array, "
                        f"got {type(deals).__name__}")  # fmt: skip
    rows = []
    for i, deal in enumerate(deals):
        try:
            rows.append(parse_deal(deal))
        except DealError as e:
            raise DealError(f"game {i}: {e}") from None
    return np.array(rows, _I64).reshape(-1, NUM_CARDS)


def _check_dealers(dealer, n: int) -> np.ndarray:
    """One dealer per game from one seat or ``n`` seats (integers 0..2, not bool)."""
    if isinstance(dealer, (list, tuple)):
        dealer = np.asarray(dealer)
    if not isinstance(dealer, np.ndarray) or dealer.ndim == 0:
        return np.full(n, check_seat(dealer, "dealer"), _I64)
    if dealer.dtype.kind not in "iu" or dealer.shape != (n,):
        raise TypeError(f"dealer must be one seat or {n} seats (integers 0..2), got "
                        f"{dealer.dtype} {dealer.shape}")  # fmt: skip
    d = dealer.astype(_I64)
    if ((d < 0) | (d > 2)).any():
        raise ValueError(f"dealer must be seat 0, 1 or 2, got {np.unique(d).tolist()}")
    return d


# --- legal moves ---
def _legal_words(s: VecState) -> np.ndarray:
    """The legal set of every game as (B, 4) uint32 words over move ids."""
    n = s.batch_size
    ph = s.phase
    ar3 = np.arange(0, 3 * n, 3)
    # cards: play (follow the led effective suit if able) and discard (any own card)
    hand = s.hands.reshape(-1).take(ar3 + s.to_act)
    follow = T.FOLLOW33.take(s.game * 33 + s.led) & hand
    cards = follow | hand * (follow == 0)
    cards *= (ph == PLAY) | (ph == DISCARD)
    # bidding: higher bids (bidder), the opening 18 (opener), hold (holder)
    role = T.AUCTION_ROLE.take(s.auction)
    low = s.bid_index + 1
    bids = (T.ALL_BIDS >> low << low) * (role == BIDDER_ROLE)
    bids |= (role == OPENER_ROLE) | T.HOLD_BIT * (role == HOLDER_ROLE)
    bids *= ph == BIDDING
    # pass, skat choice, declarations (no null below the bid)
    w3 = T.PHASE_W3.take(ph)
    w3 |= T.DECLARE_W3.take(s.hand_game * 64 + low) * (ph == DECLARE)
    w = np.empty((n, 4), np.uint32)
    w[:, 0] = cards
    w[:, 1] = bids & 0xFFFFFFFF
    w[:, 2] = (bids >> 32) & 0xFFFFFFFF
    w[:, 3] = w3
    return w


def _refresh(s: VecState) -> None:
    """Recompute the outputs that depend on the current position: mask and observation."""
    s.legal_words = _legal_words(s)
    bits = np.unpackbits(s.legal_words.view(np.uint8), axis=1, count=NUM_MOVES, bitorder="little")
    s.legal_mask = bits.view(np.int8)
    if s.with_obs:
        encode_batch(s, s.to_act, out=s.obs)


def is_legal(s: VecState, actions: np.ndarray) -> np.ndarray:
    """Per game: whether ``actions[b]`` is in the legal set of game ``b``."""
    a = np.asarray(actions, _I64)
    inside = (a & ~127) == 0  # 0..127; 121..127 are never set in the words
    ac = a & 127
    word = s.legal_words.reshape(-1).take(np.arange(0, 4 * len(a), 4) + (ac >> 5))
    return inside & ((word.astype(_I64) >> (ac & 31)) & 1).astype(bool)


_BYTE_COUNT = np.array([bin(b).count("1") for b in range(256)], _I64)
# _SELECT[byte * 8 + k]: position of the k-th set bit of byte
_SELECT = np.array(
    [([i for i in range(8) if b >> i & 1] + [0] * 8)[k] for b in range(256) for k in range(8)], _I64
)


def random_actions(s: VecState, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game: the k-th set bit of the legal words."""
    n = s.batch_size
    w = s.legal_words.astype(_I64)
    counts = np.bitwise_count(w).astype(_I64)
    cum = np.cumsum(counts, 1)
    k = (rng.random(n) * cum[:, 3]).astype(_I64)
    wi = (k >= cum[:, 0]).astype(_I64) + (k >= cum[:, 1]) + (k >= cum[:, 2])
    flat = np.arange(0, 4 * n, 4) + wi
    word = w.reshape(-1).take(flat)
    k -= cum.reshape(-1).take(flat) - counts.reshape(-1).take(flat)
    low = word & 0xFFFF  # then halve: 16 bits, 8 bits, a table for the last byte
    c = np.bitwise_count(low).astype(_I64)
    up16 = (k >= c).astype(_I64)
    k -= c * up16
    word = (word >> (up16 << 4)) & 0xFFFF
    c = _BYTE_COUNT.take(word & 255)
    up8 = (k >= c).astype(_I64)
    k -= c * up8
    byte = (word >> (up8 << 3)) & 255
    return (wi << 5) + (up16 << 4) + (up8 << 3) + _SELECT.take((byte << 3) + k)


# --- transitions ---
def step(s: VecState, actions, active: np.ndarray | None = None) -> VecState:
    """Apply one action per game (in place) and return the state; see the module doc.

    ``active`` (bool per game, optional) steps only those games: the others keep their
    position and their action is ignored (how a learner-seat env moves the opponents)."""
    a, active = _check_actions(s.batch_size, actions, active)
    ok = is_legal(s, a)
    if active is not None:
        ok |= ~active
    bad = None
    if not ok.all():
        bad = np.flatnonzero(~ok)
        if s.illegal_action == "raise":
            raise IllegalActionError(_illegal_message(s, a, bad))
    s.terminated[:] = False
    s.rewards[:] = 0.0
    ph = s.phase
    if bad is not None or active is not None:
        ph = np.where(ok if active is None else ok & active, ph, DONE)
    play = np.flatnonzero(ph == PLAY)
    rest = np.flatnonzero(ph != PLAY)
    others = [(p, rest[ph.take(rest) == p]) for p in (BIDDING, SKAT, DISCARD, DECLARE)]
    if len(play):
        _step_play(s, play, a.take(play))
    for p, idx in others:
        if len(idx):
            _PHASE_STEP[p](s, idx, a.take(idx))
    if bad is not None:
        _finish_illegal(s, bad)
    done = np.flatnonzero(s.terminated)
    if len(done):
        _deal_cards(s, done, _random_deals(s.rng, len(done)), T.NEXT.take(s.dealer.take(done)))
    _refresh(s)
    return s


def _check_actions(n: int, actions, active) -> tuple[np.ndarray, np.ndarray | None]:
    """Actions as int64 move ids (integer dtype, shape (n,), 0..120 where active) and the
    active flags (bool, shape (n,)); anything else raises before the state is touched."""
    a = np.asarray(actions)
    if a.dtype.kind not in "iu":
        raise TypeError(f"actions must be integer move ids 0..{NUM_MOVES - 1} (an integer "
                        f"array, not bool or float), got dtype {a.dtype}")  # fmt: skip
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), one per game, got {a.shape}")
    a = a.astype(_I64, copy=False)
    if active is not None:
        active = np.asarray(active)
        if active.dtype != bool or active.shape != (n,):
            raise ValueError(f"active must be a bool array of shape ({n},), got "
                             f"{active.dtype} {active.shape}")  # fmt: skip
    outside = (a < 0) | (a >= NUM_MOVES)
    if active is not None:
        outside &= active
    if outside.any():
        games = np.flatnonzero(outside)
        raise IllegalActionError(f"actions of games {games[:10].tolist()} are not move ids "
                                 f"(0..{NUM_MOVES - 1}): {a[games[:10]].tolist()}")  # fmt: skip
    return a, active


def _illegal_message(s: VecState, a: np.ndarray, bad: np.ndarray) -> str:
    parts = []
    for b in bad[:10].tolist():
        move = MOVE_NAMES[a[b]] if 0 <= a[b] < NUM_MOVES else repr(int(a[b]))
        parts.append(f"game {b}: player_{s.to_act[b]} cannot play {move}")
    more = f" (and {len(bad) - 10} more)" if len(bad) > 10 else ""
    return (f"illegal actions in {len(bad)} games {bad[:10].tolist()}{more}: "
            + "; ".join(parts))  # fmt: skip


def _step_bidding(s: VecState, idx: np.ndarray, a: np.ndarray) -> None:
    """The auction's transitions (tables.AUCTION_*, tabulated from bidding.Auction)."""
    seat = s.to_act.take(idx)
    kind = (a >= HOLD).astype(_I64) + (a == PASS)  # 0 bid, 1 hold, 2 pass
    key = s.auction.take(idx) * 3 + kind
    # per-seat bid record (PlayerView.bids): a bid sets it, a hold answers the bid
    bid_index = s.bid_index.take(idx)
    bid_index = np.where(kind == 0, a - FIRST_BID, bid_index)
    s.bid_index[idx] = bid_index
    rec = kind < 2
    s.bids.reshape(-1)[(idx * 3 + seat)[rec]] = T.BID_VALUES_A.take(bid_index[rec] + 1)
    s.passed[idx] |= (kind == 2) << seat
    state = T.AUCTION_NEXT.take(key)
    winner = T.AUCTION_WINNER.take(key)
    s.auction[idx] = state
    pos = np.where(winner >= 0, winner, T.AUCTION_TO_ACT.take(state))
    s.to_act[idx] = T.ADD3.take(s.forehand.take(idx) * 3 + pos)  # the declarer when won
    won = idx[winner >= 0]
    if len(won):
        s.declarer[won] = s.to_act[won]
        s.phase[won] = SKAT
    thrown = idx[winner == -1]
    if len(thrown):
        _finish_passed_in(s, thrown)


def _step_skat(s: VecState, idx: np.ndarray, a: np.ndarray) -> None:
    hand = (a == HAND).astype(_I64)
    s.hand_game[idx] = hand
    up = idx[hand == 0]
    flat = up * 3 + s.declarer[up]
    s.hands.reshape(-1)[flat] |= s.skat[up]
    s.phase[idx] = np.where(hand == 1, DECLARE, DISCARD)


def _step_discard(s: VecState, idx: np.ndarray, a: np.ndarray) -> None:
    flat = idx * 3 + s.declarer[idx]
    bit = T.BIT.take(a)
    s.hands.reshape(-1)[flat] &= ~bit
    disc = s.discarded[idx] | bit
    s.discarded[idx] = disc
    s.phase[idx] = np.where(np.bitwise_count(disc) == 2, DECLARE, DISCARD)


def _step_declare(s: VecState, idx: np.ndarray, a: np.ndarray) -> None:
    k = a - FIRST_DECLARATION
    s.game[idx] = T.DECL_GAME.take(k)
    s.ann_schneider[idx] = T.DECL_SCHNEIDER.take(k)
    s.ann_schwarz[idx] = T.DECL_SCHWARZ.take(k)
    s.ouvert[idx] = T.DECL_OUVERT.take(k)
    s.phase[idx] = PLAY
    s.to_act[idx] = s.trick_leader[idx] = s.forehand[idx]


def _step_play(s: VecState, idx: np.ndarray, a: np.ndarray) -> None:
    seat = s.to_act.take(idx)
    flat = idx * 3 + seat
    bit = T.BIT.take(a)
    hands, played, voids = s.hands.reshape(-1), s.played.reshape(-1), s.voids.reshape(-1)
    hands[flat] = hands.take(flat) & ~bit
    played[flat] = played.take(flat) | bit
    gl = s.game.take(idx) * 33 + s.led.take(idx)
    follow = T.FOLLOW33.take(gl)  # 0 when leading: never void
    voids[flat] = voids.take(flat) | T.VOIDBIT33.take(gl) * ((follow != 0) & (bit & follow == 0))
    s.trick.reshape(-1)[flat] = a
    n_in = s.trick_len.take(idx)
    s.led[idx] = np.where(n_in == 0, a, s.led.take(idx))
    n_in += 1
    s.trick_len[idx] = n_in
    s.to_act[idx] = T.NEXT.take(seat)
    full = idx[n_in == 3]
    if len(full):
        _finish_trick(s, full)


def _finish_trick(s: VecState, idx: np.ndarray) -> None:
    g32 = s.game.take(idx) * 32
    leader = s.trick_leader.take(idx)
    base = idx * 3
    trick = s.trick.reshape(-1)
    c0 = trick.take(base + leader)
    c1 = trick.take(base + T.NEXT.take(leader))
    c2 = trick.take(base + T.PREV.take(leader))
    win1 = T.BEATS.take((g32 + c1) * 32 + c0)
    best = c0 + (c1 - c0) * win1
    win2 = T.BEATS.take((g32 + c2) * 32 + best)
    win = win1 + (2 - win1) * win2
    winner = T.ADD3.take(leader * 3 + win)
    flat = base + winner
    tricks, points = s.tricks_won.reshape(-1), s.points_won.reshape(-1)
    tricks[flat] = tricks.take(flat) + 1
    pts = T.CARD_POINTS_A.take(c0) + T.CARD_POINTS_A.take(c1) + T.CARD_POINTS_A.take(c2)
    points[flat] = points.take(flat) + pts
    s.trick[idx] = T.NO_CARD
    s.led[idx] = T.NO_CARD
    s.trick_len[idx] = 0
    s.trick_leader[idx] = winner
    s.to_act[idx] = winner
    n_tricks = s.n_tricks.take(idx) + 1
    s.n_tricks[idx] = n_tricks
    # the declarer's loss is certain (Game._loss_certain), or all ten tricks are played
    d = s.declarer.take(idx)
    pw = s.points_won[idx]
    defender_points = pw.sum(1) - points.take(base + d)
    certain = loss_certain(g32 == NULL * 32, s.ann_schwarz.take(idx),
                           s.ann_schneider.take(idx), winner == d, defender_points)  # fmt: skip
    over = idx[(certain == 1) | (n_tricks == 10)]
    if len(over):
        _finish_played(s, over)


def _points_of(mask: np.ndarray) -> np.ndarray:
    """Card points of card sets, a table look-up per byte (as tables.points_of)."""
    return (
        T.BYTE_POINTS.take(mask & 255)
        + T.BYTE_POINTS.take(256 + (mask >> 8 & 255))
        + T.BYTE_POINTS.take(512 + (mask >> 16 & 255))
        + T.BYTE_POINTS.take(768 + (mask >> 24 & 255))
    )


def score_batch(
    game, hand, ann_schneider, ann_schwarz, ouvert, bid, twelve,
    declarer_points, declarer_tricks, defender_points, defender_tricks, ended_early,
) -> dict:  # fmt: skip
    """:func:`skat_env.core.scoring.score_game` on arrays: the matadors from a table, then the
    core's own :func:`~skat_env.core.scoring.outcome_kernel`. Flags are 0/1 arrays. Returns
    Outcome's fields."""
    game = np.asarray(game, _I64)
    hand, ouvert = np.asarray(hand, _I64), np.asarray(ouvert, _I64)
    ann_schneider, ann_schwarz = np.asarray(ann_schneider, _I64), np.asarray(ann_schwarz, _I64)
    is_null = (game == NULL).astype(_I64)
    gk = np.where(is_null == 1, GRAND, game)  # any valid row for the table look-ups
    jacks = (twelve >> 3 & 1) | (twelve >> 10 & 2) | (twelve >> 17 & 4) | (twelve >> 24 & 8)
    suit_byte = twelve >> (8 * np.where(gk < GRAND, gk, 0)) & 255
    mats = T.MATADORS.take((gk * 16 + jacks) * 256 + suit_byte)
    values = outcome_kernel(
        is_null, T.BASE_A.take(gk), T.NULL_VALUE_A.take(hand * 2 + ouvert), hand, ann_schneider,
        ann_schwarz, ouvert, np.asarray(bid, _I64), mats, np.asarray(declarer_points, _I64),
        np.asarray(declarer_tricks, _I64), np.asarray(defender_points, _I64),
        np.asarray(defender_tricks, _I64), np.asarray(ended_early, _I64),
    )  # fmt: skip
    names = ("won", "matadors", "game_value", "overbid", "score", "schneider_level",
             "schwarz_level")  # fmt: skip
    out = {name: np.asarray(v, _I64) for name, v in zip(names, values, strict=True)}
    for flag in ("won", "overbid", "schneider_level", "schwarz_level"):
        out[flag] = out[flag].astype(bool)
    return out


def _finish_played(s: VecState, idx: np.ndarray) -> None:
    """Score the games in ``idx`` as Game._finish_played does."""
    ar = np.arange(len(idx))
    d = s.declarer[idx]
    hand = s.hand_game[idx]
    decl_skat = np.where(hand == 1, s.skat[idx], s.discarded[idx])
    pw, tw = s.points_won[idx], s.tricks_won[idx]
    dp = pw[ar, d] + _points_of(decl_skat)
    dt = tw[ar, d]
    fp = pw.sum(1) - pw[ar, d]
    total_tricks = tw.sum(1)
    ft = total_tricks - dt
    early = total_tricks < 10
    twelve = s.hands[idx, d] | s.played[idx, d] | decl_skat
    g = s.game[idx]
    bid = T.BID_VALUES_A.take(s.bid_index[idx] + 1)
    sn, sw, ov = s.ann_schneider[idx], s.ann_schwarz[idx], s.ouvert[idx]
    out = score_batch(g, hand, sn, sw, ov, bid, twelve, dp, dt, fp, ft, early)
    won, score = out["won"], out["score"]
    not_null = g != NULL
    sf_decl, sf_def = seeger_fabian(score, won.astype(_I64))
    sf = np.repeat(sf_def[:, None], 3, 1)
    sf[ar, d] = sf_decl
    values = dict(
        passed_in=0, declarer=d, game=g, hand=hand, schneider_announced=sn,
        schwarz_announced=sw, ouvert=ov, bid=bid, won=won, declarer_points=dp,
        declarer_tricks=dt, defender_points=fp, matadors=out["matadors"],
        game_value=out["game_value"], overbid=out["overbid"],
        schneider=not_null & ((dp >= SCHNEIDER_POINTS) | (fp >= SCHNEIDER_POINTS)),
        schwarz=not_null & ((dt == 10) | (ft == 10)), score=score, ended_early=early,
        illegal=0, offender=-1,
    )  # fmt: skip
    block = np.empty((len(_RESULT_NAMES) + 3, len(idx)), _I64)
    for k, name in enumerate(_RESULT_NAMES):
        block[k] = values[name]
    block[len(_RESULT_NAMES) :] = sf.T
    s.result._block[:, idx] = block
    decl_reward, def_reward = side_rewards(s.reward_mode, score, sf_decl, sf_def)
    rew = np.repeat(np.asarray(def_reward, np.float32)[:, None], 3, 1)
    rew[ar, d] = decl_reward
    s.rewards[idx] = rew
    s.terminated[idx] = True
    s.phase[idx] = DONE


def _clear_result(s: VecState, idx: np.ndarray) -> None:
    s.result._block[:, idx] = _RESULT_CLEAR[:, None]


def _finish_passed_in(s: VecState, idx: np.ndarray) -> None:
    _clear_result(s, idx)
    s.result.passed_in[idx] = 1
    s.rewards[idx] = 0.0
    s.terminated[idx] = True
    s.phase[idx] = DONE


def _finish_illegal(s: VecState, idx: np.ndarray) -> None:
    _clear_result(s, idx)
    s.result.illegal[idx] = 1
    s.result.offender[idx] = s.to_act[idx]
    rew = np.zeros((len(idx), 3), np.float32)
    rew[np.arange(len(idx)), s.to_act[idx]] = s.illegal_reward
    s.rewards[idx] = rew
    s.terminated[idx] = True
    s.phase[idx] = DONE


_RESULT_NAMES = _result_names()
_RESULT_CLEAR = _result_clear()
_PHASE_STEP = {
    BIDDING: _step_bidding,
    SKAT: _step_skat,
    DISCARD: _step_discard,
    DECLARE: _step_declare,
}


# --- inspection ---
def contract_of(s_or_r: VecState | Results, b: int) -> Contract | None:
    """The contract of game ``b`` (a state: the running game; a Results: the ended one)."""
    if isinstance(s_or_r, Results):
        r = s_or_r
        if r.game[b] < 0:
            return None
        return Contract(int(r.game[b]), bool(r.hand[b]), bool(r.schneider_announced[b]),
                        bool(r.schwarz_announced[b]), bool(r.ouvert[b]))  # fmt: skip
    s = s_or_r
    if s.game[b] == T.NO_GAME:
        return None
    return Contract(int(s.game[b]), bool(s.hand_game[b]), bool(s.ann_schneider[b]),
                    bool(s.ann_schwarz[b]), bool(s.ouvert[b]))  # fmt: skip


def result_of(s: VecState, b: int) -> Result:
    """The :class:`~skat_env.core.game.Result` of the game that ended in slot ``b`` (for
    inspection and tests; valid where ``s.terminated[b]``)."""
    r = s.result
    if r.passed_in[b] or r.illegal[b]:
        return Result(passed_in=bool(r.passed_in[b]))
    c = contract_of(r, b)
    assert c is not None  # a game played (not passed in, no illegal move) has a contract
    sf = cast("tuple[int, int, int]", tuple(int(x) for x in r.seeger_fabian[b]))
    return Result(
        passed_in=False, declarer=int(r.declarer[b]), contract=c.name(), bid=int(r.bid[b]),
        won=bool(r.won[b]), declarer_points=int(r.declarer_points[b]),
        declarer_tricks=int(r.declarer_tricks[b]), defender_points=int(r.defender_points[b]),
        matadors=int(r.matadors[b]), game_value=int(r.game_value[b]),
        overbid=bool(r.overbid[b]), schneider=bool(r.schneider[b]), schwarz=bool(r.schwarz[b]),
        score=int(r.score[b]), seeger_fabian=sf,
        ended_early=bool(r.ended_early[b]),
    )  # fmt: skip


__all__ = [
    "ILLEGAL_ACTIONS",
    "IllegalActionError",
    "REWARD_MODES",
    "Results",
    "VecState",
    "contract_of",
    "init",
    "init_from_deals",
    "is_legal",
    "random_actions",
    "result_of",
    "score_batch",
    "step",
]
