"""A player's information state: exactly what one seat may know at a moment.

:func:`player_view` is the only place that decides what a player sees. Encoders
(observations), agents and renderers work from a :class:`PlayerView`, so nothing
hidden (other hands, an unseen skat, another player's discards) can leak through them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..core.game import DISCARD, DONE, PLAY, Game
from ..core.scoring import Contract, Flags


@dataclass(slots=True)
class PlayerView:
    """Read-only by convention (a frozen dataclass costs 10x more to build, and one is
    built at every decision)."""

    seat: int  # the observer
    position: int  # 0 forehand, 1 middlehand, 2 rearhand
    dealer: int
    phase: int  # see skat_env.core.game.PHASE_NAMES
    to_act: int  # seat to act, -1 when the game is over
    hand: int  # own cards (card set)
    bid: int  # current bid value (0 before any bid)
    bids: tuple[int, int, int]  # per seat: highest value it bid or held (0: none)
    passed: int  # seats that passed in the auction (bitmask over seats)
    declarer: int  # -1 until the auction is won
    contract: Contract | None
    hand_game: bool  # declarer chose hand (known to all once chosen)
    skat: int  # skat cards the observer has seen (declarer after pickup, or at the end)
    discarded: int  # the declarer's discards: seen by the declarer, and by all at the end
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


# _SEATS_OF_POSITIONS[dealer][mask over positions] = the same players as a mask over seats
_SEATS_OF_POSITIONS = tuple(
    tuple(sum(1 << (dealer + 1 + p) % 3 for p in range(3) if m >> p & 1) for m in range(8))
    for dealer in range(3)
)
_TRICK_SEATS = ((0, 1, 2), (1, 2, 0), (2, 0, 1))  # seats in play order from a leader


def sees_skat(phase: Flags, is_declarer: Flags, hand_game: Flags, has_declarer: Flags) -> Flags:
    """Whether the observer sees the skat: everybody once a played game is over, the declarer
    after picking it up. The one visibility rule for the skat, on 0/1 ints or NumPy arrays
    (the batched encoder calls it with arrays)."""
    done = phase == DONE
    return done * has_declarer + (1 - done) * is_declarer * (1 - hand_game) * (phase >= DISCARD)


def sees_discards(phase: Flags, is_declarer: Flags, has_declarer: Flags) -> Flags:
    """Whether the observer sees the declarer's discards: the declarer always, everybody once
    a played game is over (so the card points can be checked)."""
    return is_declarer + (1 - is_declarer) * (phase == DONE) * has_declarer


def sees_open_hand(ouvert: Flags, phase: Flags, has_declarer: Flags) -> Flags:
    """Whether the declarer's hand lies open: an ouvert game, from the first card on."""
    return ouvert * (phase >= PLAY) * has_declarer


def _three(values: Iterable[int]) -> tuple[int, int, int]:
    a, b, c = values
    return a, b, c


def player_view(game: Game, seat: int) -> PlayerView:
    """What ``seat`` knows of ``game`` now."""
    phase = game.phase
    declarer = game.declarer
    is_decl = declarer == seat
    ouvert = game.contract is not None and game.contract.ouvert
    skat = game.skat if sees_skat(phase, is_decl, game.hand_game, declarer >= 0) else 0
    a = game.auction
    dealer = game.dealer
    leader = game.trick_leader
    trick = game.trick
    to_act = game.to_act
    return PlayerView(
        seat=seat,
        position=(seat - dealer - 1) % 3,
        dealer=dealer,
        phase=phase,
        to_act=to_act,
        hand=game.hands[seat],
        bid=a.bid,
        bids=_three(game.bids),
        passed=_SEATS_OF_POSITIONS[dealer][a.passed],
        declarer=declarer,
        contract=game.contract,
        hand_game=game.hand_game,
        skat=skat,
        discarded=game.discarded if sees_discards(phase, is_decl, declarer >= 0) else 0,
        open_hand=game.hands[declarer] if sees_open_hand(ouvert, phase, declarer >= 0) else 0,
        played=_three(game.played),
        trick=tuple(zip(_TRICK_SEATS[leader], trick, strict=False)) if trick else (),
        trick_leader=leader if phase == PLAY else -1,
        voids=_three(game.voids),
        points=_three(game.points_won),
        tricks=_three(game.tricks_won),
        play_sequence=tuple(game.plays),
        legal_mask=game.legal_mask() if to_act == seat else 0,
    )


def without_history(view: PlayerView) -> PlayerView:
    """``view`` reduced to what the default observation holds (no play history): what an
    agent gets from decoding a default observation."""
    return replace(view, play_sequence=()) if view.play_sequence else view


__all__ = [
    "PlayerView",
    "player_view",
    "sees_discards",
    "sees_open_hand",
    "sees_skat",
    "without_history",
]
