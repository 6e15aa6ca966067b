"""Who plays on which board: a CSV file (`board,round,board_number,white,black`, and
optionally `white_elo,black_elo,white_title,black_title`), read again when it changes."""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass

CHECK_EVERY_S = 1.0


@dataclass(frozen=True)
class Pairing:
    round: str = "?"
    board_number: str = ""
    white: str = "?"
    black: str = "?"
    white_elo: str = ""
    black_elo: str = ""
    white_title: str = ""
    black_title: str = ""


class Pairings:
    def __init__(self, path: str | None, *, check_every_s: float = CHECK_EVERY_S) -> None:
        self.path = path
        self.check_every_s = check_every_s
        self.problem: str | None = None
        self._stamp: tuple[float, int] | None = None
        self._table: dict[str, Pairing] = {}
        self._checked: float | None = None  # monotonic time the file was last looked at

    def get(self, board: str) -> Pairing:
        self._reload()
        return self._table.get(board, Pairing())

    def _reload(self) -> None:
        if self.path is None:
            return
        now = time.monotonic()
        if self._checked is not None and now - self._checked < self.check_every_s:
            return  # the page asks for every board many times a second
        self._checked = now
        try:
            stat = os.stat(self.path)
        except OSError as error:
            self.problem = f"cannot read the pairings {self.path}: {error.strerror}"
            return
        stamp = (stat.st_mtime, stat.st_size)
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            with open(self.path, encoding="utf-8", newline="") as handle:
                rows = list(csv.DictReader(handle))
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            self.problem = f"cannot read the pairings {self.path}: {error}"
            return
        table: dict[str, Pairing] = {}
        for row in rows:
            board = (row.get("board") or "").strip()
            if not board:
                continue
            values = {
                name: (row.get(name) or "").strip()
                for name in Pairing.__dataclass_fields__
                if (row.get(name) or "").strip()
            }
            table[board] = Pairing(**values)
        self._table = table
        self.problem = None
