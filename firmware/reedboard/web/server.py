"""The board's page over HTTP and a WebSocket (aiohttp), on the page's own thread.

- `GET /` the page, `/static/` its script and `/sim/` what it takes from the
  simulator's page (the board's picture, the style); nothing from outside the board.
- `GET /ws` the WebSocket: every open page is sent the board's picture whenever it
  changes (`feed`); a paired page sends its controls on it. A control from a page that
  is not paired closes the socket (code 4401) and changes nothing.
- `POST /pair/start` shows a pairing code on the board; `POST /pair` with the code gives
  the device its token in an HttpOnly cookie (`pairing`).
- `POST /command` a control as JSON, for a paired device (401 without pairing).
- `GET /game.pgn` this game; `GET /games` the journal's games; `GET /games/N.pgn` one.

Every request must name the board in `Host`, and a WebSocket or a POST must come from
the board's own page (`Origin`): anything else is 403 (`simweb.guard`, DNS rebinding and
other pages' requests). Requests are bounded in size, sockets in number.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, WSMsgType, web

from reedboard.errors import InvalidInputError
from reedboard.link.board_messages import reply_fields
from reedboard.link.messages import command_type
from reedboard.simweb.guard import same_site_only
from reedboard.voice.codes import LANGUAGE_CODES as LANGUAGES
from reedboard.web.control import BadRequest, opponent_spec, page_command
from reedboard.web.feed import Feed
from reedboard.web.games import GameShelf
from reedboard.web.lichess_page import lichess_request
from reedboard.web.page_messages import (
    PageAck,
    PageAnswer,
    PageError,
    PageHello,
    Told,
    VoiceShown,
)
from reedboard.web.pairing import Pairing, PairingRefused

if TYPE_CHECKING:
    from reedboard.speaking import BoardVoice

STATIC = Path(__file__).with_name("static")
SIMULATOR_STATIC = Path(__file__).parent.parent / "simweb" / "static"
COOKIE = "reedboard_device"
COOKIE_AGE_S = 10 * 365 * 24 * 3600
MAX_REQUEST = 16 * 1024  # a page's request is a few hundred bytes
MAX_MESSAGE = 4 * 1024
MAX_SOCKETS = 16  # open pages at once; more are refused (503)
NOT_PAIRED = 4401  # the WebSocket's close code for a control from an unpaired page
CLOSE_WAIT_S = 1.0
log = logging.getLogger("reedboard.web")


@dataclass
class Site:
    """What the handlers share."""

    feed: Feed
    pairing: Pairing
    games: GameShelf
    voice: BoardVoice | None = None
    sockets: set[web.WebSocketResponse] = field(default_factory=set)  # the open pages
    telling: set[asyncio.Future[None]] = field(default_factory=set)


SITE_KEY = web.AppKey("site", Site)


def make_app(site: Site, host_names: Iterable[str] = ()) -> web.Application:
    app = web.Application(
        middlewares=[same_site_only(host_names), _posts_from_own_page],
        client_max_size=MAX_REQUEST,
    )
    app[SITE_KEY] = site
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/", _index)
    app.router.add_get("/ws", _websocket)
    app.router.add_post("/pair/start", _pair_start)
    app.router.add_post("/pair", _pair)
    app.router.add_post("/command", _command)
    app.router.add_get("/game.pgn", _this_pgn)
    app.router.add_get("/games", _games)
    app.router.add_get(r"/games/{number:\d{1,9}}.pgn", _game_pgn)
    app.router.add_static("/static/", STATIC)
    app.router.add_static("/sim/", SIMULATOR_STATIC)
    return app


@web.middleware
async def _posts_from_own_page(request: web.Request, handler: Any) -> web.StreamResponse:
    """A POST whose Origin is another site's is refused: another page cannot pair or
    control the board in its visitor's name. (A program sends no Origin: it must have
    the device's token.)"""
    origin = request.headers.get("Origin")
    # `Host` names the board (`same_site_only` checked it): its page is served from there.
    own = f"http://{request.headers.get('Host', '').lower()}"
    if request.method == "POST" and origin is not None and origin.lower() != own:
        raise web.HTTPForbidden(text="the board takes requests only from its own page\n")
    response: web.StreamResponse = await handler(request)
    return response


def _paired(request: web.Request) -> bool:
    return request.app[SITE_KEY].pairing.knows(request.cookies.get(COOKIE))


async def _index(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


# ----- pairing -----


async def _pair_start(request: web.Request) -> web.Response:
    try:
        request.app[SITE_KEY].pairing.start()
    except PairingRefused as error:
        return _refused(429, str(error))
    return web.json_response({"ok": True, "message": "the code is lit on the board"})


async def _pair(request: web.Request) -> web.Response:
    try:
        fields = await request.json()
    except ValueError:
        return _refused(400, 'send the code as JSON: {"code": "3714"}')
    code = fields.get("code") if isinstance(fields, dict) else None
    if not isinstance(code, str) or len(code) > 16:
        return _refused(400, 'send the code as JSON: {"code": "3714"}')
    try:
        token = request.app[SITE_KEY].pairing.try_code(code)
    except PairingRefused as error:
        return _refused(429 if "wait" in str(error) else 403, str(error))
    response = web.json_response({"ok": True, "message": "this device is paired"})
    response.set_cookie(
        COOKIE, token, max_age=COOKIE_AGE_S, httponly=True, samesite="Strict", path="/"
    )
    return response


def _refused(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


# ----- control -----


async def _command(request: web.Request) -> web.Response:
    if not _paired(request):
        return _refused(401, "pair this device first")
    try:
        fields = await request.json()
    except ValueError:
        return _refused(400, "a command is JSON")
    site = request.app[SITE_KEY]
    answer = await _carry_out(site, fields if isinstance(fields, dict) else {}, None)
    return web.json_response(answer, status=400 if answer.get("type") == "error" else 200)


async def _carry_out(
    site: Site, message: Mapping[str, object], ws: web.WebSocketResponse | None
) -> PageAnswer:
    """A paired page's request: the answer to send back; the other pages are told."""
    op = message.get("op", "command")
    answer: PageAnswer
    try:
        if op == "command":
            command = page_command(message.get("command", message))
            kind, fields = reply_fields(await site.feed.command(command))
            told = fields.get("message")
            answer = {**fields, "type": "error" if kind == "error" else "reply", "kind": kind}
            what = command_type(command) + (f": {told}" if isinstance(told, str) else "")
        elif op == "opponent":
            opponents = site.feed.opponents
            if opponents is None:
                raise BadRequest("only a person at the board can play on this board")
            refused = await asyncio.to_thread(opponents.choose, opponent_spec(message))
            if refused is not None:
                raise BadRequest(refused)
            site.feed.refresh()
            what = f"the opponent is now {opponents.current()}"
            answer = PageAck(type="reply", kind="ack", opponent=opponents.current())
        elif op == "hint":
            opponents = site.feed.opponents
            if opponents is None:
                raise BadRequest("no engine on this board to give a hint")
            refused = await asyncio.to_thread(opponents.hint)
            if refused is not None:
                raise BadRequest(refused)
            site.feed.refresh()
            what = "a hint is lit on the board"
            answer = PageAck(type="reply", kind="ack", hint="lit")
        elif op in ("lichess_token", "lichess"):
            what, answer = await lichess_request(site.feed.opponents, op, message)
            site.feed.refresh()
        elif op == "voice":
            what = _set_voice(site, message)
            answer = PageAck(type="reply", kind="ack", voice=_voice_shown(site))
        else:
            raise BadRequest(f"unknown op {str(op)[:40]!r}")
    except BadRequest as error:
        return PageError(type="error", message=str(error))
    _tell_others(site, ws, f"Another device: {what}")
    return answer


def _set_voice(site: Site, message: Mapping[str, object]) -> str:
    """The voice on or off, and its language, from a paired page: what was done."""
    voice = site.voice
    if voice is None:
        raise BadRequest("the board's voice is off in its configuration ([voice] enabled)")
    enabled, language = message.get("enabled"), message.get("language")
    if enabled is not None and not isinstance(enabled, bool):
        raise BadRequest("voice: enabled is true or false")
    if language is not None:
        if not isinstance(language, str):
            raise BadRequest("voice: language is a language code (en, fr)")
        try:
            voice.set_language(language)
        except InvalidInputError as error:
            raise BadRequest(str(error)) from None
    if enabled is not None:
        voice.muted = not enabled
    return "the voice is " + ("off" if voice.muted else f"on, in {voice.book.code}")


def _voice_shown(site: Site) -> VoiceShown | None:
    voice = site.voice
    if voice is None:
        return None
    return VoiceShown(enabled=not voice.muted, language=voice.book.code, languages=LANGUAGES)


def _tell_others(site: Site, ws: web.WebSocketResponse | None, text: str) -> None:
    """Two paired devices at once: one acts, the others are told what it did."""
    told = json.dumps(Told(type="told", text=text))
    for other in list(site.sockets):
        if other is not ws and not other.closed:
            task = asyncio.ensure_future(_send(other, told))
            site.telling.add(task)  # kept until sent (the loop holds tasks weakly)
            task.add_done_callback(site.telling.discard)


async def _send(ws: web.WebSocketResponse, text: str) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(text)


# ----- the WebSocket -----


async def _websocket(request: web.Request) -> web.StreamResponse:
    site = request.app[SITE_KEY]
    if len(site.sockets) >= MAX_SOCKETS:
        raise web.HTTPServiceUnavailable(text="too many pages open on the board\n")
    paired = _paired(request)
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=20)
    await ws.prepare(request)
    site.sockets.add(ws)
    opponents = site.feed.opponents
    hello = PageHello(
        type="hello", paired=paired, opponents=opponents is not None, voice=_voice_shown(site)
    )
    await ws.send_str(json.dumps(hello))
    pushed: asyncio.Queue[str] = asyncio.Queue(maxsize=1)

    def push(text: str) -> None:
        # Only the latest picture matters: a page that lags skips to it.
        if pushed.full():
            pushed.get_nowait()
        pushed.put_nowait(text)

    if site.feed.shown:
        push(site.feed.shown)
    site.feed.listeners.add(push)
    pusher = asyncio.create_task(_push(ws, pushed))
    try:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            if not paired:
                await ws.close(code=NOT_PAIRED, message=b"pair this device first")
                break
            await ws.send_str(json.dumps(await _from_page(site, message.data, ws)))
    finally:
        site.sockets.discard(ws)
        site.feed.listeners.discard(push)
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pusher
    return ws


async def _from_page(site: Site, data: str, ws: web.WebSocketResponse) -> PageAnswer:
    try:
        message = json.loads(data)
    except ValueError:
        return PageError(type="error", message="a message is JSON")
    if not isinstance(message, dict):
        return PageError(type="error", message="a message is a JSON object")
    try:
        return await _carry_out(site, message, ws)
    except Exception as error:
        # A bug, not the page's doing: logged, and the board plays on.
        log.exception("the page's request failed")
        return PageError(type="error", message=f"internal error: {error}")


async def _push(ws: web.WebSocketResponse, pushed: asyncio.Queue[str]) -> None:
    while not ws.closed:
        await _send(ws, await pushed.get())


async def _close_sockets(app: web.Application) -> None:
    closing = [
        asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY, message=b"board stopped"))
        for ws in list(app[SITE_KEY].sockets)
    ]
    if closing:
        await asyncio.wait(closing, timeout=CLOSE_WAIT_S)


# ----- PGN -----


async def _this_pgn(request: web.Request) -> web.Response:
    text = request.app[SITE_KEY].games.this_game(request.app[SITE_KEY].feed.state)
    return _pgn_response(text, "reedboard.pgn")


async def _games(request: web.Request) -> web.Response:
    listed = await asyncio.to_thread(request.app[SITE_KEY].games.listed)
    return web.json_response(listed)


async def _game_pgn(request: web.Request) -> web.Response:
    number = int(request.match_info["number"])
    text = await asyncio.to_thread(request.app[SITE_KEY].games.pgn, number)
    if text is None:
        raise web.HTTPNotFound(text=f"no game {number} in the journal\n")
    return _pgn_response(text, f"reedboard-{number}.pgn")


def _pgn_response(text: str, name: str) -> web.Response:
    return web.Response(
        text=text,
        content_type="application/x-chess-pgn",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
