"""What the board decided, said in words for the person at the simulator's page.

The board speaks in effects and codes (`illegal` with square lists, `violation` with a
FIDE article, `1/2-1/2` with `insufficient_material`); a chess player wants to read
"Illegal: put the knight back on g1" or "Draw: insufficient material". Pure: the effects
and the position come in, the sentences go out.
"""

from __future__ import annotations

from collections.abc import Iterable

from reedboard.events import (
    Effect,
    Illegal,
    MoveMade,
    NewGame,
    Restored,
    SetupStarted,
    TakenBack,
    Violation,
)
from reedboard.reader.setup import SetupProgress
from reedboard.rules.pieces import PIECE_NAMES, PieceType, piece_type_from_symbol
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, parse_square, square_names_of

REASONS = {
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "insufficient_material": "insufficient material",
    "seventyfive_moves": "75-move rule",
    "fivefold_repetition": "fivefold repetition",
    "fifty_moves": "50-move rule",
    "threefold_repetition": "threefold repetition",
}
WINNERS = {"1-0": "White", "0-1": "Black"}
# The effects after which an earlier complaint no longer holds.
SETTLED = (MoveMade, Restored, NewGame, TakenBack, SetupStarted)


def result_words(result: str, reason: str | None) -> str:
    """ "White wins: checkmate", "Black wins: White resigned", "Draw: stalemate"."""
    winner = WINNERS.get(result)
    if reason == "resignation" and winner is not None:
        loser = "Black" if winner == "White" else "White"
        return f"{winner} wins: {loser} resigned"
    if reason == "agreement" and result == "1/2-1/2":
        return "Draw by agreement"
    if reason == "time" and winner is not None:
        return f"{winner} wins on time"
    if reason == "time_insufficient_material":
        return "Draw: a flag fell, and the other side cannot checkmate"
    said = REASONS.get(reason or "", (reason or "").replace("_", " "))
    if winner is not None:
        return f"{winner} wins: {said}" if said else f"{winner} wins"
    if result == "1/2-1/2":
        return f"Draw: {said}" if said else "Draw"
    return f"{result}: {said}" if said else result


def piece_name(position: Position, square: str) -> str:
    """ "knight", or "piece" for an empty square."""
    piece = position.piece_at(parse_square(square))
    return "piece" if piece is None else PIECE_NAMES[piece.piece_type]


def piece_words(letter: str, colour: bool = True) -> str:
    """ "black pawn", or just "pawn"."""
    name = PIECE_NAMES[piece_type_from_symbol(letter)]
    return f"{'white' if letter.isupper() else 'black'} {name}" if colour else name


def notice(effects: Iterable[Effect], position: Position) -> str | None:
    """What the players must put right now, in words: the last touch-move violation and
    the last illegal board since the board was last in order; None when it is."""
    violation: Violation | None = None
    illegal: Illegal | None = None
    for effect in effects:
        if isinstance(effect, SETTLED):
            violation = illegal = None
        elif isinstance(effect, Violation):
            violation = effect
        elif isinstance(effect, Illegal):
            illegal = effect
    lines = []
    if violation is not None:
        lines.append(violation_words(violation, position))
    if illegal is not None:
        lines.append(illegal_words(illegal, position))
    return "\n".join(lines) or None


def violation_words(effect: Violation, position: Position) -> str:
    """ "Touch-move (FIDE 4.3a): the touched knight on g1 must move"."""
    rule, square = effect.rule, SQUARE_NAMES[effect.square]
    piece = piece_name(position, square)
    said = {
        "4.3a": f"the touched {piece} on {square} must move",
        "4.3b": f"the touched {piece} on {square} must be captured",
        "4.3c": f"the touched piece must be captured with the {piece} on {square}",
    }.get(rule)
    if said is None:  # the castling rules (4.4) say it best in their own words
        said = f"{effect.message} ({piece} on {square})"
    return f"Touch-move (FIDE {rule}): {said}"


def illegal_words(effect: Illegal, position: Position) -> str:
    """ "Illegal: put the knight back on g1", naming each piece to put back and each
    square to clear."""
    missing, extra = square_names_of(effect.missing), square_names_of(effect.extra)
    steps = []
    for stray_square, home_square in effect.pairs:
        stray, home = SQUARE_NAMES[stray_square], SQUARE_NAMES[home_square]
        steps.append(f"put the {piece_name(position, home)} back on {home}")
        missing.remove(home)
        extra.remove(stray)
    steps += [f"put the {piece_name(position, home)} back on {home}" for home in missing]
    steps += [f"take the piece off {stray}" for stray in extra]
    return "Illegal: " + (", ".join(steps) if steps else "the board does not match the game")


def setup_words(number: int | None, progress: SetupProgress) -> str:
    """ "Setting up Chess960 position 518: place the rooks"."""
    head = "Setting up Chess960 position" + ("" if number is None else f" {number}")
    if progress.wrong:
        return f"{head}: take the pieces off {_names(progress.wrong)}"
    if progress.missing:
        return f"{head}: put the pieces back on {_names(progress.missing)}"
    if progress.piece_type is None:
        return f"{head}: done"
    return f"{head}: place the {_plural(progress.piece_type)}"


def _plural(kind: PieceType) -> str:
    return PIECE_NAMES[kind] + "s"


def _names(bb: Bitboard) -> str:
    return ", ".join(square_names_of(bb))
