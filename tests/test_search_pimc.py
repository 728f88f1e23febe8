"""skat_env.search.pimc: the search's settings, the utility it maximises and the expected
score of a contract over worlds (the PIMC player itself is tests/test_pimc.py)."""

from __future__ import annotations

import pytest

from skat_env.core.cards import FULL_DECK
from skat_env.core.scoring import Contract
from skat_env.core.tables import NULL
from skat_env.search.pimc import Outcome, SearchConfig, expected_score, utility


def test_search_config_rejects_bad_values() -> None:
    for kw in ({"worlds": 0}, {"cap": 0.0}, {"budget": -1.0}, {"close": 31}, {"max_nodes": 0}):
        with pytest.raises(ValueError):
            SearchConfig(**kw)


def test_utility_tracks_the_score() -> None:
    """More card points never lower the declarer's utility; 61 and 90 are steps."""
    c = Contract(0)
    twelve = FULL_DECK & 0xFFF  # clubs and spades top cards: with matadors
    values = [utility(c, 18, twelve, p) for p in range(121)]
    assert all(b >= a for a, b in zip(values, values[1:], strict=False))
    assert values[61] - values[60] > 100 and values[90] > values[89]
    null = Contract(NULL)
    assert utility(null, 23, 0, 1) > 0 > utility(null, 23, 0, 0)


def test_expected_score_rules() -> None:
    """Won: value + 50; lost: -2 value - 50; below the bid: lost at the overbid value;
    slack moves a share of the losses to wins."""
    c = Contract(0)  # clubs, base 12
    outs = [Outcome(True, 36, 1.0), Outcome(False, 36, 1.0)]
    assert expected_score(outs, c, 36) == ((36 + 50) + (-2 * 36 - 50)) / 2
    assert expected_score(outs, c, 40) == -2 * 48 - 50  # overbid: next multiple of 12
    assert expected_score(outs, c, 36, slack=0.5) > expected_score(outs, c, 36)
    assert expected_score(outs, c, 36, slack=1.0) == 36 + 50
    close = [Outcome(0.5, 36, 1.0)]  # unsettled within the node limit: half a win
    assert expected_score(close, c, 36) == expected_score(outs, c, 36)


def _trick_one_view(seed: int):
    """The forehand's view at its first lead of a hand clubs game (declarer seat 0)."""
    from skat_env.core.game import Game
    from skat_env.encoding.view import player_view

    g = Game.random(seed)
    for m in ["18", "pass", "pass", "hand", "clubs"]:
        g.play(m)
    return player_view(g, g.to_act)


def test_every_card_decision_solves_a_world_and_ignores_the_table() -> None:
    """No budget is too small for one world (no fallback card at trick 1), and the
    node-limited answers do not depend on what the table held before."""
    pytest.importorskip("numba")
    from dataclasses import replace

    import numpy as np

    from skat_env.search.pimc import card_values, worlds_for
    from skat_env.search.solver import Solver

    view = _trick_one_view(3)
    tiny = SearchConfig(worlds=4, budget=0.0, max_nodes=500)
    assert worlds_for(view, tiny) == 1
    values, solved = card_values(view, np.random.default_rng(0), tiny, Solver(tt_bits=14))
    legal = [c for c in range(32) if view.legal_mask >> c & 1]
    assert solved == 1 and sorted(values) == legal
    cfg = SearchConfig(worlds=3, budget=10.0, max_nodes=500)
    warm = Solver(tt_bits=16)  # settled by an unlimited search of the same worlds first
    card_values(view, np.random.default_rng(2), replace(cfg, max_nodes=None), warm)
    a = card_values(view, np.random.default_rng(2), cfg, warm)
    b = card_values(view, np.random.default_rng(2), cfg, Solver(tt_bits=16))
    assert a == b and a[1] == 3


def test_takes_every_trick_needs_every_deal() -> None:
    """The ouvert test: true only when the declarer takes all ten tricks in every deal."""
    from skat_env.core.cards import mask_of, parse_cards
    from skat_env.core.tables import GRAND
    from skat_env.search.pimc import takes_every_trick
    from skat_env.search.solver import Solver

    def deal(mine: str, first: str, skat: str) -> tuple[tuple[int, int, int], int, float]:
        me, a, s = (mask_of(parse_cards(x)) for x in (mine, first, skat))
        return (me, a, FULL_DECK & ~(me | a | s)), s, 1.0

    sure = "CJ SJ HJ DJ CA CT CK SA ST SK"
    kept = deal(sure, "CQ C9 C8 C7 SQ S9 S8 S7 HA HT", "DA DT")
    # the seven can be beaten: a defender who keeps a higher spade takes a trick
    leaky = deal("CJ SJ HJ DJ CA CT CK SA ST S7", "SK SQ S9 S8 C9 C8 C7 HA HT HK", "DA DT")
    c, solver = Contract(GRAND, hand=True), Solver(tt_bits=16)
    assert takes_every_trick(c, 0, 0, [kept, kept], solver)
    assert not takes_every_trick(c, 0, 0, [kept, leaky], solver)
    assert not takes_every_trick(c, 0, 0, [], solver)


def _suit_or_grand_at(seed: int, trick: int):
    """The heuristic's game of ``seed`` with ``trick`` tricks complete: (game, the view of
    the seat to act, the true world), or None for a null game, schneider announced, or a
    game over before it."""
    from skat_env.agents.heuristic import HeuristicAgent
    from skat_env.core.game import PLAY, Game
    from skat_env.encoding.view import player_view
    from skat_env.search.worlds import World

    g, agent = Game.random(seed, dealer=seed % 3), HeuristicAgent()
    while not g.is_over and not (g.phase == PLAY and sum(g.tricks_won) == trick):
        g.step(agent.act_view(player_view(g, g.to_act)))
    if g.is_over or g.contract.game == NULL or g.contract.schneider:
        return None
    return g, player_view(g, g.to_act), World(tuple(g.hands), g.declarer_skat)


def test_close_worlds_match_the_exact_points() -> None:
    """``close``: in a world every card wins (or loses) for the declarer, a card is scored
    close exactly when the exact solve ends him within ``close`` points of the threshold
    (below it: the swing the declarer's way, above: the defenders'); other worlds and
    cards are scored as without it."""
    pytest.importorskip("numba")
    from skat_env.search.pimc import BANDS, _band_utilities, position_of, world_values
    from skat_env.search.solver import Solver

    solver, fired = Solver(tt_bits=18), 0
    for seed in range(60):
        found = _suit_or_grand_at(seed, 2 + seed % 3)  # the schneider question from trick 4
        if found is None:
            continue
        g, view, world = found
        plain = world_values(view, world, solver, False)
        near = world_values(view, world, solver, False, close=10)
        exact = solver.best_moves(position_of(view, world))
        twelve = g.hands[g.declarer] | g.played[g.declarer] | g.declarer_skat
        bands = _band_utilities(g.contract, g.bid, twelve)
        swing = 0.2 * (bands[2] - bands[1])
        made = {p >= BANDS[1] for p in exact.values()}
        for card, points in exact.items():
            diff = near[card] - plain[card]
            if len(made) == 2:  # the cards differ at 61: no second question
                assert diff == 0
            elif made == {True}:
                assert diff == pytest.approx(-swing if points < 71 else 0.0)
            else:
                assert diff == pytest.approx(swing if points >= 51 else 0.0)
            fired += diff != 0
    assert fired > 0


@pytest.mark.slow
def test_second_threshold_only_in_the_last_seven_tricks() -> None:
    """A world whose cards all answer the win threshold alike asks the next one (schneider
    made, or avoided) once at most ``SECOND_PASS_TRICKS`` (7) tricks are left: each card is
    then scored at the band of its exact points; earlier those cards stay tied."""
    pytest.importorskip("numba")
    from skat_env.search.pimc import (
        BANDS,
        SECOND_PASS_TRICKS,
        _band_utilities,
        position_of,
        world_values,
    )
    from skat_env.search.solver import Solver

    solver, separated, tied = Solver(tt_bits=18), 0, 0
    for seed in range(60):
        found = _suit_or_grand_at(seed, seed % 5)  # 10 to 6 tricks left
        if found is None:
            continue
        g, view, world = found
        exact = solver.best_moves(position_of(view, world))
        if len({p >= BANDS[1] for p in exact.values()}) == 2:
            continue  # the cards differ at 61: the second question is not asked
        twelve = g.hands[g.declarer] | g.played[g.declarer] | g.declarer_skat
        bands = _band_utilities(g.contract, g.bid, twelve)
        values = world_values(view, world, solver, False)
        if 10 - sum(g.tricks_won) > SECOND_PASS_TRICKS:
            assert len(set(values.values())) == 1
            tied += 1
            continue
        for card, points in exact.items():
            assert values[card] == bands[sum(points >= t for t in BANDS)]
        separated += len(set(values.values())) > 1
    assert separated > 0 and tied > 0
