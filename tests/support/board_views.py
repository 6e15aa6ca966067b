"""What a test reads off a running board's app, the same for every fake board the tests
run: the board's own moves, and its view when a person could act on it."""

from __future__ import annotations

from reedboard.app import App
from reedboard.reader.view import BoardView


def board_moves(app: App) -> list[str]:
    """The board's own game, as UCI moves."""
    board_game = app.board_game
    assert board_game is not None
    game = board_game.game
    return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]


def quiet(view: BoardView | None, lines_pending: int) -> BoardView | None:
    """`view` when a person could act on it: nothing in the hand or still to be applied
    (`lines_pending`), no mismatch, no move waiting to be decided; else None."""
    if view is None or lines_pending:
        return None
    if view.lifted or view.missing or view.extra or view.pending:
        return None
    return view
