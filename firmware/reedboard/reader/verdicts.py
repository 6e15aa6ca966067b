"""What the board says when the sensors show no move: whether the board is in a state the
game explains (a move in progress, a result told with the kings, a promotion choice), and
else the mismatch the lights show or the touch-move rule a move breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader import split
from reedboard.reader.effects import Effect, Illegal, Violation
from reedboard.reader.table import MoveShape
from reedboard.reader.touch_move import Breach
from reedboard.rules.squares import Bitboard, Square, squares_of

if TYPE_CHECKING:
    from reedboard.reader.arbiter import Arbiter


def unreported(arbiter: Arbiter) -> bool:
    """Something unexplained that `tick` has not reported yet."""
    if arbiter._breaching is not None:
        breach = breach_of(arbiter, arbiter._breaching)
        return breach is not None and (
            arbiter.violation is None
            or (arbiter.violation.rule, arbiter.violation.square) != (breach.rule, breach.square)
        )
    if not unexplained(arbiter) and not outdated_mismatch(arbiter):
        return False
    if mismatch_shown(arbiter):
        return False
    missing = arbiter.table.occupancy & ~arbiter.sensors
    return arbiter.violation is None or king_after_rook_first(arbiter, missing) is None


def mismatch_shown(arbiter: Arbiter) -> bool:
    """The mismatch on show is the board's state now."""
    expected = arbiter.table.occupancy
    state = (expected & ~arbiter.sensors, arbiter.sensors & ~expected)
    return (
        arbiter.mismatch is not None and (arbiter.mismatch.missing, arbiter.mismatch.extra) == state
    )


def stray(arbiter: Arbiter) -> bool:
    """Pieces have been put down and nothing taken off: no move yet, and none at all
    unless a lift follows (see STRAY_WAIT_MS)."""
    if arbiter._complete is not None:
        return False
    expected = arbiter.table.occupancy
    return not expected & ~arbiter.sensors and bool(arbiter.sensors & ~expected)


def outdated_mismatch(arbiter: Arbiter) -> bool:
    """A mismatch is shown, and the board has since gone wrong in a way it does not
    show: a square emptied or filled that is not lit. That state may look like the
    start of a move (a piece put on a square a move could reach), but with pieces
    still out of place it is none: the lights must show what is wrong now. (Part of
    the shown mismatch put right is not outdated: the lights guide on from there.)"""
    if (
        arbiter.mismatch is None
        or arbiter._complete is not None
        or split.reply_in_progress(arbiter)
    ):
        return False
    expected = arbiter.table.occupancy
    missing, extra = expected & ~arbiter.sensors, arbiter.sensors & ~expected
    return bool(missing & ~arbiter.mismatch.missing or extra & ~arbiter.mismatch.extra)


def unexplained(arbiter: Arbiter) -> bool:
    """The board is in no state that the game explains: not the position, not a move,
    not a move in progress."""
    if arbiter._complete is not None:
        return False
    if arbiter._breaching is not None or arbiter._knocked_only:
        return True
    if arbiter.gestures.making or arbiter._choice_lift is not None:
        return False  # a result told with the kings, or a promotion choice, in the making
    if arbiter.sensors == arbiter._result_sensors:
        return False  # the kings still tell the result they just gave
    changed = arbiter.sensors ^ arbiter.table.occupancy
    if arbiter._exchange_square is not None and changed == 1 << arbiter._exchange_square:
        return False  # the promoted pawn is off while the new piece is fetched
    king = arbiter.position.king(arbiter.position.turn)
    if king is not None and arbiter.sensors ^ arbiter.table.occupancy == 1 << king:
        return False  # the own king in the hand: a move, or a player thinking
    changed = arbiter.sensors ^ arbiter.table.occupancy
    if not changed:
        return False
    if arbiter.table.is_prefix(changed) or split.reply_in_progress(arbiter):
        return False
    return not both_hands_in_the_air(arbiter, changed)


def both_hands_in_the_air(arbiter: Arbiter, changed: Bitboard) -> bool:
    """Blitz: the player's piece still in the hand (a move begun) and the opponent
    already holding one of theirs, nothing set down yet: two moves under way."""
    if changed & arbiter.sensors or arbiter.mismatch is not None:
        return False
    theirs = changed & arbiter.position.occupied_by(not arbiter.position.turn)
    mine = changed & ~theirs
    return bool(mine and theirs) and not theirs & (theirs - 1) and arbiter.table.is_prefix(mine)


def breach_of(arbiter: Arbiter, shape: MoveShape) -> Breach | None:
    """Touch-move's verdict on a finished move, counting the touches made until the
    move was first complete."""
    return arbiter.touches.breach(
        arbiter.position, shape.move, arbiter._first_complete.get(shape.code)
    )


def report_violation(arbiter: Arbiter, shape: MoveShape, now: int, effects: list[Effect]) -> None:
    breach = breach_of(arbiter, shape)
    if breach is None:
        return
    if arbiter.violation is not None and (arbiter.violation.rule, arbiter.violation.square) == (
        breach.rule,
        breach.square,
    ):
        return
    arbiter.violation = Violation(now, breach.rule, breach.square, breach.message)
    effects.append(arbiter.violation)


def report_mismatch(arbiter: Arbiter, now: int, effects: list[Effect]) -> None:
    expected = arbiter.table.occupancy
    missing = expected & ~arbiter.sensors
    extra = arbiter.sensors & ~expected
    king = king_after_rook_first(arbiter, missing)
    if king is not None:
        if arbiter.violation is None:
            arbiter.violation = Violation(
                now, "4.4b", king, "rook touched before the king: the rook move stands"
            )
            effects.append(arbiter.violation)
        return
    if arbiter.mismatch is not None and (arbiter.mismatch.missing, arbiter.mismatch.extra) == (
        missing,
        extra,
    ):
        return
    arbiter.mismatch = Illegal(now, missing, extra, pair_squares(missing, extra))
    effects.append(arbiter.mismatch)


def king_after_rook_first(arbiter: Arbiter, missing: Bitboard) -> Square | None:
    """Strict mode: the player who just moved a rook to its castling square now moves
    the king too. The rook move stands (FIDE 4.4b); the king's move is a breach."""
    if arbiter.mode != "strict" or len(arbiter.game) == 0:
        return None
    before = arbiter.game.positions[-2]
    last = arbiter.game.moves[-1]
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
