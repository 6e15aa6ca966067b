"""A CSV of pairings (`board,round,board_number,white,black` and optional columns) as the
relay's table of boards. Pure: text in, a table out, or a `PairingsError` naming the line
and the column of the first thing wrong, since a wrong file shown as it is (a rating
`28x0` in the PGN, every player `?` for a header the relay does not read) is worse than
the last good pairings kept."""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING

from reedboard.errors import InvalidInputError

from reedboard_relay.pairing import Pairing

if TYPE_CHECKING:
    from _csv import Reader  # what csv.reader returns; typeshed's name for it

COLUMNS = tuple(Pairing.__dataclass_fields__)  # round, board_number, white, black...
NEEDED = ("board", "white", "black")
# Titles FIDE awards, and those Lichess's broadcasts show (national master, Lichess master).
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "NM", "WNM", "LM", "BOT"}
WHOLE = re.compile(r"\d{1,10}")
RATING = re.compile(r"\d{1,4}")
ROUND = re.compile(r"\d+(\.\d+)*|\?|-")
# A line break in a quoted field (or any control character) would be a name on two
# lines: in the PGN, on the page, in Lichess. Said, not mended.
CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class PairingsError(InvalidInputError):
    """A pairings file the relay cannot use: the message names where and what."""


def csv_pairings(text: str) -> dict[str, Pairing]:
    reader = csv.reader(io.StringIO(text, newline=""))
    header = _header(reader)
    table: dict[str, Pairing] = {}
    rows_of: dict[str, int] = {}
    for fields in reader:
        line = reader.line_num
        if not any(field.strip() for field in fields):
            continue  # a blank line
        if len(fields) > len(header):
            raise PairingsError(
                f"line {line}: {len(fields)} fields, the header names {len(header)}"
            )
        row = {name: value.strip() for name, value in zip(header, fields, strict=False)}
        board = row.get("board", "")
        if not board:
            raise PairingsError(f"line {line}, column board: empty (the board's id)")
        if board in rows_of:
            raise PairingsError(
                f"line {line}, column board: {board} is paired already on line {rows_of[board]}"
            )
        rows_of[board] = line
        for name, value in row.items():
            if value:
                _check(line, name, value)
        table[board] = Pairing(**{k: v for k, v in row.items() if k != "board" and v})
    return table


def _header(reader: Reader) -> list[str]:
    for fields in reader:
        if any(field.strip() for field in fields):
            break
    else:
        raise PairingsError("no header (write board,round,board_number,white,black)")
    header = [field.strip().lower() for field in fields]
    for number, name in enumerate(header, 1):
        if name != "board" and name not in COLUMNS:
            raise PairingsError(
                f"line {reader.line_num}, column {number}: {name!r} is not a column the relay "
                f"reads (board, {', '.join(COLUMNS)})"
            )
        if header.index(name) != number - 1:
            raise PairingsError(f"line {reader.line_num}, column {number}: {name} is named twice")
    missing = [name for name in NEEDED if name not in header]
    if missing:
        raise PairingsError(f"line {reader.line_num}: no column {' or '.join(missing)}")
    return header


def _check(line: int, name: str, value: str) -> None:
    where = f"line {line}, column {name}"
    if CONTROLS.search(value):
        raise PairingsError(f"{where}: {value!r} holds a line break or a control character")
    if name.endswith("_elo") and not RATING.fullmatch(value):
        raise PairingsError(f"{where}: {value!r} is not a rating (a whole number)")
    if name.endswith("_fide_id") and not WHOLE.fullmatch(value):
        raise PairingsError(f"{where}: {value!r} is not a FIDE id (a whole number)")
    if name.endswith("_title") and value.upper() not in TITLES:
        raise PairingsError(f"{where}: {value!r} is not a title ({', '.join(sorted(TITLES))})")
    if name == "board_number" and not (WHOLE.fullmatch(value) and int(value) > 0):
        raise PairingsError(f"{where}: {value!r} is not a board number (1, 2...)")
    if name == "round" and not ROUND.fullmatch(value):
        raise PairingsError(f"{where}: {value!r} is not a round (1, 2, or 1.1...)")
