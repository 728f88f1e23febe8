"""Defender inference: how likely a world's declarer holding makes the declaration seen.

A defender's uniform worlds (:class:`~skat_env.search.worlds.WorldSampler`) spread the unseen
cards evenly over the declarer, the partner and the skat, apart from the voids shown. A real
declarer chose his game: :class:`DeclarerInference` weights each world by the probability
that a declarer holding that world's cards declares what was declared at the bid, under a
soft-max choice over every choice he had, scored by expected utility (a ``Scorer``: in
``agents/pimc.py`` the learned contract model of ``agents/contract_model.py``):

- after a pickup: every game kind (four suits, grand, null) with every pair of his twelve
  cards buried (6 x 66 options), the declared kind with the world's skat as the buried pair
  being the one observed; the discards the declarer could have made weigh in this way;
- a hand game: every game kind over his ten cards, played from hand;
- either way one more option, worth 0, stands for not playing at all (a declarer whose best
  game is worth well below the bid, an overbid in waiting, is unlikely).

The likelihood of a world is ``exp(u_declared / t) / (1 + sum(exp(u_option / t)))`` with the
temperature ``t`` in utility points (Seeger-Fabian points). Open (ouvert) declarers show their
cards: every world is equally likely then, as before the declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np

from ..encoding.view import PlayerView
from .worlds import World

#: ``score(kept, buried, kind, hand, position, bid) -> utility``: int64 arrays of one length
#: N (the ten cards played with, the two buried or 0, game kind 0..5, 0/1 hand game, the
#: declarer's position 0..2, the bid) to the declarer's expected utility of each option.
Scorer = Callable[
    [np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray
]
KINDS = 6  # four suits, grand, null (null ouvert declarers show their hands)
_PAIRS = np.array(list(combinations(range(12), 2)))  # (66, 2) positions in a twelve-card hand
_BITS = np.arange(32, dtype=np.int64)


class DeclarerInference:
    """World weights of a defender's view from the declarer's choice (module docstring)."""

    def __init__(self, view: PlayerView, scorer: Scorer, temperature: float = 20.0):
        if not temperature > 0:
            raise ValueError(f"temperature must be > 0, got {temperature}")
        self.view = view
        self.scorer = scorer
        self.temperature = float(temperature)
        c = view.contract
        self.active = c is not None and view.declarer >= 0 and not view.is_declarer and not c.ouvert
        self.position = (view.declarer - view.dealer - 1) % 3 if view.declarer >= 0 else 0

    def weights(self, worlds: Sequence[World]) -> np.ndarray:
        """Likelihood of each world, relative (the largest is 1)."""
        if not self.active or not worlds:
            return np.ones(len(worlds))
        ll = self.log_likelihoods(worlds)
        return np.exp(ll - ll.max())

    def log_likelihoods(self, worlds: Sequence[World]) -> np.ndarray:
        view, d = self.view, self.view.declarer
        kept = np.array([w.hands[d] | view.played[d] for w in worlds], dtype=np.int64)
        if view.hand_game:
            return self._hand(kept)
        buried = np.array([w.skat for w in worlds], dtype=np.int64)
        return self._pickup(kept, buried)

    def _rows(self, kept: np.ndarray, buried: np.ndarray, kind: np.ndarray, hand: int):
        n = len(kept)
        return self.scorer(
            kept, buried, kind, np.full(n, hand, dtype=np.int64),
            np.full(n, self.position, dtype=np.int64), np.full(n, self.view.bid, dtype=np.int64),
        )  # fmt: skip

    def _hand(self, ten: np.ndarray) -> np.ndarray:
        n = len(ten)
        kinds = np.tile(np.arange(KINDS, dtype=np.int64), n)
        u = self._rows(np.repeat(ten, KINDS), np.zeros(n * KINDS, np.int64), kinds, 1)
        u = u.reshape(n, KINDS)
        assert self.view.contract is not None  # inferred only once a contract is declared
        return self._choice(u, u[:, self.view.contract.game])

    def _pickup(self, kept: np.ndarray, buried: np.ndarray) -> np.ndarray:
        # the options depend only on the twelve cards, which many worlds share once the
        # declarer has played some: each distinct twelve is scored once
        twelve, inverse = np.unique(kept | buried, return_inverse=True)
        n = len(twelve)
        cards = _card_lists(twelve)  # (n, 12)
        pairs = (np.int64(1) << cards[:, _PAIRS[:, 0]]) | (np.int64(1) << cards[:, _PAIRS[:, 1]])
        np_ = pairs.shape[1]
        rows_kept = np.repeat((twelve[:, None] & ~pairs)[:, None, :], KINDS, axis=1).ravel()
        rows_buried = np.repeat(pairs[:, None, :], KINDS, axis=1).ravel()
        kinds = np.broadcast_to(np.arange(KINDS)[None, :, None], (n, KINDS, np_)).ravel()
        u = self._rows(rows_kept, rows_buried, kinds.astype(np.int64), 0).reshape(n, KINDS, np_)
        actual = np.argmax(pairs[inverse] == buried[:, None], axis=1)
        assert self.view.contract is not None  # inferred only once a contract is declared
        declared = u[inverse, self.view.contract.game, actual]
        return self._choice(u.reshape(n, -1)[inverse], declared)

    def _choice(self, options: np.ndarray, declared: np.ndarray) -> np.ndarray:
        """log P(declared) among the options and not playing (utility 0), soft-max at t."""
        z = np.concatenate([np.zeros((len(options), 1)), options], axis=1) / self.temperature
        top = np.max(z, axis=1)
        log_total = top + np.log(np.exp(z - top[:, None]).sum(axis=1))
        return declared / self.temperature - log_total


def _card_lists(sets: np.ndarray) -> np.ndarray:
    """(N, 12) the cards of N twelve-card sets, in ascending order."""
    bits = (sets[:, None] >> _BITS) & 1
    return np.nonzero(bits)[1].reshape(len(sets), 12).astype(np.int64)


__all__ = ["DeclarerInference", "KINDS", "Scorer"]
