"""A new game asked for at the very position the board stands in, no move made yet, while
the hands are at work: what they do goes on into the new game. A host starting the game
a player has just begun (a Lichess game paired while the first move is being made) must
not drop a move complete on the board but not yet made, nor one under way."""

from __future__ import annotations

from reedboard.events import Effect, MoveMade, NewGame
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange


def _moves(effects: list[Effect]) -> list[str]:
    return [e.uci for e in effects if isinstance(e, MoveMade)]


def _reader() -> MoveReader:
    return MoveReader(Game(), occupancy=Position.standard().occupied)


def _run_out(reader: MoveReader, effects: list[Effect], until_ms: int) -> None:
    while (due := reader.next_deadline()) is not None and due <= until_ms:
        effects += reader.tick(due)


def test_a_move_still_settling_is_made_in_the_new_game() -> None:
    reader = _reader()
    effects = reader.feed(SquareChange(parse_square("e2"), False, 1000))
    effects += reader.feed(SquareChange(parse_square("e3"), True, 1400))  # may go on to e4
    effects += reader.tick(1500)
    assert _moves(effects) == []
    effects += reader.start_game(Game(), 1550)
    _run_out(reader, effects, 5000)
    assert [type(e) for e in effects if isinstance(e, MoveMade | NewGame)] == [NewGame, MoveMade]
    assert _moves(effects) == ["e2e3"]
    assert len(reader.game) == 1


def test_a_move_under_way_is_made_in_the_new_game() -> None:
    reader = _reader()
    effects = reader.feed(SquareChange(parse_square("g1"), False, 1000))
    effects += reader.start_game(Game(), 1100)
    effects += reader.feed(SquareChange(parse_square("f3"), True, 1400))
    _run_out(reader, effects, 5000)
    assert _moves(effects) == ["g1f3"]


def test_a_new_game_elsewhere_forgets_what_the_hands_did() -> None:
    """Another position: the pieces stand wrong for it, and nothing of the old one is read."""
    reader = _reader()
    effects = reader.feed(SquareChange(parse_square("e2"), False, 1000))
    effects += reader.feed(SquareChange(parse_square("e3"), True, 1400))
    other = Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
    effects += reader.start_game(Game(other), 1550)
    _run_out(reader, effects, 5000)
    assert _moves(effects) == []
