"""The simulator's web side: the page, its WebSocket, and the game as PGN.

The page sends small JSON messages (a gesture, a host command, a script to play, a typed
move, a question for the voice, the voice's language), one at a time in order, and is sent the whole board state whenever it changes, checked 20 times
a second: blinking and pulsing LEDs show at the pace the strip would, and a still board
sends nothing. Whatever the page sends, the answer is at worst an error message back:
the board runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web

from reedboard.errors import ReedboardError
from reedboard.replay.script import parse_script
from reedboard.simweb.board import SimBoard
from reedboard.simweb.guard import WEBSOCKET_PATH, same_site_only

STATIC = Path(__file__).with_name("static")
PUSH_S = 0.05
MAX_MESSAGE = 256 * 1024  # a long event script still fits; more is not a page's doing
GESTURES = ("touch", "lift", "place", "select", "to_tray", "from_tray", "arrange")
CLOSE_WAIT_S = 1.0  # for an open page to answer the closing handshake on shutdown
BOARD_KEY = web.AppKey("board", SimBoard)
SOCKETS_KEY = web.AppKey("sockets", weakref.WeakSet[web.WebSocketResponse])
log = logging.getLogger("reedboard.sim")


def make_app(board: SimBoard, host_names: Iterable[str] = ()) -> web.Application:
    """The simulator's web app; it answers only to local names, the address it serves on
    and `host_names` (see `guard`)."""
    app = web.Application(middlewares=[same_site_only(host_names)])
    app[BOARD_KEY] = board
    app[SOCKETS_KEY] = weakref.WeakSet()
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/", _index)
    app.router.add_get(WEBSOCKET_PATH, _websocket)
    app.router.add_get("/game.pgn", _pgn)
    app.router.add_static("/static/", STATIC)
    return app


async def _index(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def _pgn(request: web.Request) -> web.Response:
    text = request.app[BOARD_KEY].pgn()
    return web.Response(
        text=text,
        content_type="application/x-chess-pgn",
        headers={"Content-Disposition": 'attachment; filename="reedboard.pgn"'},
    )


async def _websocket(request: web.Request) -> web.WebSocketResponse:
    board = request.app[BOARD_KEY]
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=20)
    await ws.prepare(request)
    request.app[SOCKETS_KEY].add(ws)
    pusher = asyncio.create_task(_push(board, ws))
    try:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            # Off the event loop: a new game waits for the board to see its pieces.
            reply = await asyncio.to_thread(handle, board, message.data)
            if reply is not None:
                await ws.send_json(reply)
    finally:
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pusher
    return ws


async def _close_sockets(app: web.Application) -> None:
    """Say goodbye to every open page, so that stopping the simulator does not wait for
    browser tabs to go away on their own."""
    open_pages = app[SOCKETS_KEY]
    closing = [
        asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY, message=b"simulator stopped"))
        for ws in list(open_pages)
    ]
    if closing:
        await asyncio.wait(closing, timeout=CLOSE_WAIT_S)


async def _push(board: SimBoard, ws: web.WebSocketResponse) -> None:
    last = ""
    while not ws.closed:
        text = json.dumps(board.snapshot())
        if text != last:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(text)
            last = text
        await asyncio.sleep(PUSH_S)


def _text(message: Mapping[str, object]) -> str:
    text = message.get("text")
    if not isinstance(text, str):
        raise ReedboardError(f"{message.get('op')} needs its text")
    return text


def handle(board: SimBoard, data: str) -> dict[str, object] | None:
    """Carry out one message from the page; the reply to send back, if any."""
    try:
        message = json.loads(data)
        if not isinstance(message, dict):
            raise ReedboardError("a message is a JSON object")
        op = message.get("op")
        if op in GESTURES:
            board.gesture(op, message)
            return None
        if op == "command":
            command = message.get("command")
            if not isinstance(command, dict) or not isinstance(command.get("type"), str):
                raise ReedboardError("a command is an object with a type")
            return {"type": "reply", **board.command(command)}
        if op == "move":
            return {"type": "reply", "kind": "ack", "uci": board.type_move(_text(message))}
        if op == "ask":
            return {"type": "reply", "kind": "ack", "said": board.ask(_text(message))}
        if op == "language":
            board.set_language(_text(message))
            return {"type": "reply", "kind": "ack", "language": _text(message)}
        if op == "script":
            text = message.get("text")
            if not isinstance(text, str):
                raise ReedboardError("a script is text")
            board.play_script(parse_script(text))
            return {"type": "reply", "kind": "ack", "script": "playing"}
        raise ReedboardError(f"unknown op {op!r}")
    except (ReedboardError, ValueError) as error:  # JSON, square names, commands, scripts
        return {"type": "error", "message": str(error)}
    except Exception as error:
        # A bug, not the page's fault: logged, and the board goes on.
        log.exception("the page's message failed")
        return {"type": "error", "message": f"internal error: {error}"}
