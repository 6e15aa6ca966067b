"""A PGN file that grows game by game and is rewritten from the current game's first
byte after every move, then flushed and synced: a crash of the host loses no move, and
games already in the file (from earlier sessions) are never touched."""

from __future__ import annotations

import datetime
import os
from typing import IO

from reedboard.rules.pgn import write_pgn

from reedboard_host.mirror import GameMirror, MirroredGame
from reedboard_host.stopping import signals_held


def pgn_text(game: MirroredGame, *, site: str, date: datetime.date, round_: int) -> str:
    headers = {
        "Event": "reedboard game",
        "Site": site,
        "Date": date.strftime("%Y.%m.%d"),
        "Round": str(round_),
    }
    if game.reason:
        headers["Termination"] = game.reason
    return write_pgn(game.game, headers, game.comments, result=game.result or "*")


class PgnFile:
    def __init__(self, path: str, *, site: str = "reedboard") -> None:
        self.path = path
        self.site = site
        self._handle: IO[str] = open(path, "a+", encoding="utf-8")  # noqa: SIM115
        self._handle.seek(0, os.SEEK_END)
        self._base = self._handle.tell()  # where the game being written starts
        self._written = 0  # games of the mirror already final in the file

    def update(self, mirror: GameMirror) -> None:
        """Write what is new: finished games for good, then the current game."""
        today = datetime.date.today()
        while self._written < len(mirror.finished):
            self._write(mirror.finished[self._written], today)
            self._written += 1
            self._base = self._handle.tell()
        if mirror.current is not None and not mirror.current.empty:
            self._write(mirror.current, today)

    def _write(self, game: MirroredGame, today: datetime.date) -> None:
        handle = self._handle
        separator = "\n" if self._base else ""
        round_ = self._written + 1
        text = separator + pgn_text(game, site=self.site, date=today, round_=round_)
        with signals_held():  # Ctrl-C lands after the game is whole again
            handle.seek(self._base)
            handle.truncate()
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())

    def close(self) -> None:
        self._handle.close()
