"""The relay's HTTP side (aiohttp): the spectator page, the PGN, the boards as JSON, and
server-sent events that tell the page when a board changed."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from html import escape

from aiohttp import web
from reedboard.lights.frame import Frame
from reedboard.lights.render_svg import render_svg
from reedboard_host.mirror import MirroredGame

from reedboard_relay.board_order import in_board_order
from reedboard_relay.boards import Board, Boards
from reedboard_relay.corrections import Decisions, shown_game, shown_pairing
from reedboard_relay.game_dates import GameDates
from reedboard_relay.game_on_board import game_on
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings import Pairing
from reedboard_relay.pairings_trf import TrfError
from reedboard_relay.pgn import board_pgn
from reedboard_relay.service import RelayService
from reedboard_relay.spectator import GameShown, game_shown
from reedboard_relay.spectator_page import PAGE
from reedboard_relay.trf_results import BoardResult, trf_with_results

log = logging.getLogger(__name__)

DARK = Frame(tuple([None] * 64))


class BoardSummary(GameShown):
    """One board as `/api/boards` and the page's events give it: the page draws from it
    (and from `GameShown`'s moves, clocks, reason, event, round and board number)."""

    id: str
    online: bool
    fen: str | None  # None before the board's first game
    ply: int
    last_move: str | None  # in UCI
    result: str | None
    white: str
    black: str
    tournament_confirmed: bool  # the board acknowledged the round's tournament mode


class RelayWeb:
    def __init__(
        self,
        service: RelayService,
        pairings: GamePairings,
        decisions: Callable[[str], Decisions] = lambda _board: Decisions(),
        confirmed: Callable[[str], bool] = lambda _board: False,
        dates: GameDates | None = None,
    ) -> None:
        self.service = service
        # Each game's own day, for the PGN's Date (noted when the game is first heard).
        self.dates = dates if dates is not None else GameDates(service.boards.store.db)
        self.pairings = pairings
        self.decisions = decisions  # the arbiter's, over what the board and pairings say
        self.confirmed = confirmed  # whether the board acknowledged the round's mode
        self.listeners: set[asyncio.Queue[str]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        # Each board's summary as of its version and pairing: a page or a poller asking
        # often, with a thousand boards, would otherwise write every board out each time.
        self._summaries: dict[str, tuple[tuple[int, Pairing, Decisions, bool], BoardSummary]] = {}

    def changed(self, board: str) -> None:
        """Called from paho's thread: the page's listeners hear of it on the web's loop.
        A game just over keeps its pairing now, whoever asks for it later."""
        self.service.snapshot(lambda boards: self._settle(boards, board))
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._notify, board)

    def _settle(self, boards: Boards, board_id: str) -> None:
        board = boards.boards.get(board_id)
        if board is not None:
            self.pairings.of(board, self.decisions(board_id))
            self.dates.of(board)

    def _notify(self, board: str) -> None:
        for queue in self.listeners:
            if queue.empty():  # one pending word is enough: the listener reads every board
                queue.put_nowait(board)

    def summaries(self) -> list[BoardSummary]:
        return list(self.service.snapshot(lambda boards: [self._summary(b) for b in _all(boards)]))

    def shown(self, board: Board) -> tuple[MirroredGame | None, Pairing]:
        """The board's game and players as the broadcast shows them."""
        decisions = self.decisions(board.id)
        on = game_on(board.mirror)
        pairing = shown_pairing(self.pairings.of(board, decisions), decisions, on)
        return shown_game(board.mirror.current, decisions, on), pairing

    def _summary(self, board: Board) -> BoardSummary:
        # The arbiter's decisions are part of the key: a correction or a result changes
        # what is shown without a new message from the board; so is a board's
        # acknowledgement of the round's tournament mode.
        decisions = self.decisions(board.id)
        confirmed = self.confirmed(board.id)
        key = (board.version, self.pairings.of(board, decisions), decisions, confirmed)
        known = self._summaries.get(board.id)
        if known is not None and known[0] == key:
            return known[1]
        summary = self._summarise(board)
        self._summaries[board.id] = (key, summary)
        return summary

    def _summarise(self, board: Board) -> BoardSummary:
        current, pairing = self.shown(board)
        game = current.game if current is not None else None
        last = None
        if game is not None and len(game):
            last = game.positions[-2].uci(game.moves[-1]) if len(game.positions) > 1 else None
        return {
            "id": board.id,
            "online": board.online,
            "fen": game.position.fen() if game is not None else None,
            "ply": len(game) if game is not None else 0,
            "last_move": last,
            "result": current.result if current is not None else None,
            "white": pairing.white,
            "black": pairing.black,
            "tournament_confirmed": self.confirmed(board.id),
            **game_shown(current, pairing),
        }

    def board_ids(self) -> list[str]:
        ids: list[str] = self.service.snapshot(lambda boards: in_board_order(boards.boards))
        return ids

    def pgn(self, board_id: str | None = None) -> str | None:
        def read(boards: Boards) -> str | None:
            if board_id is not None:
                board = boards.boards.get(board_id)
                if board is None:
                    return None
                return board_pgn(board.id, *self.shown(board), self.dates.of(board))
            texts = [board_pgn(b.id, *self.shown(b), self.dates.of(b)) for b in _all(boards)]
            return "\n".join(text for text in texts if text)

        result: str | None = self.service.snapshot(read)
        return result

    def round_trf(self) -> tuple[bytes, int]:
        """The pairings' TRF with the round's results (`trf_results`), and how many."""
        source = self.pairings.pairings
        if source.path is None:
            raise TrfError("the relay has no --pairings file")
        with open(source.path, "rb") as handle:
            data = handle.read()

        def result_of(board_id: str) -> BoardResult | None:
            def read(boards: Boards) -> BoardResult | None:
                board = boards.boards.get(board_id)
                if board is None:
                    return None
                game, pairing = self.shown(board)
                if game is None:
                    return None
                return BoardResult(pairing.round, game.result, len(game.game))

            shown: BoardResult | None = self.service.snapshot(read)
            return shown

        return trf_with_results(data, source.round, source.boards, result_of)


BOARDS_KEY: web.AppKey[RelayWeb] = web.AppKey("relay", RelayWeb)


def _all(boards: Boards) -> list[Board]:
    return [boards.boards[name] for name in in_board_order(boards.boards)]


async def page(request: web.Request) -> web.Response:
    return web.Response(text=PAGE, content_type="text/html")


async def games_pgn(request: web.Request) -> web.Response:
    text = request.app[BOARDS_KEY].pgn() or ""
    return web.Response(text=text, content_type="application/x-chess-pgn")


async def one_pgn(request: web.Request) -> web.Response:
    text = request.app[BOARDS_KEY].pgn(request.match_info["board"])
    if text is None:
        raise web.HTTPNotFound(text=f"no board {request.match_info['board']!r}\n")
    return web.Response(text=text, content_type="application/x-chess-pgn")


async def round_trf(request: web.Request) -> web.Response:
    """The TRF with the round's results, for the pairing program (404 without a TRF)."""
    try:
        data, games = request.app[BOARDS_KEY].round_trf()
    except (OSError, TrfError) as error:
        raise web.HTTPNotFound(text=f"no round's TRF: {error}\n") from None
    return web.Response(body=data, content_type="text/plain",
                        headers={"X-Results-Written": str(games)})  # fmt: skip


async def api_boards(request: web.Request) -> web.Response:
    return web.json_response(request.app[BOARDS_KEY].summaries())


async def board_svg(request: web.Request) -> web.Response:
    relay = request.app[BOARDS_KEY]
    found = [s for s in relay.summaries() if s["id"] == request.match_info["board"]]
    if not found:
        raise web.HTTPNotFound(text="no such board\n")
    fen = found[0]["fen"] or "8/8/8/8/8/8/8/8 w - - 0 1"
    flipped = request.query.get("flip") == "1"  # Black's side at the bottom
    svg = render_svg(fen, DARK, title=escape(found[0]["id"]), animate=False, flipped=flipped)
    return web.Response(text=svg, content_type="image/svg+xml")


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: every board's summary now, then after every change the
    summaries of the boards that changed."""
    relay = request.app[BOARDS_KEY]
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    queue: asyncio.Queue[str] = asyncio.Queue()
    relay.listeners.add(queue)
    sent: dict[str, BoardSummary] = {}
    try:
        while True:
            # Only the boards whose summary changed since the last message (all of them
            # in the first): a summary is the same object while its board is unchanged.
            now = relay.summaries()
            fresh = [summary for summary in now if sent.get(summary["id"]) is not summary]
            if fresh or not sent:
                await response.write(f"data: {json.dumps(fresh)}\n\n".encode())
            sent = {summary["id"]: summary for summary in now}
            await queue.get()
            while not queue.empty():  # many changes at once: one message
                queue.get_nowait()
    except ConnectionResetError:
        # The spectator closed the page: found at the next write (aiohttp's
        # ClientConnectionResetError is one of these). Nothing to tell anyone.
        log.debug("a spectator's event stream closed")
    finally:
        relay.listeners.discard(queue)
    return response


def make_app(relay: RelayWeb) -> web.Application:
    app = web.Application()
    app[BOARDS_KEY] = relay
    app.router.add_get("/", page)
    app.router.add_get("/games.pgn", games_pgn)
    app.router.add_get("/boards/{board}.pgn", one_pgn)
    app.router.add_get("/boards/{board}.svg", board_svg)
    app.router.add_get("/api/boards", api_boards)
    app.router.add_get("/round.trf", round_trf)
    app.router.add_get("/events", events)
    return app
