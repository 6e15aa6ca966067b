"""The rules core: the Laws of Chess (FIDE), Chess960, and chess notation. Pure Python,
no I/O, no third-party imports.

Its names are loaded when first asked for (`from reedboard.rules import Game` loads the
game's modules; `import reedboard.rules.squares` loads the squares alone): a board's
scanner needs the squares at its first moments and the rest only once the game loads.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reedboard.rules.chess960 import back_rank, chess960_fen, chess960_number
    from reedboard.rules.fen import STARTING_FEN, parse_fen, write_fen
    from reedboard.rules.game import Game
    from reedboard.rules.moves import Move
    from reedboard.rules.outcome import Outcome
    from reedboard.rules.pgn import PgnGame, read_pgn, write_pgn
    from reedboard.rules.pieces import (
        BISHOP,
        BLACK,
        KING,
        KNIGHT,
        PAWN,
        QUEEN,
        ROOK,
        WHITE,
        Color,
        Piece,
        PieceType,
    )
    from reedboard.rules.position import Position, perft
    from reedboard.rules.san import parse_san, san
    from reedboard.rules.squares import Bitboard, Square, parse_square, square_name

# Where each name lives.
_HOMES = {
    "BISHOP": "reedboard.rules.pieces",
    "BLACK": "reedboard.rules.pieces",
    "Bitboard": "reedboard.rules.squares",
    "Color": "reedboard.rules.pieces",
    "Game": "reedboard.rules.game",
    "KING": "reedboard.rules.pieces",
    "KNIGHT": "reedboard.rules.pieces",
    "Move": "reedboard.rules.moves",
    "Outcome": "reedboard.rules.outcome",
    "PAWN": "reedboard.rules.pieces",
    "PgnGame": "reedboard.rules.pgn",
    "Piece": "reedboard.rules.pieces",
    "PieceType": "reedboard.rules.pieces",
    "Position": "reedboard.rules.position",
    "QUEEN": "reedboard.rules.pieces",
    "ROOK": "reedboard.rules.pieces",
    "STARTING_FEN": "reedboard.rules.fen",
    "Square": "reedboard.rules.squares",
    "WHITE": "reedboard.rules.pieces",
    "back_rank": "reedboard.rules.chess960",
    "chess960_fen": "reedboard.rules.chess960",
    "chess960_number": "reedboard.rules.chess960",
    "parse_fen": "reedboard.rules.fen",
    "parse_san": "reedboard.rules.san",
    "parse_square": "reedboard.rules.squares",
    "perft": "reedboard.rules.position",
    "read_pgn": "reedboard.rules.pgn",
    "san": "reedboard.rules.san",
    "square_name": "reedboard.rules.squares",
    "write_fen": "reedboard.rules.fen",
    "write_pgn": "reedboard.rules.pgn",
}


class _Rules(ModuleType):
    """The package: a module loaded under a name the package gives to one of its values
    (`san`, the function, in `rules/san.py`) leaves the name to the value, as it was
    when the package loaded every module at once."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOMES and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Rules


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # asked once
    return value


__all__ = [
    "BISHOP",
    "BLACK",
    "KING",
    "KNIGHT",
    "PAWN",
    "QUEEN",
    "ROOK",
    "STARTING_FEN",
    "WHITE",
    "Bitboard",
    "Color",
    "Game",
    "Move",
    "Outcome",
    "PgnGame",
    "Piece",
    "PieceType",
    "Position",
    "Square",
    "back_rank",
    "chess960_fen",
    "chess960_number",
    "parse_fen",
    "parse_san",
    "parse_square",
    "perft",
    "read_pgn",
    "san",
    "square_name",
    "write_fen",
    "write_pgn",
]
