"""What the board says when the sensors show no move: whether the board is in a state the
game explains (a move in progress, a result told with the kings, a promotion choice), and
else the mismatch the lights show or the touch-move rule a move breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.events import Effect, Illegal, Violation
from reedboard.reader import split
from reedboard.reader.table import MoveShape
from reedboard.reader.touch_move import Breach
from reedboard.rules.squares import Bitboard, Square, squares_of

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def unreported(reader: Reader) -> bool:
    """Something unexplained that `tick` has not reported yet."""
    if reader.episode.breaching is not None:
        breach = breach_of(reader, reader.episode.breaching)
        return breach is not None and (
            reader.violation is None
            or (reader.violation.rule, reader.violation.square) != (breach.rule, breach.square)
        )
    if not unexplained(reader) and not outdated_mismatch(reader):
        return False
    if mismatch_shown(reader):
        return False
    missing = reader.table.occupancy & ~reader.sensors
    return reader.violation is None or king_after_rook_first(reader, missing) is None


def mismatch_shown(reader: Reader) -> bool:
    """The mismatch on show is the board's state now."""
    expected = reader.table.occupancy
    state = (expected & ~reader.sensors, reader.sensors & ~expected)
    return reader.mismatch is not None and (reader.mismatch.missing, reader.mismatch.extra) == state


def stray(reader: Reader) -> bool:
    """Pieces have been put down and nothing taken off: no move yet, and none at all
    unless a lift follows (see STRAY_WAIT_MS)."""
    if reader.episode.complete is not None:
        return False
    expected = reader.table.occupancy
    return not expected & ~reader.sensors and bool(reader.sensors & ~expected)


def arriving(reader: Reader) -> tuple[Bitboard, Bitboard]:
    """Pieces put down with nothing taken off, on squares a legal move may still reach
    (see `stray`), and the pieces whose lift would make the board that move (or, on a
    square only passed over, that move under way): for the lights at once. A player
    sees within `settle_ms`, as for any other wrong board, what would put it right; the
    spoken mismatch waits STRAY_WAIT_MS, since a queen set down before its pawn is
    cleared is no mistake ((0, 0): nothing such)."""
    if reader.mismatch is not None or not stray(reader) or unexplained(reader):
        return 0, 0
    extra = reader.sensors & ~reader.table.occupancy
    origins = 0
    for sq in squares_of(extra):
        reaching = [s for s in reader.table.shapes if s.occupancy >> sq & 1]
        passing = [s for s in reader.table.shapes if s.footprint >> sq & 1]
        for shape in reaching or passing:
            origins |= shape.movers
    return extra, origins


def outdated_mismatch(reader: Reader) -> bool:
    """A mismatch is shown, and the board has since gone wrong in a way it does not
    show: a square emptied or filled that is not lit. That state may look like the
    start of a move (a piece put on a square a move could reach), but with pieces
    still out of place it is none: the lights must show what is wrong now. (Part of
    the shown mismatch put right is not outdated: the lights guide on from there.)"""
    if (
        reader.mismatch is None
        or reader.episode.complete is not None
        or split.reply_in_progress(reader)
    ):
        return False
    expected = reader.table.occupancy
    missing, extra = expected & ~reader.sensors, reader.sensors & ~expected
    return bool(missing & ~reader.mismatch.missing or extra & ~reader.mismatch.extra)


def unexplained(reader: Reader) -> bool:
    """The board is in no state that the game explains: not the position, not a move,
    not a move in progress."""
    if reader.episode.complete is not None:
        return False
    if reader.episode.breaching is not None or reader.episode.knocked_only:
        return True
    if reader.gestures.making or reader.choice_lift is not None:
        return False  # a result told with the kings, or a promotion choice, in the making
    if reader.sensors == reader.result_sensors:
        return False  # the kings still tell the result they just gave
    changed = reader.sensors ^ reader.table.occupancy
    if reader.exchange_square is not None and changed == 1 << reader.exchange_square:
        return False  # the promoted pawn is off while the new piece is fetched
    king = reader.position.king(reader.position.turn)
    if king is not None and reader.sensors ^ reader.table.occupancy == 1 << king:
        return False  # the own king in the hand: a move, or a player thinking
    changed = reader.sensors ^ reader.table.occupancy
    if not changed:
        return False
    if reader.table.in_progress(changed, reader.sensors) or split.reply_in_progress(reader):
        return False
    return not both_hands_in_the_air(reader, changed)


def both_hands_in_the_air(reader: Reader, changed: Bitboard) -> bool:
    """Blitz: the player's piece still in the hand (a move begun) and the opponent
    already holding one of theirs, nothing set down yet: two moves under way."""
    if changed & reader.sensors or reader.mismatch is not None:
        return False
    theirs = changed & reader.position.occupied_by(not reader.position.turn)
    mine = changed & ~theirs
    return bool(mine and theirs) and not theirs & (theirs - 1) and reader.table.is_prefix(mine)


def breach_of(reader: Reader, shape: MoveShape) -> Breach | None:
    """Touch-move's verdict on a finished move, counting the touches made until the
    move was first complete."""
    return reader.touches.breach(
        reader.position, shape.move, reader.episode.first_complete.get(shape.code)
    )


def report_violation(reader: Reader, shape: MoveShape, now: int, effects: list[Effect]) -> None:
    breach = breach_of(reader, shape)
    if breach is None:
        return
    if reader.violation is not None and (reader.violation.rule, reader.violation.square) == (
        breach.rule,
        breach.square,
    ):
        return
    reader.violation = Violation(now, breach.rule, breach.square, breach.message)
    effects.append(reader.violation)


def report_mismatch(reader: Reader, now: int, effects: list[Effect]) -> None:
    expected = reader.table.occupancy
    missing = expected & ~reader.sensors
    extra = reader.sensors & ~expected
    king = king_after_rook_first(reader, missing)
    if king is not None:
        if reader.violation is None:
            reader.violation = Violation(
                now, "4.4b", king, "rook touched before the king: the rook move stands"
            )
            effects.append(reader.violation)
        return
    if reader.mismatch is not None and (reader.mismatch.missing, reader.mismatch.extra) == (
        missing,
        extra,
    ):
        return
    reader.mismatch = Illegal(now, missing, extra, pair_squares(missing, extra))
    effects.append(reader.mismatch)


def king_after_rook_first(reader: Reader, missing: Bitboard) -> Square | None:
    """Strict mode: the player who just moved a rook to its castling square now moves
    the king too. The rook move stands (FIDE 4.4b); the king's move is a breach."""
    if reader.mode != "strict" or len(reader.game) == 0:
        return None
    before = reader.game.positions[-2]
    last = reader.game.moves[-1]
    king = before.king(before.turn)
    if king is None or not missing >> king & 1:
        return None
    for code_move in before.legal_moves():
        if before.is_castling(code_move) and code_move.to_square == last.from_square:
            rook_to = before.castling_squares(code_move)[3]
            if last.to_square == rook_to:
                return king
    return None


def pair_squares(missing: Bitboard, extra: Bitboard) -> tuple[tuple[Square, Square], ...]:
    """Pair each extra square with the nearest missing square (king distance, then file
    and rank), greedily from the closest pair: where a piece most likely came from."""
    extras = list(squares_of(extra))
    missings = list(squares_of(missing))
    candidates = sorted(
        (max(abs((e & 7) - (m & 7)), abs((e >> 3) - (m >> 3))), e, m)
        for e in extras
        for m in missings
    )
    pairs: list[tuple[Square, Square]] = []
    used_e: set[Square] = set()
    used_m: set[Square] = set()
    for _distance, e, m in candidates:
        if e in used_e or m in used_m:
            continue
        pairs.append((e, m))
        used_e.add(e)
        used_m.add(m)
    return tuple(sorted(pairs))
