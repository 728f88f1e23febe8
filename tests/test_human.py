"""The human agent driven through scripted input."""

from __future__ import annotations

import io
import json
import re

import pytest
from helpers import make_deal

import evaluate as ev
from skat_env import tournament
from skat_env.agents.human import HumanAgent, HumanQuit, numbered, parse_move
from skat_env.core.cards import card_id, mask_of, names_of, parse_cards
from skat_env.core.game import Game
from skat_env.core.moves import HOLD, MOVE_INDEX, PASS
from skat_env.core.tables import HEARTS_GAME, points_of
from skat_env.core.tricks import trick_winner
from skat_env.encoding.observation import observe
from skat_env.envs.render import card_text, cards_text, sorted_cards


def test_parse_move__names_cards_tens_and_numbers():
    legal = mask_of(parse_cards("HT CJ D7"))
    choices = numbered(legal)
    assert parse_move("h10\n", legal, choices) == MOVE_INDEX["HT"]
    assert parse_move(" cj ", legal, choices) == MOVE_INDEX["CJ"]
    assert parse_move("♥10", legal, choices) == parse_move("HT", legal, choices) == card_id("HT")
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


def test_numbered__cards_in_the_order_the_hand_is_shown():
    legal = mask_of(parse_cards("H7 CJ HA DJ S9 HT SA"))
    choices = numbered(legal | 1 << PASS, HEARTS_GAME)
    assert choices == [*sorted_cards(legal, HEARTS_GAME), PASS]
    assert [card_text(c) for c in choices[:3]] == ["♣J", "♦J", "♥A"]


def _drive(game: Game, seat: int, agent: HumanAgent, others: list[str]) -> None:
    """Play ``game`` to the end: ``agent`` at ``seat``, the other seats' moves by name."""
    moves = iter(others)
    while not game.is_over:
        if game.to_act == seat:
            game.step(agent.act(observe(game, seat)))
        else:
            game.play(next(moves))
    agent.game_over(observe(game, seat))


_CARD = r"[♣♠♥♦](?:10|[AKQJ987])"


def test_human__sees_every_card_in_play_order_and_every_trick_with_its_winner():
    agent, out = _agent("1\n" * 60)
    game = Game.random(0)  # player_1 declares diamonds after pickup; player_2 is the human
    heuristic = tournament.make_agent("heuristic")
    tournament.play_game(game, [heuristic, heuristic, agent])
    text = out.getvalue()
    shown = [(int(s), card_id(c)) for s, c in re.findall(rf"  player_(\d) played ({_CARD})", text)]
    assert shown == [p for p in game.plays if p[0] != 2]  # the others' cards, once, in order
    summary = text.split("--- game over ---")[1]
    tricks = re.findall(r"trick (\d+): (.*) -> player_(\d) wins (\d+) points?", summary)
    assert [int(t[0]) for t in tricks] == list(range(1, 11))
    leader = game.dealer + 1
    for i, (_, plays, winner, points) in enumerate(tricks):
        seats_cards = [
            (int(s), card_id(c)) for s, c in re.findall(rf"player_(\d) ({_CARD})", plays)
        ]
        assert seats_cards == game.plays[3 * i : 3 * i + 3]
        cards = [c for _, c in seats_cards]
        assert seats_cards[0][0] == leader % 3
        leader = seats_cards[trick_winner(game.game_kind, cards)][0]
        assert int(winner) == leader and int(points) == points_of(mask_of(cards))


def test_human__defender_sees_the_discards_and_points_that_add_to_120():
    agent, out = _agent("1\n" * 60)
    game = Game.random(0)
    heuristic = tournament.make_agent("heuristic")
    tournament.play_game(game, [heuristic, heuristic, agent])
    r = game.result
    summary = out.getvalue().split("--- game over ---")[1]
    assert f"skat as dealt: {cards_text(game.skat, game.game_kind)}" in summary
    assert f"declarer's discards: {cards_text(game.discarded, game.game_kind)}" in summary
    discard_points = points_of(game.discarded)
    assert (
        f"player_1 (declarer): {r.declarer_points - discard_points} in tricks + "
        f"{discard_points} in the discards = {r.declarer_points}"
    ) in summary
    assert f"defenders: {r.defender_points}; together 120\n" in summary + "\n"


_NULL_DEAL = make_deal("CA SA HA DA CK SK HK DK CQ SQ", "C7 C8 S7 S8 H7 H8 D7 D8 C9 S9")


def test_human__early_ended_hand_game_shows_the_skat_and_the_unplayed_points():
    agent, out = _agent("pass\nc7\n")
    game = Game(_NULL_DEAL, dealer=2)  # the human is middlehand; forehand plays null hand
    _drive(game, 1, agent, ["pass", "18", "hand", "null", "CA", game.hand_names(2)[0]])
    summary = out.getvalue().split("--- game over ---")[1]
    r = game.result
    assert r.ended_early and not r.won
    skat = points_of(game.skat)
    assert f"in the untouched skat = {r.declarer_points}" in summary
    assert f"{skat} in the untouched skat" in summary
    assert (
        f"unplayed, counting for nobody: {120 - r.declarer_points - r.defender_points}" in summary
    )


def test_human__early_ended_pickup_game_shows_the_discards_to_a_defender():
    agent, out = _agent("pass\nc7\n")
    game = Game(_NULL_DEAL, dealer=2)
    discards = names_of(game.skat)  # forehand picks up and lays the skat away again
    _drive(game, 1, agent, ["pass", "18", "pickup", *discards, "null", "CA", game.hand_names(2)[0]])
    summary = out.getvalue().split("--- game over ---")[1]
    assert f"declarer's discards: {cards_text(game.discarded, game.contract.game)}" in summary
    assert "counting for nobody" in summary  # an early end leaves cards unplayed


def test_human__contract_menu_shows_values_and_flags_overbids():
    deal = make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST", skat="D7 D8")
    agent, out = _agent("hold\npickup\nd7\nd8\nq\n")
    game = Game(deal, dealer=2)  # the human is forehand
    game.play("60")
    with pytest.raises(HumanQuit):
        _drive(game, 0, agent, ["pass", "pass"])
    menu = out.getvalue().rsplit("legal moves:", 1)[1]
    lines = dict(re.findall(r"\n +\d+\. (\S+) +(.*)", menu))
    assert lines["hearts"].startswith("value 40 (10 x 4, with 3)  !! below the bid 60")
    assert lines["grand"] == "value 96 (24 x 4, with 3)"
    assert "null" not in lines  # null (23) and null ouvert (46) cannot reach 60


def test_human__auction_table_separates_bids_from_holds():
    agent, out = _agent("22\n23\nq\n")
    game = Game(make_deal("CJ SJ HJ HA HT HK HQ H9 H8 H7", "DJ CA CT CK CQ C9 C8 C7 SA ST"), 2)
    with pytest.raises(HumanQuit):
        _drive(game, 2, agent, ["18", "hold", "20", "pass", "hold", "hold"])
    last = out.getvalue().rsplit("phase: bidding", 1)[1]
    assert "  player_0 forehand: held 18, passed" in last
    assert "  player_1 middlehand: bid 20, held 23" in last
    assert "  player_2 rearhand (you): bid 23" in last


def test_human__one_instance_at_two_seats_follows_each_seat():
    agent, out = _agent("18\n" + "1\n" * 120)
    game = Game.random(3)
    heuristic = tournament.make_agent("heuristic")
    tournament.play_game(game, [heuristic, agent, agent])  # player_0 declares grand (seed 3)
    text = out.getvalue()
    assert game.result.contract == "grand" and text.count("--- game over ---") == 2
    assert text.count("trick 10: ") == 4  # each seat sees the last trick, then its summary
    assert text.count("; together 120\n") == 2
