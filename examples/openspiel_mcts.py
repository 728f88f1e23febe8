"""An OpenSpiel bot in our tournaments: information-set MCTS (random rollouts) on
``python_skat`` against two ``heuristic`` players, duplicate deals, Seeger-Fabian points.

    python examples/openspiel_mcts.py [--deals 2] [--simulations 40] [--seed 0] [--play-only]

Needs the ``openspiel`` and ``search`` extras (ISMCTS draws its worlds through
``SkatState.resample_from_infostate``, which uses the search package's world sampler).
OpenSpiel bots are handed the game state and trusted to read only their own information:
ISMCTS does (it resamples the hidden cards before every simulation and keys its tree by the
information-state string), so :class:`OpenSpielBotAgent` takes the whole game through our
``act_game`` hook and passes it on as an OpenSpiel state. ``--play-only``: the heuristic
bids and declares, the bot plays the cards. Python games are slow in OpenSpiel and random
rollouts play Skat badly, so expect a weak, slow player: this shows the plumbing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from skat_env.agents.base import Agent
from skat_env.agents.heuristic import HeuristicAgent
from skat_env.core.game import PLAY, Game
from skat_env.encoding.view import player_view, without_history
from skat_env.integrations.openspiel import state_from_game
from skat_env.tournament import evaluate, format_table


class OpenSpielBotAgent(Agent):
    """One of our players that asks an OpenSpiel bot for each move (one bot per dealer:
    ``python_skat`` fixes the dealer as a game parameter, our tournaments rotate it)."""

    perfect_information = True  # called as act_game(game, seat); the bot reads its infostate

    def __init__(self, make_bot: Any, name: str, play_only: bool = False, seed: int = 0):
        self.make_bot, self.name, self.play_only = make_bot, name, play_only
        self.games = [pyspiel.load_game(f"python_skat(dealer={d})") for d in range(3)]
        self.bots: dict[int, Any] = {}
        self.seed = seed
        self.heuristic = HeuristicAgent()

    def reset(self, seed: int | None = None) -> None:
        """New bots from ``seed`` before each game: a game's moves depend on its seed only."""
        if seed is not None:
            self.seed = seed
        self.bots = {}

    def act(self, observation: dict[str, Any]) -> int:
        raise TypeError("an OpenSpiel bot plays through act_game(game, seat)")

    def act_game(self, game: Game, seat: int) -> int:
        if self.play_only and game.phase != PLAY:
            return self.heuristic.act_view(without_history(player_view(game, seat)))
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if game.dealer not in self.bots:
            self.bots[game.dealer] = self.make_bot(self.games[game.dealer], self.seed)
        return int(self.bots[game.dealer].step(state_from_game(self.games[game.dealer], game)))


def ismcts_agent(simulations: int, seed: int, play_only: bool = False) -> OpenSpielBotAgent:
    """ISMCTS with one random rollout per leaf (OpenSpiel's ``ISMCTSBot``)."""

    def make_bot(game: pyspiel.Game, seed: int) -> ismcts.ISMCTSBot:
        rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(
            game, rollouts, uct_c=2.0 * game.max_utility(), max_simulations=simulations,
            random_state=np.random.RandomState(seed),
        )  # fmt: skip
        worlds = np.random.default_rng(seed)  # seeded worlds (its default sampler is not)
        bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, worlds.random)
        )
        return bot

    name = f"ismcts:{simulations}" + (",play_only" if play_only else "")
    return OpenSpielBotAgent(make_bot, name, play_only, seed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2, help="duplicate deals (3 games each)")
    ap.add_argument("--simulations", type=int, default=40, help="ISMCTS simulations per move")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--play-only", action="store_true", help="the heuristic bids and declares")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.simulations < 1:
        print("error: --deals and --simulations must be at least 1", file=sys.stderr)
        return 2
    bot = ismcts_agent(args.simulations, args.seed, args.play_only)
    results = evaluate([bot, "heuristic", "heuristic"], args.deals, seed=args.seed)
    print(format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
