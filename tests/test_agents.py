"""Agents act legally from the observation alone; the registry builds them by spec."""

from __future__ import annotations

import copy
import pickle
import re
import sys
from collections import Counter

import numpy as np
import pytest

from skat_env.agents import AgentSpecError, HeuristicAgent, RandomAgent, make_agent
from skat_env.agents.base import observation_view, view_of
from skat_env.agents.human import HumanAgent
from skat_env.agents.registry import SPECS
from skat_env.core.game import PHASE_NAMES, PLAY, Game
from skat_env.encoding.observation import observe
from skat_env.encoding.view import player_view


def _family(game: Game) -> str:
    kind = game.contract.game
    return "null" if kind == 5 else "grand" if kind == 4 else "suit"


@pytest.mark.slow
def test_agents__act_legally_in_every_phase_and_contract_family():
    """Through the env's own observation dicts, over mixed tables of random and heuristic."""
    agents = {"random": RandomAgent(0), "heuristic": HeuristicAgent()}
    phases: Counter = Counter()
    families: Counter = Counter()
    tables = (
        ("heuristic", "random", "random"),
        ("heuristic", "heuristic", "random"),
        ("heuristic", "heuristic", "heuristic"),
    )
    for i in range(240):
        table = tables[i % 3]
        game = Game.random(i, dealer=i % 3)
        while not game.is_over:
            seat = game.to_act
            name = table[(seat + i) % 3]
            obs = observe(game, seat)
            move = agents[name].act(obs)
            assert obs["action_mask"][move] == 1, (name, PHASE_NAMES[game.phase], move)
            phases[name, game.phase] += 1
            if game.phase == PLAY:
                families[name, _family(game), seat == game.declarer] += 1
            game.step(move)
    for name in agents:
        for phase in range(5):
            assert phases[name, phase] > 0, (name, PHASE_NAMES[phase])
    for fam in ("suit", "grand", "null"):
        assert families["random", fam, True] > 0, fam
        assert families["heuristic", fam, False] > 0, fam
    assert families["heuristic", "suit", True] > 0 and families["heuristic", "grand", True] > 0


def test_heuristic__declares_and_plays_null_with_a_null_hand():
    from helpers import make_deal

    deal = make_deal("C7 C9 CJ S7 S8 H7 H9 D7 D8 DT", "CA CK CQ SA SK SQ HA HK HQ DA")
    game = Game(deal, dealer=2)
    agent = HeuristicAgent()
    while not game.is_over:
        obs = observe(game, game.to_act)
        move = agent.act(obs)
        assert obs["action_mask"][move] == 1
        game.step(move)
    assert game.result.contract.startswith("null") and game.result.declarer == 0


def test_random_agent__same_seed_same_moves_and_reset_reseeds():
    obs = observe(Game.random(3), 1)
    a, b = RandomAgent(7), RandomAgent(7)
    seq_a = [a.act(obs) for _ in range(20)]
    assert seq_a == [b.act(obs) for _ in range(20)]
    a.reset(7)
    assert [a.act(obs) for _ in range(20)] == seq_a
    assert len(set(seq_a)) > 3  # many legal bids: it really draws


def test_view_of__decoded_observation_equals_the_fast_path_view():
    """Evaluation's fast path hands ViewAgents exactly what decoding the observation gives."""
    for i in range(15):
        game = Game.random(100 + i, dealer=i % 3)
        rng = np.random.default_rng(i)
        while not game.is_over:
            for seat in range(3):
                assert view_of(observe(game, seat)) == observation_view(player_view(game, seat))
            legal = game.legal_actions()
            game.step(legal[rng.integers(len(legal))])


@pytest.mark.parametrize(
    ("spec", "cls"),
    [("random", RandomAgent), ("heuristic", HeuristicAgent), ("human", HumanAgent)],
)
def test_make_agent__builds_each_named_agent(spec, cls):
    assert isinstance(make_agent(spec), cls)


def test_make_agent__heuristic_margin_option():
    agent = make_agent("heuristic:margin=-1.5")
    assert agent.margin == -1.5 and agent.name == "heuristic:margin=-1.5"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("randon", "unknown agent 'randon' (did you mean random?); agents: random, heuristic"),
        ("ppo:", "ppo needs a path: ppo[:PATH]"),
        ("ppo:/no/such/model.zip", "no model file at '/no/such/model.zip'"),
        ("rllib:/no/such/dir", "no RLlib checkpoint or policy file"),
        ("rllib", "rllib needs a path: rllib:PATH[#MODULE]"),
        ("heuristic:speed=3", "'speed' (in 'heuristic:speed=3'); options: margin=X, contracts="),
        ("heuristic:margin=x", "heuristic option margin must be a number, got 'x'"),
        ("heuristic:contracts=learned,margin=1", "with contracts=learned write learned:margin"),
        ("learned:skats=0", "learned option skats must be an integer >= 1, got '0'"),
        ("learned:model=/no/such.npz", "/no/such.npz"),
        ("learned:nulls=yes", "learned option nulls must be 0 or 1"),
        ("human:x=1", "unknown human option 'x'"),
    ],
)
def test_make_agent__bad_spec_is_one_line_naming_it_and_what_is_allowed(spec, why):
    """The error names the spec and what is allowed in one line, not the whole list."""
    with pytest.raises(AgentSpecError) as e:
        make_agent(spec)
    text = str(e.value)
    assert why in text and spec in text and "\n" not in text and len(text) < 300


def test_unknown_agent_points_at_the_list_of_options():
    with pytest.raises(AgentSpecError, match=r"docs/agents\.md, or python -m skat_env\.agents"):
        make_agent("nobody")


def test_make_agent__file_that_is_not_a_model(tmp_path):
    bad = tmp_path / "model.zip"
    bad.write_text("not a zip")
    with pytest.raises(AgentSpecError, match="not a saved model"):
        make_agent(f"ppo:{bad}")


def test_specs_list_every_agent_kind():
    kinds = [re.match(r"[a-z]+", s).group() for s in SPECS]
    assert kinds == ["random", "heuristic", "learned", "ppo", "rllib", "pimc", "oracle", "human"]
    for kind in set(kinds):  # each listed kind is one make_agent knows (not "unknown agent")
        try:
            make_agent(kind)
        except AgentSpecError as e:
            assert "unknown agent" not in str(e)


def test_search_agents_without_numba_are_spec_errors(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    search_modules = ("skat_env.search", "skat_env.agents.pimc", "skat_env.agents.oracle")
    for name in [m for m in sys.modules if m.startswith(search_modules)]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(AgentSpecError, match=r"pimc needs the search extra"):
        make_agent("pimc")
    with pytest.raises(AgentSpecError, match=r"oracle needs the search extra"):
        make_agent("oracle")


@pytest.mark.slow
def test_ppo_agent__loads_a_saved_model_lazily_and_acts_legally(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from skat_env.envs.single_agent import SkatSingleAgentEnv

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", SkatSingleAgentEnv(), n_steps=16, batch_size=16, seed=0)
    path = tmp_path / "model.zip"
    model.save(path)
    agent = make_agent(f"ppo:{path}")
    assert agent._model is None  # nothing loaded until the first move
    game = Game.random(5)
    while not game.is_over:
        obs = observe(game, game.to_act)
        move = agent.act(obs)
        assert obs["action_mask"][move] == 1
        game.step(move)
    twin = copy.deepcopy(agent)  # tournaments copy agents per game: no reload from disk
    assert twin.policy is agent.policy and twin is not agent
    pickled = pickle.loads(pickle.dumps(agent))  # worker processes load their own copy
    assert pickled._model is None
    obs = observe(Game.random(6), 1)
    assert twin.act(obs) == agent.act(obs) == pickled.act(obs)
