"""Which of a board's games an arbiter's decision is about. Pure.

A board's journal numbers its games, but a board run without one numbers every game 0,
so the number alone does not part one game from the next: a result, a correction or
time added to a clock on one game would stand on the board's next. The relay tells its
games apart by how many games the board finished before each as well. It rebuilds the
same games from its store at every start, so the count is the same after a restart."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard_host.mirror import GameMirror

# (games the board finished before it, the number its journal gives it)
GameOnBoard = tuple[int, int]
NOT_STARTED = -1  # in place of the number: the game a board without one yet will start


def game_on(mirror: GameMirror) -> GameOnBoard:
    """The board's current game (the one it will start, between games)."""
    current = mirror.current
    return len(mirror.finished), NOT_STARTED if current is None else current.id


@dataclass(frozen=True)
class BoardGames:
    """A board's games as the relay rebuilt them from its store: the numbers of those it
    finished, in order, and of the one in progress (None between games). What an older
    relay's decisions, kept by number alone, are read against."""

    finished: tuple[int, ...] = ()
    current: int | None = None

    @staticmethod
    def of(mirror: GameMirror) -> BoardGames:
        current = mirror.current
        return BoardGames(
            tuple(game.id for game in mirror.finished), None if current is None else current.id
        )

    def now(self) -> GameOnBoard:
        return len(self.finished), NOT_STARTED if self.current is None else self.current

    def latest(self, number: int) -> GameOnBoard:
        """The game a decision about game `number` was about: the latest the board played
        with that number (the only one, on a board with a journal: the older relay
        showed it on every game so numbered, and the arbiter made it on the latest). A
        number the board has no game with goes to its next game."""
        if self.current == number:
            return len(self.finished), number
        for ordinal in reversed(range(len(self.finished))):
            if self.finished[ordinal] == number:
                return ordinal, number
        return len(self.finished) + (self.current is not None), number
