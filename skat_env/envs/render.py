"""Text rendering: the whole table (:func:`render_game`) or one player's view
(:func:`render_view`, only what that player may see, for people playing against agents),
plus the pieces a person needs to follow a game: completed tricks (:func:`trick_text`),
what each contract would be worth (:func:`declaration_text`) and the score sheet of a
finished game (:func:`describe_result`). Values come from :mod:`skat_env.core.scoring`."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.bidding import POSITION_NAMES
from ..core.cards import SUIT_SYMBOLS, cards_of
from ..core.game import PHASE_NAMES, PLAY, Game, Result
from ..core.moves import declared_contract, move_names
from ..core.scoring import matadors, multiplier, null_value
from ..core.tables import BASE_VALUES, EFFECTIVE_SUIT, GAME_INDEX, GRAND, NULL, STRENGTH, points_of
from ..core.tricks import trick_winner
from ..encoding.view import PlayerView, player_view

_RANK_TEXT = ("A", "K", "Q", "J", "10", "9", "8", "7")
_VOID_NAMES = ("♣", "♠", "♥", "♦", "trump")


def card_text(card: int) -> str:
    """A card with its suit symbol, e.g. ``♣J``, ``♥10``."""
    return SUIT_SYMBOLS[card >> 3] + _RANK_TEXT[card & 7]


def sorted_cards(mask: int, game_kind: int = GRAND) -> list[int]:
    """A card set in reading order: trumps first, then by suit, strongest first."""
    eff = EFFECTIVE_SUIT[game_kind]
    strength = STRENGTH[game_kind]
    return sorted(cards_of(mask), key=lambda c: (-(eff[c] == 4), eff[c], -strength[c]))


def cards_text(mask: int, game_kind: int = GRAND) -> str:
    """A card set as text, in :func:`sorted_cards` order."""
    return " ".join(card_text(c) for c in sorted_cards(mask, game_kind)) or "-"


def display_kind(view: PlayerView) -> int:
    """The game kind a view's cards are sorted by: the contract's, else grand (jacks first)."""
    return view.contract.game if view.contract else GRAND


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _seat_label(view: PlayerView, seat: int) -> str:
    pos = POSITION_NAMES[(seat - view.dealer - 1) % 3]
    me = " (you)" if seat == view.seat else ""
    return f"player_{seat} {pos}{me}"


def _said(view: PlayerView, position: int, middlehand_bid: int | None) -> str:
    """What the player at ``position`` said in the auction: the junior bids, the senior holds."""
    seat_at = [(view.dealer + 1 + p) % 3 for p in range(3)]
    value = view.bids[seat_at[position]]
    rear = view.bids[seat_at[2]]
    if value == 0:
        words = "no bid"
    elif position == 0:
        opened = view.bids[seat_at[1]] == 0 and rear == 0
        words = "opened at 18" if opened else f"held {value}"
    elif position == 2:
        words = f"bid {value}"
    elif middlehand_bid is not None:
        words = f"bid {middlehand_bid}" if middlehand_bid else "no bid"
        words += f", held {value}" if value > middlehand_bid else ""
    elif rear == 0 or view.passed >> seat_at[1] & 1 and not view.passed >> seat_at[0] & 1:
        words = f"bid {value}"  # before rearhand bid, or out in the first duel
    else:
        words = f"bid or held {value}"
    return words + (", passed" if view.passed >> seat_at[position] & 1 else "")


def auction_lines(view: PlayerView, middlehand_bid: int | None = None) -> list[str]:
    """The bid and what each seat said, in seat order. ``middlehand_bid``: middlehand's last
    bid to forehand, if the caller saw it (middlehand also holds against rearhand)."""
    out = [f"bid: {view.bid or '-'}  (middlehand bids to forehand, then rearhand bids; "
           "the senior holds or passes)"]  # fmt: skip
    for s in range(3):
        out.append(
            f"  {_seat_label(view, s)}: {_said(view, (s - view.dealer - 1) % 3, middlehand_bid)}"
        )
    return out


def _contract_line(view: PlayerView) -> str:
    if view.declarer < 0:
        return "contract: -"
    what = view.contract.name() if view.contract else "(declaring)"
    if view.contract is None and view.hand_game:
        what = "hand (declaring)"
    return f"declarer: {_seat_label(view, view.declarer)}  contract: {what}  bid: {view.bid}"


def _trick_line(view: PlayerView) -> str:
    if not view.trick:
        return "trick: -"
    return "trick: " + "  ".join(f"player_{s}: {card_text(c)}" for s, c in view.trick)


def trick_text(leader: int, cards: Sequence[int], game_kind: int) -> str:
    """A completed trick in play order, its winner and its card points."""
    played = ", ".join(f"player_{(leader + i) % 3} {card_text(c)}" for i, c in enumerate(cards))
    winner = (leader + trick_winner(game_kind, cards)) % 3
    points = points_of(sum(1 << c for c in cards))
    return f"{played} -> player_{winner} wins {plural(points, 'point')}"


def _score_lines(view: PlayerView) -> list[str]:
    return [
        f"  player_{s}: {plural(view.points[s], 'point')} in {plural(view.tricks[s], 'trick')}"
        for s in range(3)
    ]


def with_text(signed_matadors: int) -> str:
    """``with 2`` / ``without 3``."""
    return f"with {signed_matadors}" if signed_matadors > 0 else f"without {-signed_matadors}"


def declaration_text(view: PlayerView, move: int) -> str:
    """A declaration's value if won without further schneider/schwarz, with the declarer's
    current matadors, and whether it is below the bid (then it is lost as overbid unless
    schneider or schwarz made in play lifts its value to the bid)."""
    c = declared_contract(move, view.hand_game)
    if c.is_null:
        value = null_value(c)
        detail = "fixed value"
    else:
        m = matadors(c.game, view.hand | view.discarded)
        base = BASE_VALUES[c.game]
        value = base * multiplier(c, m, False, False)
        detail = f"{base} x {value // base}, {with_text(m)}"
        if view.hand_game:
            detail += " in your ten cards; the skat counts too"
    text = f"value {value} ({detail})"
    if value < view.bid:
        text += f"  !! below the bid {view.bid}: lost (overbid) unless schneider/schwarz lifts it"
    return text


def describe_result(r: Result, labels: Sequence[str] = ()) -> str:
    """The score sheet of a finished game: contract, outcome, card points, schneider and
    schwarz, value with matadors, overbid, list and Seeger-Fabian score."""
    if r.passed_in:
        return "all passed: the deal is thrown in"
    assert r.declarer is not None and r.contract is not None  # a played game
    who = f"player_{r.declarer}" + (f" ({labels[r.declarer]})" if labels else "")
    verdict = "won" if r.won else "lost"
    lines = [
        f"{who} played {r.contract} at bid {r.bid}: {verdict}",
        f"  card points: declarer {r.declarer_points} (incl. the skat) in "
        f"{plural(r.declarer_tricks, 'trick')}, defenders {r.defender_points}"
        + ("; the game ended early, unplayed cards count for nobody" if r.ended_early else ""),
    ]
    game = GAME_INDEX[r.contract.split()[0]]
    if game == NULL:
        lines.append(f"  value: {r.game_value} (null values are fixed)")
    else:
        lines.append(f"  {_schneider_text(r)}; {_schwarz_text(r)}")
        base = BASE_VALUES[game]
        lines.append(f"  value: {_value_text(r, base)}")
        if r.overbid:
            lines.append(
                f"  overbid: value {r.game_value} < bid {r.bid}; lost at {-r.score // 2}, the "
                f"smallest multiple of {base} that reaches the bid"
            )
    sf = ", ".join(f"player_{s} {v:+d}" for s, v in enumerate(r.seeger_fabian))
    lines.append(f"  score: {r.score:+d}  (Seeger-Fabian: {sf})")
    return "\n".join(lines)


def _levels(r: Result) -> list[str]:
    """The multiplier's parts by name, read off the result (matadors count their number)."""
    words = set((r.contract or "").split())
    schneider_said, schwarz_said = (
        bool(words & {"schneider", "schwarz", "ouvert"}),
        bool(words & {"schwarz", "ouvert"}),
    )
    schneider = schneider_said or r.declarer_points >= 90 or r.declarer_points <= 30
    schwarz = schwarz_said or r.declarer_tricks in (0, 10)
    named = [
        ("hand", "hand" in words),
        ("schneider", schneider),
        ("schneider announced", schneider_said),
        ("schwarz", schwarz),
        ("schwarz announced", schwarz_said),
        ("ouvert", "ouvert" in words),
    ]
    return [with_text(r.matadors), "game"] + [name for name, applies in named if applies]


def _value_text(r: Result, base: int) -> str:
    """``24 x (with 1 + game + schneider) = 24 x 3 = 72``; the parts are left out if they do
    not add up to the multiplier the scoring computed."""
    mult = r.game_value // base
    levels = _levels(r)
    parts = (
        f"({' + '.join(levels)}) = {base} x " if abs(r.matadors) + len(levels) - 1 == mult else ""
    )
    return f"{base} x {parts}{mult} = {r.game_value}"


def _announced(r: Result, *words: str) -> str:
    return " (announced)" if set(words) & set((r.contract or "").split()) else ""


def _schneider_text(r: Result) -> str:
    if r.declarer_points >= 90:
        text = "defenders schneider (declarer 90 or more)"
    elif r.declarer_points <= 30:
        text = "declarer schneider (30 or fewer)"
    else:
        text = "no schneider"
    return text + _announced(r, "schneider", "schwarz", "ouvert")


def _schwarz_text(r: Result) -> str:
    if r.declarer_tricks == 10:
        text = "defenders schwarz (declarer took every trick)"
    elif r.declarer_tricks == 0:
        text = "declarer schwarz (no trick)"
    else:
        text = "no schwarz"
    return text + _announced(r, "schwarz", "ouvert")


def render_view(view: PlayerView, middlehand_bid: int | None = None, moves: bool = True) -> str:
    """What one player may see, as text (no other hand, no unseen skat); ``moves=False``
    leaves out the legal moves (for callers that show their own menu)."""
    kind = display_kind(view)
    trick_no = view.trick_number + 1 if view.phase == PLAY else "-"
    lines = [
        f"{_seat_label(view, view.seat)} | dealer player_{view.dealer} | "
        f"phase: {PHASE_NAMES[view.phase]} | trick {trick_no}",
        f"your hand: {cards_text(view.hand, kind)}",
        *auction_lines(view, middlehand_bid),
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
    if view.legal_mask and moves:
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
    lines += auction_lines(view)
    lines.append(_contract_line(view))
    lines.append(_trick_line(view))
    lines += _score_lines(view)
    if game.result is not None:
        lines.append("result: " + describe_result(game.result))
    return "\n".join(lines)


__all__ = [
    "auction_lines",
    "card_text",
    "cards_text",
    "declaration_text",
    "describe_result",
    "display_kind",
    "render_game",
    "render_view",
    "sorted_cards",
    "trick_text",
]
