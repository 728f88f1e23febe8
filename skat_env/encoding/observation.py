"""The observation encoder: one flat ``float32`` vector per player, with named views.

Everything is encoded from a :class:`~skat_env.encoding.view.PlayerView` (never from the game), so
an observation can hold only what :func:`~skat_env.encoding.view.player_view` lets the player see.
Seats are *relative* to the observer: 0 = self, 1 = next (plays after the observer),
2 = previous. Card sets are 32 entries in card-id order (``CA`` .. ``D7``).

Default layout (``OBS_SIZE`` = 450 entries; ``LAYOUT[name]`` is the slice of a field)::

    field          shape   contents
    hand           32      own cards
    skat           32      skat cards the observer has seen (declarer after pickup; all at the end)
    discarded      32      cards the observer discarded (declarer only)
    open_hand      32      the declarer's cards laid open in an ouvert game
    played         3x32    cards played so far by each relative seat
    trick          3x32    the current trick: the card each relative seat put in it
    seat           3       the observer's absolute seat (player_0..2), one-hot
    position       3       own position: forehand, middlehand, rearhand
    dealer         3       relative seat of the dealer
    phase          6       bidding, skat, discard, declare, play, done
    to_act         3       relative seat to act (all 0 when the game is over)
    bid            63      current bid value, one-hot over BID_VALUES (all 0: no bid yet)
    passed         3       relative seats that passed in the auction
    declarer       3       relative seat of the declarer (all 0 before)
    game           6       contract game kind: clubs, spades, hearts, diamonds, grand, null
    flags          4       contract hand, schneider announced, schwarz announced, ouvert
    hand_game      1       the declarer chose not to pick up the skat
    trick_leader   3       relative seat that led the current trick
    voids          3x5     effective suits (C S H D trump) each relative seat showed void in
    bids           3       highest value each relative seat bid or held, / 264
    points         3       card points in each relative seat's tricks, / 120
    tricks         3       tricks each relative seat took, / 10
    side_points    2       card points of the observer's side, of the other side, / 120
    side_tricks    2       tricks of the observer's side, of the other side, / 10
    trick_number   1       completed tricks / 10

History layout (``HISTORY_OBS_SIZE`` = 1500): the default layout, then ``history``
(30 x 35): the i-th card played as a relative seat one-hot (3) and the card one-hot (32);
unused slots are 0. All entries lie in [0, 1].

The action mask is a separate ``int8[121]`` (:func:`action_mask`), as PettingZoo expects.
:func:`decode` inverts :func:`encode` exactly for everything the layout holds.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from ..core.cards import NUM_CARDS
from ..core.game import Game
from ..core.moves import NUM_MOVES
from ..core.scoring import Contract
from ..core.tables import BID_VALUES
from .view import PlayerView, _three, player_view

MAX_BID = BID_VALUES[-1]  # 264
MAX_PLAYS = 30
_SLOT = 3 + NUM_CARDS  # one history slot: seat one-hot + card one-hot

# (name, shape, binary). Binary fields come first: they are written as one bit string.
FIELDS: tuple[tuple[str, tuple[int, ...], bool], ...] = (
    ("hand", (32,), True),
    ("skat", (32,), True),
    ("discarded", (32,), True),
    ("open_hand", (32,), True),
    ("played", (3, 32), True),
    ("trick", (3, 32), True),
    ("seat", (3,), True),
    ("position", (3,), True),
    ("dealer", (3,), True),
    ("phase", (6,), True),
    ("to_act", (3,), True),
    ("bid", (len(BID_VALUES),), True),
    ("passed", (3,), True),
    ("declarer", (3,), True),
    ("game", (6,), True),
    ("flags", (4,), True),
    ("hand_game", (1,), True),
    ("trick_leader", (3,), True),
    ("voids", (3, 5), True),
    ("bids", (3,), False),
    ("points", (3,), False),
    ("tricks", (3,), False),
    ("side_points", (2,), False),
    ("side_tricks", (2,), False),
    ("trick_number", (1,), False),
)
HISTORY_FIELD = ("history", (MAX_PLAYS, _SLOT), True)


def _layout(fields: Sequence[tuple[str, tuple[int, ...], bool]]) -> dict[str, slice[int, int, int]]:
    out, start = {}, 0
    for name, shape, _ in fields:
        size = int(np.prod(shape))
        out[name] = slice(start, start + size)
        start += size
    return out


LAYOUT: dict[str, slice[int, int, int]] = _layout(FIELDS)
HISTORY_LAYOUT: dict[str, slice[int, int, int]] = _layout((*FIELDS, HISTORY_FIELD))
SHAPES: dict[str, tuple[int, ...]] = {n: s for n, s, _ in (*FIELDS, HISTORY_FIELD)}
OBS_SIZE: int = LAYOUT["trick_number"].stop  # 450
HISTORY_OBS_SIZE: int = HISTORY_LAYOUT["history"].stop  # 1500
NUM_BITS: int = LAYOUT["voids"].stop  # binary part of the default layout (436)
_CARD_BITS = LAYOUT["seat"].start  # the ten card sets (320 bits) come first
_HIST_START = HISTORY_LAYOUT["history"].start

# Bit offsets of the small one-hot fields, relative to the end of the card sets.
_O = {name: LAYOUT[name].start - _CARD_BITS for name, _, binary in FIELDS if binary}
(_O_SEAT, _O_POSITION, _O_DEALER, _O_PHASE, _O_TO_ACT, _O_BID, _O_PASSED, _O_DECLARER,
 _O_GAME, _O_FLAGS, _O_HAND_GAME, _O_TRICK_LEADER, _O_VOIDS) = (
    _O[n] for n in ("seat", "position", "dealer", "phase", "to_act", "bid", "passed",
                    "declarer", "game", "flags", "hand_game", "trick_leader", "voids")
)  # fmt: skip
_SMALL_BYTES = (NUM_BITS - _CARD_BITS + 7) // 8
_PACK10 = struct.Struct("<10I")
_BID_INDEX = {v: i for i, v in enumerate(BID_VALUES)}
_REL = ((0, 1, 2), (2, 0, 1), (1, 2, 0))  # _REL[me][seat] = (seat - me) % 3


_STATIC = tuple(  # _STATIC[me][dealer]: seat, position and dealer bits
    tuple(
        1 << (_O_SEAT + me)
        | 1 << (_O_POSITION + (me - dealer - 1) % 3)
        | 1 << (_O_DEALER + _REL[me][dealer])
        for dealer in range(3)
    )
    for me in range(3)
)
# Bits of a relative-seat one-hot at offset o for absolute seat s; index -1 (no seat) -> 0.
_SEAT_BITS = {
    o: tuple((*(1 << (o + _REL[me][s]) for s in range(3)), 0) for me in range(3))
    for o in (_O_TO_ACT, _O_DECLARER, _O_TRICK_LEADER)
}
_TO_ACT_BITS, _DECLARER_BITS, _LEADER_BITS = (
    _SEAT_BITS[o] for o in (_O_TO_ACT, _O_DECLARER, _O_TRICK_LEADER)
)
_PASSED_BITS = tuple(  # _PASSED_BITS[me][mask over seats]
    tuple(sum(1 << (_O_PASSED + _REL[me][s]) for s in range(3) if m >> s & 1) for m in range(8))
    for me in range(3)
)
_BID_BITS = {0: 0, **{v: 1 << (_O_BID + i) for i, v in enumerate(BID_VALUES)}}


def _contract_bits(c: Contract | None) -> int:
    if c is None:
        return 0
    flags = c.hand | c.schneider << 1 | c.schwarz << 2 | c.ouvert << 3
    return 1 << (_O_GAME + c.game) | flags << _O_FLAGS


def encode(view: PlayerView, history: bool = False) -> np.ndarray:
    """The observation vector of a player view (``float32``, default or history layout)."""
    me = view.seat
    rel = _REL[me]
    n1, n2 = (me + 1) % 3, (me + 2) % 3
    played = view.played
    t = [0, 0, 0]
    for s, c in view.trick:
        t[rel[s]] |= 1 << c
    cards = _PACK10.pack(
        view.hand, view.skat, view.discarded, view.open_hand, played[me], played[n1],
        played[n2], *t,
    )  # fmt: skip
    v = view.voids
    small = (
        _STATIC[me][view.dealer]
        | 1 << (_O_PHASE + view.phase)
        | _TO_ACT_BITS[me][view.to_act]
        | _BID_BITS[view.bid]
        | _PASSED_BITS[me][view.passed]
        | _DECLARER_BITS[me][view.declarer]
        | _contract_bits(view.contract)
        | view.hand_game << _O_HAND_GAME
        | _LEADER_BITS[me][view.trick_leader]
        | (v[me] | v[n1] << 5 | v[n2] << 10) << _O_VOIDS
    )
    out = np.empty(HISTORY_OBS_SIZE if history else OBS_SIZE, np.float32)
    raw = np.frombuffer(cards + small.to_bytes(_SMALL_BYTES, "little"), np.uint8)
    out[:NUM_BITS] = np.unpackbits(raw, count=NUM_BITS, bitorder="little")
    out[NUM_BITS:OBS_SIZE] = scalar_rows(view.bids, view.points, view.tricks, view.declarer)[me]
    if history:
        out[_HIST_START:] = _history_bits(view.play_sequence, rel)
    return out


def bid_scalars(b: Sequence[int]) -> tuple[float, float, float]:
    """The ``bids`` entries of seats 0, 1, 2 (absolute order): highest bid or hold / 264."""
    return b[0] / MAX_BID, b[1] / MAX_BID, b[2] / MAX_BID


def scalar_rows(
    b: Sequence[int], p: Sequence[int], t: Sequence[int], decl: int
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """The scalar fields (``bids`` .. ``trick_number``) of observer seats 0, 1 and 2, from
    the per-seat bids, card points and tricks and the declarer (-1 before the auction ends).
    Per-seat values come in relative order (self, next, previous)."""
    b0, b1, b2 = bid_scalars(b)
    p0, p1, p2 = p[0] / 120, p[1] / 120, p[2] / 120
    t0, t1, t2 = t[0] / 10, t[1] / 10, t[2] / 10
    n = t[0] + t[1] + t[2]
    if decl < 0:
        side = [(0.0, 0.0, 0.0, 0.0, n / 10)] * 3
    else:  # own side first: own points, other points, own tricks, other tricks
        dp, dt = p[decl], t[decl]
        fp, ft = p[0] + p[1] + p[2] - dp, n - dt
        side = [(fp / 120, dp / 120, ft / 10, dt / 10, n / 10)] * 3
        side[decl] = (dp / 120, fp / 120, dt / 10, ft / 10, n / 10)
    return (
        (b0, b1, b2, p0, p1, p2, t0, t1, t2, *side[0]),
        (b1, b2, b0, p1, p2, p0, t1, t2, t0, *side[1]),
        (b2, b0, b1, p2, p0, p1, t2, t0, t1, *side[2]),
    )


_HISTORY_ZEROS = bytes(MAX_PLAYS * _SLOT)


def _history_bits(sequence: tuple[tuple[int, int], ...], rel: tuple[int, ...]) -> np.ndarray:
    buf = bytearray(_HISTORY_ZEROS)
    base = 0
    for s, c in sequence:
        buf[base + rel[s]] = 1
        buf[base + 3 + c] = 1
        base += _SLOT
    return np.frombuffer(buf, np.uint8)


_BYTE_BITS = tuple(bytes(b >> i & 1 for i in range(8)) for b in range(256))  # byte -> 8 flags
_NO_MOVES = bytes(NUM_MOVES - NUM_CARDS)


def action_mask(legal: int) -> np.ndarray:
    """``int8[121]`` mask (1 = legal) of a bitmask over move ids (a fresh, writable array)."""
    t = _BYTE_BITS
    if not legal:
        return np.zeros(NUM_MOVES, np.int8)
    if legal >> NUM_CARDS:  # bids, skat and declaration moves
        raw = b"".join([t[legal >> i & 255] for i in range(0, NUM_MOVES, 8)])[:NUM_MOVES]
    else:  # cards, the usual case
        raw = t[legal & 255] + t[legal >> 8 & 255] + t[legal >> 16 & 255] + t[legal >> 24]
        raw += _NO_MOVES
    return np.frombuffer(bytearray(raw), np.int8)


def mask_to_int(mask: np.ndarray) -> int:
    """Bitmask over move ids of an action-mask array (inverse of :func:`action_mask`)."""
    packed = np.packbits(np.asarray(mask, np.uint8)[:NUM_MOVES] != 0, bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


def observe(game: Game, seat: int, history: bool = False) -> dict[str, np.ndarray]:
    """PettingZoo observation of ``seat``: the encoded view and the action mask (the
    engine's legal set if ``seat`` is to act, all zeros otherwise)."""
    return observation_of(player_view(game, seat), history)


def observation_of(view: PlayerView, history: bool = False) -> dict[str, np.ndarray]:
    """The observation dict of a player view (what :func:`observe` gives for its game)."""
    return {"observation": encode(view, history), "action_mask": action_mask(view.legal_mask)}


# Global state for centralised critics: every hand and the skat, then player_0's observation.
STATE_LAYOUT: dict[str, slice[int, int, int]] = {
    "hands": slice(0, 96),  # 3 x 32, absolute seats
    "skat": slice(96, 128),  # the two skat cards as dealt
    "discarded": slice(128, 160),  # the declarer's discards
    "public": slice(160, 160 + OBS_SIZE),  # observation of player_0 (default layout)
}
STATE_SIZE: int = 160 + OBS_SIZE


def encode_state(game: Game) -> np.ndarray:
    """The full global state (``float32[STATE_SIZE]``), hidden cards included."""
    h = game.hands
    cards = struct.pack("<5I", h[0], h[1], h[2], game.skat, game.discarded)
    out = np.empty(STATE_SIZE, np.float32)
    out[:160] = np.unpackbits(np.frombuffer(cards, np.uint8), bitorder="little")
    out[160:] = encode(player_view(game, 0))
    return out


def fields(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Named fields of an observation (or a batch ``(..., size)``), shaped as in the layout
    table; views of a single observation, not copies."""
    layout = HISTORY_LAYOUT if obs.shape[-1] == HISTORY_OBS_SIZE else LAYOUT
    lead = obs.shape[:-1]
    return {n: obs[..., s].reshape(*lead, *SHAPES[n]) for n, s in layout.items()}


def decode(obs: np.ndarray, action_mask: np.ndarray | None = None) -> PlayerView:
    """The player view an observation was encoded from.

    Exact for every field the layout holds; ``play_sequence`` is restored only from a
    history-mode observation (else ``()``), ``legal_mask`` from ``action_mask`` (else 0).
    """
    obs = np.asarray(obs)
    if obs.ndim != 1 or obs.shape[0] not in (OBS_SIZE, HISTORY_OBS_SIZE):
        raise ValueError(
            f"expected an observation of shape ({OBS_SIZE},) or ({HISTORY_OBS_SIZE},), "
            f"got {obs.shape}"
        )
    raw = np.packbits(obs[:NUM_BITS] > 0.5, bitorder="little").tobytes()
    hand, skat, disc, open_hand, p0, p1, p2, t0, t1, t2 = _PACK10.unpack(raw[:40])
    small = int.from_bytes(raw[40:], "little")

    def onehot(name: str) -> int:
        bits = small >> _O[name] & ((1 << SHAPES[name][0]) - 1)
        return bits.bit_length() - 1  # -1 when empty

    me = onehot("seat")
    absolute = (me, (me + 1) % 3, (me + 2) % 3)  # absolute[rel] = seat

    def seat_or_none(name: str) -> int:
        r = onehot(name)
        return absolute[r] if r >= 0 else -1

    rel_pl = (p0, p1, p2)
    played = tuple(rel_pl[(s - me) % 3] for s in range(3))
    trick_rel = (t0, t1, t2)
    leader = seat_or_none("trick_leader")
    trick = []
    for i in range(3 if leader >= 0 else 0):
        s = (leader + i) % 3
        card = trick_rel[(s - me) % 3]
        if card:
            trick.append((s, card.bit_length() - 1))
    game = onehot("game")
    flags = small >> _O["flags"] & 15
    contract = None
    if game >= 0:
        contract = Contract(
            game, bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8)
        )
    passed_rel = small >> _O["passed"] & 7
    voids_rel = small >> _O["voids"]
    sc = obs[NUM_BITS:OBS_SIZE].astype(np.float64)
    bid_i = onehot("bid")

    def per_seat(values: np.ndarray, scale: int) -> tuple[int, int, int]:
        r = [round(float(x) * scale) for x in values]
        return r[(0 - me) % 3], r[(1 - me) % 3], r[(2 - me) % 3]

    return PlayerView(
        seat=me,
        position=onehot("position"),
        dealer=seat_or_none("dealer"),
        phase=onehot("phase"),
        to_act=seat_or_none("to_act"),
        hand=hand,
        bid=BID_VALUES[bid_i] if bid_i >= 0 else 0,
        bids=per_seat(sc[0:3], MAX_BID),
        passed=sum(1 << absolute[r] for r in range(3) if passed_rel >> r & 1),
        declarer=seat_or_none("declarer"),
        contract=contract,
        hand_game=bool(small >> _O["hand_game"] & 1),
        skat=skat,
        discarded=disc,
        open_hand=open_hand,
        played=played,
        trick=tuple(trick),
        trick_leader=leader,
        voids=_three(voids_rel >> (5 * ((s - me) % 3)) & 31 for s in range(3)),
        points=per_seat(sc[3:6], 120),
        tricks=per_seat(sc[6:9], 10),
        play_sequence=_decode_history(obs, absolute) if obs.shape[0] == HISTORY_OBS_SIZE else (),
        legal_mask=mask_to_int(action_mask) if action_mask is not None else 0,
    )


def _decode_history(obs: np.ndarray, absolute: tuple[int, int, int]) -> tuple[tuple[int, int], ...]:
    slots = obs[_HIST_START:].reshape(MAX_PLAYS, _SLOT) > 0.5
    out = []
    for row in slots:
        if not row[:3].any():
            break
        out.append((absolute[int(row[:3].argmax())], int(row[3:].argmax())))
    return tuple(out)


__all__ = [
    "FIELDS",
    "HISTORY_LAYOUT",
    "HISTORY_OBS_SIZE",
    "LAYOUT",
    "MAX_PLAYS",
    "NUM_BITS",
    "OBS_SIZE",
    "SHAPES",
    "STATE_LAYOUT",
    "STATE_SIZE",
    "action_mask",
    "decode",
    "encode",
    "encode_state",
    "fields",
    "mask_to_int",
    "observation_of",
    "observe",
]
