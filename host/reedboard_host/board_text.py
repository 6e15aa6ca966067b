"""The board as text for a terminal: pieces, the last move, lifted pieces. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from reedboard.chess_clock.clock_text import clock_text as clock_text  # as the host had it
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.link.board_messages import EffectMessage
from reedboard.rules.game import Game
from reedboard.rules.move_numbers import numbered_move
from reedboard.rules.squares import SQUARE_NAMES, square_names_of


def board_text(game: Game, lifted: Iterable[str] = (), wrong: Iterable[str] = ()) -> str:
    """8 lines, rank 8 first; `(x)` marks the last move's squares, `[ ]` a lifted piece's
    square, `!` a square the players must put right (`wrong`)."""
    position = game.position
    marks: dict[str, str] = {}
    last = game.peek()
    if last is not None:
        before = game.positions[-2]
        for sq in (last.from_square, last.to_square) if not before.is_castling(last) else ():
            marks[SQUARE_NAMES[sq]] = "()"
    for name in lifted:
        marks[name] = "[]"
    for name in wrong:
        marks[name] = "!!"
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            sq = rank * 8 + file
            piece = position.piece_at(sq)
            symbol = piece.symbol() if piece is not None else "."
            mark = marks.get(SQUARE_NAMES[sq], "  ")
            left, right = mark[0], mark[1]
            cells.append(f"{left}{symbol}{right}")
        lines.append(f"{rank + 1} " + "".join(cells))
    lines.append("   a  b  c  d  e  f  g  h")
    return "\n".join(lines)


def effect_line(message: EffectMessage) -> str:
    """One effect as a short line."""
    effect = message.effect
    return f"{effect.kind:<10} {_details(effect)}".rstrip()


def _details(effect: Effect) -> str:
    match effect:
        case MoveMade():
            # Numbered as players count, not by plies: "2. e4", "2... Nc6".
            line = (
                f"{numbered_move(effect.san or effect.uci, effect.ply, effect.fen)} ({effect.uci})"
            )
            return line if effect.clock is None else f"{line}  {clock_text(*effect.clock)}"
        case ClockPressed():
            return f"pressed: {clock_text(effect.white_ms, effect.black_ms)}"
        case TimeAdded():
            times = clock_text(effect.white_ms, effect.black_ms)
            color = "white" if effect.white else "black"
            return f"{effect.ms // 1000}s added to {color}: {times}"
        case Touched():
            return f"{effect.piece} on {SQUARE_NAMES[effect.square]}"
        case Illegal():
            return (
                f"put back on {','.join(square_names_of(effect.missing))}; "
                f"remove from {','.join(square_names_of(effect.extra))}"
            )
        case Violation():
            return f"FIDE {effect.rule} at {SQUARE_NAMES[effect.square]}: {effect.message}"
        case TakenBack():
            return f"{effect.uci} taken back"
        case NewGame():
            return f"{effect.variant or ''} {effect.fen}"
        case GameOver():
            return f"{effect.result} ({effect.reason})"
        case PromotionChosen():
            return f"next promotion: {effect.piece}"
        case SensorFault():
            where = SQUARE_NAMES[effect.square] if effect.place is None else effect.place.where
            return f"switch {effect.fault}: {where}"
        case Restored() | Offered() | SetupStarted():
            return ""
        case _:
            assert_never(effect)
