"""Who plays on which board, read again when the file changes. Two formats, told apart by
their content (not the file's name): a CSV (`board,round,board_number,white,black`, and
optionally `white_elo,black_elo,white_title,black_title,white_fide_id,black_fide_id,
event`), or FIDE's Tournament Report File (`pairings_trf`). A file that cannot be read
leaves the pairings as they were and says why (`problem`, and the log)."""

from __future__ import annotations

import csv
import io
import logging
import os
import time
from collections.abc import Sequence

from reedboard_host.relay.pairing import Pairing
from reedboard_host.relay.pairings_trf import looks_like_trf, trf_pairings

__all__ = ["Pairing", "Pairings"]

CHECK_EVERY_S = 1.0
UNPAIRED = Pairing()  # shared: compared with itself at every poll, it is equal at once

log = logging.getLogger(__name__)


class Pairings:
    def __init__(
        self,
        path: str | None,
        *,
        check_every_s: float = CHECK_EVERY_S,
        round_: int | None = None,
        boards: Sequence[str] = (),
    ) -> None:
        self.path = path
        self.check_every_s = check_every_s
        self.round = round_  # a TRF's round to show; None: its last round with pairings
        self.boards = tuple(boards)  # a TRF's board numbers 1, 2... are these board ids
        self.problem: str | None = None
        self._stamp: tuple[float, int] | None = None
        self._table: dict[str, Pairing] = {}
        self._checked: float | None = None  # monotonic time the file was last looked at

    def get(self, board: str) -> Pairing:
        self._reload()
        return self._table.get(board, UNPAIRED)

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
            self._trouble(f"cannot read the pairings {self.path}: {error.strerror}")
            return
        stamp = (stat.st_mtime, stat.st_size)
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            with open(self.path, "rb") as handle:
                text = _decoded(handle.read())
            if looks_like_trf(text):
                table = trf_pairings(text, round_=self.round, boards=self.boards)
            else:
                table = _csv_pairings(text)
        except (OSError, ValueError, csv.Error) as error:
            self._trouble(f"cannot read the pairings {self.path}: {error}")
            return
        self._table = table
        if self.problem is not None:
            log.info("pairings %s read again", self.path)
        self.problem = None

    def _trouble(self, problem: str) -> None:
        if problem != self.problem:
            log.warning("%s (the pairings stay as they were)", problem)
        self.problem = problem


def _decoded(data: bytes) -> str:
    """UTF-8 (with or without its mark), else Windows' code page, which pairing programs
    on Windows write: a name is never a reason to refuse the file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _csv_pairings(text: str) -> dict[str, Pairing]:
    table: dict[str, Pairing] = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        board = (row.get("board") or "").strip()
        if not board:
            continue
        values = {
            name: (row.get(name) or "").strip()
            for name in Pairing.__dataclass_fields__
            if (row.get(name) or "").strip()
        }
        table[board] = Pairing(**values)
    return table
