"""skat_env.integrations.openspiel: ``python_skat`` passes OpenSpiel's own consistency test
and plays move for move like the PettingZoo env on the same deals (legal moves, information
state tensors, returns); resampling keeps what the seat knows."""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from skat_env import skat_v0  # noqa: E402
from skat_env.core.game import DISCARD, PLAY, SKAT, Game  # noqa: E402
from skat_env.core.rewards import rewards_of  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.integrations import openspiel as ops  # noqa: E402


def _deal(state, rng):
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


def _random_state(game, rng, moves):
    """A dealt state after up to ``moves`` random moves (stops at the end)."""
    state = game.new_initial_state()
    _deal(state, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_registered_with_our_moves_tensor_and_bounds():
    game = pyspiel.load_game("python_skat")
    assert game.num_distinct_actions() == 121 and game.num_players() == 3
    assert game.max_chance_outcomes() == 32
    assert game.information_state_tensor_shape() == [450]
    assert game.observation_tensor_shape() == [450]
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-540.0, 270.0)
    hist = pyspiel.load_game("python_skat(observation_mode=history,reward_mode=seeger_fabian)")
    assert hist.information_state_tensor_shape() == [1500]
    assert hist.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (hist.min_utility(), hist.max_utility()) == (-590.0, 314.0)


@pytest.mark.parametrize(
    "params", ["reward_mode=foo", "observation_mode=bar", "dealer=3", "dealer=-1"]
)
def test_bad_parameters_are_refused(params):
    with pytest.raises(Exception, match="reward_mode|observation_mode|dealer"):
        pyspiel.load_game(f"python_skat({params})")


@pytest.mark.slow
def test_openspiel_random_sim_test_200_games_with_serialisation():
    pyspiel.random_sim_test(
        pyspiel.load_game("python_skat"), num_sims=200, serialize=True, verbose=False
    )


@pytest.mark.parametrize(
    "params", ["reward_mode=list,dealer=0", "reward_mode=seeger_fabian,observation_mode=history"]
)
@pytest.mark.slow
def test_openspiel_random_sim_test_other_parameters(params):
    game = pyspiel.load_game(f"python_skat({params})")
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


@pytest.mark.slow
def test_same_deals_and_moves_as_the_env_on_2000_games():
    """Differential against the PettingZoo env: the same deal and dealer, the same random
    moves; the player to act, the legal moves and the returns agree at every step, the
    information-state tensors in the first 200 games."""
    games = [pyspiel.load_game(f"python_skat(dealer={d})") for d in range(3)]
    env = skat_v0.raw_env()
    rng = random.Random(0)
    paid = 0
    for i in range(2000):
        dealer = i % 3
        state = games[dealer].new_initial_state()
        _deal(state, rng)
        env.reset(seed=i, options={"dealer": dealer, "deal": state.deal})
        final = {}
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                final[int(agent[-1])] = reward
                env.step(None)
                continue
            seat = int(agent[-1])
            assert state.current_player() == seat
            assert state.legal_actions() == np.flatnonzero(obs["action_mask"]).tolist()
            if i < 200:
                tensor = np.asarray(state.information_state_tensor(seat), np.float32)
                np.testing.assert_array_equal(tensor, obs["observation"])
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            env.step(action)
        assert state.is_terminal()
        assert state.returns() == [final[seat] for seat in range(3)]
        paid += any(state.returns())
    assert paid > 1900


def test_a_passed_in_deal_returns_nothing():
    state = pyspiel.load_game("python_skat").new_initial_state()
    _deal(state, random.Random(9))
    for _ in range(3):
        state.apply_action(96)  # pass
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]


def test_fast_observer_gives_our_encoding_for_every_seat():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_skat")
    observer = make_observation(game)
    rng = random.Random(1)
    for n in range(0, 80, 7):
        state = _random_state(game, rng, n)
        for seat in range(3):
            observer.set_from(state, seat)
            want = observe(state.game, seat)["observation"]
            np.testing.assert_array_equal(observer.tensor, want)
            assert state.observation_tensor(seat) == pytest.approx(want.tolist())
            assert observer.dict["hand"].shape == (32,)


def test_observers_other_than_one_seats_view_are_refused():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_skat")
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="one seat"):
        make_observation(game, public)
    with pytest.raises(ValueError, match="no parameters"):
        make_observation(game, params={"x": 1})
    recall = pyspiel.IIGObservationType(perfect_recall=True)
    assert make_observation(game, recall).tensor.shape == (450,)


def test_returns_are_the_env_reward_modes():
    rng = random.Random(2)
    for mode in ("zero_sum", "list", "seeger_fabian"):
        game = pyspiel.load_game(f"python_skat(reward_mode={mode})")
        for _ in range(20):
            state = _random_state(game, rng, 500)
            assert state.returns() == list(rewards_of(state.game.result, mode))


def test_information_state_string_hides_other_discards_and_shows_revealed_cards():
    game = pyspiel.load_game("python_skat")
    rng = random.Random(3)
    checked = 0
    while checked < 20:
        state = _random_state(game, rng, 500)
        g = state.game
        if g.result.passed_in or g.hand_game:
            continue
        d = g.declarer
        discards = " ".join(ops.CARD_NAMES[m] for _, m in g.history if m < 32)[:5]
        for seat in range(3):
            hand, moves, *revealed = state.information_state_string(seat).split(" | ")
            dealt = sorted(g.deal[i] for i in ops._own_slots(g.dealer, seat))
            assert hand.endswith("hand " + " ".join(ops.CARD_NAMES[c] for c in dealt))
            shown = discards if seat == d else "?? ??"
            assert f" pickup {shown} " in moves
            assert any(r.startswith("discarded") for r in revealed)  # the game is over
        checked += 1


@pytest.mark.slow
def test_resampling_keeps_the_information_state_and_varies_the_hidden_cards():
    pytest.importorskip("numba")
    game = pyspiel.load_game("python_skat")
    rng = random.Random(4)
    np_rng = np.random.default_rng(5)
    phases = set()
    for n in (0, 2, 5, 8, 12, 20, 30, 45) * 6:
        state = _random_state(game, rng, n)
        if state.is_terminal():
            continue
        g = state.game
        for seat in range(3):
            others = set()
            for _ in range(4):
                new = state.resample_from_infostate(seat, np_rng.random)
                assert new.information_state_string(seat) == state.information_state_string(seat)
                assert new.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert new.current_player() == state.current_player()
                assert new.legal_actions_mask(seat) == state.legal_actions_mask(seat)
                others.add(tuple(new.game.hands))  # a legal replay: apply_action checks
            assert len(others) > 1  # hidden cards are drawn, not copied
            phases.add((g.phase, seat == g.declarer))
    assert {(SKAT, True), (DISCARD, False), (PLAY, False), (PLAY, True)} <= phases


def test_resampling_during_the_deal_keeps_the_seats_own_cards():
    game = pyspiel.load_game("python_skat")
    state = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(17):
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    new = state.resample_from_infostate(1, np.random.default_rng(0).random)
    assert new.information_state_string(1) == state.information_state_string(1)
    assert new.deal[10:17] == state.deal[10:17] and len(new.deal) == 17


def test_state_from_game_replays_an_engine_game():
    g = Game.random(7, dealer=1)
    for _ in range(12):
        g.step(g.legal_actions()[0])
    state = ops.state_from_game(pyspiel.load_game("python_skat(dealer=1)"), g)
    assert state.game.moves_played() == g.moves_played() and state.deal == list(g.deal)
    with pytest.raises(ValueError, match="dealer"):
        ops.state_from_game(pyspiel.load_game("python_skat"), g)


def test_illegal_moves_and_chance_outcomes_are_refused():
    game = pyspiel.load_game("python_skat")
    state = game.new_initial_state()
    state.apply_action(5)
    with pytest.raises(Exception, match="not a card left"):
        state.apply_action(5)
    state = _random_state(game, random.Random(8), 0)
    with pytest.raises(Exception, match="cannot play"):
        state.apply_action(0 if 0 not in state.legal_actions() else 120)


def _example():
    pytest.importorskip("numba")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    import openspiel_mcts

    return openspiel_mcts


@pytest.mark.slow
def test_the_ismcts_bot_decides_from_its_information_only():
    """The bot is handed the whole game but plays the same move in every game its seat
    cannot tell apart (ISMCTS resamples the hidden cards and keys its tree by infostate)."""
    example = _example()
    game = pyspiel.load_game("python_skat")
    rng, np_rng = random.Random(10), np.random.default_rng(10)
    compared = 0
    for n in (3, 9, 20, 33, 40):
        state = _random_state(game, rng, n)
        if state.is_terminal():
            continue
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, np_rng.random)
        assert twin.game.hands != state.game.hands
        moves = []
        for s in (state, twin):
            agent = example.ismcts_agent(simulations=15, seed=1)
            agent.reset(3)
            moves.append(agent.act_game(s.game, seat))
        assert moves[0] == moves[1] and moves[0] in state.legal_actions()
        compared += 1
    assert compared >= 3


@pytest.mark.slow
def test_the_example_plays_a_duplicate_tournament_against_the_heuristic(capsys):
    example = _example()
    assert example.main(["--deals", "1", "--simulations", "5"]) == 0
    out = capsys.readouterr().out
    assert "ismcts:5" in out and "heuristic" in out and "3 games" in out
    assert example.main(["--deals", "0"]) == 2
