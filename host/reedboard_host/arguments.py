"""The checks of `reedboard-host`'s arguments, made before anything is sent: what the
board would refuse anyway is refused here, as a bad argument (one line, exit status 2),
without opening the port. Each is an argparse type, so the message names the option."""

from __future__ import annotations

import argparse
import re

from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError, ReedboardError
from reedboard.hal.sensor_line import MAX_ADDED_MS
from reedboard.link.messages import SETTINGS
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

_UCI_MOVE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
_AMOUNT = re.compile(r"(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?")

SETTLE_MS = SETTINGS["settle_ms"]
CASTLE_WAIT_MS = SETTINGS["castle_wait_ms"]
KNOCK_WAIT_MS = SETTINGS["knock_wait_ms"]
LEVELS = (0, 20)  # the UCI skill levels Stockfish knows
MOVETIME_MS = (1, 600_000)  # up to ten minutes a move


def square(text: str) -> str:
    if text not in SQUARE_NAMES:
        raise argparse.ArgumentTypeError(f"{text!r} is not a square (a1 .. h8)")
    return text


def question(text: str) -> str:
    """What the board's voice is asked: the position, the last move, the clocks or a
    square."""
    if text not in ("position", "last", "clock") and text not in SQUARE_NAMES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a question: position, last, clock or a square such as e4"
        )
    return text


def uci_move(text: str) -> str:
    if not _UCI_MOVE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a move in UCI, such as e2e4 or e7e8q")
    return text


def time_control(text: str) -> str:
    """A time control as players write it (5+3, 15, 90/40:30+30)."""
    try:
        parse_time_control(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def added_ms(text: str) -> int:
    """Time to add to a clock, in ms: `2m`, `30s`, `1m30s`, or minutes alone (`2`, `0.5`),
    at most an hour."""
    minutes_only = re.fullmatch(r"\d+(?:\.\d+)?", text)
    found = _AMOUNT.fullmatch(text)
    if minutes_only:
        ms = round(float(text) * 60_000)
    elif found and text:
        minutes, seconds = (float(part or 0) for part in found.groups())
        ms = round(minutes * 60_000 + seconds * 1000)
    else:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time such as 2m, 30s or 1m30s")
    if not 1 <= ms <= MAX_ADDED_MS:
        raise argparse.ArgumentTypeError(f"{text!r}: more than 0 and at most 60 minutes")
    return ms


def fen(text: str) -> str:
    """A FEN the board can start a game from (as standard chess or as Chess960: which one
    is checked once `--chess960` is known)."""
    try:
        Position.from_fen(text)
    except InvalidInputError as first:
        try:
            Position.from_fen(text, chess960=True)
        except InvalidInputError:
            raise argparse.ArgumentTypeError(f"bad FEN: {first}") from None
    return text


class BadArgumentError(ReedboardError, ValueError):
    """Arguments that cannot go together or cannot be right: exit status 2."""


def check_start_fen(text: str, *, chess960: bool) -> None:
    """The board could start a game from this FEN, or `BadArgumentError`."""
    try:
        position = Position.from_fen(text, chess960=chess960)
    except InvalidInputError as error:
        raise BadArgumentError(f"--fen: bad FEN: {error}") from None
    if Game(position).is_game_over():
        raise BadArgumentError("--fen: the game would be over before it starts")
