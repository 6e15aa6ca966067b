"""The Chess Peripheral Protocol (CPP), the peripheral's end: its words, read and written.
Pure.

CPP is an open, string-based protocol between a chess app (the central) and a board
(the peripheral), published as the README of vovagorodok/chess_peripheral_protocol; this
follows the version of its commit 54a12f1a (with `draw_reason`, `variant_reason` and
`set_state`'s `sync` answer). Over Bluetooth LE every write and every notification is one
command: a lower-case word, a space and its argument (`move e2e4`, `begin <fen>`).

`parse_central` reads what a central wrote, every argument checked (a malformed one is a
`CppError` whose message goes back as `err ...`); `presence_fen` writes what a board that
senses presence only can say of its squares: the game's piece where the sensors agree,
`?` where a piece stands that the game does not explain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from reedboard.errors import InvalidInputError
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Bitboard

SPEC_COMMIT: Final = "54a12f1a"
SERVICE_UUID: Final = "f5351050-b2c9-11ec-a0c0-b3bc53b08d33"
# The spec names its characteristics from the central's side: the central writes its
# "tx", the peripheral notifies on its "rx".
CENTRAL_TX_UUID: Final = "f53513ca-b2c9-11ec-a0c1-639b8957db99"
CENTRAL_RX_UUID: Final = "f535147e-b2c9-11ec-a0c2-8bbd706ec4e6"
MAX_COMMAND: Final = 512  # bytes in one write; a longer one is refused

VARIANTS: Final = (
    "standard", "chess_960", "3_check", "atomic", "king_of_the_hill", "anti_chess", "horde",
    "racing_kings", "crazy_house",
)  # fmt: skip
SUPPORTED_VARIANTS: Final = ("standard", "chess_960")
FEATURES: Final = (
    "msg", "undo", "last_move", "check", "moved", "resign", "draw_offer", "draw_reason",
    "variant_reason", "side", "score", "time", "state_stream", "get_state", "set_state",
    "option",
)  # fmt: skip
# What a board that senses only presence, with LEDs and no display, can honour
# (docs/ble.md says why the others are refused: `nok`).
SUPPORTED_FEATURES: Final = (
    "msg", "undo", "last_move", "check", "moved", "resign", "draw_offer", "draw_reason",
    "side", "score", "time", "state_stream", "get_state", "set_state", "option",
)  # fmt: skip
DRAW_REASONS: Final = (
    "draw_offer", "threefold_repetition", "fifty_move", "insufficient_material",
    "dead_position",
)  # fmt: skip
END_REASONS: Final = (
    "undefined", "checkmate", "stalemate", "draw", "timeout", "resign", "abort",
    *DRAW_REASONS, "3_check", "king_of_the_hill",
)  # fmt: skip
SIDES: Final = ("w", "b", "?")

_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
_WORD = re.compile(r"[a-z0-9_]{1,40}")
_NUMBER = re.compile(r"\d{1,12}")
_SCORE = re.compile(r"\d{1,4}\.[05]")
_PLACEMENT = re.compile(r"[pnbrqkPNBRQK1-8/]{15,71}")


class CppError(InvalidInputError):
    """A central's command that cannot be read; the message is what `err` tells it."""


@dataclass(frozen=True, slots=True)
class CentralSays:
    """One command from the central: its word and its argument, checked."""

    name: str
    argument: str = ""


def _none(argument: str) -> str:
    if argument:
        raise CppError("takes no argument")
    return ""


def _uci(argument: str) -> str:
    if not _UCI.fullmatch(argument):
        raise CppError(f"needs a move in UCI such as e2e4, not {_shown(argument)}")
    return argument


def _square(argument: str) -> str:
    if argument not in SQUARE_NAMES:
        raise CppError(f"needs a square such as e1, not {_shown(argument)}")
    return argument


def _word_of(choices: tuple[str, ...] | None) -> Callable[[str], str]:
    def check(argument: str) -> str:
        if not _WORD.fullmatch(argument) or (choices is not None and argument not in choices):
            raise CppError(f"does not know {_shown(argument)}")
        return argument

    return check


def _side(argument: str) -> str:
    if argument not in SIDES:
        raise CppError(f"is w, b or ?, not {_shown(argument)}")
    return argument


def _text(argument: str) -> str:
    if not argument:
        raise CppError("needs a text")
    return argument


def _pair(pattern: re.Pattern[str]) -> Callable[[str], str]:
    def check(argument: str) -> str:
        parts = argument.split(" ")
        if len(parts) != 2 or not all(pattern.fullmatch(part) for part in parts):
            raise CppError(f"needs two values, not {_shown(argument)}")
        return argument

    return check


def _fen(argument: str) -> str:
    fields = argument.split(" ")
    if not _PLACEMENT.fullmatch(fields[0]) or len(fields) > 6:
        raise CppError(f"needs a FEN, not {_shown(argument)}")
    try:
        Position.from_fen(complete_fen(argument, chess960=True), chess960=True)
    except InvalidInputError as error:
        raise CppError(f"needs a FEN: {error}") from None
    return argument


def _option(argument: str) -> str:
    name, _, value = argument.partition(" ")
    if not _WORD.fullmatch(name) or not value:
        raise CppError(f"needs an option's name and value, not {_shown(argument)}")
    return argument


_ARGUMENTS: Final[dict[str, Callable[[str], str]]] = {
    "begin": _fen,
    "move": _uci,
    "promote": _uci,
    "undo": _uci,
    "last_move": _uci,
    "check": _square,
    "end": _word_of(END_REASONS),
    "ok": _none,
    "nok": _none,
    "err": lambda argument: argument,
    "feature": _word_of(None),
    "variant": _word_of(None),
    "set_variant": _word_of(None),
    "msg": _text,
    "side": _side,
    "score": _pair(_SCORE),
    "time": _pair(_NUMBER),
    "draw_offer": _none,
    "get_state": _none,
    "set_state": _none,
    "options_begin": _none,
    "options_reset": _none,
    "set_option": _option,
}
CENTRAL_COMMANDS: Final = tuple(_ARGUMENTS)


def parse_central(data: bytes) -> CentralSays:
    """One write from the central as a checked command, or a `CppError` saying what is
    wrong with it (bytes that are not text, an unknown word, a bad argument)."""
    if len(data) > MAX_COMMAND:
        raise CppError(f"a command of {len(data)} bytes is longer than {MAX_COMMAND}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CppError("a command is UTF-8 text") from None
    # Some centrals end a write as a serial line would: the ends are not the command's.
    text = text.strip("\r\n\0 ")
    if not text:
        raise CppError("an empty command")
    name, _, argument = text.partition(" ")
    check = _ARGUMENTS.get(name)
    if check is None:
        raise CppError(f"unknown command {_shown(name)}")
    try:
        return CentralSays(name, check(argument))
    except CppError as error:
        raise CppError(f"{name} {error}") from None


def complete_fen(text: str, *, chess960: bool) -> str:
    """A CPP position (a placement and a side to move, or more of a FEN) as a whole FEN:
    the castling rights a central leaves out are those the placement still allows (a king
    and a rook on their first squares; in Chess960 the outermost rooks either side of a
    king on its back rank), no en passant, the clocks at their start."""
    fields = text.split(" ")
    placement = fields[0]
    turn = fields[1] if len(fields) > 1 else "w"
    castling = fields[2] if len(fields) > 2 else _castling_allowed(placement, chess960=chess960)
    rest = fields[3:] + ["-", "0", "1"][len(fields[3:]) :]
    return " ".join([placement, turn, castling, *rest])


def _castling_allowed(placement: str, *, chess960: bool) -> str:
    ranks = _expanded(placement)
    if ranks is None:
        return "-"
    rights = ""
    for color, row in (("w", ranks[7]), ("b", ranks[0])):
        king = "K" if color == "w" else "k"
        rook = "R" if color == "w" else "r"
        if king not in row:
            continue
        at = row.index(king)
        if chess960:
            outer = [f for f in range(8) if row[f] == rook and f > at][-1:]
            outer += [f for f in range(8) if row[f] == rook and f < at][:1]
            letters = "".join("abcdefgh"[f] for f in outer)
            rights += letters.upper() if color == "w" else letters
        elif at == 4:
            sides = ("K" if row[7] == rook else "") + ("Q" if row[0] == rook else "")
            rights += sides if color == "w" else sides.lower()
    return rights or "-"


def _expanded(placement: str) -> list[str] | None:
    """The placement's ranks, eighth first, one character per square (`.` empty)."""
    ranks = []
    for row in placement.split("/"):
        squares = "".join("." * int(c) if c.isdigit() else c for c in row)
        ranks.append(squares)
    return ranks if len(ranks) == 8 and all(len(r) == 8 for r in ranks) else None


def position_text(position: Position) -> str:
    """A position as CPP writes it: the placement and the side to move."""
    return f"{position.board_fen()} {'w' if position.turn else 'b'}"


def presence_fen(position: Position, sensors: Bitboard) -> str:
    """What the board can say of its squares: the game's piece on a square the sensors
    find occupied, `?` on an occupied square the game has empty (a piece the board cannot
    know), nothing where no piece stands; then the side to move."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            sq = rank * 8 + file
            if not sensors >> sq & 1:
                empty += 1
                continue
            piece = position.piece_at(sq)
            row += (str(empty) if empty else "") + (piece.symbol() if piece else "?")
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'w' if position.turn else 'b'}"


def same_position(text: str, position: Position) -> bool:
    """Whether a central's position is `position`: the same placement and side to move."""
    fields = text.split(" ")
    turn = fields[1] if len(fields) > 1 else "w"
    return fields[0] == position.board_fen() and turn == ("w" if position.turn else "b")


def _shown(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:21] + "...")
