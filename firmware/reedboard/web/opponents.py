"""The port through which the page chooses who plays against the person at the board (the
board's engine at a level, a Lichess game) and asks for a hint. The page shows only "a
person at the board" when the board has no `Opponents`.

Every method is called from the page's thread and must not wait long: an implementation
hands the work to its own thread and the board's loop (a `link.clients` client)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

PERSON = "a person at the board"


class Opponents(Protocol):
    def choose(self, spec: str) -> str | None:
        """Play against `spec` from now on ("person", "engine 5", "lichess seek 10+0",
        as docs/page.md lists them): None once chosen, else why not, in words."""
        ...

    def current(self) -> str:
        """Who plays now, in words ("the engine at level 5")."""
        ...

    def hint(self) -> str | None:
        """Light the engine's best move on the board: None once asked, else why not."""
        ...


@runtime_checkable
class LichessOpponents(Opponents, Protocol):
    """Opponents that include Lichess: the page's token and its words for the game there."""

    def lichess_token(self, token: str) -> str:
        """Keep `token` once Lichess accepts it: the account's name (else ReedboardError)."""
        ...

    def lichess_command(self, line: str) -> str | None:
        """Send a word to the game on Lichess: None once sent, else why not, in words."""
        ...
