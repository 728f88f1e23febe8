"""Exact double-dummy solver: the card-play outcome when every player sees every card.

Suit and grand: :func:`solve` gives the declarer's final card points under perfect play
(declarer maximises, defenders minimise), the points already taken and the skat included.
Null: 1 if the declarer can avoid taking any trick, else 0.

The search plays every trick out. Early endings of the rules (null: the declarer takes a trick;
schwarz announced: the defenders take a trick; schneider announced: the defenders reach 31)
stop a game whose outcome is already settled, so they change no answer to :func:`reaches`,
:func:`reaches_tricks` or the null queries; :func:`solve` gives the points of the played-out
game, which can exceed what an early-ended game records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from ..core.cards import CARD_NAMES, CARD_POINTS, FULL_DECK, NUM_CARDS, names_of
from ..core.tables import EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, NULL, STRENGTH, TRUMP
from . import _kernel as K

NUM_GAMES = 6
DEFAULT_TT_BITS = 20


def _layouts() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game: card -> layout id, layout id -> card, effective suit, suit masks, points
    (all in layout ids), sorted by (trump, effective suit, strength) from the core tables."""
    to_layout = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    to_card = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    eff = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    smask = np.zeros((NUM_GAMES, 5), dtype=np.int64)
    pts = np.zeros((NUM_GAMES, NUM_CARDS + 4 * 256), dtype=np.int64)  # cards, then bytes
    for g in range(NUM_GAMES):
        es, st = EFFECTIVE_SUIT[g], STRENGTH[g]
        order = sorted(range(NUM_CARDS), key=lambda c: (es[c] == TRUMP, es[c], st[c]))
        for k, card in enumerate(order):
            to_layout[g, card] = k
            to_card[g, k] = card
            eff[g, k] = es[card]
            pts[g, k] = CARD_POINTS[card]
            smask[g, es[card]] |= 1 << k
        for i in range(4):  # points of every byte of a layout card set
            for byte in range(256):
                cards = [8 * i + b for b in range(8) if byte >> b & 1]
                pts[g, NUM_CARDS + 256 * i + byte] = sum(pts[g, k] for k in cards)
        for s in range(5):  # each effective suit must be one contiguous run of bits
            m = int(smask[g, s])
            run = m // (m & -m) if m else 0
            assert run & (run + 1) == 0 and m.bit_count() == EFFECTIVE_SUIT_MASK[g][s].bit_count()
    return to_layout, to_card, eff, smask, pts


TO_LAYOUT, TO_CARD, EFF, SMASK, PTS = _layouts()


def _blocks(game: int, points: bool) -> np.ndarray:
    """Runs of interchangeable cards in the layout, as rows (mask, highest bit): cards of one
    effective suit that are adjacent in strength and, when points count, worth the same."""
    rows = []
    start = 0
    for k in range(1, NUM_CARDS + 1):
        same = (
            k < NUM_CARDS
            and EFF[game, k] == EFF[game, start]
            and (not points or PTS[game, k] == PTS[game, start])
        )
        if not same:
            if k - start >= 2:
                rows.append((((1 << k) - 1) & ~((1 << start) - 1), k - 1))
            start = k
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


BLOCKS = tuple((_blocks(g, True), _blocks(g, False)) for g in range(NUM_GAMES))


def _to_layout(game: int, mask: int) -> int:
    perm = TO_LAYOUT[game]
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << int(perm[low.bit_length() - 1])
        mask ^= low
    return out


class PositionError(ValueError):
    """A position the solver cannot search (bad game kind, seats, card sets or counts)."""


@dataclass(frozen=True)
class Position:
    """A card-play position with all hands visible.

    ``hands`` are card sets (bit ``i`` = card id ``i`` of :mod:`skat_env.core.cards`) still
    held; ``trick`` the cards already played to the current trick, in play order, starting
    with ``leader``'s. Points and tricks are what each side has taken so far (the declarer's
    points include the skat in suit and grand games).
    """

    game: int
    declarer: int
    hands: tuple[int, int, int]
    leader: int
    trick: tuple[int, ...] = ()
    declarer_points: int = 0
    defender_points: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return (sum(int(h).bit_count() for h in self.hands) + len(self.trick)) // 3

    @classmethod
    def from_game(cls, game) -> Position:
        """The position of a :class:`skat_env.core.game.Game` in its play phase."""
        from ..core.game import PLAY
        from ..core.tables import points_of

        if game.phase != PLAY:
            raise PositionError(f"from_game needs a game in its play phase, got {game!r}")
        d = game.declarer
        taken = sum(game.points_won)
        won = sum(game.tricks_won)
        return cls(
            game=game.game_kind,
            declarer=d,
            hands=(game.hands[0], game.hands[1], game.hands[2]),
            leader=game.trick_leader,
            trick=tuple(game.trick),
            declarer_points=game.points_won[d] + points_of(game.declarer_skat),
            defender_points=taken - game.points_won[d],
            declarer_tricks=game.tricks_won[d],
            defender_tricks=won - game.tricks_won[d],
        )

    def validate(self) -> Position:
        """Raise :class:`PositionError` naming the first problem found; return ``self``."""
        problem = _problem(self)
        if problem:
            raise PositionError(f"invalid position: {problem}")
        return self

    def __str__(self) -> str:
        hands = " | ".join(" ".join(names_of(h)) for h in self.hands)
        trick = " ".join(CARD_NAMES[c] for c in self.trick)
        return (
            f"Position(game={self.game}, declarer={self.declarer}, leader={self.leader}, "
            f"hands=[{hands}], trick=[{trick}], points={self.declarer_points}/"
            f"{self.defender_points}, tricks={self.declarer_tricks}/{self.defender_tricks})"
        )


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _problem(p: Position) -> str:
    """What is wrong with a position, or '' if nothing."""
    if not _is_int(p.game) or not 0 <= p.game < NUM_GAMES:
        kinds = "0..5 (clubs spades hearts diamonds grand null)"
        return f"game must be a game kind {kinds}, got {p.game!r}"
    for name in ("declarer", "leader"):
        v = getattr(p, name)
        if not _is_int(v) or not 0 <= v <= 2:
            return f"{name} must be a seat 0, 1 or 2, got {v!r}"
    if not isinstance(p.hands, tuple) or len(p.hands) != 3:
        return f"hands must be a tuple of 3 card sets, got {p.hands!r}"
    for seat, h in enumerate(p.hands):
        if not _is_int(h) or not 0 <= h <= FULL_DECK:
            return f"hands[{seat}] must be a 32-bit card set, got {h!r}"
    if not isinstance(p.trick, tuple) or len(p.trick) > 2:
        return f"trick must be a tuple of 0..2 cards played to the current trick, got {p.trick!r}"
    seen = 0
    for seat, h in enumerate(p.hands):
        if seen & h:
            return f"hands overlap: {' '.join(names_of(seen & h))} held twice (seat {seat})"
        seen |= h
    for c in p.trick:
        if not _is_int(c) or not 0 <= c < NUM_CARDS:
            return f"trick cards must be card ids 0..31, got {c!r}"
        if seen >> c & 1:
            return f"trick card {names_of(1 << c)[0]} is also held or played twice"
        seen |= 1 << c
    sizes = [int(h).bit_count() for h in p.hands]
    n = max(sizes)
    want = [n - 1 if (s - p.leader) % 3 < len(p.trick) else n for s in range(3)]
    if len(p.trick) == 0 and n == 0:
        return "no cards left to play"
    if sizes != want:
        return (
            f"hand sizes {sizes} do not fit leader {p.leader} with {len(p.trick)} card(s) in "
            f"the trick (expected {want})"
        )
    for name in ("declarer_points", "defender_points", "declarer_tricks", "defender_tricks"):
        v = getattr(p, name)
        if not _is_int(v) or v < 0:
            return f"{name} must be a non-negative int, got {v!r}"
    if p.declarer_tricks + p.defender_tricks + p.tricks_left > 10:
        return (
            f"{p.declarer_tricks} + {p.defender_tricks} tricks taken plus {p.tricks_left} "
            "left exceed 10"
        )
    if p.declarer_points + p.defender_points > 120:
        return f"card points taken ({p.declarer_points} + {p.defender_points}) exceed 120"
    if p.trick:
        first = p.trick[0]
        follow = EFFECTIVE_SUIT_MASK[p.game][EFFECTIVE_SUIT[p.game][first]]
        for i, c in enumerate(p.trick[1:], 1):
            seat = (p.leader + i) % 3
            if not (1 << c) & follow and p.hands[seat] & follow:
                return f"seat {seat} played {names_of(1 << c)[0]} but holds the led suit"
    return ""


class Solver:
    """A reusable solver: a preallocated transposition table, kept between calls.

    Table entries stay valid while each remaining card keeps its owner (successive positions
    of one deal); a position with other hands starts a new table generation (no clearing).
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        if not _is_int(tt_bits) or not 10 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be an int in 10..28, got {tt_bits!r}")
        size = 1 << tt_bits
        self._tt = np.zeros((size, 3), dtype=np.int64)  # (key, key, packed bounds); 0: empty
        self._tt.fill(0)  # touch the pages now, not during the first searches
        self._ws = np.zeros((K.MAX_DEPTH, 2 * K.MAX_MOVES), dtype=np.int64)
        self._fr = np.zeros((K.MAX_DEPTH, K.NUM_FIELDS), dtype=np.int64)
        self._ctr = np.zeros(4, dtype=np.int64)
        self._out = np.zeros(NUM_CARDS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Search nodes visited since the solver was made (or :meth:`reset_nodes`)."""
        return int(self._ctr[0])

    def reset_nodes(self) -> None:
        self._ctr[0] = 0

    def clear(self) -> None:
        """Empty the transposition table. Its entries never go stale: this is for timing,
        and for node-limited searches whose answers must not depend on earlier calls."""
        self._tt.fill(0)

    # --- internals ---
    def _prepare(self, pos: Position, check: bool) -> tuple:
        if check:
            pos.validate()
        g = pos.game
        h = tuple(_to_layout(g, int(x)) for x in pos.hands)
        perm = TO_LAYOUT[g]
        t = [int(perm[c]) for c in pos.trick] + [-1, -1]
        return g, h, t

    def _args(self, g: int, mode: int) -> tuple:
        blocks = BLOCKS[g][0 if mode == K.MODE_POINTS else 1]
        return (EFF[g], SMASK[g], PTS[g], self._tt,
                blocks, self._ws, self._fr, self._ctr, 0, mode, g)  # fmt: skip

    def _units_left(self, pos: Position, mode: int) -> int:
        if mode == K.MODE_POINTS:
            live = pos.hands[0] | pos.hands[1] | pos.hands[2]
            return sum(CARD_POINTS[c] for c in range(NUM_CARDS) if live >> c & 1) + sum(
                CARD_POINTS[c] for c in pos.trick
            )
        return pos.tricks_left

    def _reach(
        self, pos: Position, mode: int, need: int, check: bool, max_nodes: int | None = None
    ) -> bool | None:
        g, h, t = self._prepare(pos, check)
        a = self._args(g, mode)
        a = a[:8] + (pos.declarer,) + a[9:]
        rem = self._units_left(pos, mode)
        self._ctr[1] = self._ctr[0] + max_nodes if max_nodes else 0
        r = K._search(
            *a, h[0], h[1], h[2], pos.leader, len(pos.trick), t[0], t[1], rem, need - 1, need
        )
        self._ctr[1] = 0
        return None if r < 0 else r >= need

    @staticmethod
    def _check_limit(max_nodes) -> None:
        if max_nodes is not None and (not _is_int(max_nodes) or max_nodes < 1):
            raise ValueError(f"max_nodes must be None or an int >= 1, got {max_nodes!r}")

    # --- queries ---
    def solve(self, pos: Position, check: bool = True, guess: int | None = None) -> int:
        """Declarer's final card points (suit, grand) or 1/0 null made (see module doc).

        ``guess``: the expected answer (final card points), e.g. the value of a similar
        position; the search probes there first. Any guess gives the same answer; a close
        one gives it sooner."""
        if check:
            pos.validate()
            if guess is not None and not _is_int(guess):
                raise ValueError(f"guess must be None or an int of card points, got {guess!r}")
        if pos.game == NULL:
            return 1 if self.null_safe(pos, check=False) else 0
        g, h, t = self._prepare(pos, False)
        a = self._args(g, K.MODE_POINTS)
        a = a[:8] + (pos.declarer,) + a[9:]
        rem = self._units_left(pos, K.MODE_POINTS)
        first = -1 if guess is None else min(max(int(guess) - pos.declarer_points, 0), rem)
        v = K._value(*a, h[0], h[1], h[2], pos.leader, len(pos.trick), t[0], t[1], rem, first)
        return pos.declarer_points + int(v)

    def reaches(
        self, pos: Position, target: int, check: bool = True, max_nodes: int | None = None
    ) -> bool | None:
        """Suit, grand: can the declarer finish with at least ``target`` card points?
        Null: ``target`` is ignored; whether the declarer can avoid taking any trick.
        ``max_nodes``: None when the search runs past about that many nodes (as in
        :meth:`best_moves`)."""
        if check:
            pos.validate()
        self._check_limit(max_nodes)
        if pos.game == NULL:
            return self.null_safe(pos, check=False, max_nodes=max_nodes)
        if not _is_int(target):
            raise ValueError(f"target must be an int number of card points, got {target!r}")
        need = int(target) - pos.declarer_points
        return self._reach(pos, K.MODE_POINTS, need, False, max_nodes)

    def reaches_tricks(self, pos: Position, tricks: int, check: bool = True) -> bool:
        """Suit, grand: can the declarer finish with at least ``tricks`` tricks? ``10`` asks
        for schwarz; ``not reaches_tricks(pos, 1)`` means the declarer is played schwarz."""
        if check:
            pos.validate()
        if pos.game == NULL:
            raise PositionError("reaches_tricks is for suit and grand games; use null_safe")
        if not _is_int(tricks):
            raise ValueError(f"tricks must be an int number of tricks, got {tricks!r}")
        # no node limit: the search always finishes (a bool, never None)
        return cast(
            bool, self._reach(pos, K.MODE_TRICKS_MAX, int(tricks) - pos.declarer_tricks, False)
        )

    def null_safe(
        self, pos: Position, check: bool = True, max_nodes: int | None = None
    ) -> bool | None:
        """Null: can the declarer avoid taking any trick (from here on, and none taken yet)?
        ``max_nodes`` as in :meth:`reaches`."""
        if check:
            pos.validate()
        self._check_limit(max_nodes)
        if pos.game != NULL:
            raise PositionError(f"null_safe is for null games (game 5), got game {pos.game}")
        if pos.declarer_tricks > 0:
            return False
        r = self._reach(pos, K.MODE_TRICKS_MIN, 1, False, max_nodes)
        return None if r is None else not r

    def best_moves(
        self,
        pos: Position,
        target: int | None = None,
        check: bool = True,
        guess: int | None = None,
        max_nodes: int | None = None,
    ) -> dict:
        """Value after each legal card of the player to move: ``{card id: value}``.

        Suit, grand: the declarer's final card points, or with ``target`` 1/0 whether the
        declarer still reaches ``target`` points. Null: 1/0 whether the declarer stays
        trickless (``target`` ignored). ``guess``: the expected final points of the first
        card (exact values only; each later card starts from the one before), as in
        :meth:`solve`. ``max_nodes``: each card's search stops after about that many nodes
        and its value is ``None`` (not settled; which cards settle depends on what the table
        holds, so clear it first where the answer must not depend on earlier calls).
        """
        if check:
            pos.validate()
        self._check_limit(max_nodes)
        if target is not None and not _is_int(target):
            raise ValueError(f"target must be None or an int number of card points, got {target!r}")
        if guess is not None and not _is_int(guess):
            raise ValueError(f"guess must be None or an int of card points, got {guess!r}")
        null = pos.game == NULL
        mode = K.MODE_TRICKS_MIN if null else K.MODE_POINTS
        g, h, t = self._prepare(pos, False)
        a = self._args(g, mode)
        a = a[:8] + (pos.declarer,) + a[9:]
        rem = self._units_left(pos, mode)
        if null:
            need = 1
        else:
            need = -1 if target is None else max(0, int(target) - pos.declarer_points)
        first = -1 if guess is None else min(max(int(guess) - pos.declarer_points, 0), rem)
        out = self._out
        K._root_moves(
            *a, h[0], h[1], h[2], pos.leader, len(pos.trick), t[0], t[1], rem, need, first,
            int(max_nodes or 0), out,
        )  # fmt: skip
        cards = TO_CARD[g]
        res: dict[int, int | None] = {}
        for k in np.flatnonzero(out != -1):
            v = int(out[k])
            if v == -2:
                res[int(cards[k])] = None
                continue
            if null:
                v = 1 - v if pos.declarer_tricks == 0 else 0
            elif target is None:
                v += pos.declarer_points
            res[int(cards[k])] = v
        return res


_DEFAULT: Solver | None = None


def default_solver() -> Solver:
    """The module-level solver behind :func:`solve`, :func:`reaches` and :func:`best_moves`."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT


def solve(pos: Position) -> int:
    """See :meth:`Solver.solve`."""
    return default_solver().solve(pos)


def reaches(pos: Position, target: int) -> bool:
    """See :meth:`Solver.reaches`."""
    return cast(bool, default_solver().reaches(pos, target))  # no node limit: never None


def reaches_tricks(pos: Position, tricks: int) -> bool:
    """See :meth:`Solver.reaches_tricks`."""
    return default_solver().reaches_tricks(pos, tricks)


def reaches_all_tricks(pos: Position) -> bool:
    """Suit, grand: can the declarer take every trick (schwarz)?"""
    if pos.validate().game == NULL:
        raise PositionError("reaches_all_tricks is for suit and grand games; use null_safe")
    if pos.defender_tricks > 0:
        return False
    return default_solver().reaches_tricks(pos, pos.declarer_tricks + pos.tricks_left)


def null_safe(pos: Position) -> bool:
    """See :meth:`Solver.null_safe`."""
    return cast(bool, default_solver().null_safe(pos))  # no node limit: never None


def best_moves(pos: Position, target: int | None = None) -> dict[int, int]:
    """See :meth:`Solver.best_moves`."""
    return default_solver().best_moves(pos, target)
