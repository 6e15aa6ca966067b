"""A guided Chess960 setup asks the loop to wake only when something may be decided: while
it is guided, the reader decides nothing but the gesture that asks for it, so a board
that differs from the game (every piece on its way) is no deadline. One that stayed due
would turn the board's loop as fast as it can until the setup ends."""

from __future__ import annotations

from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.sensing.debounce import SquareChange

A1, B1 = 0, 1


def test_a_board_being_set_up_is_no_deadline() -> None:
    reader = MoveReader(Game())
    reader.start_setup(0, 100)
    assert reader.setup is not None
    # The back ranks are cleared, piece by piece: each time the board differs from the game.
    for at, square in ((1000, A1), (1100, B1)):
        reader.feed(SquareChange(square, False, at))
        due = reader.next_deadline()
        assert due is None or due > at, (at, due)
    later = 5000
    assert reader.tick(later) == []
    due = reader.next_deadline()
    assert due is None or due > later, due
