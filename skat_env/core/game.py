"""The single-game state machine: deal, auction, skat, discard, declaration, play, result.

Seats are absolute (0, 1, 2 = ``player_0`` .. ``player_2``); the dealer is rearhand, so
forehand is seat ``(dealer + 1) % 3``. With the default ``dealer=2`` seat 0 is forehand,
as in the ISS records. Moves are ids of the vocabulary in :mod:`skat_env.core.moves`; every
public method also accepts or returns move names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .bidding import POSITION_NAMES, Auction
from .cards import CARD_NAMES, FULL_DECK, NUM_CARDS, bit_indices, names_of, parse_cards
from .moves import (
    FIRST_BID,
    HAND,
    HOLD,
    MOVE_NAMES,
    NUM_MOVES,
    PASS,
    PICKUP,
    declared_contract,
    legal_declarations,
    move_id,
    move_names,
)
from .scoring import Contract, Flags, score_game, seeger_fabian
from .tables import BID_VALUES, EFFECTIVE_SUIT, FOLLOW_MASK, NULL, points_of
from .tricks import legal_cards, trick_winner
from .validation import DealError, IllegalMoveError, check_action, check_seat

BIDDING, SKAT, DISCARD, DECLARE, PLAY, DONE = range(6)
SCHNEIDER_STOP_POINTS = 31  # defenders at 31 end a game with schneider announced
PHASE_NAMES = ("bidding", "skat", "discard", "declare", "play", "done")


@dataclass(frozen=True)
class Result:
    """Everything the score sheet says about one finished game."""

    passed_in: bool
    declarer: int | None = None  # seat
    contract: str | None = None  # e.g. "clubs hand schneider"
    bid: int = 0
    won: bool = False
    declarer_points: int = 0  # incl. the skat
    declarer_tricks: int = 0
    defender_points: int = 0  # in the defenders' tricks
    matadors: int = 0  # +N with, -N without, 0 for null
    game_value: int = 0  # value computed after play
    overbid: bool = False
    schneider: bool = False  # a side reached schneider in the tricks taken
    schwarz: bool = False  # a side took every trick
    score: int = 0  # declarer's list score (+v, -2v, overbid rule)
    seeger_fabian: tuple[int, int, int] = (0, 0, 0)  # per seat
    ended_early: bool = False  # stopped once the declarer's loss was certain

    def to_dict(self) -> dict[str, Any]:
        d = {name: getattr(self, name) for name in _RESULT_FIELDS}
        d["seeger_fabian"] = list(self.seeger_fabian)
        return d


_RESULT_FIELDS = tuple(f.name for f in fields(Result))


def parse_deal(deal: str | Sequence[str] | Sequence[int] | np.ndarray) -> list[int]:
    """32 card ids from 32 names (or ids) in the order forehand 10, middlehand 10,
    rearhand 10, skat 2. Raises :class:`DealError` saying what is wrong."""
    if type(deal) is list and all(type(c) is int for c in deal):
        cards = deal  # the usual case: a shuffled deck from random_deal()
    else:
        cards = _card_ids(deal)
    if len(cards) != NUM_CARDS or not _CARD_IDS.issuperset(cards) or len(set(cards)) != NUM_CARDS:
        raise DealError(_deal_problem(cards))
    return cards


_CARD_IDS = frozenset(range(NUM_CARDS))
_DEAL_FORMS = (
    "a deal is a string of 32 card names, or a list, tuple or 1-d array of 32 card names "
    "('CJ') or of 32 card ids (integers 0..31), in the order forehand 10, middlehand 10, "
    "rearhand 10, skat 2"
)


def _card_ids(deal: object) -> list[int]:
    """The card ids of a deal given in any accepted form; :class:`DealError` otherwise
    (no truncated floats, no bools as ids, no dict keys, no one-shot iterators)."""
    if isinstance(deal, np.ndarray):
        if deal.ndim != 1 or deal.dtype.kind not in "iuUO":
            raise DealError(f"malformed deal: got a {deal.dtype} array of shape {deal.shape}; "
                            f"{_DEAL_FORMS}")  # fmt: skip
        deal = deal.tolist()
    if isinstance(deal, str):
        return _names_to_ids(deal)
    if not isinstance(deal, Sequence):
        raise DealError(f"malformed deal: got {type(deal).__name__}; {_DEAL_FORMS}")
    n_names = sum(isinstance(c, str) for c in deal)
    if n_names == len(deal):
        return _names_to_ids(deal)
    if n_names:
        raise DealError(
            f"malformed deal: it mixes {n_names} card names with {len(deal) - n_names} other "
            "items; give all cards as names ('CJ') or all as ids (integers 0..31)"
        )
    ids = []
    for i, c in enumerate(deal):
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
            raise DealError(f"malformed deal: card {i} is {c!r} ({type(c).__name__}); "
                            "card ids are integers 0..31")  # fmt: skip
        ids.append(int(c))
    return ids


def _names_to_ids(names: str | Sequence[str]) -> list[int]:
    try:
        return parse_cards(names)
    except ValueError as e:
        raise DealError(f"malformed deal: {e}") from None


def _deal_problem(cards: list[int]) -> str:
    """What is wrong with a list of card ids that is not a permutation of 0..31."""
    bad = [c for c in cards if not 0 <= c < NUM_CARDS]
    if bad:
        return f"malformed deal: card ids must be 0..31, got {bad}"
    if len(cards) != NUM_CARDS:
        return (
            f"malformed deal: expected 32 cards (forehand 10, middlehand 10, rearhand 10, "
            f"skat 2), got {len(cards)}"
        )
    dup = sorted({CARD_NAMES[c] for c in cards if cards.count(c) > 1})
    missing = sorted(set(CARD_NAMES) - {CARD_NAMES[c] for c in cards})
    return f"malformed deal: duplicate cards {dup}, missing {missing}"


def random_deal(rng: np.random.Generator | int | None = None) -> list[int]:
    """A uniformly shuffled deal (card ids) from a NumPy generator or seed."""
    rng = np.random.default_rng(rng)
    deal: list[int] = rng.permutation(NUM_CARDS).tolist()
    return deal


def loss_certain(
    is_null: Flags,
    ann_schwarz: Flags,
    ann_schneider: Flags,
    declarer_won_trick: Flags,
    defender_points: Flags,
) -> Flags:
    """After a trick: is the declarer's loss certain, so that the game ends at once? Null: the
    declarer took a trick; schwarz announced (or ouvert): the defenders took one; schneider
    announced: the defenders reached 31. 0/1 flags, on ints or NumPy arrays elementwise."""
    schneider_lost = ann_schneider * (defender_points >= SCHNEIDER_STOP_POINTS)
    plain = ann_schwarz * (1 - declarer_won_trick) + (1 - ann_schwarz) * schneider_lost
    return is_null * declarer_won_trick + (1 - is_null) * plain


class Game:
    """One deal of Skat, from the auction to the result."""

    __slots__ = (
        "deal", "dealer", "hands", "skat", "phase", "auction", "declarer", "hand_game",
        "contract", "discarded", "trick", "trick_leader", "to_act", "tricks_won",
        "points_won", "played", "voids", "history", "result", "_game", "bids", "plays",
        "_legal",
    )  # fmt: skip

    def __init__(self, deal: str | Sequence[str] | Sequence[int], dealer: int = 2):
        dealer = check_seat(dealer, "dealer", DealError)  # a plain int, whatever came in
        cards = parse_deal(deal)
        self.deal: tuple[int, ...] = tuple(cards)
        self.dealer = dealer
        hands = [0, 0, 0]
        for pos in range(3):
            hand = 0
            for c in cards[10 * pos : 10 * pos + 10]:
                hand |= 1 << c
            hands[(dealer + 1 + pos) % 3] = hand
        self.hands = hands
        self.skat = (1 << cards[30]) | (1 << cards[31])
        self.phase = BIDDING
        self.auction = Auction()
        self.declarer = -1
        self.hand_game = False
        self.contract: Contract | None = None
        self._game = -1  # game kind during play
        self.discarded = 0
        self.trick: list[int] = []
        self.trick_leader = -1
        self.to_act = self.seat_of(self.auction.to_act)
        self.tricks_won = [0, 0, 0]
        self.points_won = [0, 0, 0]
        self.played = [0, 0, 0]
        self.voids = [0, 0, 0]  # effective suits each seat has shown void in (bitmask)
        self.history: list[tuple[int, int]] = []  # (seat, move id)
        self.bids = [0, 0, 0]  # per seat: highest value it bid or held
        self.plays: list[tuple[int, int]] = []  # cards played, (seat, card), in order
        self.result: Result | None = None
        self._legal = -1  # legal_mask() cache; -1 = not computed since the last move

    @classmethod
    def random(cls, seed: np.random.Generator | int | None = None, dealer: int = 2) -> Game:
        """A game on a shuffled deal from a seed or a NumPy generator."""
        return cls(random_deal(seed), dealer)

    # --- seats and positions ---
    def seat_of(self, position: int) -> int:
        """Seat of a position (0 forehand, 1 middlehand, 2 rearhand)."""
        return (self.dealer + 1 + position) % 3

    def position_of(self, seat: int) -> int:
        return (seat - self.dealer - 1) % 3

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % 3

    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    @property
    def bid(self) -> int:
        return self.auction.bid

    @property
    def game_kind(self) -> int:
        """Game kind being played (0..5, see :mod:`skat_env.core.tables`), -1 before."""
        return self._game

    @property
    def declarer_skat(self) -> int:
        """Cards that count for the declarer: the discards, or the untouched skat."""
        return self.skat if self.hand_game else self.discarded

    # --- legal moves ---
    def legal_mask(self) -> int:
        """Bitmask over move ids of the legal moves of the player to act (0 when over)."""
        if self._legal < 0:  # computed once per position: step() and observers both ask
            self._legal = self._legal_mask()
        return self._legal

    def _legal_mask(self) -> int:
        phase = self.phase
        if phase == PLAY:
            trick = self.trick
            return legal_cards(self.hands[self.to_act], self._game, trick[0] if trick else -1)
        if phase == BIDDING:
            a = self.auction
            bids = a.legal_bid_indices()
            mask = 1 << PASS
            if bids:
                mask |= ((1 << len(bids)) - 1) << (FIRST_BID + bids.start)
            if a.can_hold():
                mask |= 1 << HOLD
            return mask
        if phase == SKAT:
            return (1 << PICKUP) | (1 << HAND)
        if phase == DISCARD:
            return self.hands[self.declarer]
        if phase == DECLARE:
            return legal_declarations(self.hand_game, self.auction.bid)
        return 0

    def legal_actions(self) -> list[int]:
        return bit_indices(self.legal_mask())

    def legal_moves(self) -> list[str]:
        return move_names(self.legal_mask())

    # --- applying moves ---
    def play(self, move: str | int) -> None:
        """Apply a move given by name (``"CJ"``, ``"18"``, ``"hold"``) or id.

        Raises :class:`IllegalMoveError` (state untouched) for a move outside the legal set.
        """
        if isinstance(move, str):
            try:
                move = move_id(move)
            except ValueError as e:
                raise IllegalMoveError(f"{self._who()}: {e}") from None
        self.step(move)

    def step(self, move: int) -> None:
        """Apply a move id; raises :class:`IllegalMoveError` if it is not legal (or not a
        move id) and ``TypeError`` for a non-integer; the game is then unchanged."""
        if type(move) is not int or not 0 <= move < NUM_MOVES:  # the usual case is cheap
            move = check_action(move, self._who())  # TypeError / IllegalMoveError
        legal = self._legal if self._legal >= 0 else self.legal_mask()
        if not legal >> move & 1:
            raise IllegalMoveError(self._illegal_message(move))
        self._legal = -1
        self.history.append((self.to_act, move))
        phase = self.phase
        if phase == PLAY:
            self._play_card(move)
        elif phase == BIDDING:
            self._auction_move(move)
        elif phase == SKAT:
            self.hand_game = move == HAND
            if not self.hand_game:
                self.hands[self.declarer] |= self.skat
            self.phase = DECLARE if self.hand_game else DISCARD
        elif phase == DISCARD:
            self.hands[self.declarer] &= ~(1 << move)
            self.discarded |= 1 << move
            if self.discarded.bit_count() == 2:
                self.phase = DECLARE
        else:  # DECLARE
            self.contract = declared_contract(move, self.hand_game)
            self._game = self.contract.game
            self.phase = PLAY
            self.to_act = self.trick_leader = self.forehand

    def _who(self) -> str:
        if self.phase == DONE:
            return "the game is over"
        return (
            f"player_{self.to_act} ({POSITION_NAMES[self.position_of(self.to_act)]}, "
            f"{PHASE_NAMES[self.phase]})"
        )

    def _illegal_message(self, move: int) -> str:
        if self.phase == DONE:
            return f"the game is over; no move is legal (got {MOVE_NAMES[move]!r})"
        legal = " ".join(self.legal_moves())
        return f"{self._who()} cannot play {MOVE_NAMES[move]!r}; legal: {legal}"

    def _auction_move(self, move: int) -> None:
        a = self.auction
        if move == PASS:
            a.do_pass()
        elif move == HOLD:
            self.bids[self.to_act] = a.bid
            a.do_hold()
        else:
            a.do_bid(move - FIRST_BID)
            self.bids[self.to_act] = a.bid
        if not a.over:
            self.to_act = self.seat_of(a.to_act)
        elif a.winner < 0:
            self._finish_passed_in()
        else:
            self.declarer = self.to_act = self.seat_of(a.winner)
            self.phase = SKAT

    def _play_card(self, card: int) -> None:
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.played[seat] |= bit
        self.plays.append((seat, card))
        trick = self.trick
        if trick:
            led = trick[0]
            if not bit & FOLLOW_MASK[self._game][led]:
                self.voids[seat] |= 1 << EFFECTIVE_SUIT[self._game][led]
        trick.append(card)
        if len(trick) < 3:
            self.to_act = (seat + 1) % 3
            return
        win = trick_winner(self._game, trick)
        winner = (self.trick_leader + win) % 3
        self.tricks_won[winner] += 1
        self.points_won[winner] += points_of((1 << trick[0]) | (1 << trick[1]) | bit)
        self.trick = []
        self.trick_leader = self.to_act = winner
        if self._loss_certain(winner) or sum(self.tricks_won) == 10:
            self._finish_played()

    def _loss_certain(self, winner: int) -> bool:
        """Whether the declarer's loss is certain after a trick won by ``winner``."""
        c = self.contract
        assert c is not None  # tricks are played under a contract
        d = self.declarer
        return bool(loss_certain(c.game == NULL, c.schwarz, c.schneider, winner == d,
                                 sum(self.points_won) - self.points_won[d]))  # fmt: skip

    def _finish_passed_in(self) -> None:
        self.phase = DONE
        self.to_act = -1
        self.result = Result(passed_in=True)

    def _finish_played(self) -> None:
        d = self.declarer
        c = self.contract
        assert c is not None  # a played game has a contract
        decl_points = self.points_won[d] + points_of(self.declarer_skat)
        decl_tricks = self.tricks_won[d]
        def_points = sum(self.points_won) - self.points_won[d]
        def_tricks = sum(self.tricks_won) - decl_tricks
        early = sum(self.tricks_won) < 10
        twelve = self.hands[d] | self.played[d] | self.declarer_skat
        out = score_game(c, self.auction.bid, twelve, decl_points, decl_tricks,
                         def_points, def_tricks, early)  # fmt: skip
        sf_decl, sf_def = seeger_fabian(out.score, out.won)
        sf = [sf_def, sf_def, sf_def]
        sf[d] = sf_decl
        self.phase = DONE
        self.to_act = -1
        self.result = Result(
            passed_in=False,
            declarer=d,
            contract=c.name(),
            bid=self.auction.bid,
            won=out.won,
            declarer_points=decl_points,
            declarer_tricks=decl_tricks,
            defender_points=def_points,
            matadors=out.matadors,
            game_value=out.game_value,
            overbid=out.overbid,
            schneider=c.game != NULL and (decl_points >= 90 or def_points >= 90),
            schwarz=c.game != NULL and (decl_tricks == 10 or def_tricks == 10),
            score=out.score,
            seeger_fabian=tuple(sf),
            ended_early=early,
        )

    # --- conveniences ---
    def copy(self) -> Game:
        g = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g.hands, g.trick = list(self.hands), list(self.trick)
        g.tricks_won, g.points_won = list(self.tricks_won), list(self.points_won)
        g.played, g.voids, g.history = list(self.played), list(self.voids), list(self.history)
        g.bids, g.plays = list(self.bids), list(self.plays)
        a = self.auction
        g.auction = Auction(a.bidder, a.holder, a.bid_index, a.role, a.passed, a.stage, a.winner)
        return g

    def moves_played(self) -> list[str]:
        return [MOVE_NAMES[m] for _, m in self.history]

    def hand_names(self, seat: int) -> list[str]:
        return names_of(self.hands[seat])

    def __repr__(self) -> str:
        return (
            f"Game(dealer={self.dealer}, phase={PHASE_NAMES[self.phase]!r}, "
            f"to_act={self.to_act}, moves={len(self.history)})"
        )


__all__ = [
    "BIDDING", "DECLARE", "DISCARD", "DONE", "DealError", "FULL_DECK", "Game",
    "IllegalMoveError", "PHASE_NAMES", "PLAY", "Result", "SKAT", "BID_VALUES",
    "parse_deal", "random_deal",
]  # fmt: skip
