"""The board as text for a terminal: pieces, the last move, lifted pieces. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from reedboard.link.board_events import (
    ClockEvent,
    GameOverEvent,
    IllegalEvent,
    MoveEvent,
    NewGameEvent,
    OtherEvent,
    PromotionEvent,
    RestoredEvent,
    TakebackEvent,
    TouchEvent,
    ViolationEvent,
    WireEvent,
    event_name,
)
from reedboard.link.board_messages import EventMessage
from reedboard.rules.game import Game
from reedboard.rules.move_numbers import numbered_move
from reedboard.rules.squares import SQUARE_NAMES


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


def clock_text(white_ms: int, black_ms: int) -> str:
    """Both clocks as a player reads them: `White 4:58.2  Black 5:00.0`."""
    return f"White {_clock(white_ms)}  Black {_clock(black_ms)}"


def _clock(ms: int) -> str:
    tenths = ms // 100
    hours, rest = divmod(tenths, 36_000)
    minutes, tenths = divmod(rest, 600)
    shown = f"{minutes}:{tenths // 10:02d}.{tenths % 10}"
    return f"{hours}:{minutes:02d}:{tenths // 10:02d}" if hours else shown


def effect_line(message: EventMessage) -> str:
    """One effect as a short line."""
    event = message.event
    return f"{event_name(event):<10} {_details(event)}".rstrip()


def _details(event: WireEvent) -> str:
    match event:
        case MoveEvent():
            # Numbered as players count, not by plies: "2. e4", "2... Nc6".
            line = f"{numbered_move(event.san or event.uci, event.ply, event.fen)} ({event.uci})"
            return line if event.clock is None else f"{line}  {clock_text(*event.clock)}"
        case ClockEvent():
            times = clock_text(event.white_ms, event.black_ms)
            if event.added is None:
                return f"pressed: {times}"
            color, ms = event.added
            return f"{ms // 1000}s added to {color}: {times}"
        case TouchEvent():
            return f"{event.piece} on {event.square}"
        case IllegalEvent():
            return (
                f"put back on {','.join(event.missing or ())}; "
                f"remove from {','.join(event.extra or ())}"
            )
        case ViolationEvent():
            return f"FIDE {event.rule} at {event.square}: {event.message}"
        case TakebackEvent():
            return f"{event.uci} taken back"
        case NewGameEvent():
            return f"{event.variant or ''} {event.fen}"
        case GameOverEvent():
            return f"{event.result} ({event.reason})"
        case PromotionEvent():
            return f"next promotion: {event.piece}"
        case OtherEvent(event="sensor"):
            return f"switch {event.get('fault')}: {event.get('where') or event.get('square')}"
        case RestoredEvent() | OtherEvent():
            return ""
        case _:
            assert_never(event)
