"""Adopting a game the person began on the board before Lichess's game reached it: the
first move, made as soon as the game was paired, goes to Lichess rather than being
dropped by a new game on the board. Sans-I/O, as the synchroniser (`sync`) is."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from reedboard.errors import BoardRequestError
from reedboard.lichess.actions import Action, AskBoard, SyncBoard
from reedboard.lichess.board_view import BoardView
from reedboard.lichess.game import BridgedGame
from reedboard.link.acks import SettingsNow
from reedboard.link.messages import ChangeSettings
from reedboard.reader.waits import DEFAULT_SETTLE_MS


def begun_on_the_board(game: BridgedGame, mirror: BoardView) -> Generator[Action, Any, bool]:
    """Whether the board's game is `game`, begun already (`BridgedGame.adopt_begun`).

    A move made a moment ago is heard first, not lost: the board's game is read once the
    board's settle window has passed, so that a first move complete on the board but not
    yet made (a pawn on e3 that may go on to e4, a piece resting before it counts) is in
    it too. A first move from the start is held no longer than that: it captures nothing,
    and neither castling nor a promotion can follow it."""
    if game.lichess.game.position.turn != game.we_white:
        return False  # the first move is the opponent's: nothing of ours to adopt
    try:
        reply = yield AskBoard(ChangeSettings())  # the board's settings, changing none
    except BoardRequestError:
        reply = None  # an older board, or a busy one: its settle window is the default
    outcome = getattr(reply, "outcome", None)
    settle_ms = outcome.settle_ms if isinstance(outcome, SettingsNow) else DEFAULT_SETTLE_MS
    yield SyncBoard(after_ms=settle_ms)
    return not mirror.needs_state and game.adopt_begun(mirror.current)
