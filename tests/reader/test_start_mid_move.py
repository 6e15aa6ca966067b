"""A board started (after a power cut) while a hand was on the board: what the sensors
show at start is read as the hands still at work, and no move is recorded that nobody
may have played (issue 31, part 2, item 8)."""

from __future__ import annotations

from reedboard.events import Effect, MoveMade
from reedboard.reader.move_reader import DEFAULT_SETTLE_MS, MoveReader
from reedboard.reader.waits import STUCK_MS
from reedboard.rules.fen import parse_fen
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange

# White's knight on g3 can take the pawn on f5.
KNIGHT_FEN = "4k3/8/8/5p2/8/6N1/8/4K3 w - - 0 1"


def _started(fen: str, lifted: tuple[str, ...] = (), placed: tuple[str, ...] = ()) -> MoveReader:
    game = Game(parse_fen(fen))
    occupancy = game.position.occupied
    for name in lifted:
        occupancy &= ~(1 << parse_square(name))
    for name in placed:
        occupancy |= 1 << parse_square(name)
    return MoveReader(game, occupancy=occupancy)


def _ticks(reader: MoveReader, start: int, end: int, step: int = 100) -> list[Effect]:
    effects: list[Effect] = []
    for t in range(start, end + 1, step):
        effects += reader.tick(t)
    return effects


def test_a_knight_in_the_hand_at_start_records_no_capture() -> None:
    """The sensors of Nxf5 are the g3 knight lifted when the power went: nothing is
    made at start, the knight set back is the position again (no 'extra g3'), and 35 s
    later no switch is called stuck."""
    reader = _started(KNIGHT_FEN, lifted=("g3",))
    assert reader.commit_shown(0) == []
    assert _ticks(reader, 100, 1000) == []
    assert reader.feed(SquareChange(parse_square("g3"), True, 1200)) == []
    effects = _ticks(reader, 1300, 1200 + STUCK_MS + 5000, step=500)
    assert [e.kind for e in effects] == []
    assert reader.view().extra == 0
    assert reader.stuck_switch(1200 + STUCK_MS + 5000) is None
    assert len(reader.game) == 0


def test_the_knight_in_the_hand_at_start_then_takes_is_the_one_capture() -> None:
    reader = _started(KNIGHT_FEN, lifted=("g3",))
    assert reader.commit_shown(0) == []
    effects = reader.feed(SquareChange(parse_square("f5"), False, 800))
    effects += reader.feed(SquareChange(parse_square("f5"), True, 1100))
    effects += _ticks(reader, 1200, 3000)
    assert [e.uci for e in effects if isinstance(e, MoveMade)] == ["g3f5"]


def test_a_queen_resting_on_its_slide_at_start_waits_for_the_hands() -> None:
    """1.e4 e5 and the queen on g4, on its way from d1 when the power went: it may go
    on. Left there, Qg4 after settle_ms; slid on to h5 at once, only Qh5."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    resting = _started(fen, lifted=("d1",), placed=("g4",))
    assert resting.commit_shown(0) == []
    effects = _ticks(resting, 100, 1000)
    made = [e for e in effects if isinstance(e, MoveMade)]
    assert [e.uci for e in made] == ["d1g4"]
    assert made[0].t_ms == DEFAULT_SETTLE_MS

    going_on = _started(fen, lifted=("d1",), placed=("g4",))
    assert going_on.commit_shown(0) == []
    effects = going_on.feed(SquareChange(parse_square("h5"), True, 120))
    effects += going_on.feed(SquareChange(parse_square("g4"), False, 140))
    effects += _ticks(going_on, 200, 1500)
    assert [e.uci for e in effects if isinstance(e, MoveMade)] == ["d1h5"]
