"""Per-seat observation buffers kept current move by move: the AEC env's fast path.

:func:`skat_env.encoding.observation.encode` builds an observation from a
:class:`~.view.PlayerView`; it is the definition of the layout. Re-encoding at every
decision costs more than the move itself, so the environment keeps one encoded buffer per
seat (three rows of one array) and, for card plays (nine moves in ten), writes only the
entries the card changes, at flat positions looked up in tables built once:
the player's hand, the card in ``played``, ``trick`` and ``open_hand``, ``to_act``, a new
void, and at the end of a trick the leader and the point and trick counters. Auction,
skat, discard and declaration moves are written the same way. A new deal starts from the
encoded start position of its dealer plus the hands; a passed-in end, or a game joined
after its first move, marks the rows stale, and the next read re-encodes that seat from
:func:`~skat_env.encoding.view.player_view`.

The tests compare every buffer with ``encode(player_view(game, seat))`` after every move
of many random games in both layouts, so this is a cache of the encoder, not a second
definition of the observation.
"""

from __future__ import annotations

import struct
from functools import cache
from typing import Protocol, cast

import numpy as np

from ..core.cards import NUM_CARDS
from ..core.game import BIDDING, DISCARD, DONE, PLAY, SKAT, Game
from ..core.moves import HAND, PASS
from ..core.tables import BID_VALUES
from .observation import (  # the encoder's own layout constants
    _CARD_BITS,
    _HIST_START,
    _REL,
    _SLOT,
    HISTORY_OBS_SIZE,
    LAYOUT,
    MAX_PLAYS,
    NUM_BITS,
    OBS_SIZE,
    _contract_bits,
    action_mask,
    bid_scalars,
    encode,
    scalar_rows,
)
from .view import player_view

_HAND = LAYOUT["hand"].start
_SKAT = LAYOUT["skat"].start
_DISCARDED = LAYOUT["discarded"].start
_OPEN = LAYOUT["open_hand"].start
_PLAYED = LAYOUT["played"].start
_TRICK = LAYOUT["trick"].start
_TO_ACT = LAYOUT["to_act"].start
_PHASE = LAYOUT["phase"].start
_BID = LAYOUT["bid"].start
_PASSED = LAYOUT["passed"].start
_DECLARER = LAYOUT["declarer"].start
_HAND_GAME = LAYOUT["hand_game"].start
_LEADER = LAYOUT["trick_leader"].start
_VOIDS = LAYOUT["voids"].start
_SCALARS = struct.Struct(f"<{OBS_SIZE - NUM_BITS}f")
_NUM_SUITS = 5  # effective suits in the voids field: C S H D trump


class _Floats(Protocol):
    """The buffer as a flat float32 memoryview (typeshed types memoryview items as int)."""

    def __setitem__(self, i: int, value: float, /) -> None: ...


class _Index:
    """Flat positions (row * size + entry) in the three stacked rows of the buffer.

    ``all_rows(start)``: that entry in every row; ``per_seat(start)``: for an absolute
    seat, its relative entry in every observer's row.
    """

    def __init__(self, size: int):
        rows = range(0, 3 * size, size)

        def all_rows(start: int) -> tuple[int, ...]:
            return tuple(row + start for row in rows)

        def per_seat(start: int, width: int = 1) -> tuple[tuple[tuple[int, ...], ...], ...]:
            """[seat][k]: entry ``start + width * rel(seat) + k`` in each observer's row."""
            return tuple(
                tuple(
                    tuple(me * size + start + width * _REL[me][seat] + k for me in range(3))
                    for k in range(width)
                )
                for seat in range(3)
            )

        cards = range(NUM_CARDS)
        self.size = size
        self.rows = tuple(rows)
        self.hand = tuple(tuple(seat * size + _HAND + c for c in cards) for seat in range(3))
        self.played = per_seat(_PLAYED, NUM_CARDS)
        self.trick = per_seat(_TRICK, NUM_CARDS)
        self.to_act = tuple(t[0] for t in per_seat(_TO_ACT))
        # a card played: entries cleared, and set while its trick goes on
        self.card_off = tuple(
            tuple((self.hand[seat][c], *self.to_act[seat]) for c in cards) for seat in range(3)
        )
        self.card_on = tuple(
            tuple((*self.played[seat][c], *self.trick[seat][c]) for c in cards) for seat in range(3)
        )
        self.voids = per_seat(_VOIDS, _NUM_SUITS)
        self.leader = tuple(t[0] for t in per_seat(_LEADER))
        self.passed = tuple(t[0] for t in per_seat(_PASSED))
        self.bids = tuple(t[0] for t in per_seat(NUM_BITS))  # the first scalars: bids
        self.declarer = tuple(t[0] for t in per_seat(_DECLARER))
        self.open = tuple(all_rows(_OPEN + c) for c in cards)
        self.phase = tuple(all_rows(_PHASE + p) for p in range(6))
        self.bid = {v: all_rows(_BID + i) for i, v in enumerate(BID_VALUES)}
        self.hand_game = all_rows(_HAND_GAME)
        self.small = all_rows(_CARD_BITS)  # + bit offset of the contract fields
        self.open_rows = all_rows(_OPEN)
        self.skat_rows = all_rows(_SKAT)
        self.discarded_rows = all_rows(_DISCARDED)
        self.scalar_offsets = tuple(4 * i for i in all_rows(NUM_BITS))  # byte offsets
        # history[k][seat][card]: the k-th play's seat and card entries in every row
        self.history = (
            ()
            if size < HISTORY_OBS_SIZE
            else tuple(
                tuple(tuple(self._slot(k, seat, c) for c in cards) for seat in range(3))
                for k in range(MAX_PLAYS)
            )
        )

    def _slot(self, k: int, seat: int, card: int) -> tuple[int, ...]:
        base = _HIST_START + k * _SLOT
        return tuple(
            me * self.size + base + entry for me in range(3) for entry in (_REL[me][seat], 3 + card)
        )


@cache
def _index(size: int) -> _Index:
    return _Index(size)


@cache
def _start_rows(dealer: int, history: bool) -> np.ndarray:
    """Each seat's encoding at the start of a deal, without its hand: everything else
    there (seat, position, dealer, phase, who bids first) depends on the dealer only."""
    game = Game(range(NUM_CARDS), dealer)
    rows = np.stack([encode(player_view(game, seat), history) for seat in range(3)])
    rows[:, LAYOUT["hand"]] = 0.0
    rows.flags.writeable = False
    return rows


class ObservationTracker:
    """The encoded observations of the three seats of one game, updated as it is played.

    Call :meth:`reset` with a new game, :meth:`moved` after every ``game.step``, and
    :meth:`observation` / :meth:`mask` to read a seat's current encoding. Every move
    writes all three rows; a row that is stale (a game joined mid-way, a passed-in end) is
    re-encoded from the player view when read.
    """

    __slots__ = (
        "history", "_game", "_buffer", "_rows", "_bytes", "_v", "_ix", "_fresh", "_voids",
        "_bid", "_open_seat",
    )  # fmt: skip
    _game: Game  # unset until reset(): reading it raises AttributeError, which the env reports

    def __init__(self, history: bool = False):
        self.history = history
        size = HISTORY_OBS_SIZE if history else OBS_SIZE
        buffer = np.zeros((3, size), np.float32)
        self._buffer = buffer
        self._rows: list[np.ndarray] = list(buffer)  # row views: observation(seat) copies one
        self._bytes = buffer.data.cast("B")
        self._v = cast(_Floats, self._bytes.cast("f"))  # flat, fast single-entry writes
        self._ix = _index(size)
        self._fresh: list[int] = []  # seats whose row equals their encoding now
        self._voids = [0, 0, 0]  # game.voids as last written
        self._bid = 0  # auction bid as last written
        self._open_seat = -1  # the declarer in an ouvert game

    def reset(self, game: Game) -> None:
        """Track a new game."""
        self._game = game
        self._voids = list(game.voids)
        self._bid = game.auction.bid
        c = game.contract
        self._open_seat = game.declarer if c is not None and c.ouvert else -1
        if game.history:  # not a fresh deal: encode each row when it is first read
            self._fresh = []
            return
        # A fresh deal: each row is the start position of its seat plus its own hand.
        self._buffer[:] = _start_rows(game.dealer, self.history)
        for offset, hand in zip(self._ix.rows, game.hands, strict=True):
            _set_cards(self._v, (offset + _HAND,), hand)
        self._fresh = [0, 1, 2]

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """PettingZoo's observation dict of ``seat``: :meth:`observation` and :meth:`mask`."""
        if seat not in self._fresh:
            self._row(seat)
        game = self._game
        legal = game.legal_mask() if game.to_act == seat else 0
        return {"observation": self._rows[seat].copy(), "action_mask": action_mask(legal)}

    def observation(self, seat: int) -> np.ndarray:
        """A copy of ``seat``'s current observation vector."""
        row: np.ndarray = self._row(seat).copy()  # numpy's stubs type this copy as Any
        return row

    def mask(self, seat: int) -> np.ndarray:
        """``seat``'s action mask: the legal moves if it is to act, else all zeros."""
        game = self._game
        return action_mask(game.legal_mask() if game.to_act == seat else 0)

    def _row(self, seat: int) -> np.ndarray:
        if seat not in self._fresh:  # a new game or a passed-in end: encode from the view
            self._rows[seat][:] = encode(player_view(self._game, seat), self.history)
            self._fresh.append(seat)
        return self._rows[seat]

    def moved(self, seat: int, move: int, phase_before: int) -> None:
        """Bring the rows up to date after ``seat`` made ``move`` in ``phase_before``."""
        if phase_before == PLAY:
            self._card(seat, move)
        elif phase_before == BIDDING:
            self._auction(seat, move)
        else:
            self._declarer_move(seat, move, phase_before)

    # --- one method per kind of move; each writes what that move can change ---
    def _card(self, seat: int, card: int) -> None:
        game, v, ix = self._game, self._v, self._ix
        for i in ix.card_off[seat][card]:  # own hand, to_act
            v[i] = 0.0
        if seat == self._open_seat:  # the ouvert declarer's card leaves the open hand
            for i in ix.open[card]:
                v[i] = 0.0
        if self.history:
            for i in ix.history[len(game.plays) - 1][seat][card]:
                v[i] = 1.0
        if game.voids[seat] != self._voids[seat]:
            new = game.voids[seat] & ~self._voids[seat]
            self._voids[seat] = game.voids[seat]
            for suit in range(_NUM_SUITS):
                if new >> suit & 1:
                    for i in ix.voids[seat][suit]:
                        v[i] = 1.0
        if game.trick:  # the trick goes on
            for i in ix.card_on[seat][card]:  # played, trick
                v[i] = 1.0
            for i in ix.to_act[game.to_act]:
                v[i] = 1.0
            return
        # The card completed the trick: clear it, count it, and move the lead.
        (s1, first), (s2, second) = game.plays[-3:-1]
        for i in (*ix.trick[s1][first], *ix.trick[s2][second], *ix.leader[s1]):
            v[i] = 0.0
        for i in ix.played[seat][card]:
            v[i] = 1.0
        self._write_scalars()
        if game.phase == DONE:
            _switch(v, ix.phase[PLAY], ix.phase[DONE])
            _set_cards(v, ix.skat_rows, game.skat)  # skat and discards are shown to everyone
            _set_cards(v, ix.discarded_rows, game.discarded)
        else:
            for i in (*ix.leader[game.trick_leader], *ix.to_act[game.to_act]):
                v[i] = 1.0

    def _auction(self, seat: int, move: int) -> None:
        game, v, ix = self._game, self._v, self._ix
        if game.phase == DONE:  # passed in: re-encode on demand
            self._fresh = []
            return
        if move == PASS:
            for i in ix.passed[seat]:
                v[i] = 1.0
        else:  # a bid or hold raises the seat's own highest value
            value = bid_scalars(game.bids)[seat]
            for i in ix.bids[seat]:
                v[i] = value
        bid = game.auction.bid
        if bid != self._bid:
            if self._bid:
                _switch(v, ix.bid[self._bid], ix.bid[bid])
            else:
                for i in ix.bid[bid]:
                    v[i] = 1.0
            self._bid = bid
        _switch(v, ix.to_act[seat], ix.to_act[game.to_act])
        if game.phase == SKAT:  # the auction is won
            for i in ix.declarer[game.declarer]:
                v[i] = 1.0
            _switch(v, ix.phase[BIDDING], ix.phase[SKAT])

    def _declarer_move(self, seat: int, move: int, phase_before: int) -> None:
        """Skat pick-up or hand, a discard or the declaration (always the declarer)."""
        game, v, ix = self._game, self._v, self._ix
        row = ix.rows[seat]
        if phase_before == SKAT:
            if move == HAND:
                for i in ix.hand_game:
                    v[i] = 1.0
            else:  # the declarer takes the skat into hand and has seen it
                _set_cards(v, (row + _HAND, row + _SKAT), game.skat)
        elif phase_before == DISCARD:
            v[row + _HAND + move] = 0.0
            v[row + _DISCARDED + move] = 1.0
        else:  # the declaration
            c = game.contract
            assert c is not None  # just declared
            _set_cards(v, ix.small, _contract_bits(c))  # bits, not cards
            if c.ouvert:
                _set_cards(v, ix.open_rows, game.hands[seat])
                self._open_seat = seat
            _switch(v, ix.to_act[seat], ix.to_act[game.to_act])
            for i in ix.leader[game.trick_leader]:
                v[i] = 1.0
        if game.phase != phase_before:
            _switch(v, ix.phase[phase_before], ix.phase[game.phase])

    def _write_scalars(self) -> None:
        game, pack, b = self._game, _SCALARS.pack_into, self._bytes
        rows = scalar_rows(game.bids, game.points_won, game.tricks_won, game.declarer)
        for offset, values in zip(self._ix.scalar_offsets, rows, strict=True):
            pack(b, offset, *values)


def _switch(v: _Floats, off: tuple[int, ...], on: tuple[int, ...]) -> None:
    for i in off:
        v[i] = 0.0
    for i in on:
        v[i] = 1.0


def _set_cards(v: _Floats, bases: tuple[int, ...], cards: int) -> None:
    """Set ``base + c`` for every base and every card ``c`` of the card set ``cards``."""
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        for base in bases:
            v[base + c] = 1.0
        cards ^= low


__all__ = ["ObservationTracker"]
