"""Taking the last move back: by hand in casual mode (the pieces put back in any order, the
board reading the position before the move again), or at the host's request; and the
board showing the position again, which a takeback by hand may follow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.errors import InvalidInputError
from reedboard.events import Effect, TakenBack
from reedboard.reader.marks import HostMarks
from reedboard.reader.touch_move import TouchRecord
from reedboard.rules.moves import Move
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def try_takeback(reader: Reader, now: int, effects: list[Effect]) -> bool:
    # A game the position ended (mate, stalemate) may be taken back in casual play; a
    # resignation, an agreement or a claim stands.
    if reader.mode != "casual" or not len(reader.game) or reader.game.declared is not None:
        return False
    previous = reader.game.positions[-2]
    if reader.sensors != previous.occupied:
        return _two_taken_back(reader, now, effects)
    # Taking a move back lifts a piece it put down. Without that lift the same sensors
    # can be a piece put down where the last move emptied a square (a capture's
    # origin): the next move arriving before it is seen leaving, or a stray piece.
    # The captured piece may be put back first, on the square the capturer has just
    # left: the board then reads the position again, and only the capturer, put down
    # next on its own square, says it was a takeback.
    carried = reader.episode.arrival_lifted if len(reader.episode.events) == 1 else 0
    if not lifted_arrivals(reader) and not carried:
        return False
    take_back_last(reader, now, effects, restore=True)
    reader.moved = None
    reader.new_episode()
    return True


def _two_taken_back(reader: Reader, now: int, effects: list[Effect]) -> bool:
    """The last two moves put back, in either order or both at once (1.e4 e5 2.d4 d6,
    then d4 to d2 and d6 to d7): the board reads the position before them, and each
    move's piece was lifted from where it arrived. Both are taken back."""
    game = reader.game
    if len(game) < 2 or reader.sensors != game.positions[-3].occupied:
        return False
    lifted = _lifted(reader)
    footprint = 0
    for ply in (-1, -2):
        before, after, move = game.positions[ply - 1], game.positions[ply], game.moves[ply]
        if not lifted & _arrived(before, move):
            return False
        footprint |= 1 << move.from_square | 1 << move.to_square
        footprint |= before.occupied ^ after.occupied
    # Only the two moves' squares were touched: not pieces set up afresh by hand.
    if any(not footprint >> event.square & 1 for event in reader.episode.events):
        return False
    take_back_last(reader, now, effects, restore=True)
    take_back_last(reader, now, effects)
    reader.moved = None
    reader.new_episode()
    return True


def take_back_last(reader: Reader, now: int, effects: list[Effect], restore: bool = False) -> None:
    """The one way a move is taken back, by hand, by the host or as a knock's amend: the
    last move undone and said (`restore`: the lights' complaint withdrawn first), and
    what was about the position now gone cleared (touches, the host's marks)."""
    uci = reader.game.positions[-2].uci(reader.game.moves[-1])
    reader.game.pop()
    if restore:
        reader.restore(now, effects)
    effects.append(TakenBack(now, uci, reader.position.fen()))
    reader.touches = TouchRecord()
    reader.marks = HostMarks()


def take_back_for_host(reader: Reader, now: int) -> list[Effect]:
    """The host takes the last move back (also one that ended the game by mate or
    stalemate; a resignation, an agreement or a claim stands). The board reads on from
    the position before the move as if it had just started there, and says at once where
    the pieces must go back: to a board starting afresh the pieces still standing as after
    the move would look like that move in progress, waited on in silence."""
    game = reader.game
    if not len(game):
        raise InvalidInputError("there is no move to take back")
    if game.declared is not None:
        raise InvalidInputError(f"the game ended by {game.declared.reason}: no takeback")
    effects: list[Effect] = []
    take_back_last(reader, now, effects)
    reader.forget_position()
    return effects + reader.show_mismatch(now)


def take_back_to_for_host(reader: Reader, ply: int, now: int) -> list[Effect]:
    """The host takes back every move after `ply` (an arbiter reinstating the position
    before an irregularity): each told, then the board reads on from the position at
    `ply` and shows at once where the pieces must go, as after one takeback."""
    game = reader.game
    if not 0 <= ply < len(game):
        raise InvalidInputError(f"no move after ply {ply} to take back")
    if game.declared is not None:
        raise InvalidInputError(f"the game ended by {game.declared.reason}: no takeback")
    effects: list[Effect] = []
    while len(game) > ply:
        take_back_last(reader, now, effects)
    reader.forget_position()
    return effects + reader.show_mismatch(now)


def lifted_arrivals(reader: Reader) -> Bitboard:
    """The squares the last move put a piece on that were lifted in this episode
    (casual mode: what a takeback needs)."""
    if reader.mode != "casual" or not len(reader.game) or reader.game.declared is not None:
        return 0
    return _lifted(reader) & _arrived(reader.game.positions[-2], reader.game.moves[-1])


def _arrived(before: Position, move: Move) -> Bitboard:
    """The squares `move`, played in `before`, put a piece on."""
    if before.is_castling(move):
        _, king_to, _, rook_to = before.castling_squares(move)
        return (1 << king_to) | (1 << rook_to)
    return 1 << move.to_square


def _lifted(reader: Reader) -> Bitboard:
    lifted = 0
    for event in reader.episode.events:
        if not event.occupied:
            lifted |= 1 << event.square
    return lifted


def shown_again(reader: Reader, now: int, effects: list[Effect]) -> None:
    """The board shows the position again. Whatever the hands did, the sensors cannot
    tell one piece from another: take every piece to be on its own square (after a
    host's new game, or pieces rearranged by hand, no hypothesis may say so)."""
    reader.restore(now, effects)
    arrival_lifted = lifted_arrivals(reader)
    refilled = refilled_squares(reader)
    reader.new_episode()
    reader.episode.arrival_lifted = arrival_lifted
    reader.episode.refilled = refilled


def refilled_squares(reader: Reader) -> tuple[int, Bitboard]:
    """The squares of the opponent's pieces lifted and filled again in this episode, and
    when the last was filled."""
    lifted = refilled = 0
    last_ms = 0
    placement = reader.table.placement
    for event in reader.episode.events:
        bit = 1 << event.square
        if not event.occupied:
            lifted |= bit
        elif lifted & bit:
            piece = placement[event.square]
            if piece.isalpha() and piece.isupper() != reader.position.turn:
                refilled |= bit
                last_ms = event.t_ms
    return (last_ms, refilled)
