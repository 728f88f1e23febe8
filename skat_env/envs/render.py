"""Text rendering: the whole table (:func:`render_game`) or one player's view
(:func:`render_view`, only what that player may see, for people playing against agents)."""

from __future__ import annotations

from ..core.bidding import POSITION_NAMES
from ..core.cards import SUIT_SYMBOLS, cards_of
from ..core.game import PHASE_NAMES, PLAY, Game
from ..core.moves import move_names
from ..core.tables import EFFECTIVE_SUIT, GRAND, STRENGTH
from ..encoding.view import PlayerView, player_view

_RANK_TEXT = ("A", "K", "Q", "J", "10", "9", "8", "7")
_VOID_NAMES = ("♣", "♠", "♥", "♦", "trump")


def card_text(card: int) -> str:
    """A card with its suit symbol, e.g. ``♣J``, ``♥10``."""
    return SUIT_SYMBOLS[card >> 3] + _RANK_TEXT[card & 7]


def cards_text(mask: int, game_kind: int = GRAND) -> str:
    """A card set sorted for reading: trumps first, then by suit, strongest first."""
    eff = EFFECTIVE_SUIT[game_kind]
    strength = STRENGTH[game_kind]
    cards = sorted(cards_of(mask), key=lambda c: (-(eff[c] == 4), eff[c], -strength[c]))
    return " ".join(card_text(c) for c in cards) or "-"


def _seat_label(view: PlayerView, seat: int) -> str:
    pos = POSITION_NAMES[(seat - view.dealer - 1) % 3]
    me = " (you)" if seat == view.seat else ""
    return f"player_{seat} {pos}{me}"


def _bidding_lines(view: PlayerView) -> list[str]:
    out = [f"bid: {view.bid or '-'}"]
    for s in range(3):
        state = "passed" if view.passed >> s & 1 else ""
        out.append(f"  player_{s}: {view.bids[s] or '-'} {state}".rstrip())
    return out


def _contract_line(view: PlayerView) -> str:
    if view.declarer < 0:
        return "contract: -"
    what = view.contract.name() if view.contract else "(declaring)"
    if view.contract is None and view.hand_game:
        what = "hand (declaring)"
    return f"declarer: player_{view.declarer}  contract: {what}"


def _trick_line(view: PlayerView) -> str:
    if not view.trick:
        return "trick: -"
    return "trick: " + "  ".join(f"player_{s}: {card_text(c)}" for s, c in view.trick)


def _score_lines(view: PlayerView) -> list[str]:
    return [f"  player_{s}: {view.points[s]:3d} points, {view.tricks[s]} tricks" for s in range(3)]


def render_view(view: PlayerView) -> str:
    """What one player may see, as text (no other hand, no unseen skat)."""
    kind = view.contract.game if view.contract else GRAND
    trick_no = view.trick_number + 1 if view.phase == PLAY else "-"
    lines = [
        f"{_seat_label(view, view.seat)} | dealer player_{view.dealer} | "
        f"phase: {PHASE_NAMES[view.phase]} | trick {trick_no}",
        f"your hand: {cards_text(view.hand, kind)}",
        *_bidding_lines(view),
        _contract_line(view),
    ]
    if view.skat:
        lines.append(f"skat: {cards_text(view.skat, kind)}")
    if view.discarded:
        lines.append(f"you discarded: {cards_text(view.discarded, kind)}")
    if view.open_hand and view.declarer != view.seat:
        lines.append(f"declarer's open hand: {cards_text(view.open_hand, kind)}")
    lines.append(_trick_line(view))
    for s in range(3):
        if s != view.seat and view.voids[s]:
            void = " ".join(_VOID_NAMES[i] for i in range(5) if view.voids[s] >> i & 1)
            lines.append(f"player_{s} is void in: {void}")
    lines += _score_lines(view)
    if view.legal_mask:
        lines.append("your moves: " + " ".join(move_names(view.legal_mask)))
    return "\n".join(lines)


def render_game(game: Game) -> str:
    """The whole table (every hand and the skat), for watching or debugging."""
    view = player_view(game, 0)
    kind = game.game_kind if game.game_kind >= 0 else GRAND
    to_act = f"player_{game.to_act}" if game.to_act >= 0 else "-"
    lines = [f"dealer player_{game.dealer} | phase: {PHASE_NAMES[game.phase]} | to act: {to_act}"]
    for s in range(3):
        lines.append(
            f"{_seat_label(view, s).replace(' (you)', ''):24s} {cards_text(game.hands[s], kind)}"
        )
    lines.append(f"{'skat':24s} {cards_text(game.skat, kind)}")
    if game.discarded:
        lines.append(f"{'discarded':24s} {cards_text(game.discarded, kind)}")
    lines += _bidding_lines(view)
    lines.append(_contract_line(view))
    lines.append(_trick_line(view))
    lines += _score_lines(view)
    if game.result is not None:
        r = game.result
        if r.passed_in:
            lines.append("result: passed in")
        else:
            outcome = "won" if r.won else "lost"
            lines.append(
                f"result: player_{r.declarer} {outcome} {r.contract}, "
                f"{r.declarer_points} points, value {r.game_value}, score {r.score:+d}"
            )
    return "\n".join(lines)


__all__ = ["card_text", "cards_text", "render_game", "render_view"]
