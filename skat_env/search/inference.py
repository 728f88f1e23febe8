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

from ..encoding.view import PlayerView, _three
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
        n = len(kept)
        twelve = kept | buried
        cards = _card_lists(twelve)  # (n, 12)
        pairs = (np.int64(1) << cards[:, _PAIRS[:, 0]]) | (np.int64(1) << cards[:, _PAIRS[:, 1]])
        np_ = pairs.shape[1]
        rows_kept = np.repeat((twelve[:, None] & ~pairs)[:, None, :], KINDS, axis=1).ravel()
        rows_buried = np.repeat(pairs[:, None, :], KINDS, axis=1).ravel()
        kinds = np.broadcast_to(np.arange(KINDS)[None, :, None], (n, KINDS, np_)).ravel()
        u = self._rows(rows_kept, rows_buried, kinds.astype(np.int64), 0).reshape(n, KINDS, np_)
        actual = np.argmax(pairs == buried[:, None], axis=1)
        assert self.view.contract is not None  # inferred only once a contract is declared
        declared = u[np.arange(n), self.view.contract.game, actual]
        return self._choice(u.reshape(n, -1), declared)

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


#: ``logits(obs) -> float32[N, 121]``: a model of play's action logits for observations of
#: the default layout (e.g. ``NumpyPolicy.logits`` of the bundled PPO model)
Logits = Callable[[np.ndarray], np.ndarray]


class PolicyInference:
    """World weights from the cards the other seats played: how likely each seat's plays so
    far are under a model of play, given that seat's cards in the world (policy-based
    inference: Rebstock, Solinas, Buro and Sturtevant, 2019).

    For every card another seat played, the observation that seat had then is built once from
    the public record (everything but its hand, and for a declarer who picked up the skat,
    the skat and the discards); each world fills in the hidden cards, the model scores the
    seat's legal cards in that world and the played card's log-probability counts. A world's
    log-likelihood is ``exponent`` times the sum (a tempered model: the model is a player, not
    the opponent), plus that of ``base`` (e.g. :class:`DeclarerInference`) when given.
    """

    def __init__(self, view: PlayerView, logits: Logits, exponent: float = 1.0,
                 base: DeclarerInference | None = None):  # fmt: skip
        from ..encoding.observation import LAYOUT, OBS_SIZE, encode

        self.view, self.logits, self.exponent, self.base = view, logits, float(exponent), base
        c = view.contract
        self.game = c.game if c is not None else 0
        seq = view.play_sequence
        self.moves: list[tuple[int, int, int]] = []  # (index in seq, seat, card)
        rows: list[np.ndarray] = []
        for k, (seat, card) in enumerate(seq):
            if seat == view.seat or (c is not None and c.ouvert and seat == view.declarer):
                continue  # own cards, and an open declarer's, tell nothing new
            rows.append(encode(self._view_at(k)))
            self.moves.append((k, seat, card))
        self.rows = np.array(rows, np.float32).reshape(len(rows), OBS_SIZE)
        self.hand_slice, self.skat_slice = LAYOUT["hand"], LAYOUT["skat"]
        self.discard_slice = LAYOUT["discarded"]
        # per move: the cards that seat played from then on (its hand then minus the world's)
        self.later = np.array(
            [sum(1 << cd for j, (s, cd) in enumerate(seq) if s == seat and j >= k)
             for k, seat, _ in self.moves], dtype=np.int64)  # fmt: skip
        self.led = np.array([seq[k - k % 3][1] if k % 3 else -1 for k, _, _ in self.moves])
        self.card = np.array([cd for _, _, cd in self.moves], dtype=np.int64)
        self.seat = np.array([s for _, s, _ in self.moves], dtype=np.int64)
        pickup = c is not None and not view.hand_game
        self.declarer_rows = (self.seat == view.declarer) & pickup

    def _view_at(self, k: int) -> PlayerView:
        """The view of the seat that played the ``k``-th card, just before it played, with
        its hidden cards left out (filled in per world)."""
        from dataclasses import replace

        from ..core.cards import CARD_POINTS
        from ..core.game import PLAY
        from ..core.tables import EFFECTIVE_SUIT
        from ..core.tricks import trick_winner

        v, seq = self.view, self.view.play_sequence
        seat = seq[k][0]
        played, voids, points, tricks = [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]
        eff = EFFECTIVE_SUIT[self.game]
        done = k - k % 3
        for i in range(0, done, 3):
            trick = seq[i : i + 3]
            w = trick[trick_winner(self.game, [cd for _, cd in trick])][0]
            points[w] += sum(CARD_POINTS[cd] for _, cd in trick)
            tricks[w] += 1
        for j, (s, cd) in enumerate(seq[:k]):
            played[s] |= 1 << cd
            led = seq[j - j % 3][1]
            if j % 3 and eff[cd] != eff[led]:
                voids[s] |= 1 << eff[led]
        trick_now = seq[done:k]
        return replace(
            v, seat=seat, position=(seat - v.dealer - 1) % 3, phase=PLAY, to_act=seat, hand=0,
            skat=0, discarded=0, played=_three(played), trick=trick_now,
            trick_leader=trick_now[0][0] if trick_now else seat, voids=_three(voids),
            points=_three(points), tricks=_three(tricks), play_sequence=seq[:k], legal_mask=0,
        )  # fmt: skip

    def log_likelihoods(self, worlds: Sequence[World]) -> np.ndarray:
        from ..core.tables import FOLLOW_MASK

        n, m = len(worlds), len(self.moves)
        ll = np.zeros(n)
        if m:
            hands = np.array([w.hands for w in worlds], dtype=np.int64)  # (n, 3)
            skats = np.array([w.skat for w in worlds], dtype=np.int64)
            hand = hands[:, self.seat] | self.later[None, :]  # (n, m) the seat's cards then
            follow = np.array([FOLLOW_MASK[self.game][x] if x >= 0 else -1 for x in self.led],
                              dtype=np.int64)  # fmt: skip
            legal = hand & follow[None, :]
            legal = np.where(legal != 0, legal, hand)
            obs = np.broadcast_to(self.rows, (n, m, self.rows.shape[1])).copy()
            obs[:, :, self.hand_slice] = (hand[:, :, None] >> _BITS) & 1
            d = self.declarer_rows
            if d.any():
                sk = ((skats[:, None] >> _BITS) & 1).astype(np.float32)  # (n, 32)
                obs[:, d, self.discard_slice] = sk[:, None, :]
                obs[:, d, self.skat_slice] = sk[:, None, :]  # the skat he took: unknown
            z = self.logits(obs.reshape(n * m, -1))[:, :32].reshape(n, m, 32).astype(np.float64)
            ok = ((legal[:, :, None] >> _BITS) & 1).astype(bool)
            z = np.where(ok, z, -np.inf)
            top = z.max(axis=2, keepdims=True)
            logp = z - top - np.log(np.exp(z - top).sum(axis=2, keepdims=True))
            picked = np.take_along_axis(logp, self.card[None, :, None].repeat(n, 0), 2)[..., 0]
            ll = self.exponent * picked.sum(axis=1)
        if self.base is not None and self.base.active:
            ll = ll + self.base.log_likelihoods(worlds)
        return ll

    def weights(self, worlds: Sequence[World]) -> np.ndarray:
        """Likelihood of each world, relative (the largest is 1)."""
        if not worlds:
            return np.ones(0)
        ll = self.log_likelihoods(worlds)
        return np.exp(ll - ll.max())


class PlayMemory:
    """The order of the cards played, remembered by a seat that sees every one of its turns.

    The default observation holds which cards each seat played, not in which trick; a player
    at the table remembers the tricks. Fed the views of one seat at each of its card plays,
    :meth:`sequence` rebuilds the play sequence: since its previous turn came its own card,
    then one card from each seat after it in that trick, in seat order, then the current
    trick as shown. A view with its ``play_sequence`` (the history layout) is taken as is;
    a gap (a turn not seen) leaves the game without a sequence (None).
    """

    LIMIT = 64  # games remembered (a long-lived agent forgets the oldest)

    def __init__(self) -> None:
        self._games: dict[tuple, tuple[tuple[int, int], ...] | None] = {}

    def sequence(self, view: PlayerView) -> tuple[tuple[int, int], ...] | None:
        """The play sequence up to ``view`` (a view of its seat to play a card), or None."""
        s = view.seat
        key = (s, view.dealer, view.hand | view.played[s], view.declarer, view.bid)
        seq: tuple[tuple[int, int], ...] | None
        if view.play_sequence:
            seq = tuple(view.play_sequence)
        elif not any(view.tricks):  # the first trick: everything played is on the table
            seq = tuple(view.trick)
        else:
            seq = self._extend(self._games.get(key), view)
        if len(self._games) >= self.LIMIT and key not in self._games:
            self._games.pop(next(iter(self._games)))
        self._games[key] = seq
        return seq

    @staticmethod
    def _extend(
        seq: tuple[tuple[int, int], ...] | None, view: PlayerView
    ) -> tuple[tuple[int, int], ...] | None:
        if seq is None:
            return None
        known = sum(1 << c for _, c in seq) | sum(1 << c for _, c in view.trick)
        out = list(seq)
        for o in (view.seat, (view.seat + 1) % 3, (view.seat + 2) % 3):
            new = view.played[o] & ~known
            if new.bit_count() > 1 or (o == view.seat and new.bit_count() != 1):
                return None  # a turn not seen
            if new:
                out.append((o, new.bit_length() - 1))
        out.extend(view.trick)
        if len(out) != sum(p.bit_count() for p in view.played):
            return None
        return tuple(out)


__all__ = ["DeclarerInference", "KINDS", "Logits", "PlayMemory", "PolicyInference", "Scorer"]
