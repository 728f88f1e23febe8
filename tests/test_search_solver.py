"""The double-dummy solver against an independent brute-force minimax, hand-worked positions
and bad input."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import solver_positions  # noqa: E402  (tests/ is on the path, as for every test module)

from skat_env.core.cards import CARD_POINTS, mask_of, parse_cards  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.core.tables import GAME_NAMES, GRAND, HEARTS_GAME, NULL  # noqa: E402
from skat_env.core.tricks import legal_cards, trick_winner  # noqa: E402
from skat_env.search import (  # noqa: E402
    Position,
    PositionError,
    Solver,
    best_moves,
    default_solver,
    null_safe,
    reaches,
    reaches_all_tricks,
    reaches_tricks,
    solve,
)

# --- brute force: plain minimax over the core's legal_cards / trick_winner ---


def _brute(game: int, decl: int, hands: tuple, leader: int, trick: tuple, tricks: bool) -> int:
    """Declarer's units (card points, or tricks) from here under minimax: the declarer
    maximises in suit/grand, minimises (its tricks) in null."""

    @functools.cache
    def value(hands: tuple, leader: int, trick: tuple) -> int:
        player = (leader + len(trick)) % 3
        if not any(hands) and not trick:
            return 0
        cards = legal_cards(hands[player], game, trick[0] if trick else -1)
        vals = []
        for c in range(32):
            if not cards >> c & 1:
                continue
            nh = list(hands)
            nh[player] &= ~(1 << c)
            nt = trick + (c,)
            if len(nt) < 3:
                vals.append(value(tuple(nh), leader, nt))
                continue
            winner = (leader + trick_winner(game, nt)) % 3
            units = 1 if tricks else sum(CARD_POINTS[x] for x in nt)
            vals.append((units if winner == decl else 0) + value(tuple(nh), winner, ()))
        declarer_wants_more = game != NULL
        pick = max if (player == decl) == declarer_wants_more else min
        return pick(vals)

    return value(tuple(hands), leader, tuple(trick))


def _brute_moves(p: Position, tricks: bool) -> dict[int, int]:
    """Declarer's units after each legal card of the player to move (the already taken
    units excluded), by brute force."""
    player = p.to_move
    legal = legal_cards(p.hands[player], p.game, p.trick[0] if p.trick else -1)
    out = {}
    for c in range(32):
        if not legal >> c & 1:
            continue
        hands = list(p.hands)
        hands[player] &= ~(1 << c)
        trick = p.trick + (c,)
        got, leader = 0, p.leader
        if len(trick) == 3:
            leader = (p.leader + trick_winner(p.game, trick)) % 3
            units = 1 if tricks else sum(CARD_POINTS[x] for x in trick)
            got = units if leader == p.declarer else 0
            trick = ()
        out[c] = got + _brute(p.game, p.declarer, tuple(hands), leader, trick, tricks)
    return out


def _random_position(seed: int, game: int, tricks_left: int, extra_cards: int) -> Position:
    """A position reached by random legal play: ``tricks_left`` tricks to go (the current
    one included), ``extra_cards`` (0..2) already played to the current trick."""
    rng = np.random.default_rng(seed)
    g = Game.random(rng)
    for m in ["18", "pass", "pass", "hand", GAME_NAMES[game]]:
        g.play(m)
    cards_to_play = (10 - tricks_left) * 3 + extra_cards
    for _ in range(cards_to_play):
        g.step(int(rng.choice(g.legal_actions())))
        if g.is_over:  # a null game can end early: replay from another seed
            return _random_position(seed + 10_000, game, tricks_left, extra_cards)
    return Position.from_game(g)


positions = st.builds(
    _random_position,
    seed=st.integers(0, 2**31),
    game=st.integers(0, 5),
    tricks_left=st.integers(1, 4),
    extra_cards=st.integers(0, 2),
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(positions)
def test_solve_and_best_moves_match_brute_force(p: Position):
    if p.game == NULL:
        safe = _brute(p.game, p.declarer, p.hands, p.leader, p.trick, True) == 0
        safe = safe and p.declarer_tricks == 0
        assert solve(p) == int(safe)
        assert null_safe(p) is safe
        assert reaches(p, 61) is safe  # target ignored in null
        want = {c: int(v == 0 and p.declarer_tricks == 0) for c, v in _brute_moves(p, True).items()}
        assert best_moves(p) == want
        return
    future = _brute(p.game, p.declarer, p.hands, p.leader, p.trick, False)
    value = p.declarer_points + future
    assert solve(p) == value
    for guess in (0, value - 3, value, value + 1, 200):  # a guess changes no answer
        assert default_solver().solve(p, guess=guess) == value
    for target in (value - 1, value, value + 1, 61, 90, 120):
        assert reaches(p, target) is (value >= target)
    moves = {c: p.declarer_points + v for c, v in _brute_moves(p, False).items()}
    assert best_moves(p) == moves
    assert default_solver().best_moves(p, guess=value - 5) == moves
    assert best_moves(p, 61) == {c: int(v >= 61) for c, v in moves.items()}
    assert best_moves(p, value) == {c: int(v >= value) for c, v in moves.items()}
    tricks = p.declarer_tricks + _brute(p.game, p.declarer, p.hands, p.leader, p.trick, True)
    assert reaches_tricks(p, tricks) and not reaches_tricks(p, tricks + 1)
    all_tricks = p.defender_tricks == 0 and tricks == p.declarer_tricks + p.tricks_left
    assert reaches_all_tricks(p) is all_tricks


# --- hand-worked positions ---


def _pos(game: int, hands: tuple[str, str, str], leader: int = 0, decl: int = 0, **kw) -> Position:
    return Position(game, decl, tuple(mask_of(parse_cards(h)) for h in hands), leader, **kw)


def test_all_top_trumps_take_everything():
    # Grand, declarer (seat 0) leads CJ SJ HJ: the defenders hold no jack, every lead wins.
    # All 3 tricks: 3 * 2 (jacks) + CA CT SA + HA HT DA = 6 + 11+10+11 + 11+10+11 = 70.
    p = _pos(GRAND, ("CJ SJ HJ", "CA CT SA", "HA HT DA"), declarer_points=10)
    assert solve(p) == 80
    assert "hands=[CJ SJ HJ | CA CT SA | HA HT DA]" in str(p)
    assert reaches_all_tricks(p)
    assert best_moves(p) == {c: 80 for c in parse_cards("CJ SJ HJ")}


def test_defenders_cash_their_aces_first():
    # Hearts game, defender seat 1 leads. Declarer 0: HJ C7 (trump jack + small club);
    # seat 1: CA CT; seat 2: S7 S8. Seat 1 leads CA: declarer must follow C7, seat 2 discards:
    # defenders 11. Then CT: declarer trumps with HJ, takes CT + HJ + S = 12 points.
    # Declarer's best: 12, whatever seat 1 leads (CT first: C7 follows, CA trumped: 13? no:
    # declarer has only one club; CT led -> C7, then CA -> HJ trumps: 11+2+0 = 13).
    # So the defenders lead CA first: declarer gets 10 + 2 = 12.
    p = _pos(HEARTS_GAME, ("HJ C7", "CA CT", "S7 S8"), leader=1)
    assert solve(p) == 12
    ca, ct = parse_cards("CA CT")
    assert best_moves(p) == {ca: 12, ct: 13}
    assert best_moves(p, 13) == {ca: 0, ct: 1}


def test_null_safe_and_unsafe():
    # Null, declarer 0 holds the 7s: it always plays under. Safe.
    safe = _pos(NULL, ("C7 S7", "CA SA", "CK SK"), leader=1)
    assert solve(safe) == 1 and null_safe(safe)
    # Declarer holds CA alone in clubs and leads: it must take the trick. Unsafe.
    unsafe = _pos(NULL, ("CA S7", "C7 SA", "C8 SK"))
    assert solve(unsafe) == 0 and not null_safe(unsafe)
    # Declarer C8 S9, seat 1 C7 S8, seat 2 CA D7; seat 1 leads. C7: seat 2 must play CA,
    # declarer ducks C8; seat 2 leads D7, declarer discards S9 under... no: seat 1 follows
    # nothing (void in diamonds), the trick is seat 2's: safe. S8: seat 2 is void (D7),
    # declarer must follow S9 over S8 and takes the trick: lost. The defenders lead S8.
    p = _pos(NULL, ("C8 S9", "C7 S8", "CA D7"), leader=1)
    c7, s8 = parse_cards("C7 S8")
    assert best_moves(p) == {c7: 1, s8: 0}
    assert solve(p) == 0


def test_squeeze_endgame():
    # Grand, 2 tricks left, declarer (seat 0) leads. Declarer: SA HA; seat 1: ST HT
    # (it must guard both tens); seat 2: D7 D8. Whatever declarer leads, seat 1 follows
    # suit; declarer's aces win both: 11+10+11+10 = 42.
    p = _pos(GRAND, ("SA HA", "ST HT", "D7 D8"))
    assert solve(p) == 42
    # Three tricks: declarer SA HA C7, seat 1 ST HT CA, seat 2 D7 D8 D9, declarer leads.
    # Leading an ace first wins 21 each; leading C7 loses the club trick (CA 11) and then seat 1
    # leads. Best: SA, HA then C7 to CA: 21 + 21 = 42; after C7 first seat 1 wins and leads
    # ST or HT into the aces: 0 + 21 + 21 = 42 too. Value 42 either way.
    p3 = _pos(GRAND, ("SA HA C7", "ST HT CA", "D7 D8 D9"))
    assert solve(p3) == 42
    assert not reaches(p3, 43) and reaches(p3, 42)


# --- bad input ---


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(game=6), "game must be a game kind 0..5"),
        (dict(declarer=3), "declarer must be a seat"),
        (dict(leader=-1), "leader must be a seat"),
        (dict(hands=(1, 1, 2)), "overlap"),
        (dict(hands=(1 | 2, 4, 8 | 16)), "hand sizes"),
        (dict(hands=(1, 2)), "tuple of 3 card sets"),
        (dict(trick=(1,)), "also held"),
        (dict(declarer_points=-1), "declarer_points must be a non-negative"),
        (dict(declarer_tricks=10), "exceed 10"),
        (dict(declarer_points=100, defender_points=30), "exceed 120"),
    ],
)
def test_bad_positions_raise(kwargs, words):
    base = dict(game=GRAND, declarer=0, hands=(1, 2, 4), leader=0)
    base.update(kwargs)
    with pytest.raises(PositionError, match=words):
        solve(Position(**base))


def test_renounce_in_trick_is_caught():
    # Seat 1 played a diamond on a club lead while holding a club.
    p = _pos(GRAND, ("C7", "CA", "D7 S7"), leader=0, trick=tuple(parse_cards("C8 D8")))
    with pytest.raises(PositionError, match="holds the led suit"):
        solve(p)


def test_wrong_queries_raise():
    p = _pos(NULL, ("C7", "CA", "CK"))
    with pytest.raises(PositionError, match="null"):
        reaches_tricks(p, 1)
    g = _pos(GRAND, ("C7", "CA", "CK"))
    with pytest.raises(PositionError, match="null games"):
        null_safe(g)
    with pytest.raises(ValueError, match="target"):
        reaches(g, "61")
    with pytest.raises(ValueError, match="tt_bits"):
        Solver(tt_bits=4)


def test_from_game_rejects_other_phases():
    with pytest.raises(PositionError, match="play phase"):
        Position.from_game(Game.random(0))


def test_solver_reuse_across_deals_matches_fresh():
    # One solver over positions of different deals (new table generations) and successive
    # positions of one deal (kept generation) gives the fresh solver's answers.
    shared = Solver(tt_bits=12)
    for seed in range(6):
        p = _random_position(seed, seed % 5, 5, seed % 3)
        assert shared.solve(p) == Solver(tt_bits=12).solve(p)
    shared.clear()
    shared.reset_nodes()
    assert shared.solve(p) == Solver(tt_bits=12).solve(p) and shared.nodes > 0


def test_search_writes_through_to_the_solvers_arrays():
    # The kernel searches on views of the solver's arrays without reference counts: the
    # table and the node counter it writes must be the solver's own, so a repeated solve
    # finds the first one's entries and searches fewer nodes.
    solver = Solver(tt_bits=14)
    p = _random_position(3, 0, 6, 1)
    value = solver.solve(p)
    first = solver.nodes
    assert first > 0 and np.count_nonzero(solver._tt) > 0
    solver.reset_nodes()
    assert solver.solve(p) == value and 0 < solver.nodes < first
    solver.clear()
    solver.reset_nodes()
    assert solver.solve(p) == value and solver.nodes == first


def test_clear_gives_a_fresh_tables_answers_and_nodes():
    # Node-limited answers depend on what the table holds: after clear() they must be a
    # fresh solver's, with the same node count.
    p, q = _random_position(4, 1, 7, 0), _random_position(5, 4, 7, 2)
    fresh = Solver(tt_bits=12)
    want = fresh.best_moves(q, 61, max_nodes=300)
    used = Solver(tt_bits=12)
    used.solve(p)
    used.best_moves(q, 61)
    used.clear()
    used.reset_nodes()
    assert used.best_moves(q, 61, max_nodes=300) == want and used.nodes == fresh.nodes


# --- against stored exact answers (tests/solver_positions.py recorded them) ---

_STORED = json.loads(solver_positions.RECORD.read_text())


def _moves(stored: dict[str, int]) -> dict[int, int]:
    return {int(c): v for c, v in stored.items()}


@pytest.mark.parametrize("row", _STORED["full_deals"], ids=range(len(_STORED["full_deals"])))
def test_full_deals_match_the_stored_answers(row):
    """Right after the declaration: the threshold answers of every first card and (on half
    of the deals: exact solves of a full deal can take seconds) the exact value."""
    s, p = Solver(tt_bits=18), solver_positions.from_json(row["position"])
    assert s.best_moves(p, 61) == _moves(row["best_moves_61"])
    for target, want in row["reaches"].items():
        assert s.reaches(p, int(target)) is want
    if "solve" in row:
        assert s.solve(p) == row["solve"]
        assert s.solve(p, guess=row["solve"] + 7) == row["solve"]


def test_benchmark_deal_92_is_56():
    """The benchmark's suit deal 92 caught a run-out bound that counted a defender's sure
    trump twice (once as sure, once as drawn by its partner): 55 points instead of 56."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_solver

    assert Solver(tt_bits=18).solve(bench_solver.deal_position(92, "suit")) == 56


@pytest.mark.parametrize("row", _STORED["endgames"], ids=range(len(_STORED["endgames"])))
def test_endgames_match_the_stored_answers(row):
    """From trick 4 to 6 (some mid-trick): exact values of every card, with and without a
    guess, and the exact solve."""
    s, p = Solver(tt_bits=18), solver_positions.from_json(row["position"])
    moves = _moves(row["best_moves"])
    assert s.best_moves(p) == moves
    assert s.best_moves(p, guess=min(moves.values())) == moves
    assert s.solve(p) == row["solve"]


def test_random_positions_match_the_stored_answers():
    """A few hundred positions of every game kind, one to six tricks left: the exact value
    and the exact value of every card, from one reused table."""
    s = Solver(tt_bits=16)
    kinds = set()
    for i, row in enumerate(_STORED["random"]):
        p = solver_positions.from_json(row["position"])
        kinds.add(p.game)
        assert s.solve(p) == row["solve"], i
        assert s.best_moves(p) == _moves(row["best_moves"]), i
    assert kinds == set(range(6)) and len(_STORED["random"]) >= 300


def test_node_limit_leaves_unsettled_cards_none():
    """A card whose search runs past ``max_nodes`` has no value (None); every other card
    has its true one, and the table stays valid for later searches."""
    p = solver_positions.deal_position(3, 0)
    full, exact = Solver(tt_bits=16).best_moves(p, 61), Solver(tt_bits=16).best_moves(p)
    s = Solver(tt_bits=16)
    for target, want in ((61, full), (None, exact)):
        part = s.best_moves(p, target, max_nodes=200)
        assert set(part) == set(want) and None in part.values()
        assert all(v is None or v == want[c] for c, v in part.items())
        assert s.best_moves(p, target) == want
        assert s.best_moves(p, target, max_nodes=10**9) == want
    s.clear()
    value = s.solve(p)
    s.clear()
    assert s.reaches(p, value, max_nodes=50) is None  # the exact value is the hardest question
    assert s.reaches(p, value, max_nodes=10**9) is True
    assert s.reaches(p, value + 1, max_nodes=10**9) is False
    for bad in (0, -5, 1.5, True):
        with pytest.raises(ValueError):
            s.best_moves(p, 61, max_nodes=bad)
        with pytest.raises(ValueError):
            s.reaches(p, 61, max_nodes=bad)


# --- the benchmark runs ---


@pytest.mark.slow
def test_bench_solver_smoke(capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_solver

    assert bench_solver.main(["--deals", "2", "--kinds", "null,suit", "--tt-bits", "16"]) == 0
    out = capsys.readouterr().out
    assert "suit   solve" in out and "null   best_moves" in out and "suit   best_moves 61" in out
    with pytest.raises(SystemExit):
        bench_solver.main(["--kinds", "bridge"])
    args = ["--deals", "1", "--kinds", "null", "--queries", "solve"]
    assert bench_solver.main(args) == 0
    out = capsys.readouterr().out
    assert "null   solve" in out and "best_moves" not in out
    with pytest.raises(SystemExit):
        bench_solver.main(["--queries", "solve,guess"])
    # The benchmark's full deals are consistent positions: the exact value is reachable and
    # one point more is not, and the declarer's best first card achieves it.
    solver = Solver(tt_bits=16)
    for kind in ("suit", "grand"):
        p = bench_solver.deal_position(3, kind)
        value = solver.solve(p)
        assert solver.reaches(p, value) and not solver.reaches(p, value + 1)
        moves = solver.best_moves(p)
        pick = max if p.to_move == p.declarer else min
        assert pick(moves.values()) == value


def test_from_game_counts_the_skat_for_the_declarer():
    g = Game.random(7)
    for m in ["18", "pass", "pass", "hand", "clubs"]:
        g.play(m)
    p = Position.from_game(g)
    assert p.declarer == g.declarer and p.game == 0 and p.leader == g.forehand
    assert p.declarer_points == sum(CARD_POINTS[c] for c in range(32) if g.skat >> c & 1)
    for _ in range(4):  # mid-trick, after a trick: the points still add up to 120
        g.step(g.legal_actions()[0])
    p = Position.from_game(g)
    live = p.hands[0] | p.hands[1] | p.hands[2] | mask_of(p.trick)
    left = sum(CARD_POINTS[c] for c in range(32) if live >> c & 1)
    assert p.declarer_points + p.defender_points + left == 120
    assert len(p.trick) == 1 and p.declarer_tricks + p.defender_tricks == 1
    assert 0 <= solve(p) - p.declarer_points <= left
