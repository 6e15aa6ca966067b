"""The rules core: the Laws of Chess (FIDE), Chess960, and chess notation. Pure Python,
no I/O, no third-party imports."""

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
