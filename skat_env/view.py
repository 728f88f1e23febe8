"""A player's information state: exactly what one seat may know at a moment.

:func:`player_view` is the only place that decides what a player sees. Encoders
(observations), agents and renderers work from a :class:`PlayerView`, so nothing
hidden (other hands, an unseen skat, another player's discards) can leak through them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import DISCARD, DONE, PLAY, Game
from .moves import FIRST_BID, HOLD, PASS
from .scoring import Contract
from .tables import BID_VALUES


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int  # the observer
    position: int  # 0 forehand, 1 middlehand, 2 rearhand
    dealer: int
    phase: int  # see skat_env.game.PHASE_NAMES
    to_act: int  # seat to act, -1 when the game is over
    hand: int  # own cards (card set)
    bid: int  # current bid value (0 before any bid)
    bids: tuple[int, int, int]  # per seat: highest value it bid or held (0: none)
    passed: int  # seats that passed in the auction (bitmask over seats)
    declarer: int  # -1 until the auction is won
    contract: Contract | None
    hand_game: bool  # declarer chose hand (known to all once chosen)
    skat: int  # skat cards the observer has seen (declarer after pickup, or at the end)
    discarded: int  # cards the observer discarded (declarer only)
    open_hand: int  # the declarer's cards, laid open in ouvert games
    played: tuple[int, int, int]  # cards played by each seat
    trick: tuple[tuple[int, int], ...]  # current trick as (seat, card), in play order
    trick_leader: int  # seat that led the current trick (-1 outside play)
    voids: tuple[int, int, int]  # per seat, effective suits shown void in (bit s)
    points: tuple[int, int, int]  # card points in the tricks each seat took
    tricks: tuple[int, int, int]  # tricks each seat took
    play_sequence: tuple[tuple[int, int], ...]  # every card played, (seat, card), in order
    legal_mask: int  # legal move ids if the observer is to act, else 0

    @property
    def trick_number(self) -> int:
        """Completed tricks."""
        return sum(self.tricks)

    @property
    def is_declarer(self) -> bool:
        return self.declarer == self.seat


def bids_by_seat(game: Game) -> tuple[int, int, int]:
    """Highest value each seat bid or held so far (a hold answers the current bid)."""
    bids = [0, 0, 0]
    current = 0
    for seat, move in game.history:
        if FIRST_BID <= move < FIRST_BID + len(BID_VALUES):
            current = BID_VALUES[move - FIRST_BID]
            bids[seat] = current
        elif move == HOLD:
            bids[seat] = current
        elif move > HOLD and move != PASS:
            break
    return bids[0], bids[1], bids[2]


def player_view(game: Game, seat: int) -> PlayerView:
    """What ``seat`` knows of ``game`` now."""
    is_decl = game.declarer == seat
    if game.phase == DONE:
        skat = game.skat if game.declarer >= 0 else 0
    elif is_decl and not game.hand_game and game.phase >= DISCARD:
        skat = game.skat
    else:
        skat = 0
    passed = 0
    a = game.auction
    for pos in range(3):
        if a.passed >> pos & 1:
            passed |= 1 << game.seat_of(pos)
    trick = game.trick
    leader = game.trick_leader
    return PlayerView(
        seat=seat,
        position=game.position_of(seat),
        dealer=game.dealer,
        phase=game.phase,
        to_act=game.to_act,
        hand=game.hands[seat],
        bid=a.bid,
        bids=bids_by_seat(game),
        passed=passed,
        declarer=game.declarer,
        contract=game.contract,
        hand_game=game.hand_game,
        skat=skat,
        discarded=game.discarded if is_decl else 0,
        open_hand=game.open_hand,
        played=tuple(game.played),
        trick=tuple(((leader + i) % 3, c) for i, c in enumerate(trick)),
        trick_leader=leader if game.phase == PLAY else -1,
        voids=tuple(game.voids),
        points=tuple(game.points_won),
        tricks=tuple(game.tricks_won),
        play_sequence=tuple((s, m) for s, m in game.history if m < 32 and _is_play(game, s, m)),
        legal_mask=game.legal_mask() if game.to_act == seat else 0,
    )


def _is_play(game: Game, seat: int, card: int) -> bool:
    """Whether a card move in the history was a card played (not a discard)."""
    return bool(game.played[seat] >> card & 1)


__all__ = ["PlayerView", "bids_by_seat", "player_view"]
