"""The arbiter's console adds time to a player's clock: FIDE 7.5.5's two minutes to the
opponent of a player's first completed illegal move, or time after a disturbance or a
faulty clock (6.10/6.11). The decision is kept in the arbiter's store, shown at once in
the broadcast as an arbiter's comment, and sent to the board as `clock_add` over its
`request` topic, as a correction's takeback is; the board's answer says whether it was
done.

Beside `arbiter_console`, which knows nothing of it: the desk's deciding (`add_time`,
`heard_time`), its HTTP routes and the part of the page that asks for it, added to the
console's app by `with_added_time`."""

from __future__ import annotations

from typing import TypedDict

from aiohttp import web
from reedboard.link.board_messages import Ack, BoardMessage, ErrorReply
from reedboard.link.messages import AddTime, Color

from reedboard_relay.added_time import AddedState, minutes_in_ms
from reedboard_relay.arbiter_console import (
    DESK_KEY,
    MAX_TEXT,
    ArbiterDesk,
    Refused,
    _board_named,
    _body,
    _text,
    refusal_words,
)
from reedboard_relay.boards import Board
from reedboard_relay.corrections import shown_game
from reedboard_relay.game_on_board import game_on

# The ids of `clock_add` commands: + the addition's number, apart from the corrections'
# and the round's `settings` ids.
ADD_TIME_IDS = 3_000_000_000
COLORS = ("white", "black")


class AddedRow(TypedDict):
    """Time added on a board's game, as the console lists it (`/arbiter/api/time`)."""

    ply: int
    color: str
    ms: int
    note: str
    state: AddedState
    answer: str
    comment: str


def add_time(
    desk: ArbiterDesk, board_id: str, color: object, minutes: object, note: object
) -> None:
    """`minutes` more on `color`'s clock, on the board's game in progress."""
    if color not in COLORS:
        raise Refused(f"color {color!r}: whose clock, white or black")
    try:
        ms = minutes_in_ms(minutes)
    except ValueError as error:
        raise Refused(str(error)) from None
    said = _text("note", note)
    with desk.service.lock:
        mirror = _board(desk, board_id).mirror
        current, on = mirror.current, game_on(mirror)
        shown = shown_game(current, desk.store.of(board_id), on)
        if current is None or shown is None:
            raise Refused(f"board {board_id} has no game yet")
        if shown.result is not None and shown.result != "*":
            raise Refused(f"board {board_id}'s game is over ({shown.result}): its clocks stopped")
        if current.time_control is None:
            raise Refused(f"board {board_id}'s game is not timed: there is no clock to add to")
        made = desk.store.add_time(board_id, on, len(shown.game), color == "white", ms, said)
        game_id = current.id
    whose: Color = "white" if color == "white" else "black"
    desk.service.command(board_id, AddTime(whose, ms, ADD_TIME_IDS + made.number, game_id))
    desk.changed(board_id)


def heard_time(desk: ArbiterDesk, board_id: str, message: BoardMessage) -> None:
    """A board's message: its answer to time added, if it is one (on the relay's loop)."""
    if not isinstance(message, Ack | ErrorReply) or message.id is None:
        return
    number = message.id - ADD_TIME_IDS
    if not 0 < number < ADD_TIME_IDS:
        return
    said = "" if isinstance(message, Ack) else refusal_words(message)
    with desk.service.lock:
        state: AddedState = "done" if isinstance(message, Ack) else "refused"
        changed = desk.store.answer_time(board_id, number, state, said[:MAX_TEXT])
    if changed:
        desk.changed(board_id)


def added_rows(desk: ArbiterDesk, board_id: str) -> list[AddedRow]:
    """The time added on the board's game in progress, in the order it was decided."""
    with desk.service.lock:
        on = game_on(_board(desk, board_id).mirror)
        kept = desk.store.of(board_id).added_times
    return [
        {
            "ply": a.ply,
            "color": "white" if a.white else "black",
            "ms": a.ms,
            "note": a.note,
            "state": a.state,
            "answer": a.answer,
            "comment": a.comment(),
        }
        for a in kept
        if a.game == on
    ]


def _board(desk: ArbiterDesk, board_id: str) -> Board:
    board = desk.service.boards.boards.get(board_id)
    if board is None:
        raise Refused(f"no board {board_id!r}", 404)
    return board


# ----- HTTP (behind the console's token, as every route of its app) -----


async def _add(request: web.Request) -> web.Response:
    body = await _body(request)
    add_time(
        request.app[DESK_KEY],
        _board_named(body),
        body.get("color"),
        body.get("minutes", 2),
        body.get("note"),
    )
    return web.json_response({"ok": True})


async def _listed(request: web.Request) -> web.Response:
    board = request.query.get("board", "")
    if not board:
        raise Refused("board is missing: the id of the board")
    return web.json_response({"added": added_rows(request.app[DESK_KEY], board)})


def with_added_time(app: web.Application) -> web.Application:
    """The console's app (`console_app`) with the routes that add time and list it:
    inside the app's token check, as every other route. The page's form is in
    arbiter_page."""
    app.router.add_post("/arbiter/api/time", _add)
    app.router.add_get("/arbiter/api/time", _listed)
    return app
