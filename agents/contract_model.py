"""The learned contract model: hand features, a small MLP in NumPy, expected scores.

A *variant* is what the declarer commits to before the first card: the game kind (``0..3``
suits, ``4`` grand, ``5`` null, ``6`` null ouvert) and hand or pickup. For a variant, the
declarer's position and the ten cards he plays with (after a pickup also the two he
buried), the model predicts four probabilities of how the game ends when played out (see
:mod:`skat_env.training.contract_data` for the card play the data comes from):

``win``        the declarer wins (61+ points; null: no trick)
``schneider``  the declarer takes 90+ points
``schwarz``    the declarer takes every trick
``schneidered`` the declarer takes 30 points or fewer

From those, :func:`expected_utility` computes the expected Seeger-Fabian score at any bid
and with any announcement by the scoring rules themselves (:func:`outcome_kernel`), so the
bid, the overbid rule and the announcements never need their own data.

Features are canonical per game kind, so one network generalises across suits: the 32
card slots list the trumps (jacks, then the trump suit A T K Q 9 8 7), then the side suits
longest first (null: the four suits in null order), for the kept cards and (pickup) the
buried ones, plus counts, points, the position and the variant's family, and last what the
auction showed of the other two hands: the highest value each opponent bid or held (a player
who bid 30 holds cards the declarer will meet). Models saved before that input (81 columns)
still load and ignore it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from skat_env.core.scoring import SF_DEFENDER_BONUS, outcome_kernel, seeger_fabian
from skat_env.core.tables import BASE_VALUES, BYTE_POINTS, NULL_VALUES, TRUMP_ORDER

SUIT_KINDS = (0, 1, 2, 3)
GRAND_KIND, NULL_KIND, NULL_OUVERT_KIND = 4, 5, 6
KINDS = 7  # variants' game kinds: suits, grand, null, null ouvert
HEADS = ("win", "schneider", "schwarz", "schneidered")

_JACKS = np.array([3, 11, 19, 27])
_SUIT7 = np.array([[s * 8 + r for r in (0, 4, 1, 2, 5, 6, 7)] for s in range(4)])  # A T K Q 9 8 7
_SUIT8 = np.array([[s * 8 + r for r in range(8)] for s in range(4)])  # A K Q J T 9 8 7
_SIDE_MASK = np.array([sum(1 << c for c in _SUIT7[s]) for s in range(4)], dtype=np.int64)
_FULL_MASK = np.array([sum(1 << c for c in _SUIT8[s]) for s in range(4)], dtype=np.int64)
_JACK_MASK = np.int64(sum(1 << int(c) for c in _JACKS))
# honour weights for ordering equally long suits (A, T, K first)
_HONOUR = np.zeros(32, dtype=np.int64)
for _s in range(4):
    for _w, _c in zip((64, 32, 16, 8, 4, 2, 1), _SUIT7[_s], strict=True):
        _HONOUR[_c] = _w
_EYE3 = np.eye(3, dtype=np.float32)
HAND_FEATURES = 32 + 32 + 4 + 1 + 3 + 1 + 1 + 1 + 4 + 2  # the cards, variant and position
# the opponents' highest bids, higher first (value / 30; 0: no bid), and 1 when they are not
# known (during the auction): then the model answers for any auction (its training rows
# are each seen both ways)
AUCTION_FEATURES = 3
N_FEATURES = HAND_FEATURES + AUCTION_FEATURES
BID_SCALE = 30.0


def _bits(cards: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """(N, S) 0/1: whether each row's card set holds the card in each slot."""
    return ((cards[:, None] >> slots) & 1).astype(np.float32)


def _suit_counts(cards: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(cards[:, None] & masks[None, :]).astype(np.int64)


def _honours(cards: np.ndarray) -> np.ndarray:
    """(N, 4) honour weight per printed suit (tie-break for the suit order)."""
    bits = (cards[:, None] >> np.arange(32)) & 1
    return (bits * _HONOUR).reshape(-1, 4, 8).sum(axis=2)


def features(
    kept: np.ndarray,
    buried: np.ndarray,
    kind: np.ndarray,
    hand: np.ndarray,
    position: np.ndarray,
    opponents: np.ndarray | tuple[int, int] | None = None,
) -> np.ndarray:
    """The model input (float32, ``N_FEATURES`` columns) of N variants: ``kept`` the ten
    cards played with, ``buried`` the two discards (0 in a hand game), ``kind`` 0..6,
    ``hand`` 0/1, ``position`` 0 forehand .. 2 rearhand. All int arrays of one length.
    ``opponents``: the highest value each opponent bid or held in the finished auction (0:
    none), one pair for every row or an (N, 2) array (the order of a pair does not matter);
    None while the auction is not over (the model's answer for any auction)."""
    kept = np.asarray(kept, dtype=np.int64)
    buried = np.asarray(buried, dtype=np.int64)
    kind = np.asarray(kind, dtype=np.int64)
    n = len(kept)
    is_null = kind >= NULL_KIND
    is_suit = kind < GRAND_KIND
    # the suit order: trump suit last (suit games), then longest first, stronger first
    masks = np.where(is_null[:, None], _FULL_MASK[None, :], _SIDE_MASK[None, :])
    counts = np.bitwise_count(kept[:, None] & masks).astype(np.int64)
    key = counts * 256 + _honours(kept)
    trump_suit = np.where(is_suit, kind, -1)
    key = np.where(np.arange(4)[None, :] == trump_suit[:, None], -1, key)
    order = np.argsort(-key, axis=1, kind="stable")  # (N, 4)
    slots = np.empty((n, 32), dtype=np.int64)
    plain = ~is_null
    # suit and grand: jacks, then 7 cards per suit in the order (the trump suit first)
    lead = np.where(is_suit[:, None], np.concatenate([trump_suit[:, None], order[:, :3]], 1), order)
    slots[plain, :4] = _JACKS
    slots[plain, 4:] = _SUIT7[lead[plain]].reshape(-1, 28)
    slots[is_null] = _SUIT8[order[is_null]].reshape(-1, 32)
    trumps = np.where(
        is_suit,
        np.bitwise_count(kept & (_JACK_MASK | _SIDE_MASK[np.minimum(kind, 3)])),
        np.where(kind == GRAND_KIND, np.bitwise_count(kept & _JACK_MASK), 0),
    )
    sorted_counts = np.take_along_axis(counts, order, axis=1)
    family = np.stack([is_suit, kind == GRAND_KIND, kind == NULL_KIND, kind == NULL_OUVERT_KIND], 1)
    pos = _EYE3[np.asarray(position, dtype=np.int64)]
    kept_bits = _bits(kept, slots)
    aces = np.bitwise_count(kept & np.int64(0x01010101))
    tens = np.bitwise_count(kept & np.int64(0x10101010))
    return np.concatenate(
        [
            kept_bits,
            _bits(buried, slots),
            family.astype(np.float32),
            np.asarray(hand, dtype=np.float32)[:, None],
            pos,
            (_point_sum(buried) / 10.0)[:, None],
            (_point_sum(kept) / 30.0)[:, None],
            (trumps / 5.0)[:, None].astype(np.float32),
            sorted_counts.astype(np.float32) / 4.0,
            np.stack([aces, tens], 1).astype(np.float32) / 2.0,
            auction_features(opponents, n),
        ],
        axis=1,
        dtype=np.float32,
    )


def auction_features(opponents: np.ndarray | tuple[int, int] | None, n: int) -> np.ndarray:
    """(n, 3) the opponents' highest bids, the higher first, scaled by ``BID_SCALE``, and
    the flag of bids not known (``opponents`` None: zeros and 1)."""
    if opponents is None:
        return np.tile(np.array([0.0, 0.0, 1.0], dtype=np.float32), (n, 1))
    o = np.broadcast_to(np.asarray(opponents, dtype=np.float32), (n, 2))
    hi, lo = o.max(axis=1) / BID_SCALE, o.min(axis=1) / BID_SCALE
    return np.stack([hi, lo, np.zeros(n, np.float32)], axis=1)


_BYTE_POINTS = np.array(BYTE_POINTS, dtype=np.float32)  # (4, 256) points per byte of a set


def _point_sum(cards: np.ndarray) -> np.ndarray:
    return sum(_BYTE_POINTS[k][(cards >> (8 * k)) & 255] for k in range(4)).astype(np.float32)


@dataclass
class ContractModel:
    """An MLP (ReLU hidden layers, sigmoid heads) over :func:`features`; inputs are
    standardised with the training set's ``mean`` and ``std``."""

    mean: np.ndarray
    std: np.ndarray
    weights: list[np.ndarray]
    biases: list[np.ndarray]
    meta: dict

    @property
    def n_inputs(self) -> int:
        """``N_FEATURES``, or ``HAND_FEATURES`` for a model that does not see the auction."""
        return self.weights[0].shape[0]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """(N, 4) probabilities of the ``HEADS``, made consistent (schwarz <= schneider <=
        win, schneidered <= loss)."""
        x = np.asarray(x, dtype=np.float32)[:, : self.n_inputs]
        h = (x - self.mean) / self.std
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
        z = h @ self.weights[-1] + self.biases[-1]
        p = 1.0 / (1.0 + np.exp(np.minimum(np.maximum(-z, -30.0), 30.0)))
        win = p[:, 0]
        sn = np.minimum(p[:, 1], win)
        sw = np.minimum(p[:, 2], sn)
        lost_sn = np.minimum(p[:, 3], 1.0 - win)
        return np.stack([win, sn, sw, lost_sn], axis=1)

    def predict(self, kept, buried, kind, hand, position, opponents=None) -> np.ndarray:
        return self.probabilities(features(kept, buried, kind, hand, position, opponents))

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {"mean": self.mean, "std": self.std}  # np.savez(**arrays)
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        import json

        arrays["meta"] = np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)
        np.savez(Path(path), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> ContractModel:
        """A model saved by :meth:`save` (``ValueError`` for a file that is not one)."""
        import json

        try:
            with np.load(Path(path)) as z:
                layers = sum(1 for k in z.files if k.startswith("w"))
                weights = [z[f"w{i}"].astype(np.float32) for i in range(layers)]
                biases = [z[f"b{i}"].astype(np.float32) for i in range(layers)]
                meta = json.loads(bytes(z["meta"]).decode())
                model = cls(z["mean"], z["std"], weights, biases, meta)
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path}: not a contract model ({e})") from None
        inputs = weights[0].shape[0] if layers else 0
        if inputs not in (HAND_FEATURES, N_FEATURES) or weights[-1].shape[1] != len(HEADS):
            raise ValueError(f"{path}: contract model of the wrong shape")
        return model


DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "contracts.npz"
# the same network fine-tuned on games the search player (``pimc:fast``) played out in every
# seat: the model of the search player's own contract decisions (docs/contracts.md)
SEARCH_MODEL = DEFAULT_MODEL.with_name("contracts_search.npz")
BUNDLED = {"heuristic": DEFAULT_MODEL, "search": SEARCH_MODEL}  # ``learned:model=NAME``


def load_default() -> ContractModel:
    """The shipped model (``agents/models/contracts.npz``, installed as package data)."""
    return ContractModel.load(DEFAULT_MODEL)


# ----------------------------------------------------------------------------------------
# Expected scores from the probabilities
# ----------------------------------------------------------------------------------------

# representative ends of a game: (declarer points, declarer tricks), defenders the rest
_ENDS = ((120, 10), (100, 8), (75, 6), (45, 4), (20, 2))  # won schwarz .. lost schneidered


def _class_probs(p: np.ndarray) -> np.ndarray:
    """(N, 5) probabilities of the five ends of ``_ENDS`` from (N, 4) head probabilities."""
    win, sn, sw, lsn = p[:, 0], p[:, 1], p[:, 2], p[:, 3]
    return np.stack([sw, sn - sw, win - sn, 1.0 - win - lsn, lsn], axis=1)


def expected_utility(
    p: np.ndarray,
    kind: np.ndarray,
    hand: np.ndarray,
    mats: np.ndarray,
    bid: np.ndarray | int,
    ann_schneider: np.ndarray | int = 0,
    ann_schwarz: np.ndarray | int = 0,
    defence_weight: float = 1.0,
) -> np.ndarray:
    """Expected declarer utility of N variants: his Seeger-Fabian points minus
    ``defence_weight`` times the defenders' bonus on a loss (``2 x 40``), by the scoring
    rules at ``bid`` (a value below the bid loses by the overbid rule). ``mats`` are the
    signed matadors; null variants worth less than the bid get ``-inf`` (not declarable)."""
    kind = np.asarray(kind, dtype=np.int64)
    hand = np.asarray(hand, dtype=np.int64)
    n = len(kind)
    bid = np.broadcast_to(np.asarray(bid, dtype=np.int64), (n,))
    ann_sn = np.broadcast_to(np.asarray(ann_schneider, dtype=np.int64), (n,))
    ann_sw = np.broadcast_to(np.asarray(ann_schwarz, dtype=np.int64), (n,))
    is_null = (kind >= NULL_KIND).astype(np.int64)
    base = np.array([*BASE_VALUES, 1, 1])[kind]
    ouvert = (kind == NULL_OUVERT_KIND).astype(np.int64)
    null_table = np.array([[NULL_VALUES[(h, o)] for o in (False, True)] for h in (False, True)])
    null_val = np.where(is_null == 1, null_table[hand, ouvert], 0)
    probs = _class_probs(p)
    total = np.zeros(n)
    for k, (dp, dt) in enumerate(_ENDS):
        won, _, _, _, score, _, _ = outcome_kernel(
            is_null, base, null_val, hand, ann_sn, ann_sw, 0, bid, np.asarray(mats),
            dp, dt, 120 - dp, 10 - dt, 0,
        )  # fmt: skip
        sf, _ = seeger_fabian(score, won)
        total += probs[:, k] * (sf - (1 - won) * 2 * SF_DEFENDER_BONUS * defence_weight)
    if is_null.any():  # null: won with the win probability, at its fixed value
        total = np.where(is_null == 1, _null_utility(p, null_val, defence_weight), total)
        total = np.where((is_null == 1) & (null_val < bid), -np.inf, total)
    return total


def _null_utility(p: np.ndarray, value: np.ndarray, defence_weight: float) -> np.ndarray:
    win = p[:, 0]
    sf_win, _ = seeger_fabian(value, 1)
    sf_loss, _ = seeger_fabian(-2 * value, 0)
    return win * sf_win + (1 - win) * (sf_loss - 2 * SF_DEFENDER_BONUS * defence_weight)


def matadors_of(kind: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Signed matadors of each row's card set for its game kind (0 for null)."""
    kind = np.asarray(kind, dtype=np.int64)
    cards = np.asarray(cards, dtype=np.int64)
    out = np.zeros(len(kind), dtype=np.int64)
    for g in range(5):
        rows = kind == g
        if not rows.any():
            continue
        order = np.array(TRUMP_ORDER[g])
        bits = (cards[rows, None] >> order) & 1  # (n, len)
        top = bits[:, :1]
        same = np.cumprod(bits == top, axis=1).sum(axis=1)
        out[rows] = np.where(top[:, 0] == 1, same, -same)
    return out


__all__ = [
    "DEFAULT_MODEL", "GRAND_KIND", "HEADS", "KINDS", "NULL_KIND", "NULL_OUVERT_KIND",
    "AUCTION_FEATURES", "HAND_FEATURES", "N_FEATURES", "SUIT_KINDS", "auction_features",
    "ContractModel", "expected_utility", "features",
    "load_default", "matadors_of",
]  # fmt: skip
