"""``oracle``: a perfect-information player, the double-dummy reference for card-play
benchmarks.

It is **not a fair agent**: it sees every card (all hands and the skat), so it never takes part
through the observation dict. Tournaments, the learner-seat env and the web app call
:meth:`OracleAgent.act_game` with the whole game (``skat_env.envs.policy.decide`` does);
:meth:`OracleAgent.act` refuses. Its card play is the PIMC player's valuation with one world,
the true one: the double-dummy solver values every legal card on the real deal with the
same utility (:mod:`skat_env.search.pimc`). Bidding, skat, discard and declaration are the
heuristic's (from the fair view), so ``oracle`` against ``heuristic`` measures what perfect
knowledge is worth to the double-dummy card play alone. It is no upper bound: a fair
player that breaks the solver's near-ties well can play better cards (docs/search.md).
"""

from __future__ import annotations

from typing import cast

from skat_env.core.cards import FULL_DECK, cards_of
from skat_env.core.game import PLAY, Game
from skat_env.encoding.view import player_view, without_history
from skat_env.envs.policy import Observation
from skat_env.search import pimc as search
from skat_env.search.solver import Solver
from skat_env.search.worlds import World

from . import heuristic as h
from .base import Agent


class OracleAgent(Agent):
    """Perfect-information card play over the heuristic's contract decisions."""

    name = "oracle"
    deterministic = True  # the move depends only on the game (no act_batch: never batched)
    #: sees the whole game: policies with this flag are called as ``act_game(game, seat)``
    perfect_information = True

    def __init__(self, exact_tricks: int = 5):
        self.solver = Solver()
        self.exact_tricks = exact_tricks
        self.heuristic = h.HeuristicAgent()

    def act(self, observation: Observation) -> int:
        raise TypeError(
            "the oracle sees every card, so it cannot play from an observation; it plays "
            "through act_game(game, seat), which tournaments, the learner-seat env and the "
            "web app call (skat_env.envs.policy.decide)"
        )

    def act_game(self, game: Game, seat: int) -> int:
        """The move for ``seat`` (the seat to act) knowing the whole deal."""
        view = without_history(player_view(game, seat))
        if game.phase != PLAY:
            return self.heuristic.act_view(view)
        legal = cards_of(view.legal_mask & FULL_DECK)
        if len(legal) == 1:
            return legal[0]
        hands = cast("tuple[int, int, int]", tuple(int(x) for x in game.hands))
        world = World(hands=hands, skat=int(game.declarer_skat))
        exact = 10 - sum(view.tricks) <= self.exact_tricks
        values = search.world_values(view, world, self.solver, exact)
        return search.pick_card(view, values, search.first_choice(h.choose_card))

    def __deepcopy__(self, memo: dict) -> OracleAgent:
        """Copies share the solver (a cache of exact bounds, tens of MB)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        return new


__all__ = ["OracleAgent"]
