"""The auction: bid ladder, seniority, hold/pass, throw-in.

Seats here are *positions*: 0 forehand, 1 middlehand, 2 rearhand. Middlehand bids to
forehand; then rearhand bids to the survivor; the junior of a pair bids (strictly
higher, jumps allowed), the senior holds or passes. If nobody bid, forehand may open
at 18 or pass (all passed: the deal is thrown in).
"""

from __future__ import annotations

from dataclasses import dataclass

from .tables import BID_VALUES

FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
POSITION_NAMES = ("forehand", "middlehand", "rearhand")

# What the player to act may do.
BIDDER, HOLDER, OPENER = "bidder", "holder", "opener"


@dataclass(slots=True)
class Auction:
    """State of the auction in positions. ``bid_index`` is the index into
    ``BID_VALUES`` of the current bid, -1 before any bid."""

    bidder: int = MIDDLEHAND
    holder: int = FOREHAND
    bid_index: int = -1
    role: str = BIDDER  # role of the player to act
    passed: int = 0  # bitmask of positions that passed
    stage: int = 0  # 0 first duel, 1 second duel, 2 forehand's opening, 3 over
    winner: int = -1  # declarer position when over; -1 if thrown in

    @property
    def to_act(self) -> int:
        return self.holder if self.role == HOLDER else self.bidder

    @property
    def bid(self) -> int:
        return BID_VALUES[self.bid_index] if self.bid_index >= 0 else 0

    @property
    def over(self) -> bool:
        return self.stage == 3

    def legal_bid_indices(self) -> range:
        """Indices into BID_VALUES the player to act may bid (empty for a holder)."""
        if self.stage == 3 or self.role == HOLDER:
            return range(0)
        if self.role == OPENER:
            return range(0, 1)
        return range(self.bid_index + 1, len(BID_VALUES))

    def can_hold(self) -> bool:
        return self.stage < 3 and self.role == HOLDER

    def can_pass(self) -> bool:
        return self.stage < 3

    # --- transitions (callers check legality first) ---
    def do_bid(self, index: int) -> None:
        self.bid_index = index
        if self.role == OPENER:
            self._finish(FOREHAND)
        else:
            self.role = HOLDER

    def do_hold(self) -> None:
        self.role = BIDDER

    def do_pass(self) -> None:
        me = self.to_act
        self.passed |= 1 << me
        if self.role == OPENER:
            self._finish(-1)
            return
        survivor = self.bidder if me == self.holder else self.holder
        if self.stage == 0:
            self.stage, self.bidder, self.holder, self.role = 1, REARHAND, survivor, BIDDER
        elif self.bid_index >= 0:
            self._finish(survivor)
        else:  # nobody has bid: only forehand can be left, and may open at 18
            self.stage, self.bidder, self.role = 2, FOREHAND, OPENER

    def _finish(self, winner: int) -> None:
        self.stage, self.winner = 3, winner
