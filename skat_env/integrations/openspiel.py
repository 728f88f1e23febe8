"""Our Skat as an OpenSpiel game: ``import skat_env.integrations.openspiel`` registers
``python_skat`` (``pyspiel.load_game("python_skat")``), extra ``openspiel``.

OpenSpiel's own ``skat`` is simplified (no real auction, card-point returns). ``python_skat``
is this package's engine (:class:`skat_env.core.game.Game`) behind OpenSpiel's Python-game
API, so OpenSpiel's algorithms (MCTS, ISMCTS, its evaluation tools) play the exact ISkO
rules: the 121 move ids of the environments as actions, 32 chance nodes for the deal
(forehand's ten cards, middlehand's, rearhand's, then the skat, as in ISS records), the
environments' reward modes as returns, and our observation encoding
(:func:`skat_env.encoding.observation.encode`) as both the information-state and the
observation tensor. The information-state string is perfect recall: the seat, its dealt
cards and every move it saw (another seat's discards as ``??``), then the cards revealed.

Game parameters (``pyspiel.load_game("python_skat(reward_mode=seeger_fabian,dealer=0)")``):
``reward_mode`` (``zero_sum``, the default, ``list``, ``seeger_fabian``), ``dealer`` (0-2,
default 2: seat 0 is forehand) and ``observation_mode`` (``default``: 450 floats,
``history``: 1500). :meth:`SkatState.resample_from_infostate` (ISMCTS draws its worlds
with it) samples uniformly among the deals consistent with a seat's information, through
:class:`skat_env.search.worlds.WorldSampler` (extra ``search``). :func:`state_from_game`
turns an engine game into an OpenSpiel state (a bot playing in our tournaments).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from ..core.cards import CARD_NAMES, NUM_CARDS, cards_of
from ..core.game import DISCARD, SKAT, Game
from ..core.moves import FIRST_DECLARATION, MOVE_NAMES, NUM_MOVES
from ..core.rewards import REWARD_MODES, rewards_of, side_rewards
from ..core.scoring import seeger_fabian
from ..core.tables import BASE_VALUES, BID_VALUES
from ..encoding.observation import HISTORY_OBS_SIZE, OBS_SIZE, encode, fields
from ..encoding.view import player_view

SHORT_NAME = "python_skat"
OBSERVATION_MODES = ("default", "history")
DEFAULTS = {"reward_mode": "zero_sum", "dealer": 2, "observation_mode": "default"}
MAX_BIDDING_MOVES = 2 * len(BID_VALUES) + 3  # each value bid and held once, three passes
MAX_GAME_LENGTH = MAX_BIDDING_MOVES + 4 + 30  # + pickup, two discards, declaration; 30 cards


def _game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Skat (International Skat Order, skat-env)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=3,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


def utility_bounds(reward_mode: str) -> tuple[float, float]:
    """(min, max) return of a seat: the reward modes' own arithmetic on the largest win (264,
    the highest bid: a grand with every level) and the largest loss (an overbid at 264 is
    lost at the next multiple of the base value: 270 doubled)."""
    top = max(BID_VALUES)
    worst = 2 * max(-(-top // base) * base for base in BASE_VALUES)
    values = [0.0]  # a passed-in deal
    for score, won in ((top, 1), (-worst, 0)):
        values += side_rewards(reward_mode, score, *seeger_fabian(score, won))
    return float(min(values)), float(max(values))


class SkatGame(pyspiel.Game):
    """The ``python_skat`` game; ``params`` as in the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = {**DEFAULTS, **(params or {})}
        if p["reward_mode"] not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {p['reward_mode']!r}")
        if p["observation_mode"] not in OBSERVATION_MODES:
            why = f"observation_mode must be one of {OBSERVATION_MODES}"
            raise ValueError(f"{why}, got {p['observation_mode']!r}")
        if type(p["dealer"]) is not int or p["dealer"] not in (0, 1, 2):
            raise ValueError(f"dealer must be 0, 1 or 2, got {p['dealer']!r}")
        zero_sum = p["reward_mode"] == "zero_sum"
        utility = pyspiel.GameType.Utility
        low, high = utility_bounds(p["reward_mode"])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_MOVES,
            max_chance_outcomes=NUM_CARDS,
            num_players=3,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM), info, p)
        # no attributes of our own: copies of a pyspiel game (deepcopy, pickle) drop them

    def new_initial_state(self) -> SkatState:
        return SkatState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SkatObserver:
        """Our encoding (the seat's information state) for the default and the information-state
        observation types; public-only or all-players observers are refused, not faked."""
        if params:
            raise ValueError(f"python_skat observers take no parameters, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "python_skat observes one seat: its private and the public information"
            )
        return SkatObserver(self.get_parameters()["observation_mode"] == "history")


class SkatState(pyspiel.State):
    """A deal in progress: the cards dealt so far, then the engine's :class:`Game`."""

    def __init__(self, game: SkatGame):
        super().__init__(game)
        self.deal: list[int] = []  # cards in deal order (forehand 10, middle 10, rear 10, skat)
        self.game: Game | None = None  # the engine, once all 32 cards are dealt
        params = game.get_parameters()
        self._dealer, self._mode = params["dealer"], params["reward_mode"]

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if g.is_over else g.to_act

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        return g.legal_actions() if g is not None and player == g.to_act else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(NUM_CARDS)) - set(self.deal))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.game is not None:
            self.game.step(int(action))  # IllegalMoveError for a move outside the legal set
            return
        if action in self.deal or not 0 <= action < NUM_CARDS:
            raise ValueError(f"chance outcome {action} is not a card left to deal")
        self.deal.append(int(action))
        if len(self.deal) == NUM_CARDS:
            self.game = Game(self.deal, self._dealer)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        return MOVE_NAMES[action]

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0, 0.0]
        game = self.game
        assert game is not None and game.result is not None  # terminal: a game that ended
        return list(rewards_of(game.result, self._mode))

    def __str__(self) -> str:
        hands = [" ".join(CARD_NAMES[c] for c in self.deal[i : i + 10]) for i in (0, 10, 20, 30)]
        moves = " ".join(self.game.moves_played()) if self.game is not None else ""
        return f"dealer {self._dealer}\n" + "\n".join(hands) + f"\nmoves {moves}"

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> SkatState:
        """A state drawn uniformly among those ``player`` cannot tell from this one (its
        information-state string is the same): ``sampler()`` gives uniform floats."""
        rng = np.random.default_rng(int(sampler() * 2**62))
        g = self.game
        if g is None:  # dealing: keep the player's cards, shuffle the rest into the other places
            own = _own_slots(self._dealer, player)
            known = [c for i, c in enumerate(self.deal) if i in own]
            rest = [int(c) for c in rng.permutation(sorted(set(range(NUM_CARDS)) - set(known)))]
            deal = [c if i in own else rest.pop() for i, c in enumerate(self.deal)]
            return _replay(self.get_game(), deal, [])
        if g.is_over:
            raise ValueError("a finished game has no hidden cards left to resample")
        deal, discards = _resampled_deal(g, player, rng)
        moves = [m for _, m in g.history]
        at = _discard_indices(moves)
        for i, card in zip(at, discards, strict=True):
            moves[i] = card
        return _replay(self.get_game(), deal, moves)


class SkatObserver:
    """OpenSpiel's Python observer: ``tensor`` (our encoding, ``dict`` its named fields) and
    the information-state string, both from ``player``'s point of view."""

    def __init__(self, history: bool):
        self.history = history
        self.tensor = np.zeros(HISTORY_OBS_SIZE if history else OBS_SIZE, np.float32)
        self.dict = fields(self.tensor)  # views into tensor, in layout order

    def set_from(self, state: SkatState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)  # nobody has a hand until the deal is complete
        else:
            self.tensor[:] = encode(player_view(state.game, player), self.history)

    def string_from(self, state: SkatState, player: int) -> str:
        own = _own_slots(state._dealer, player)
        hand = sorted(c for i, c in enumerate(state.deal) if i in own)
        parts = [f"seat {player} dealer {state._dealer} hand " + _names(hand)]
        g = state.game
        if g is not None:
            discard = set(_discard_indices([m for _, m in g.history]))
            seen = [
                "??" if i in discard and seat != player else MOVE_NAMES[m]
                for i, (seat, m) in enumerate(g.history)
            ]
            parts.append("moves " + " ".join(seen))
            v = player_view(g, player)
            revealed = ("skat", v.skat), ("discarded", v.discarded), ("open", v.open_hand)
            for name, cards in revealed:
                if cards:
                    parts.append(f"{name} " + _names(cards_of(cards)))
        return " | ".join(parts)


def _names(cards: Sequence[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def _own_slots(dealer: int, seat: int) -> range:
    """Indices in the deal order of the ten cards dealt to ``seat``."""
    position = (seat - dealer - 1) % 3
    return range(10 * position, 10 * position + 10)


def _discard_indices(moves: Sequence[int]) -> list[int]:
    """Where in a move list the declarer discarded: the card moves before the declaration."""
    out = []
    for i, m in enumerate(moves):
        if m >= FIRST_DECLARATION:
            break
        if m < NUM_CARDS:
            out.append(i)
    return out


def _pick(cards: int, n: int, rng: np.random.Generator) -> list[int]:
    """``n`` of a card set in a random order."""
    return [int(c) for c in rng.permutation(cards_of(cards))[:n]]


def _resampled_deal(g: Game, player: int, rng: np.random.Generator) -> tuple[list[int], list]:
    """A deal (in deal order) and the declarer's discards in a world ``player`` cannot tell
    from ``g``, drawn uniformly by the search's world sampler."""
    from ..search.worlds import WorldSampler  # numba-free, but its package loads the solver

    world = WorldSampler(player_view(g, player)).sample(rng, 1)[0]
    had = [world.hands[s] | g.played[s] for s in range(3)]
    skat = world.skat
    discards = [g.history[i][1] for i in _discard_indices([m for _, m in g.history])]
    d = g.declarer
    picked = d >= 0 and g.phase >= DISCARD and not g.hand_game
    if picked and player != d:
        twelve = had[d] | skat  # while discarding: the dealt ten and the skat; later: discards
        discards = _pick(twelve if g.phase == DISCARD else skat, len(discards), rng)
        skat = sum(1 << c for c in _pick(twelve, 2, rng))  # any two of the twelve were dealt
        had[d] = twelve & ~skat
    own = _own_slots(g.dealer, player)
    had[player] = sum(1 << g.deal[i] for i in own)  # its own dealt ten, as they came
    if player == d and g.phase > SKAT and not g.hand_game:
        skat = g.skat
    deal = [c for pos in range(3) for c in cards_of(had[g.seat_of(pos)])] + cards_of(skat)
    return deal, discards


def _replay(game: SkatGame, deal: Sequence[int], moves: Sequence[int]) -> SkatState:
    state = game.new_initial_state()
    for a in (*deal, *moves):
        state.apply_action(int(a))
    return state


def state_from_game(game: SkatGame, g: Game) -> SkatState:
    """The OpenSpiel state of an engine game (its deal and moves replayed; dealers must match)."""
    dealer = game.get_parameters()["dealer"]
    if g.dealer != dealer:
        raise ValueError(f"the game's dealer is {g.dealer}, python_skat's is {dealer}")
    return _replay(game, g.deal, [m for _, m in g.history])


pyspiel.register_game(_game_type(pyspiel.GameType.Utility.ZERO_SUM), SkatGame)

__all__ = ["SHORT_NAME", "SkatGame", "SkatObserver", "SkatState", "state_from_game"]
