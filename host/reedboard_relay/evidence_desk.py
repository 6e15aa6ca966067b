"""The arbiter's console shows a game's evidence (evidence.py) at any ply and exports it:
`GET /arbiter/api/evidence?board=ID[&ply=N]` (the game in progress, or the last one) as
JSON, and `GET /arbiter/evidence.csv?board=ID` (every game of the board) as CSV, both
behind the console's token as every route of its app (`with_evidence`)."""

from __future__ import annotations

from aiohttp import web

from reedboard_relay import evidence_store
from reedboard_relay.arbiter_console import DESK_KEY, ArbiterDesk, Refused
from reedboard_relay.evidence import LIMITS, Row, csv_text, timeline
from reedboard_relay.game_on_board import GameOnBoard, game_on


def evidence_rows(
    desk: ArbiterDesk, board_id: str, ply: int | None = None
) -> tuple[GameOnBoard, list[Row]]:
    """The board's game in progress (or its last one, between games) and its timeline."""
    with desk.service.lock:
        board = desk.service.boards.boards.get(board_id)
        if board is None:
            raise Refused(f"no board {board_id!r}", 404)
        db = desk.service.boards.store.db
        game = game_on(board.mirror)
        if board.mirror.current is None and board.mirror.finished:
            game = (len(board.mirror.finished) - 1, board.mirror.finished[-1].id)
        return game, timeline(evidence_store.recorded(db, board_id, game), game, ply)


def every_game(desk: ArbiterDesk, board_id: str) -> list[tuple[GameOnBoard, list[Row]]]:
    with desk.service.lock:
        if board_id not in desk.service.boards.boards:
            raise Refused(f"no board {board_id!r}", 404)
        db = desk.service.boards.store.db
        return [
            (game, timeline(evidence_store.recorded(db, board_id, game), game))
            for game in evidence_store.games_of(db, board_id)
        ]


def _board(request: web.Request) -> str:
    board = request.query.get("board", "")
    if not board:
        raise Refused("board is missing: the id of the board")
    return board


def _ply(request: web.Request) -> int | None:
    text = request.query.get("ply", "")
    if not text:
        return None
    if not text.isdigit():
        raise Refused(f"ply {text!r}: a number of plies, 0 before the first move")
    return int(text)


async def _listed(request: web.Request) -> web.Response:
    game, rows = evidence_rows(request.app[DESK_KEY], _board(request), _ply(request))
    return web.json_response({"limits": LIMITS, "game": list(game), "rows": rows})


async def _exported(request: web.Request) -> web.Response:
    board = _board(request)
    text = csv_text(board, every_game(request.app[DESK_KEY], board))
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in board)
    return web.Response(
        text=text,
        content_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="evidence-{safe}.csv"'},
    )


def with_evidence(app: web.Application) -> web.Application:
    """The console's app (`console_app`) with the evidence's routes. The page's part is in
    arbiter_page."""
    assert DESK_KEY in app  # the console's own app: its guard checks every request
    app.router.add_get("/arbiter/api/evidence", _listed)
    app.router.add_get("/arbiter/evidence.csv", _exported)
    return app
