"""The relay's HTTP side (aiohttp): the spectator page, the PGN, the boards as JSON, and
server-sent events that tell the page when a board changed. Every one of them, and the
Lichess push that reads them, shows the boards through the broadcast delay
(broadcast_delay.py) when the arbiter set one.

Each board's summary, its JSON and its PGN are kept as of the board's version and
written again only when it changed; `/games.pgn` and `/api/boards` are those parts
joined off the loop (public_bodies.py), the event stream one message a turn for every
listener (event_stream.py): spectators, however many, cannot hold up the boards'
messages, which the same loop takes (service.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape

from aiohttp import web
from reedboard.lights.frame import Frame
from reedboard.lights.render_svg import render_svg
from reedboard_host.mirror import MirroredGame

from reedboard_relay.board_order import in_board_order
from reedboard_relay.boards import Board, Boards
from reedboard_relay.broadcast_delay import (
    DelayedBoards,
    shown_mark,
    store_minutes,
    store_shown_mark,
    stored_minutes,
)
from reedboard_relay.console_guard import page_policy, public_headers
from reedboard_relay.corrections import Decisions, shown_game, shown_pairing
from reedboard_relay.event_stream import EventStream, Fragment, Listener, ListenerStuck
from reedboard_relay.game_dates import GameDates
from reedboard_relay.game_on_board import game_on
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings import Pairing
from reedboard_relay.pairings_trf import TrfError
from reedboard_relay.pgn_memo import PgnMemo
from reedboard_relay.public_bodies import KeptParts, PublicBodies, joined_json, joined_pgn
from reedboard_relay.san_memo import SanMemo
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


Key = tuple[int, int, Pairing, Decisions, bool]


@dataclass
class BoardShown:
    """A board as the public sees it, as of `key`; its JSON and PGN written when asked."""

    key: Key
    summary: BoardSummary
    json: bytes | None = None
    pgn: str | None = None

    def json_bytes(self) -> bytes:
        if self.json is None:
            self.json = json.dumps(self.summary).encode()
        return self.json


class RelayWeb:
    def __init__(
        self,
        service: RelayService,
        pairings: GamePairings,
        decisions: Callable[[str], Decisions] = lambda _board: Decisions(),
        confirmed: Callable[[str], bool] = lambda _board: False,
        dates: GameDates | None = None,
        public_changed: Callable[[str], None] = lambda _board: None,
    ) -> None:
        self.service = service
        # Told when a board's game changed as the public sees it (the Lichess push).
        self.public_changed = public_changed
        self.delayed: DelayedBoards | None = None  # while a delay was ever set
        # Each board changed live, and when the public is to hear of it (on the loop).
        self._later: dict[str, float] = {}
        self._woken: asyncio.Event | None = None
        # Each game's own day, for the PGN's Date (noted when the game is first heard).
        self.dates = dates if dates is not None else GameDates(service.boards.store.db)
        self.pairings = pairings
        self.decisions = decisions  # the arbiter's, over what the board and pairings say
        self.confirmed = confirmed  # whether the board acknowledged the round's mode
        self.loop: asyncio.AbstractEventLoop | None = None
        # Each board as shown, as of its version and pairing: a page or a poller asking
        # often, with a thousand boards, would otherwise write every board out each time.
        self._shown: dict[str, BoardShown] = {}
        self.sans = SanMemo()  # each board's moves in SAN, worked out once a move
        self.pgns = PgnMemo()  # each board's PGN, grown by its new moves
        self.events = EventStream(self.fragments)
        self.bodies = PublicBodies()
        self._order: tuple[tuple[int, str | None], list[str]] = ((-1, None), [])
        self._kept_json: KeptParts[Board, bytes] = KeptParts()
        self._kept_pgn: KeptParts[Board, str] = KeptParts()
        # Every board's fragment, for each listener's first message (kept as the JSON is).
        self._kept_fragments: KeptParts[Board, Fragment] = KeptParts()
        service.snapshotters.append(self._keep_delayed)

    def _keep_delayed(self) -> None:
        if self.delayed is not None:
            self.delayed.keep()

    def changed(self, board: str) -> None:
        """Called on the loop by the MQTT side (or from a thread of a relay without one):
        the page's listeners hear of it on the web's loop.
        A game just over keeps its pairing now, whoever asks for it later."""
        self.service.snapshot(lambda boards: self._settle(boards, board))
        if self.delayed is None:
            self.public_changed(board)
        loop = self.loop
        if loop is not None and _on(loop):  # the MQTT side's message, on the same loop
            self._changed_live(board)
        elif loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed_live, board)

    def _changed_live(self, board: str) -> None:
        self._notify(board)  # an arbiter's decision shows at once (docs/relay.md)
        if self.delayed is not None:  # and the push follows once the delay has passed
            self._later.setdefault(board, time.time() + self.delayed.delay_s)
            self._wake()

    def _wake(self) -> None:
        if self._woken is not None:
            self._woken.set()

    def delay_minutes(self) -> float:
        with self.service.lock:
            return stored_minutes(self.service.boards.store.db)

    def set_delay(self, minutes: float) -> None:
        """The broadcast's delay from now on, kept. Made shorter, what is due shows at
        once; made longer, the broadcast holds until the new delay has passed."""
        with self.service.lock:
            db = self.service.boards.store.db
            store_minutes(db, minutes)
            if self.delayed is not None:
                self.delayed.catch_up(self.service.boards, time.time())
                self.delayed.delay_s = minutes * 60
            elif minutes > 0:  # from what the public sees now: nothing is taken back
                self.delayed = DelayedBoards(self.service.boards.store, minutes * 60, time.time())
            if self.delayed is not None:  # nor by a restart
                store_shown_mark(db, self.delayed.applied)
        self._shown_anew()
        self._wake()

    def resume_delay(self, minutes: float | None) -> None:
        """At start: the delay given (`--delay`), or the one kept, over the store's
        messages as they were heard, so a restart shows nothing younger."""
        with self.service.lock:
            db = self.service.boards.store.db
            if minutes is not None:
                store_minutes(db, minutes)
            delay_s = stored_minutes(db) * 60
            if delay_s > 0:
                store = self.service.boards.store
                self.delayed = DelayedBoards(store, delay_s, time.time() - delay_s, shown_mark(db))

    async def follow(self) -> None:
        """While the web side serves: each board whose delayed game moved on is told to
        the page's listeners and the push, when it does (without a delay, `changed`)."""
        self._woken = woken = asyncio.Event()
        while True:
            try:
                times = self._announce(time.time())
            except Exception:  # one bad turn must not end the broadcast's announcing
                log.exception("announcing the delayed boards failed")
                times = [time.time() + 1.0]
            try:
                timeout = max(0.0, min(times) - time.time()) + 0.002 if times else None
                await asyncio.wait_for(woken.wait(), timeout)
            except TimeoutError:
                pass
            woken.clear()

    def _announce(self, now: float) -> list[float]:
        """Tells of each board whose public game changed by `now`; when to look again."""
        fresh, due = self.service.snapshot(self._caught_up)
        ready = {board for board, at in self._later.items() if at <= now}
        for board in ready:
            del self._later[board]
        for board in sorted(fresh | ready):
            self._notify(board)
            self.public_changed(board)
        return [*self._later.values(), *([due] if due is not None else [])]

    def _caught_up(self, boards: Boards) -> tuple[set[str], float | None]:
        delayed = self.delayed
        if delayed is None:
            return set(), None
        delayed.catch_up(boards, time.time())
        fresh, delayed.unannounced = delayed.unannounced, set()
        return fresh, delayed.next_due

    def _public(self, boards: Boards) -> dict[str, Board]:
        """The boards as the public sees them: live, or as they stood the delay ago."""
        if self.delayed is None:
            return boards.boards
        self.delayed.catch_up(boards, time.time())
        return self.delayed.boards

    def _settle(self, boards: Boards, board_id: str) -> None:
        board = boards.boards.get(board_id)
        if board is not None:
            self.pairings.of(board, self.decisions(board_id))
            self.dates.of(board)

    @property
    def listeners(self) -> set[Listener]:
        return self.events.listeners

    def _notify(self, board: str) -> None:
        self.bodies.changed()
        self._kept_json.changed(board)
        self._kept_pgn.changed(board)
        self._kept_fragments.changed(board)
        self.events.changed(board)

    def _shown_anew(self) -> None:
        """The boards the public sees are others (a delay set or changed)."""
        self.bodies.changed()
        self._kept_json.forget()
        self._kept_pgn.forget()
        self._kept_fragments.forget()

    def summaries(self) -> list[BoardSummary]:
        return list(
            self.service.snapshot(
                lambda boards: [self._entry(b).summary for b in _all(self._public(boards))]
            )
        )

    def fragments(self, board_ids: Iterable[str] | None = None) -> list[Fragment]:
        """These boards' summaries (every board's: None) and their JSON, in board order."""

        def read(boards: Boards) -> list[Fragment]:
            public = self._recheck(self._public(boards))
            if board_ids is None:
                return self._kept_fragments.read(public, self._fragment, in_board_order)
            ids = in_board_order(set(board_ids) & set(public))
            return [self._fragment(public[board]) for board in ids]

        return self.service.snapshot(read)

    def _fragment(self, board: Board) -> Fragment:
        entry = self._entry(board)
        return Fragment(board.id, entry.summary, entry.json_bytes())

    def _json_of(self, board: Board) -> bytes:
        return self._entry(board).json_bytes()

    def _pgn_of(self, board: Board) -> str:
        entry = self._entry(board)
        if entry.pgn is None:
            current, pairing = self.shown(board)
            sans = self.sans.of(board.id, current.game) if current is not None else None
            entry.pgn = self.pgns.of(board.id, current, pairing, self.dates.of(board), sans)
        return entry.pgn

    async def boards_body(self) -> bytes:
        """`/api/boards`'s body, as kept or joined again off the loop."""

        def fragments() -> list[bytes]:
            def read(boards: Boards) -> list[bytes]:
                public = self._recheck(self._public(boards))
                return self._kept_json.read(public, self._json_of, in_board_order)

            return self.service.snapshot(read)

        return await self.bodies.body("boards", fragments, joined_json)

    async def games_body(self) -> bytes:
        """`/games.pgn`'s body, as kept or joined again off the loop."""

        def texts() -> list[str]:
            def read(boards: Boards) -> list[str]:
                public = self._recheck(self._public(boards))
                return self._kept_pgn.read(public, self._pgn_of, in_board_order)

            return self.service.snapshot(read)

        return await self.bodies.body("games", texts, joined_pgn)

    def shown(self, board: Board) -> tuple[MirroredGame | None, Pairing]:
        """The board's game and players as the broadcast shows them."""
        decisions = self.decisions(board.id)
        on = game_on(board.mirror)
        pairing = shown_pairing(self.pairings.of(board, decisions), decisions, on)
        return shown_game(board.mirror.current, decisions, on), pairing

    def _recheck(self, public: dict[str, Board]) -> dict[str, Board]:
        """Each board whose turn has come (public_bodies.Rechecks) told changed where
        what it shows changed unannounced (its pairing, its acknowledged mode)."""
        for board in self.bodies.rechecks.due(list(public)):
            known = self._shown.get(board)
            if known is not None and known.key != self._key(public[board]):
                self._notify(board)
        return public

    def _key(self, board: Board) -> Key:
        # The arbiter's decisions are part of the key: a correction or a result changes
        # what is shown without a new message from the board; so is a board's
        # acknowledgement of the round's tournament mode.
        decisions = self.decisions(board.id)
        confirmed = self.confirmed(board.id)
        # The board itself is too: the delayed boards count their own versions.
        return (id(board), board.version, self.pairings.of(board, decisions), decisions, confirmed)

    def _entry(self, board: Board) -> BoardShown:
        key = self._key(board)
        known = self._shown.get(board.id)
        if known is not None and known.key == key:
            return known
        entry = BoardShown(key, self._summarise(board))
        self._shown[board.id] = entry
        return entry

    def _summarise(self, board: Board) -> BoardSummary:
        current, pairing = self.shown(board)
        game = current.game if current is not None else None
        last = None
        if game is not None and len(game):
            last = game.positions[-2].uci(game.moves[-1]) if len(game.positions) > 1 else None
        return {
            "id": board.id,
            "online": board.reachable,
            "fen": game.position.fen() if game is not None else None,
            "ply": len(game) if game is not None else 0,
            "last_move": last,
            "result": current.result if current is not None else None,
            "white": pairing.white,
            "black": pairing.black,
            "tournament_confirmed": self.confirmed(board.id),
            **game_shown(current, pairing, self.sans.of(board.id, game) if game else None),
        }

    def board_ids(self) -> list[str]:
        """Every board's id in board order, sorted again only when a board came or went
        (asked at every board's message while Lichess rounds are pushed)."""

        def read(boards: Boards) -> list[str]:
            known = boards.boards
            key = (len(known), next(reversed(known), None))
            if self._order[0] != key:
                self._order = (key, in_board_order(known))
            return list(self._order[1])

        return self.service.snapshot(read)

    def pgn(self, board_id: str | None = None) -> str | None:
        def read(boards: Boards) -> str | None:
            public = self._public(boards)
            if board_id is not None:
                board = public.get(board_id)
                return None if board is None else self._pgn_of(board)
            return "\n".join(text for b in _all(public) if (text := self._pgn_of(b)))

        return self.service.snapshot(read)

    def round_trf(self) -> tuple[bytes, int]:
        """The pairings' TRF with the round's results (`trf_results`), and how many."""
        source = self.pairings.pairings
        if source.path is None:
            raise TrfError("the relay has no --pairings file")
        with open(source.path, "rb") as handle:
            data = handle.read()

        def result_of(board_id: str) -> BoardResult | None:
            def read(boards: Boards) -> BoardResult | None:
                board = self._public(boards).get(board_id)
                if board is None:
                    return None
                game, pairing = self.shown(board)
                if game is None:
                    return None
                return BoardResult(pairing.round, game.result, len(game.game))

            return self.service.snapshot(read)

        return trf_with_results(data, source.round, source.boards, result_of)


BOARDS_KEY: web.AppKey[RelayWeb] = web.AppKey("relay", RelayWeb)


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _all(boards: dict[str, Board]) -> list[Board]:
    return [boards[name] for name in in_board_order(boards)]


async def page(request: web.Request) -> web.Response:
    return web.Response(text=PAGE, content_type="text/html")


async def games_pgn(request: web.Request) -> web.Response:
    body = await request.app[BOARDS_KEY].games_body()
    return web.Response(body=body, content_type="application/x-chess-pgn", charset="utf-8")


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
    body = await request.app[BOARDS_KEY].boards_body()
    return web.Response(body=body, content_type="application/json")


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
    """Server-sent events: every board's summary now, then what changed of the boards
    that changed, in the messages every listener shares (event_stream.py)."""
    relay = request.app[BOARDS_KEY]
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    listener = Listener()
    relay.events.ensure_running()
    try:
        await response.write(relay.events.join(listener))
        await listener.follow(response.write, relay.events.told)
    except ConnectionResetError:
        # The spectator closed the page: found at the next write (aiohttp's
        # ClientConnectionResetError is one of these). Nothing to tell anyone.
        log.debug("a spectator's event stream closed")
    except ListenerStuck:
        if request.transport is not None:
            request.transport.abort()  # what it holds unread goes with it
    finally:
        relay.listeners.discard(listener)
    return response


def make_app(relay: RelayWeb) -> web.Application:
    app = web.Application()
    app[BOARDS_KEY] = relay
    app.on_response_prepare.append(public_headers(page_policy(PAGE, framed=True)))
    app.router.add_get("/", page)
    app.router.add_get("/games.pgn", games_pgn)
    app.router.add_get("/boards/{board}.pgn", one_pgn)
    app.router.add_get("/boards/{board}.svg", board_svg)
    app.router.add_get("/api/boards", api_boards)
    app.router.add_get("/round.trf", round_trf)
    app.router.add_get("/events", events)
    return app
