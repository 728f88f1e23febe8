"""JSON snapshots of a game for the page: what one seat may see (or, when watching a
record, every card), the public move log and the score sheet.

Everything a seat sees comes from :func:`skat_env.encoding.view.player_view`; legality,
trick winners and scores come from the core. The page only draws what it gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.bidding import POSITION_NAMES
from ..core.cards import CARD_NAMES, cards_of
from ..core.game import DISCARD, PHASE_NAMES, PLAY, Game, Result
from ..core.moves import (
    FIRST_BID,
    FIRST_DECLARATION,
    HAND,
    HOLD,
    MOVE_NAMES,
    PASS,
    PICKUP,
    move_names,
)
from ..core.scoring import Contract, multiplier, score_game
from ..core.tables import (
    BASE_VALUES,
    EFFECTIVE_SUIT,
    GAME_NAMES,
    GRAND,
    NULL,
    STRENGTH,
    TRUMP_ORDER,
)
from ..core.tricks import trick_winner
from ..encoding.view import PlayerView, player_view


def sorted_cards(mask: int, game_kind: int = GRAND) -> list[str]:
    """Card names sorted for reading: trumps first, then by suit, strongest first."""
    kind = game_kind if game_kind >= 0 else GRAND
    eff, strength = EFFECTIVE_SUIT[kind], STRENGTH[kind]
    cards = sorted(cards_of(mask), key=lambda c: (-(eff[c] == 4), eff[c], -strength[c]))
    return [CARD_NAMES[c] for c in cards]


def move_kind(move: int) -> str:
    """The family of a move id: card, bid, hold, pass, pickup, hand or declare."""
    if move < FIRST_BID:
        return "card"
    if move < HOLD:
        return "bid"
    if move >= FIRST_DECLARATION:
        return "declare"
    return {HOLD: "hold", PASS: "pass", PICKUP: "pickup", HAND: "hand"}[move]


def move_text(move: int, phase: int, visible: bool = True) -> str:
    """How the log reads a move made in ``phase`` (a hidden discard is not named)."""
    kind = move_kind(move)
    name = MOVE_NAMES[move]
    if kind == "card":
        if phase == DISCARD:
            return f"discards {name}" if visible else "discards a card"
        return f"plays {name}"
    return {
        "bid": f"bids {name}",
        "hold": "holds",
        "pass": "passes",
        "pickup": "picks up the skat",
        "hand": "plays hand",
        "declare": f"declares {name}",
    }[kind]


def event(phase: int, seat: int, move: int, visible: bool) -> dict[str, Any]:
    """One move as the log shows it; ``phase`` is the phase the move was made in."""
    return {
        "seat": seat,
        "kind": "discard" if phase == DISCARD else move_kind(move),
        "move": MOVE_NAMES[move] if visible else None,
        "text": move_text(move, phase, visible),
    }


def discard_visible(phase: int, seat: int, viewer: int | None, over: bool) -> bool:
    """Whether ``viewer`` may see a move ``seat`` made in ``phase``: a discard is seen by
    the declarer who made it, and by everyone once the game is over."""
    return phase != DISCARD or viewer is None or viewer == seat or over


def move_log(game: Game, viewer: int | None) -> list[dict[str, Any]]:
    """Every move so far as ``viewer`` saw it, in order. The phase a move was made in
    matters only for discards: the card moves between a pickup and the declaration (read
    off the history, not replayed: this runs for every snapshot)."""
    out = []
    picked_up = declared = False
    for seat, move in game.history:
        kind = move_kind(move)
        picked_up |= kind == "pickup"
        declared |= kind == "declare"
        phase = DISCARD if kind == "card" and picked_up and not declared else PLAY
        out.append(event(phase, seat, move, discard_visible(phase, seat, viewer, game.is_over)))
    return out


def completed_tricks(view: PlayerView) -> list[dict[str, Any]]:
    """The finished tricks (public): cards in play order, winner and card points."""
    if view.contract is None:
        return []
    seq = view.play_sequence
    return [_trick(view.contract.game, seq[i : i + 3]) for i in range(0, len(seq) - 2, 3)]


def _trick(kind: int, trick: Sequence[tuple[int, int]]) -> dict[str, Any]:
    win = trick_winner(kind, [c for _, c in trick])
    return {
        "cards": [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick],
        "winner": trick[win][0],
    }


def completed_trick(game: Game, last_move: int | None) -> dict[str, Any] | None:
    """The trick that ``last_move`` (the game's last move) completed, if it completed one:
    watching a record, the table shows it before it is cleared."""
    plays = game.plays
    if last_move is None or not plays or len(plays) % 3 or plays[-1][1] != last_move:
        return None
    assert game.contract is not None  # cards are played once a contract is declared
    return _trick(game.contract.game, plays[-3:])


def _legal(view: PlayerView) -> dict[str, Any] | None:
    """The legal moves of the observer if it is to act (``None`` otherwise)."""
    if not view.legal_mask:
        return None
    return {"phase": PHASE_NAMES[view.phase], "moves": move_names(view.legal_mask)}


def snapshot(game: Game, viewer: int | None, names: list[str]) -> dict[str, Any]:
    """What ``viewer`` sees now (``viewer=None``: every card, for watching a record).

    During play only :func:`player_view` decides what is sent; once the game is over the
    dealt hands, the skat and the discards are revealed to everyone.
    """
    seat = 0 if viewer is None else viewer
    view = player_view(game, seat)
    kind = view.contract.game if view.contract else -1
    seats = []
    for s in range(3):
        seats.append(
            {
                "seat": s,
                "name": names[s],
                "position": POSITION_NAMES[game.position_of(s)],
                "cards_left": game.hands[s].bit_count(),
                "bid": view.bids[s],
                "passed": bool(view.passed >> s & 1),
                "points": view.points[s],
                "tricks": view.tricks[s],
                "hand": _hand_of(game, view, viewer, s, kind),
            }
        )
    return {
        "viewer": viewer,
        "phase": PHASE_NAMES[view.phase],
        "moves_played": len(game.history),
        "dealer": view.dealer,
        "forehand": game.forehand,
        "to_act": view.to_act,
        "bid": view.bid,
        "declarer": view.declarer,
        "contract": view.contract.name() if view.contract else None,
        "game_kind": GAME_NAMES[kind] if kind >= 0 else None,
        "hand_game": view.hand_game,
        "seats": seats,
        "skat": sorted_cards(game.skat if viewer is None else view.skat, kind),
        "discarded": sorted_cards(game.discarded if viewer is None else view.discarded, kind),
        "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in view.trick],
        "trick_leader": view.trick_leader,
        "tricks_done": completed_tricks(view),
        "legal": _legal(view) if viewer is not None else None,
        "log": move_log(game, viewer),
        "result": score_sheet(game, names) if game.is_over else None,
        "dealt": dealt_hands(game) if game.is_over else None,
    }


def _hand_of(game: Game, view: PlayerView, viewer: int | None, s: int, kind: int) -> list | None:
    """The cards of seat ``s`` the viewer may see: own hand, an ouvert declarer's open
    hand, or every hand when watching (``None``: hidden)."""
    if viewer is None:
        return sorted_cards(game.hands[s], kind)
    if s == viewer:
        return sorted_cards(view.hand, kind)
    if s == view.declarer and view.open_hand:
        return sorted_cards(view.open_hand, kind)
    return None


def dealt_hands(game: Game) -> dict[str, Any]:
    """The deal as dealt: each seat's ten cards and the skat (shown once the game is over)."""
    kind = game.game_kind
    hands = [0, 0, 0]
    for pos in range(3):
        for c in game.deal[10 * pos : 10 * pos + 10]:
            hands[game.seat_of(pos)] |= 1 << c
    return {
        "hands": [sorted_cards(h, kind) for h in hands],
        "skat": sorted_cards((1 << game.deal[30]) | (1 << game.deal[31]), kind),
        "discarded": sorted_cards(game.discarded, kind),
    }


def score_sheet(game: Game, names: list[str] | None = None) -> dict[str, Any]:
    """The score-sheet breakdown of a finished game, from :attr:`Game.result` and
    :func:`skat_env.core.scoring.score_game`."""
    r = game.result
    assert r is not None  # a finished game
    sheet: dict[str, Any] = {"result": r.to_dict()}
    if r.passed_in:
        sheet["summary"] = "Passed in: nobody bid, no score."
        return sheet
    c = game.contract
    assert c is not None and r.declarer is not None  # not passed in: a declarer's contract
    sheet["levels"] = _levels(game, c, r)
    top = TRUMP_ORDER[c.game][: abs(r.matadors)] if c.game != NULL else ()
    sheet["matador_cards"] = [CARD_NAMES[x] for x in top]
    sheet["base_value"] = BASE_VALUES[c.game] if c.game != NULL else None
    sheet["lost_value"] = -r.score // 2 if r.overbid else None
    who = names[r.declarer] if names else f"player_{r.declarer}"
    verdict = "won" if r.won else "lost"
    sheet["summary"] = (
        f"{who} {verdict} {r.contract} with {r.declarer_points} card points: {r.score:+d}"
    )
    return sheet


def _levels(game: Game, c: Contract, r: Result) -> list[list[Any]]:
    """The multiplier levels [key, count] that make up the game value (the page names them
    in its language; "with" and "without" count matadors); their sum is the core's
    :func:`multiplier`. Null: ``[["null", value]]``, its fixed value."""
    if c.game == NULL:
        return [["null", r.game_value]]
    d = game.declarer
    twelve = game.hands[d] | game.played[d] | game.declarer_skat
    def_tricks = sum(game.tricks_won) - r.declarer_tricks
    out = score_game(c, r.bid, twelve, r.declarer_points, r.declarer_tricks,
                     r.defender_points, def_tricks, r.ended_early)  # fmt: skip
    m = r.matadors
    levels: list[list[Any]] = [
        ["with" if m > 0 else "without", abs(m)],
        ["game", 1],
        ["hand", int(c.hand)],
        ["schneider", int(out.schneider_level or c.schneider)],
        ["schneider announced", int(c.schneider)],
        ["schwarz", int(out.schwarz_level or c.schwarz)],
        ["schwarz announced", int(c.schwarz)],
        ["ouvert", int(c.ouvert)],
    ]
    levels = [lv for lv in levels if lv[1]]
    total = multiplier(c, m, out.schneider_level, out.schwarz_level)
    assert sum(n for _, n in levels) == total, (levels, total)
    return levels


__all__ = ["completed_trick", "dealt_hands", "move_log", "score_sheet", "snapshot", "sorted_cards"]
