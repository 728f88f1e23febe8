"""Playouts: value a card by playing each sampled world out with a fair policy.

Double-dummy solving values a card as if everyone saw every card; against a declarer who
does not, that overrates him, and a defender's early leads (chosen before the hidden cards
show) suffer most (docs/search.md, "Defence"). A playout instead plays the world to the end
with a *policy* acting from each seat's own view (``policy(view) -> card``, e.g. the
heuristic's card play), so a card is valued against players who must guess too. The
utility is the search's own (:func:`skat_env.search.pimc.utility`'s score, here read off
the engine's result): the declarer's Seeger-Fabian points minus the defenders'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.cards import FULL_DECK, cards_of
from ..core.game import Game
from ..encoding.view import PlayerView, player_view
from .worlds import World

Policy = Callable[[PlayerView], int]


def world_game(view: PlayerView, world: World) -> Game:
    """The game of ``view`` (card play) with the hidden cards as ``world`` deals them."""
    return Game.in_play(
        view.dealer, view.declarer, view.contract, view.bid, view.bids, world.hands,
        world.skat, view.played, [c for _, c in view.trick], view.trick_leader, view.points,
        view.tricks, view.voids,
    )  # fmt: skip


def play_out(game: Game, policy: Policy) -> float:
    """Play ``game`` (changed in place) to its end by ``policy`` in every seat; the
    declarer's Seeger-Fabian points minus the defenders'."""
    while not game.is_over:
        game.step(policy(player_view(game, game.to_act)))
    sf = game.result.seeger_fabian
    d = game.result.declarer
    return float(sf[d] - (sum(sf) - sf[d]))


def rollout_values(
    view: PlayerView, worlds: Sequence[tuple[World, float]], policy: Policy
) -> dict[int, float]:
    """Weighted mean playout utility of each legal card of the player to move."""
    legal = cards_of(view.legal_mask & FULL_DECK)
    totals = dict.fromkeys(legal, 0.0)
    weight = 0.0
    for world, w in worlds:
        base = world_game(view, world)
        for card in legal:
            g = base.copy()
            g.step(card)
            totals[card] += w * play_out(g, policy)
        weight += w
    return {c: v / weight for c, v in totals.items()}


__all__ = ["Policy", "play_out", "rollout_values", "world_game"]
