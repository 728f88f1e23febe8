"""The human agent driven through scripted input."""

from __future__ import annotations

import io
import json

import pytest

import evaluate as ev
from skat_env import tournament
from agents.human import HumanAgent, HumanQuit, numbered, parse_move
from skat_env.core.cards import mask_of, parse_cards
from skat_env.core.game import Game
from skat_env.core.moves import HOLD, MOVE_INDEX, PASS
from skat_env.encoding.observation import observe


def test_parse_move__names_cards_tens_and_numbers():
    legal = mask_of(parse_cards("HT CJ D7"))
    choices = numbered(legal)
    assert parse_move("h10\n", legal, choices) == MOVE_INDEX["HT"]
    assert parse_move(" cj ", legal, choices) == MOVE_INDEX["CJ"]
    assert parse_move("2", legal, choices) == choices[1]
    assert parse_move("SA", legal, choices) is None  # not in hand
    assert parse_move("9", legal, choices) is None  # no such number
    assert parse_move("", legal, choices) is None


def test_parse_move__bids_are_typed_as_values():
    game = Game.random(0)
    legal = game.legal_mask()  # middlehand opens: bids and pass
    choices = numbered(legal)
    assert choices == [PASS]
    assert parse_move("20", legal, choices) == MOVE_INDEX["20"]
    assert parse_move("1", legal, choices) == PASS
    assert parse_move("19", legal, choices) is None


def _agent(script: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(io.StringIO(script), out), out


def test_human__reprompts_on_bad_input_then_plays_the_named_move():
    agent, out = _agent("banana\n18\n")
    game = Game.random(0)
    move = agent.act(observe(game, game.to_act))
    text = out.getvalue()
    assert move == MOVE_INDEX["18"]
    assert "'banana' is not a legal move" in text
    assert "your hand:" in text and "legal moves:" in text


@pytest.mark.parametrize("script", ["q\n", "quit\n", ""])
def test_human__quits_cleanly(script):
    agent, _ = _agent(script)
    game = Game.random(0)
    with pytest.raises(HumanQuit):
        agent.act(observe(game, game.to_act))


def test_human__plays_a_whole_game_against_heuristics():
    agent, out = _agent("1\n" * 60)
    game = Game.random(4)
    others = tournament.make_agent("heuristic")
    tournament.play_game(game, [agent, others, others])
    assert game.is_over
    text = out.getvalue()
    assert "game over" in text
    assert "player_1" in text


def test_human__sees_only_its_own_hand():
    agent, out = _agent("1\n")
    game = Game.random(2)
    agent.act(observe(game, game.to_act))
    from skat_env.envs.render import cards_text

    shown = out.getvalue()
    assert cards_text(game.hands[game.to_act]) in shown
    for seat in range(3):
        if seat != game.to_act:
            assert cards_text(game.hands[seat]) not in shown


def test_cli__human_game_then_quit(monkeypatch, capsys, tmp_path):
    out = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 80))
    argv = ["--agents", "human", "heuristic", "heuristic", "--deals", "1", "--json", str(out)]
    assert ev.main(argv) == 0
    printed = capsys.readouterr()
    assert "game over" in printed.out and "evaluating" not in printed.err
    data = json.loads(out.read_text())
    assert data["config"]["duplicate"] is False and data["config"]["games"] == 1
    assert set(data["agents"]) == {"human", "heuristic"}  # equal specs share one label

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert ev.main(argv) == 0
    assert "bye" in capsys.readouterr().out


def test_human_hold_is_numbered():
    assert HOLD in numbered((1 << HOLD) | (1 << PASS))
