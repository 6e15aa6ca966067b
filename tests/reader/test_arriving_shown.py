"""A piece put down with nothing lifted, on a square a legal move may still reach (the
path of a pawn's double step, a promotion square), is no move yet: it may be the piece
of a move seen arriving before it is seen leaving, or a queen set down before the pawn
is cleared (the pawn lifted up to 2 s later). The board shows at once what would make it
a move, the piece set down and the pieces whose lift would complete one, amber and
steady; only a piece that stays alone for STRAY_WAIT_MS is the spoken mismatch, so a
queen set first is never called wrong."""

from __future__ import annotations

from reedboard.events import Effect, Illegal
from reedboard.lights.fair_play import fair_play
from reedboard.lights.scenes import scene_roles
from reedboard.reader.move_reader import DEFAULT_SETTLE_MS, MoveReader
from reedboard.reader.waits import STRAY_WAIT_MS
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange

PROMOTING = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"


def bb(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def feed(reader: MoveReader, change: str, t: int) -> list[Effect]:
    """`"-e2"` lifts the piece on e2, `"+e3"` puts one on e3."""
    return reader.feed(SquareChange(parse_square(change[1:]), change[0] == "+", t))


def ticks(reader: MoveReader, start: int, end: int) -> list[Effect]:
    effects: list[Effect] = []
    for t in range(start, end + 1, 10):
        effects += reader.tick(t)
    return effects


def pending_squares(reader: MoveReader) -> int:
    roles = scene_roles(reader.view())
    return sum(1 << sq for sq, role in roles.items() if role == "pending")


def test_a_piece_put_on_a_pawns_path_shows_the_pawn_to_lift_within_settle_ms() -> None:
    reader = MoveReader(Game())
    feed(reader, "+e3", 1000)
    assert ticks(reader, 1000, 1000 + DEFAULT_SETTLE_MS) == []  # nothing said yet
    view = reader.view()
    # The piece set down, and the pieces that would make it a move by their lift (the
    # pawn's step, the bishop's diagonal is closed): lit, as a move the board waits for.
    assert (view.arriving, view.arriving_from) == (bb("e3"), bb("e2"))
    assert pending_squares(reader) == bb("e3", "e2")
    # Left alone, it is a piece too many, said as such.
    effects = ticks(reader, 1000 + DEFAULT_SETTLE_MS, 1000 + STRAY_WAIT_MS)
    assert [e.kind for e in effects] == ["illegal"]
    assert isinstance(effects[0], Illegal) and effects[0].extra == bb("e3")
    assert reader.view().arriving == 0  # the mismatch's own lights now
    assert scene_roles(reader.view())[parse_square("e3")] == "extra"


def test_a_queen_set_first_shows_the_pawn_and_is_the_promotion() -> None:
    reader = MoveReader(Game(Position.from_fen(PROMOTING)))
    feed(reader, "+e8", 1000)  # the new queen, the pawn still on e7
    assert ticks(reader, 1000, 1000 + DEFAULT_SETTLE_MS) == []
    assert (reader.view().arriving, reader.view().arriving_from) == (bb("e8"), bb("e7"))
    # The pawn lifted 1.8 s later and taken off the board: the promotion, no alarm.
    effects = ticks(reader, 1000 + DEFAULT_SETTLE_MS, 2800)
    effects += feed(reader, "-e7", 2800)
    effects += ticks(reader, 2800, 4000)
    assert [e.kind for e in effects if e.kind != "touch"] == ["move"]
    assert reader.view().arriving == 0


def test_the_lights_stay_quiet_while_a_move_is_in_the_hand() -> None:
    """Nothing is lit as arriving once a piece is off its square: that is a move under
    way with its own lights."""
    reader = MoveReader(Game())
    feed(reader, "-e2", 1000)
    feed(reader, "+e3", 1100)
    assert reader.view().arriving == 0


def test_a_tournament_board_shows_the_piece_but_not_which_pieces_could_move_there() -> None:
    """Fair play: which pieces could legally reach the square is assistance."""
    reader = MoveReader(Game())
    feed(reader, "+e3", 1000)
    fair = fair_play(reader.view())
    assert (fair.arriving, fair.arriving_from) == (bb("e3"), 0)
    assert scene_roles(fair) == {parse_square("e3"): "pending"}
