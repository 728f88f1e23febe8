"""``human``: play in the terminal. Shows the player's own view (only what that seat may
see); every card the others played since the last prompt, in play order, and each completed
trick with its winner and points; the auction (who bid, who held); the legal moves by name
and number, numbered in the order the hand is shown, contracts with their value and an
overbid warning; at the end every trick, the skat and the discards, so the points add up.
Reads a move name (``CJ``, ``h10``, ``♠10``, ``18``, ``pass``, ``grand``) or its number,
asks again on bad input, and quits cleanly on ``q``, end of input or Ctrl-C
(:class:`HumanQuit`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from skat_env.core.cards import card_id
from skat_env.core.game import PLAY
from skat_env.core.moves import FIRST_BID, FIRST_DECLARATION, MOVE_INDEX, MOVE_NAMES, move_names
from skat_env.core.tables import BID_VALUES, GRAND, points_of
from skat_env.encoding.view import PlayerView
from skat_env.envs.policy import Observation
from skat_env.envs.render import (
    card_text,
    cards_text,
    declaration_text,
    display_kind,
    render_view,
    sorted_cards,
    trick_text,
)

from .base import Agent, view_of

_BIDS = ((1 << len(BID_VALUES)) - 1) << FIRST_BID
_CARDS = (1 << 32) - 1
QUIT_WORDS = ("q", "quit", "exit")
Trick = tuple[tuple[int, int], ...]  # (seat, card) in play order


class HumanQuit(Exception):
    """The person at the terminal ended the session."""


@dataclass
class _Memory:
    """What one seat has seen (the observation holds no play history): the cards each seat
    had played at the last look, the running trick as this seat left it, the completed
    tricks, and middlehand's bid to forehand (middlehand later holds against rearhand, and
    the view keeps only each seat's highest value)."""

    seen: tuple[int, ...] = (0, 0, 0)
    trick: Trick = ()
    tricks: list[Trick] = field(default_factory=list)
    middlehand_bid: int | None = None


class HumanAgent(Agent):
    """A person at a terminal; ``input`` and ``output`` are injectable for tests. One
    instance may play several seats (``human human heuristic``): it remembers per seat."""

    name = "human"
    interactive = True

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None):
        self._in = input
        self._out = output
        self._memory: dict[int, _Memory] = {}

    @property
    def stdin(self) -> TextIO:
        return self._in if self._in is not None else sys.stdin

    @property
    def stdout(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def reset(self, seed: int | None = None) -> None:
        self._memory = {}

    def _say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def act(self, observation: Observation) -> int:
        view = view_of(observation)
        mem = self._memory.setdefault(view.seat, _Memory())
        _note_auction(mem, view)
        self._say()
        self._news(mem, view)
        self._say(render_view(view, mem.middlehand_bid, moves=False))
        choices = numbered(view.legal_mask, display_kind(view))
        self._say(menu(view, choices))
        while True:
            line = self._read("your move (name or number, q to quit): ")
            move = parse_move(line, view.legal_mask, choices)
            if move is not None:
                _note_own_move(mem, view, move)
                return move
            self._say(f"{line.strip()!r} is not a legal move here; try again.")

    def game_over(self, observation: Observation) -> None:
        view = view_of(observation)
        mem = self._memory.pop(view.seat, _Memory())
        self._news(mem, view)
        self._say("\n--- game over ---")
        if view.declarer >= 0 and view.contract is not None:
            self._say("\n".join(summary(mem.tricks, view)))

    def _news(self, mem: _Memory, view: PlayerView) -> None:
        """Every card played since this seat's last move, in play order, and the trick that
        completed meanwhile with its winner and points."""
        if view.contract is None or not any(view.played):
            return
        lines = []
        running = _mask(card for _, card in view.trick)
        if mem.trick:
            done = list(mem.trick)
            while len(done) < 3:
                seat = (done[-1][0] + 1) % 3
                card = _only(view.played[seat] & ~mem.seen[seat] & ~running)
                done.append((seat, card))
                lines.append(f"  player_{seat} played {card_text(card)}")
            mem.tricks.append(tuple(done))
            trick = trick_text(done[0][0], [c for _, c in done], view.contract.game)
            lines.append(f"  trick {len(mem.tricks)}: {trick}")
        lines += [f"  player_{seat} played {card_text(card)}" for seat, card in view.trick]
        mem.trick, mem.seen = view.trick, view.played
        if lines:
            self._say("since your last move:\n" + "\n".join(lines))

    def _read(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            raise HumanQuit("interrupted") from None
        if not line:
            raise HumanQuit("end of input")
        if line.strip().lower() in QUIT_WORDS:
            raise HumanQuit("quit")
        return line


def _note_auction(mem: _Memory, view: PlayerView) -> None:
    """Middlehand's values are bids until rearhand first bids (then it only holds)."""
    if view.bids[view.dealer] == 0:  # the dealer is rearhand
        mem.middlehand_bid = view.bids[(view.dealer + 2) % 3]


def _note_own_move(mem: _Memory, view: PlayerView, move: int) -> None:
    if move < 32 and view.phase == PLAY:
        mem.trick = (*view.trick, (view.seat, move))
        seen = list(view.played)
        seen[view.seat] |= 1 << move
        mem.seen = tuple(seen)
    elif FIRST_BID <= move < FIRST_BID + len(BID_VALUES) and view.position == 1:
        mem.middlehand_bid = BID_VALUES[move - FIRST_BID]


def summary(tricks: list[Trick], view: PlayerView) -> list[str]:
    """The end of a game as one seat saw it: every trick, the skat, the discards, and the
    card points, which add up to 120 when all ten tricks were played."""
    assert view.contract is not None  # called once a contract was declared
    kind = view.contract.game
    lines = [f"trick {i}: {trick_text(t[0][0], [c for _, c in t], kind)}"
             for i, t in enumerate(tricks, 1)]  # fmt: skip
    lines.append(f"skat as dealt: {cards_text(view.skat, kind)}")
    counted, where = (view.skat, "the untouched skat") if view.hand_game else (
        view.discarded, "the discards")  # fmt: skip
    if not view.hand_game:  # every seat sees the discards once the game is over
        lines.append(f"declarer's discards: {cards_text(counted, kind)}")
    d = view.declarer
    in_tricks, defenders = view.points[d], sum(view.points) - view.points[d]
    total = in_tricks + points_of(counted)
    rest = 120 - total - defenders
    tail = f"; unplayed, counting for nobody: {rest}" if rest else ""
    return [
        *lines,
        f"player_{d} (declarer): {in_tricks} in tricks + {points_of(counted)} in {where} = {total}",
        f"defenders: {defenders}; together {total + defenders}{tail}",
    ]


def _mask(cards: Iterable[int]) -> int:
    return sum(1 << c for c in cards)


def _only(mask: int) -> int:
    """The one card of a one-card set (a seat plays one card into a trick)."""
    if mask.bit_count() != 1:
        raise ValueError(f"expected one new card, got mask {mask:#x}")
    return mask.bit_length() - 1


def numbered(legal: int, game_kind: int = GRAND) -> list[int]:
    """The moves offered by number: cards in the order the hand is shown, then the other
    moves except the bid values (typed as is)."""
    cards = sorted_cards(legal & _CARDS, game_kind)
    return cards + [MOVE_INDEX[n] for n in move_names(legal & ~_BIDS & ~_CARDS)]


def menu(view: PlayerView, choices: list[int]) -> str:
    lines = ["legal moves:"]
    for i, m in enumerate(choices, 1):
        name = MOVE_NAMES[m]
        if m < 32:
            name = f"{name} ({card_text(m)})"
        elif m >= FIRST_DECLARATION:
            name = f"{name:18s} {declaration_text(view, m)}"
        lines.append(f"  {i:2d}. {name}")
    bids = move_names(view.legal_mask & _BIDS)
    if bids:
        shown = " ".join(bids[:8]) + (" ..." if len(bids) > 8 else "")
        lines.append(f"  bid: type a value: {shown}")
    return "\n".join(lines)


def parse_move(line: str, legal: int, choices: list[int]) -> int | None:
    """The legal move a line names (move name, card in any spelling ``card_id`` accepts,
    or menu number), else ``None``."""
    text = " ".join(line.strip().split()).lower()
    if not text:
        return None
    move = MOVE_INDEX.get(text)
    if move is None and not text.isdigit():
        try:
            move = card_id(text)
        except ValueError:
            move = None
    if move is not None and legal >> move & 1:
        return move
    if text.isdigit() and 1 <= int(text) <= len(choices):
        return choices[int(text) - 1]
    return None


__all__ = ["HumanAgent", "HumanQuit", "menu", "numbered", "parse_move"]
