"""A PGN file that grows game by game and is rewritten from the current game's first
byte after every move, then flushed and synced: a crash of the host loses no move, and
games already in the file (from earlier sessions) are never touched.

Each game's `Round` is its number in the file (the games of earlier sessions count), its
`Termination` one of the standard values, and the reason the game ended a comment after
its last move ("Draw by threefold repetition")."""

from __future__ import annotations

import datetime
import os
from collections.abc import Mapping, Sequence
from typing import IO

from reedboard.chess_clock.time_control import parse_time_control
from reedboard.rules.pgn import write_pgn
from reedboard.stopping import signals_held

from reedboard_host.mirror import GameMirror, MirroredGame

# The values PGN's Termination tag may take (the PGN standard, 9.8.1); everything the
# board itself ends a game with (mate, a draw by rule, a claim, an agreement, a
# resignation) is a "normal" end, and the reason itself goes in a comment.
TERMINATIONS = {
    "time_forfeit": "time forfeit",
    "timeout": "time forfeit",
    "outoftime": "time forfeit",
    "abandoned": "abandoned",
    "aborted": "abandoned",
    "adjudication": "adjudication",
    "rules_infraction": "rules infraction",
    "time": "time forfeit",  # the board's own flag
    "time_insufficient_material": "time forfeit",
}
_DRAWS = {
    "time_insufficient_material": "Draw: a flag fell, and the other side cannot checkmate",
    "stalemate": "Draw by stalemate",
    "insufficient_material": "Draw by insufficient material",
    "seventyfive_moves": "Draw by the 75-move rule",
    "fivefold_repetition": "Draw by fivefold repetition",
    "fifty_moves": "Draw by the 50-move rule",
    "threefold_repetition": "Draw by threefold repetition",
    "agreement": "Draw by agreement",
}


def termination(reason: str) -> str:
    """The PGN Termination value for a board's (or Lichess's) reason."""
    return TERMINATIONS.get(reason, "normal")


def reason_comment(reason: str, result: str | None) -> str:
    """The reason a game ended, in words, for the comment after its last move."""
    winner = {"1-0": "White", "0-1": "Black"}.get(result or "")
    loser = {"1-0": "Black", "0-1": "White"}.get(result or "")
    if reason == "checkmate" and winner:
        return f"{winner} wins by checkmate"
    if reason == "resignation" and loser:
        return f"{loser} resigns"
    if reason == "time" and winner:
        return f"{winner} wins on time"
    if reason in _DRAWS:
        return _DRAWS[reason]
    words = reason.replace("_", " ")
    return f"{winner} wins: {words}" if winner else words[:1].upper() + words[1:]


def pgn_text(
    game: MirroredGame,
    *,
    site: str,
    date: datetime.date,
    round_: str,
    players: tuple[str, str] = ("?", "?"),
    tags: Mapping[str, str] | None = None,
    sans: Sequence[str] | None = None,
) -> str:
    """The game as PGN: `round_` is its number in its file ("-" when it has none),
    `players` the names of White and Black, `tags` more (or other) tags, all written
    and escaped by the rules' PGN writer (`sans`: its moves in SAN, where known)."""
    headers = {
        "Event": "reedboard game",
        "Site": site,
        "Date": date.strftime("%Y.%m.%d"),
        "Round": round_,
        "White": players[0],
        "Black": players[1],
    }
    headers.update(tags or {})
    comments = dict(game.comments)
    if game.time_control is not None:
        headers["TimeControl"] = parse_time_control(game.time_control).pgn_tag()
    for ply in game.clocks:
        comments[ply] = clocked_comment(game, ply)
    if game.reason:
        headers["Termination"] = termination(game.reason)
        ply = len(game.game)
        said = reason_comment(game.reason, game.result)
        comments[ply] = f"{comments[ply]}; {said}" if comments.get(ply) else said
    return write_pgn(game.game, headers, comments, result=game.result or "*", sans=sans)


def clocked_comment(game: MirroredGame, ply: int) -> str:
    """Ply `ply`'s comment: the mover's time left after the move first, as broadcasts
    show it (`[%clk]`), then the board's own words."""
    said = game.comments.get(ply) or ""
    clock = game.clocks.get(ply)
    if clock is None:
        return said
    white_moved = (ply % 2 == 1) == game.game.start.turn
    clk = f"[%clk {_hms(clock[0] if white_moved else clock[1])}]"
    return f"{clk} {said}" if said else clk


def _hms(ms: int) -> str:
    """H:MM:SS, whole seconds (the `%clk` command's form)."""
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class PgnFile:
    def __init__(
        self, path: str, *, site: str = "reedboard", players: tuple[str, str] = ("?", "?")
    ) -> None:
        self.path = path
        self.site = site
        self.players = players
        self._handle: IO[str] = open(path, "a+", encoding="utf-8")  # noqa: SIM115
        self._handle.seek(0)
        # Each game's Round is its number in the file: games of earlier sessions count.
        self._earlier = sum(1 for line in self._handle if line.startswith("[Event "))
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
        round_ = str(self._earlier + self._written + 1)
        text = separator + pgn_text(
            game, site=self.site, date=today, round_=round_, players=self.players
        )
        with signals_held():  # Ctrl-C lands after the game is whole again
            handle.seek(self._base)
            handle.truncate()
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())

    def close(self) -> None:
        self._handle.close()
