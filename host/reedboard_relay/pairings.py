"""Who plays on which board, read again when the file changes. Two formats, told apart by
their content (not the file's name): a CSV (`board,round,board_number,white,black`, and
optionally `white_elo,black_elo,white_title,black_title,white_fide_id,black_fide_id,
event`: `pairings_csv`), or FIDE's Tournament Report File (`pairings_trf`). At start, a
file that cannot be read or is malformed is refused (`load`); later, it leaves the
pairings as they were and says why (`problem`, and the log, once)."""

from __future__ import annotations

import csv
import logging
import os
import time
from collections.abc import Sequence

from reedboard_relay.pairing import Pairing
from reedboard_relay.pairings_csv import PairingsError, csv_pairings
from reedboard_relay.pairings_trf import looks_like_trf, trf_pairings

__all__ = ["Pairing", "Pairings", "PairingsError"]

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
        self.reload()
        return self._table.get(board, UNPAIRED)

    def load(self) -> None:
        """Read the file at start: one that cannot be read or is malformed is refused
        (`PairingsError`, naming the file, and the line and column where it can)."""
        if self.path is None:
            return
        self._checked = time.monotonic()
        try:
            stamp = self._stamp_of(self.path)
            self._table = self._read(self.path)
        except (OSError, ValueError, csv.Error) as error:
            raise PairingsError(_cannot(self.path, error)) from None
        self._stamp = stamp

    def reload(self) -> None:
        """Read the file again if it changed (looked at every `check_every_s` at most);
        one that cannot be read or is malformed keeps the last good pairings, said once."""
        if self.path is None:
            return
        now = time.monotonic()
        if self._checked is not None and now - self._checked < self.check_every_s:
            return  # the page asks for every board many times a second
        self._checked = now
        try:
            stamp = self._stamp_of(self.path)
        except OSError as error:
            self._trouble(_cannot(self.path, error))
            return
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            table = self._read(self.path)
        except (OSError, ValueError, csv.Error) as error:
            self._trouble(_cannot(self.path, error))
            return
        self._table = table
        if self.problem is not None:
            log.info("pairings %s read again", self.path)
        self.problem = None

    @staticmethod
    def _stamp_of(path: str) -> tuple[float, int]:
        stat = os.stat(path)
        return stat.st_mtime, stat.st_size

    def _read(self, path: str) -> dict[str, Pairing]:
        with open(path, "rb") as handle:
            text = _decoded(handle.read())
        if looks_like_trf(text):
            return trf_pairings(text, round_=self.round, boards=self.boards)
        return csv_pairings(text)

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


def _cannot(path: str, error: Exception) -> str:
    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
    return f"cannot read the pairings {path}: {reason}"
