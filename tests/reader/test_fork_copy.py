"""The copy of the board that the other reading of a doubted capture is followed on: its
state its own, the positions (values never changed) shared with the board's."""

from __future__ import annotations

from reedboard.reader.fork import copy_for_other_reading
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange

OPENING = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"


def board_after(ucis: str) -> MoveReader:
    game = Game()
    for uci in ucis.split():
        game.push_uci(uci)
    arbiter = MoveReader(game)
    assert arbiter.table.occupancy == game.position.occupied  # the table built, as in play
    return arbiter


def test_the_copy_reads_on_by_itself() -> None:
    board = board_after(OPENING)
    fen, sensors = board.position.fen(), board.sensors
    other = copy_for_other_reading(board)
    e1 = parse_square("e1")
    other.feed(SquareChange(e1, False, 1_000))  # the king lifted on the copy only
    other.game.push_uci("b5a4")
    assert board.sensors == sensors and other.sensors == sensors & ~(1 << e1)
    assert len(board.game) == 6 and board.position.fen() == fen
    assert board.view().lifted == 0
    assert board.game.moves != other.game.moves


def test_the_copy_shares_the_positions_but_not_the_game() -> None:
    board = board_after(OPENING)
    other = copy_for_other_reading(board)
    assert other.game is not board.game
    assert all(a is b for a, b in zip(other.game.positions, board.game.positions, strict=True))
    assert other.table is board.table
    assert other.touches is not board.touches and other.rng is not board.rng
