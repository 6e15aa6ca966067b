"""The board as text for a terminal: pieces, the last move, lifted pieces. Pure."""

from __future__ import annotations

from typing import Any

from reedboard.rules.game import Game
from reedboard.rules.squares import SQUARE_NAMES


def board_text(game: Game, state: dict[str, Any] | None = None) -> str:
    """8 lines, rank 8 first; `(x)` marks the last move's squares, `[ ]` a lifted piece's
    square, `!` a square the players must put right."""
    position = game.position
    marks: dict[str, str] = {}
    last = game.peek()
    if last is not None:
        before = game.positions[-2]
        for sq in (last.from_square, last.to_square) if not before.is_castling(last) else ():
            marks[SQUARE_NAMES[sq]] = "()"
    state = state or {}
    for name in state.get("lifted", []):
        marks[name] = "[]"
    for name in list(state.get("missing", [])) + list(state.get("extra", [])):
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


def effect_line(message: dict[str, Any]) -> str:
    """One effect as a short line."""
    event = message.get("event", "?")
    details = {
        "move": lambda m: f"{m.get('ply')}: {m.get('san')} ({m.get('uci')})",
        "touch": lambda m: f"{m.get('piece')} on {m.get('square')}",
        "illegal": lambda m: (
            f"put back on {','.join(m.get('missing', []))}; "
            f"remove from {','.join(m.get('extra', []))}"
        ),
        "violation": lambda m: f"FIDE {m.get('rule')} at {m.get('square')}: {m.get('message')}",
        "takeback": lambda m: f"{m.get('uci')} taken back",
        "new_game": lambda m: f"{m.get('variant', '')} {m.get('fen')}",
        "game_over": lambda m: f"{m.get('result')} ({m.get('reason')})",
        "promotion": lambda m: f"next promotion: {m.get('piece')}",
        "sensor": lambda m: f"switch {m.get('fault')}: {m.get('where') or m.get('square')}",
    }
    describe = details.get(event)
    return f"{event:<10} {describe(message) if describe else ''}".rstrip()
