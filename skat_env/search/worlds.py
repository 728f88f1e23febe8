"""Worlds: full deals of the cards a seat cannot see, consistent with everything it knows.

A :class:`World` gives every seat's current holding and the two cards that count for the
declarer as skat (the untouched skat, or the declarer's discards). :class:`WorldSampler`
draws worlds *uniformly* among those consistent with a :class:`PlayerView`: own hand, cards
played by each seat, voids shown (effective suits), the skat or discards the seat has seen,
an ouvert declarer's open hand. It counts the ways to split each group of unseen cards
(cards sharing the same set of possible holders) and draws a split in proportion to its
count, so no consistent deal is favoured by the order of the constraints.

:func:`sample_worlds` draws uniform worlds, or a uniform pool resampled by a
:class:`Weigher`'s likelihoods (a defender's
:class:`skat_env.search.inference.DeclarerInference`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..core.cards import FULL_DECK, cards_of
from ..core.game import DISCARD, PLAY
from ..core.scoring import Contract, matadors, multiplier
from ..core.tables import (
    BASE_VALUES,
    EFFECTIVE_SUIT_MASK,
    NULL,
    NULL_VALUES,
)
from ..encoding.view import PlayerView

SKAT = 3  # slot index of the skat (seats are 0..2)


class Weigher(Protocol):
    """Relative likelihoods of worlds (the defenders'
    :class:`skat_env.search.inference.DeclarerInference`)."""

    def weights(self, worlds: list[World]) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class World:
    """One full deal as the game stands: ``hands[s]`` is what seat ``s`` holds now,
    ``skat`` the two cards that count for the declarer (skat or discards). While the
    declarer discards, another seat's world shows his dealt ten and the skat apart."""

    hands: tuple[int, int, int]
    skat: int


class InconsistentViewError(ValueError):
    """A view whose known cards do not add up (no world can be drawn)."""


def _comb_counts(n: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every split of ``n`` cards over slots with capacities ``caps``."""
    if len(caps) == 1:
        return [(n,)] if n <= caps[0] else []
    out = []
    for k in range(min(n, caps[0]) + 1):
        out += [(k, *rest) for rest in _comb_counts(n - k, caps[1:])]
    return out


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    out, left = 1, n
    for k in parts:
        out *= math.comb(left, k)
        left -= k
    return out


class WorldSampler:
    """Uniform sampler over the deals consistent with ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView):
        self.view = view
        known, fixed, skat_known = _known_cards(view)
        self.fixed = fixed  # cards each seat is known to hold now
        self.skat_known = skat_known  # the declarer's skat cards, if this seat knows them
        self.unseen = FULL_DECK & ~known
        self.need = _unknown_sizes(view, fixed)
        if sum(self.need) != self.unseen.bit_count():
            raise InconsistentViewError(
                f"the view of seat {view.seat} leaves {self.unseen.bit_count()} unseen cards "
                f"but {sum(self.need)} unknown places (seats, skat): {self.need}"
            )
        self.groups = self._groups()
        self.splits, weights = self._splits()
        if not self.splits:
            raise InconsistentViewError(f"no deal is consistent with the view of seat {view.seat}")
        total = float(sum(weights))
        self.probs = np.array([w / total for w in weights])

    def _groups(self) -> list[tuple[tuple[int, ...], list[int]]]:
        """Unseen cards grouped by the slots that may hold them."""
        view, game = self.view, _game(self.view)
        banned = [0, 0, 0, 0]
        if game >= 0:
            masks = EFFECTIVE_SUIT_MASK[game]
            for s in range(3):
                for suit in range(5):
                    if view.voids[s] >> suit & 1:
                        banned[s] |= masks[suit]
        by_slots: dict[tuple[int, ...], list[int]] = {}
        for card in cards_of(self.unseen):
            slots = tuple(k for k in range(4) if self.need[k] and not banned[k] >> card & 1)
            if not slots:
                raise InconsistentViewError(
                    f"card {card} fits nowhere in the view of seat {view.seat} (voids {view.voids})"
                )
            by_slots.setdefault(slots, []).append(card)
        return sorted(by_slots.items())

    def _splits(self) -> tuple[list[list[tuple[int, ...]]], list[int]]:
        """Every way to fill the unknown places group by group, with its number of deals."""
        splits: list[list[tuple[int, ...]]] = []
        weights: list[int] = []

        def walk(i: int, left: list[int], chosen: list[tuple[int, ...]], ways: int) -> None:
            if i == len(self.groups):
                if not any(left):
                    splits.append(list(chosen))
                    weights.append(ways)
                return
            slots, cards = self.groups[i]
            for parts in _comb_counts(len(cards), [left[k] for k in slots]):
                rest = list(left)
                for k, n in zip(slots, parts, strict=True):
                    rest[k] -= n
                walk(i + 1, rest, [*chosen, parts], ways * _multinomial(len(cards), parts))

        walk(0, list(self.need), [], 1)
        return splits, weights

    def sample(self, rng: np.random.Generator, n: int) -> list[World]:
        """``n`` worlds drawn independently and uniformly (repeats possible)."""
        picks = rng.choice(len(self.splits), size=n, p=self.probs)
        return [self._build(self.splits[int(i)], rng) for i in picks]

    def _build(self, split: list[tuple[int, ...]], rng: np.random.Generator) -> World:
        got = list(self.fixed) + [self.skat_known]
        for (slots, cards), parts in zip(self.groups, split, strict=True):
            order = rng.permutation(len(cards)) if len(cards) > 1 else (0,)
            pos = 0
            for k, n in zip(slots, parts, strict=True):
                for j in order[pos : pos + n]:
                    got[k] |= 1 << cards[j]
                pos += n
        return World((got[0], got[1], got[2]), got[SKAT])


def _game(view: PlayerView) -> int:
    return view.contract.game if view.contract is not None else -1


def _known_cards(view: PlayerView) -> tuple[int, list[int], int]:
    """(every card the seat has seen, what each seat is known to hold, known skat)."""
    played = view.played[0] | view.played[1] | view.played[2]
    fixed = [0, 0, 0]
    fixed[view.seat] = view.hand
    if view.open_hand and view.declarer >= 0:
        fixed[view.declarer] = view.open_hand
    # the declarer after pickup knows the cards that will count as skat: his discards
    # (before both are made, the rest of the twelve is still in his hand)
    skat_known = view.discarded if _declarer_knows_skat(view) else 0
    known = played | fixed[0] | fixed[1] | fixed[2] | view.skat | view.discarded
    return known, fixed, skat_known


def _unknown_sizes(view: PlayerView, fixed: list[int]) -> list[int]:
    """Unknown cards per slot (seats 0..2, skat)."""
    need = [0, 0, 0, 0]
    for s in range(3):
        if s == view.seat or fixed[s]:
            continue
        size = 10 - view.played[s].bit_count() if view.phase >= PLAY else 10
        need[s] = size
    need[SKAT] = 0 if _declarer_knows_skat(view) else 2
    return need


def _declarer_knows_skat(view: PlayerView) -> bool:
    return view.is_declarer and view.phase >= DISCARD and not view.hand_game


POOL = 4  # uniform worlds drawn per world kept when worlds are weighted


def sample_worlds(
    view: PlayerView,
    n: int,
    rng: np.random.Generator,
    weigher: Weigher | None = None,
    sampler: WorldSampler | None = None,
) -> list[tuple[World, float]]:
    """Up to ``n`` distinct worlds with weights summing to 1.

    Without a weigher: ``n`` uniform draws (repeats merged). With one: ``n`` of a uniform
    pool of ``POOL * n`` worlds, drawn without replacement in proportion to their
    likelihood, so the solver spends its time on likely worlds and never on one twice.
    """
    if n < 1:
        raise ValueError(f"n (worlds to sample) must be >= 1, got {n}")
    sampler = sampler or WorldSampler(view)
    if weigher is None:
        return _merge(sampler.sample(rng, n), [1.0] * n)
    cands = sampler.sample(rng, POOL * n)
    w = weigher.weights(cands)
    if not w.sum() > 0:
        return _merge(cands[:n], [1.0] * n)
    # n draws without replacement in proportion to the weights (Efraimidis-Spirakis keys):
    # likely worlds first, and no world solved twice
    keys = np.log(rng.random(len(cands))) / np.maximum(w, 1e-12)
    idx = np.argsort(-keys)[:n]
    return _merge([cands[int(i)] for i in idx], [1.0] * n)


def _merge(worlds: list[World], weights: list[float]) -> list[tuple[World, float]]:
    total: dict[World, float] = {}
    for x, w in zip(worlds, weights, strict=True):
        total[x] = total.get(x, 0.0) + w
    s = sum(total.values())
    return [(x, w / s) for x, w in total.items()]


def hand_game_value(contract: Contract, twelve: int) -> int:
    """The value of a suit or grand contract over the declarer's twelve cards, before
    schneider or schwarz made in play (null: its fixed value)."""
    if contract.game == NULL:
        return NULL_VALUES[(contract.hand, contract.ouvert)]
    m = matadors(contract.game, twelve)
    return BASE_VALUES[contract.game] * multiplier(contract, m, False, False)


__all__ = [
    "POOL",
    "InconsistentViewError",
    "Weigher",
    "World",
    "WorldSampler",
    "hand_game_value",
    "sample_worlds",
]
