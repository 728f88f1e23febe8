"""``human``: play in the terminal. Shows the player's own view (only what that seat may
see), what the others played since the last prompt, the legal moves by name and number;
reads a move name (``CJ``, ``h10``, ``18``, ``pass``, ``grand``) or its number, asks again
on bad input, and quits cleanly on ``q``, end of input or Ctrl-C (:class:`HumanQuit`)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from skat_env.core.cards import cards_of
from skat_env.core.moves import FIRST_BID, MOVE_INDEX, MOVE_NAMES, move_names
from skat_env.core.tables import BID_VALUES
from skat_env.encoding.view import PlayerView
from skat_env.envs.render import card_text, render_view

from .base import Agent, view_of

_BIDS = ((1 << len(BID_VALUES)) - 1) << FIRST_BID
QUIT_WORDS = ("q", "quit", "exit")


class HumanQuit(Exception):
    """The person at the terminal ended the session."""


class HumanAgent(Agent):
    """A person at a terminal; ``input`` and ``output`` are injectable for tests."""

    name = "human"
    interactive = True

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None):
        self._in = input
        self._out = output
        self._seen = (0, 0, 0)

    @property
    def stdin(self) -> TextIO:
        return self._in if self._in is not None else sys.stdin

    @property
    def stdout(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def reset(self, seed: int | None = None) -> None:
        self._seen = (0, 0, 0)

    def _say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def _news(self, view: PlayerView) -> None:
        """Cards the others played since this player last looked."""
        for s in range(3):
            new = view.played[s] & ~self._seen[s]
            if s != view.seat and new:
                cards = " ".join(card_text(c) for c in cards_of(new))
                self._say(f"player_{s} played {cards}")
        self._seen = view.played

    def act(self, observation: dict[str, Any]) -> int:
        view = view_of(observation)
        self._say()
        self._news(view)
        self._say(render_view(view))
        choices = numbered(view.legal_mask)
        self._say(menu(view.legal_mask, choices))
        while True:
            line = self._read("your move (name or number, q to quit): ")
            move = parse_move(line, view.legal_mask, choices)
            if move is not None:
                return move
            self._say(f"{line.strip()!r} is not a legal move here; try again.")

    def game_over(self, observation: dict[str, Any]) -> None:
        view = view_of(observation)
        self._news(view)
        self._say("\n--- game over ---")
        self._say(render_view(view))

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


def numbered(legal: int) -> list[int]:
    """The moves offered by number: every legal move except the bid values (typed as is)."""
    return [MOVE_INDEX[n] for n in move_names(legal & ~_BIDS)]


def menu(legal: int, choices: list[int]) -> str:
    lines = ["legal moves:"]
    for i, m in enumerate(choices, 1):
        name = MOVE_NAMES[m]
        label = f"{name} ({card_text(m)})" if m < 32 else name
        lines.append(f"  {i:2d}. {label}")
    bids = move_names(legal & _BIDS)
    if bids:
        shown = " ".join(bids[:8]) + (" ..." if len(bids) > 8 else "")
        lines.append(f"  bid: type a value: {shown}")
    return "\n".join(lines)


def parse_move(line: str, legal: int, choices: list[int]) -> int | None:
    """The legal move a line names (move name, card with ``10`` for ``T``, or menu
    number), else ``None``."""
    text = " ".join(line.strip().split()).lower()
    if not text:
        return None
    for candidate in (text, text.upper(), text.upper().replace("10", "T")):
        move = MOVE_INDEX.get(candidate)
        if move is not None and legal >> move & 1:
            return move
    if text.isdigit() and 1 <= int(text) <= len(choices):
        return choices[int(text) - 1]
    return None


__all__ = ["HumanAgent", "HumanQuit", "menu", "numbered", "parse_move"]
