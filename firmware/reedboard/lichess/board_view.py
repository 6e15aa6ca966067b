"""The board's game as the synchroniser reads it: whatever keeps a copy of it from the
board's messages (the host's mirror on a PC, the board's own `BoardSeen` when it plays
Lichess itself). Only what `sync` reads, as read-only protocols."""

from __future__ import annotations

from typing import Protocol

from reedboard.rules.game import Game


class BoardGame(Protocol):
    @property
    def game(self) -> Game: ...

    @property
    def id(self) -> int: ...  # the board's number for the game (0 without a journal)

    @property
    def result(self) -> str | None: ...

    @property
    def reason(self) -> str | None: ...


class BoardView(Protocol):
    @property
    def current(self) -> BoardGame | None: ...

    @property
    def needs_state(self) -> bool: ...  # the copy lost track: the game is not known now
