"""A move with its number, as chess writes it: "2. e4" for White's second move,
"2... Nc6" for Black's answer. Pure text: the board's messages count plies, players
count moves."""

from __future__ import annotations


def numbered_move(san: str, ply: int, fen_after: str | None = None) -> str:
    """ "2. e4", "2... Nc6". The position after the move (`fen_after`) says whose move it
    was and its number, also for a game started from a FEN; without it, the `ply`-th
    move of a game from the usual start (1 is White's first)."""
    number, white = _number(ply, fen_after)
    return f"{number}{'.' if white else '...'} {san}"


def _number(ply: int, fen_after: str | None) -> tuple[int, bool]:
    fields = (fen_after or "").split()
    if len(fields) >= 6 and fields[1] in ("w", "b") and fields[5].isdigit():
        fullmove = int(fields[5])
        # White to move after it: Black moved, and the count went up after Black's move.
        white = fields[1] == "b"
        return (fullmove if white else max(fullmove - 1, 1)), white
    return (ply + 1) // 2, ply % 2 == 1
