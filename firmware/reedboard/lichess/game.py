"""The Lichess side of a game, as values: the clock on the command line, the forms of a
seek and a challenge, Lichess's moves read into the board's notation, where a game starts
and who plays it, which of the board's moves to undo when Lichess takes moves back, the
moves taken back by hand on the board, and one game as the bridge keeps it in both places
(`BridgedGame`). Pure: no network, no board."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from reedboard.lichess.board_view import BoardGame
from reedboard.lichess.offers import Offers
from reedboard.lichess.settings import BadSetting
from reedboard.lichess.shapes import Player
from reedboard.rules.game import Game
from reedboard.rules.position import Position

# What the board can play: Chess960 and games from a position use the board's Chess960
# rules (Lichess plays games from a position as Chess960 too).
PLAYABLE = ("standard", "chess960", "fromPosition")
OVER = {"aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat",
        "noStart", "unknownFinish", "insufficientMaterialClaim", "variantEnd"}  # fmt: skip
# Endings the board reaches by itself once the last move stands on it.
ON_THE_BOARD = {"mate", "stalemate"}
NO_RESULT = {"aborted", "noStart"}
# A challenge's initial time in seconds: these few, or whole minutes up to three hours.
SHORT_LIMITS = (0, 15, 30, 45, 60, 90)


def parse_clock(text: str) -> tuple[float, int]:
    """`15+10` -> (15 minutes, 10 seconds increment)."""
    minutes, _, increment = text.partition("+")
    try:
        result = float(minutes), int(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not MINUTES+INCREMENT") from None
    if not 0 <= result[0] <= 180 or not 0 <= result[1] <= 180 or result == (0, 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not MINUTES+INCREMENT")
    return result


def challenge_form(clock: tuple[float, int], rated: bool, variant: str) -> dict[str, Any]:
    """The form of a challenge (Lichess's `challengeCreate`), kept alive until answered."""
    limit = round(clock[0] * 60)
    if (limit not in SHORT_LIMITS and (limit % 60 or limit > 10800)) or clock[1] > 60:
        raise BadSetting(
            "a challenge's clock is 0, 0.25, 0.5, 0.75, 1, 1.5 or whole minutes up to 180, "
            "plus 0 to 60 seconds a move"
        )
    form: dict[str, Any] = {"rated": str(rated).lower(), "clock.limit": limit,
                            "clock.increment": clock[1], "keepAliveStream": "true"}  # fmt: skip
    if variant != "standard":
        form["variant"] = variant
    return form


def seek_form(clock: tuple[float, int], rated: bool, variant: str) -> dict[str, Any]:
    """The form of a real-time seek (Lichess's `apiBoardSeek`)."""
    form: dict[str, Any] = {"rated": str(rated).lower(), "time": f"{clock[0]:g}",
                            "increment": clock[1]}  # fmt: skip
    if variant != "standard":
        form["variant"] = variant
    return form


class LichessMoves:
    """Lichess's moves of one game, read in either castling notation and kept in the
    board's (`Position.uci`)."""

    def __init__(self, initial: Position) -> None:
        self.initial = initial
        self.raw: list[str] = []
        self.ucis: list[str] = []
        self.game = Game(initial)

    def update(self, raw: list[str]) -> None:
        """Take in Lichess's moves; a list that is no longer, nor a move of, the game so
        far raises `ValueError` and changes nothing."""
        if raw[: len(self.raw)] == self.raw:
            game, ucis, known = self.game.copy(), list(self.ucis), len(self.raw)
        else:  # a takeback on Lichess: read the game again from its start
            game, ucis, known = Game(self.initial), [], 0
        for text in raw[known:]:
            before = game.position
            move = before.parse_uci(text)
            game.push(move)
            ucis.append(before.uci(move))
        self.game, self.ucis, self.raw = game, ucis, list(raw)


def player_name(player: Player) -> str:
    # A game against Lichess's own engine names no user, only the engine's level.
    if "aiLevel" in player:
        return f"Stockfish level {player['aiLevel']}"
    return str(player.get("name") or player.get("id") or "?")


def initial_position(fen: str | None, variant: str) -> Position:
    if not fen or fen == "startpos":
        return Position.standard()
    return Position.from_fen(str(fen), chess960=variant == "chess960")


def common_prefix(a: list[str], b: list[str]) -> int:
    """How many moves two games share from their start."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def plies_to_undo(played: list[str], before: list[str], kept: int) -> int:
    """How many of the board's last moves to take back after Lichess took its game back to
    `kept` plies from `before`: the board's moves past `kept` when all of them are the old
    ones. A move played on the board in their place is new, and is not undone here (it goes
    to Lichess, or is taken back as any move Lichess does not have)."""
    if len(played) <= kept or played[kept:] != before[kept : len(played)]:
        return 0
    return len(played) - kept


@dataclass
class HandTakebacks:
    """The board's moves taken back by hand, told from the bridge's own takebacks by
    counting the board's `takeback` events. A count of the board's plies would miss a move
    made and taken back between two looks: the plies are as many as before."""

    seen: int | None = None  # the board's takeback events at the last look; None: uncounted
    own: int = 0  # the bridge's own takebacks done, not yet seen among the events

    def since(self, events: int) -> int:
        """How many moves were taken back by hand since the last look, the board having
        sent `events` takebacks in all. The event of an own takeback may come after its
        reply (a reply overtakes a gap on a noisy line): it is waited for, not counted."""
        if self.seen is None:
            self.seen, self.own = events, 0  # the first look: nothing to compare with yet
            return 0
        new = events - self.seen
        own = min(new, self.own)
        self.seen, self.own = events, self.own - own
        return new - own

    def forget(self) -> None:
        """Count afresh from the next look: a takeback of the bridge's that may or may not
        have been made (its request unanswered), or a game begun again."""
        self.seen, self.own = None, 0


@dataclass
class BridgedGame:
    """One Lichess game played on the board: Lichess's moves, the board's game for it, and
    where the two stand with each other."""

    id: str
    we_white: bool
    lichess: LichessMoves
    start_ply: int = 0  # Lichess's plies before the board's game starts
    board: BoardGame | None = None  # the board's game for this one, once it started
    new_games_asked: int | None = None  # the board's new games when one was asked for
    shown: tuple[int, str] | None = None  # (board ply, uci) lit on the board
    posted: int = 0  # board plies sent to Lichess (or found there)
    status: str = "started"
    board_ended: bool = False  # the board's own end of the game was handled
    offers: Offers = field(default_factory=Offers)
    board_draw: bool = False  # the draw was agreed on the board, Lichess not yet
    # Lichess took its game back: (board plies it kept, the board's moves it had before).
    undone: tuple[int, list[str]] | None = None
    taken_back: HandTakebacks = field(default_factory=HandTakebacks)
    waiting: tuple[int, str] | None = None  # (board ply, uci) kept through a 429's pause

    @property
    def over(self) -> bool:
        return self.status in OVER

    def adopt_begun(self, current: BoardGame | None) -> bool:
        """Whether the board's `current` game is this one, begun before it reached the
        board: from Lichess's starting position, with one move made, ours, and no other
        (the person moved as soon as the game began). Adopted then rather than started
        again, which would drop the move: it goes to Lichess."""
        start = self.lichess.game.position
        if self.lichess.ucis or current is None or current.result is not None:
            return False
        board = current.game
        if len(board) != 1 or board.start.fen() != start.fen() or start.turn != self.we_white:
            return False
        self.start_ply, self.board, self.new_games_asked = 0, current, None
        self.taken_back.forget()
        return True


def milliseconds(value: object) -> TypeGuard[int]:
    """A time as Lichess's game state gives it: whole milliseconds, not negative."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
