"""The arbiter's console: what the arbiter decides (results, players, FIDE 7.5
corrections, the round's tournament mode), kept in the relay's store, shown at once
everywhere the relay broadcasts, and told to the boards over their `request` topic.

`ArbiterDesk` does the deciding under the relay's lock; `console_app` is its HTTP side
(aiohttp), on a listener of its own, every request checked by `console_guard`."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from aiohttp import web
from reedboard.errors import ReedboardError
from reedboard.link.board_messages import Ack, BoardHello, BoardMessage, ErrorReply
from reedboard.link.messages import TakeBack

from reedboard_relay.arbiter_page import PAGE
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Board, Boards
from reedboard_relay.console_guard import (
    NAMES_KEY,
    TOKEN_KEY,
    console_headers,
    guarded,
    page_policy,
)
from reedboard_relay.corrections import (
    PLAYER_FIELDS,
    RESULTS,
    TITLES,
    CorrectionState,
    cancelled_moves,
    shown_game,
    shown_pairing,
)
from reedboard_relay.game_on_board import game_on
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings_csv import CONTROLS
from reedboard_relay.round_mode import SETTINGS_IDS, RoundMode
from reedboard_relay.service import RelayService

# The ids of the console's commands, far above those the relay's catching up uses
# (`settings` has SETTINGS_IDS, in round_mode).
TAKEBACK_IDS = 1_000_000_000  # + the correction's number
MAX_TEXT = 200

logger = logging.getLogger(__name__)


class CorrectionRow(TypedDict):
    number: int  # the relay's own: what withdrawing it names
    ply: int  # the illegal move's, 1-based
    cancelled: list[str]  # in SAN
    note: str
    state: CorrectionState
    answer: str


class BoardRow(TypedDict):
    """One board as the console's page lists it (`/arbiter/api/boards`)."""

    id: str
    online: bool
    game: int | None
    # With `game`, which game it is: a board without a journal numbers every game 0.
    games_before: int  # the games the board finished before it
    moves: list[str]  # in SAN, as the broadcast shows the game
    result: str | None
    board_result: str | None
    arbiter_result: str | None
    players: dict[str, str]  # by the names in PLAYER_FIELDS
    corrections: list[CorrectionRow]
    tournament: bool | None  # as the board last acknowledged it; None before it has
    tournament_confirmed: bool  # it acknowledged the mode the round is in
    left_tournament: bool  # it acknowledged leaving it mid-round, not asked by the relay
    twins: bool  # two boards publish with this id
    lichess: str | None  # why its game is not on the Lichess broadcast, if it is not


class Refused(ReedboardError):
    """A decision that cannot be taken, in words for the arbiter; nothing changed."""

    def __init__(self, text: str, status: int = 400) -> None:
        super().__init__(text)
        self.status = status


class ArbiterDesk:
    def __init__(
        self,
        service: RelayService,
        store: ArbiterStore,
        pairings: GamePairings,
        changed: Callable[[str], None],
        lichess: Callable[[str], str | None] = lambda _board: None,
    ) -> None:
        self.service = service
        self.lichess = lichess  # a board's game Lichess did not take, and why
        self.store = store
        self.pairings = pairings
        self.changed = changed
        # What each board acknowledged of the round's tournament mode (guarded by the
        # relay's lock); a relay restarted on a tournament round tells each board again.
        self.round = RoundMode(store.tournament())
        with service.lock:
            self.round.resumed(list(service.boards.boards))
        # A board's ack of a correction heard before the takebacks it follows (they wait
        # behind a gap): (correction, the ack's number), settled once they are in.
        self._waiting: dict[str, list[tuple[int, int]]] = {}

    # ----- what the console shows -----

    def boards(self) -> list[BoardRow]:
        def read(boards: Boards) -> list[BoardRow]:
            return [self._board(boards.boards[name]) for name in sorted(boards.boards)]

        return self.service.snapshot(read)

    def _board(self, board: Board) -> BoardRow:
        decisions = self.store.of(board.id)
        current = board.mirror.current
        on = game_on(board.mirror)
        shown = shown_game(current, decisions, on)
        pairing = shown_pairing(self.pairings.of(board, decisions), decisions, on)
        game_id = current.id if current is not None else None
        ruled = decisions.result_for(on) if current is not None else None
        return {
            "id": board.id,
            "online": board.reachable,
            "game": game_id,
            "games_before": on[0],
            "moves": shown.game.san_moves() if shown is not None else [],
            "result": shown.result if shown is not None else None,
            "board_result": current.result if current is not None else None,
            "arbiter_result": None if ruled is None else ruled.result,
            "players": {name: getattr(pairing, name) for name in PLAYER_FIELDS},
            "corrections": [
                {
                    "number": c.number,
                    "ply": c.to_ply + 1,
                    "cancelled": list(c.cancelled),
                    "note": c.note,
                    "state": c.state,
                    "answer": c.answer,
                }
                for c in decisions.corrections
                if c.game == on
            ],
            "tournament": self.round.acknowledged.get(board.id),
            "tournament_confirmed": self.round.confirmed(board.id),
            "left_tournament": board.id in self.round.left,
            "twins": board.twins,
            "lichess": self.lichess(board.id),
        }

    # ----- decisions -----

    def set_result(self, board_id: str, result: object, reason: object) -> None:
        if result not in RESULTS:
            raise Refused(f"result {result!r}: write one of {', '.join(RESULTS)}")
        with self.service.lock:
            mirror = self._board_of(board_id).mirror
            if mirror.current is None:
                raise Refused(f"board {board_id} has no game yet")
            said = _text("reason", reason)
            self.store.set_result(board_id, game_on(mirror), result, said, len(mirror.current.game))
        self.changed(board_id)

    def set_players(self, board_id: str, fields: Mapping[str, object]) -> None:
        checked: dict[str, str] = {}
        for name, value in fields.items():
            if name not in PLAYER_FIELDS:
                raise Refused(f"{name!r} is not a player's field ({', '.join(PLAYER_FIELDS)})")
            text = _text(name, value).strip()
            if name.endswith("_elo") and text and not (text.isdigit() and len(text) <= 4):
                raise Refused(f"{name} {text!r}: a rating is a number such as 2345")
            if name.endswith("_title") and text.upper() not in TITLES:
                raise Refused(f"{name} {text!r}: one of {', '.join(TITLES[1:])}, or none")
            checked[name] = text.upper() if name.endswith("_title") else text
        with self.service.lock:  # for the game on the board now, and only that game
            self.store.set_players(board_id, game_on(self._board_of(board_id).mirror), checked)
        self.changed(board_id)

    def correct(self, board_id: str, ply: object, note: object) -> None:
        """FIDE 7.5.1: the move at `ply` (1-based, as the console lists the game) was
        illegal; the position before it is reinstated on the board and in the record."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise Refused(f"ply {ply!r}: the number of the illegal move's ply, 1 for White's first")
        with self.service.lock:
            mirror = self._board_of(board_id).mirror
            current, on = mirror.current, game_on(mirror)
            shown = shown_game(current, self.store.of(board_id), on)
            if current is None or shown is None:
                raise Refused(f"board {board_id} has no game yet")
            if not 1 <= ply <= len(shown.game):
                raise Refused(f"ply {ply}: the game has plies 1 to {len(shown.game)}")
            made = self.store.add_correction(
                board_id, on, ply - 1, cancelled_moves(shown.game, ply), _text("note", note)
            )
            game_id = current.id
        self.service.command(board_id, TakeBack(TAKEBACK_IDS + made.number, ply - 1, game_id))
        self.changed(board_id)

    def withdraw(self, board_id: str, number: object) -> None:
        """The arbiter takes back a correction the board has not carried out (it refused,
        or has not answered): the broadcast shows the board's game again. One the board
        carried out cannot be: its moves are off the board, to be played again there."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refused(f"number {number!r}: the number of the correction, as listed")
        with self.service.lock:
            self._board_of(board_id)
            found = [c for c in self.store.of(board_id).corrections if c.number == number]
            if not found:
                raise Refused(f"board {board_id} has no correction {number}", 404)
            if found[0].state == "done":
                raise Refused(
                    f"correction {number} is done: the board took the moves back, so they "
                    "are played again on the board"
                )
            changed = self.store.answer(board_id, number, "withdrawn", found[0].answer)
        if changed:
            self.changed(board_id)

    def set_tournament(self, on: bool) -> None:
        """The round's tournament mode, kept, and told to every board the relay knows
        (again to each that has not acknowledged it when it is next heard)."""
        with self.service.lock:
            self.store.set_tournament(on)
            names = sorted(self.service.boards.boards)
            told = self.round.switch(on, names, time.monotonic())
        for name, command in told:
            self.service.command(name, command)
        for name in names:
            self.changed(name)  # none has confirmed the new mode yet

    def tournament(self) -> bool:
        with self.service.lock:
            return self.round.on

    def tournament_confirmed(self, board_id: str) -> bool:
        """Whether the board acknowledged the round's tournament mode (read under the
        relay's lock, as the web side reads its summaries)."""
        return self.round.confirmed(board_id)

    # ----- what the boards answer (paho's thread) -----

    def heard(self, board_id: str, message: BoardMessage) -> None:
        """Every message of a board's stream: its answers, and a chance to tell it the
        round's mode again while it owes an acknowledgement."""
        answer = message if isinstance(message, Ack | ErrorReply) else None
        if answer is not None or isinstance(message, BoardHello) or board_id in self.round.owed:
            with self.service.lock:
                was = self.round.confirmed(board_id), board_id in self.round.left
                command = self.round.heard(board_id, message, time.monotonic())
                now = self.round.confirmed(board_id), board_id in self.round.left
            if now[1] and not was[1]:
                logger.warning("board %s left tournament mode mid-round: told again", board_id)
            if command is not None:
                self.service.command(board_id, command)
            if now != was:
                self.changed(board_id)
        if answer is None or answer.id is None:
            return
        number = answer.id - TAKEBACK_IDS
        if not 0 < number < SETTINGS_IDS - TAKEBACK_IDS:
            return
        with self.service.lock:
            if isinstance(answer, Ack):
                self._waiting.setdefault(board_id, []).append((number, answer.seq))
                changed = self._settle(board_id)
            else:
                said = refusal_words(answer)
                changed = self.store.answer(board_id, number, "refused", said[:MAX_TEXT])
        if changed:
            self.changed(board_id)

    def settle(self, board_id: str) -> None:
        """The board's game changed: a correction whose ack came early may be done now."""
        if board_id in self._waiting:
            with self.service.lock:
                changed = self._settle(board_id)
            if changed:
                self.changed(board_id)

    def _settle(self, board_id: str) -> bool:
        """Corrections the board took back whose takebacks the relay has delivered (the
        board tells them before its ack): done, and the broadcast follows the board."""
        board = self.service.boards.boards.get(board_id)
        waiting = self._waiting.get(board_id, [])
        if board is None:
            return False
        done = [(number, seq) for number, seq in waiting if board.receiver.last_seq >= seq]
        self._waiting[board_id] = [w for w in waiting if w not in done]
        if not self._waiting[board_id]:
            del self._waiting[board_id]
        changed = False
        for number, _ in done:
            changed = self.store.answer(board_id, number, "done") or changed
        return changed

    def _board_of(self, board_id: str) -> Board:
        board = self.service.boards.boards.get(board_id)
        if board is None:
            raise Refused(f"no board {board_id!r}", 404)
        return board


def refusal_words(error: ErrorReply) -> str:
    """What a board's `error` says, for the console: its message, else its code."""
    return error.message or error.code or "refused"


def _text(name: str, value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refused(f"{name} must be text, not {json.dumps(value)[:40]}")
    if len(value) > MAX_TEXT:
        raise Refused(f"{name} is longer than {MAX_TEXT} characters")
    if CONTROLS.search(value):
        raise Refused(f"{name} must be one line, without control characters")
    return value


# ----- HTTP -----

DESK_KEY: web.AppKey[ArbiterDesk] = web.AppKey("desk", ArbiterDesk)


@web.middleware
async def _refusals(
    request: web.Request, handler: Callable[[web.Request], Any]
) -> web.StreamResponse:
    """A decision refused: its reason, as JSON for the page (nothing changed)."""
    try:
        response: web.StreamResponse = await handler(request)
    except Refused as refused:
        return web.json_response({"error": str(refused)}, status=refused.status)
    return response


async def _page(_request: web.Request) -> web.Response:
    return web.Response(text=PAGE, content_type="text/html")


async def _boards(request: web.Request) -> web.Response:
    desk = request.app[DESK_KEY]
    return web.json_response({"tournament": desk.tournament(), "boards": desk.boards()})


async def _body(request: web.Request) -> Mapping[str, object]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refused("the request's body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused("the request's body must be a JSON object")
    if not isinstance(body.get("board", ""), str):
        raise Refused("board must be a board's id")
    return body


def _board_named(body: Mapping[str, object]) -> str:
    board = body.get("board")
    if not board or not isinstance(board, str):
        raise Refused("board is missing: the id of the board the decision is about")
    return board


async def _result(request: web.Request) -> web.Response:
    body = await _body(request)
    request.app[DESK_KEY].set_result(_board_named(body), body.get("result", ""), body.get("reason"))
    return web.json_response({"ok": True})


async def _players(request: web.Request) -> web.Response:
    body = await _body(request)
    fields = {k: v for k, v in body.items() if k != "board"}
    request.app[DESK_KEY].set_players(_board_named(body), fields)
    return web.json_response({"ok": True})


async def _correct(request: web.Request) -> web.Response:
    body = await _body(request)
    request.app[DESK_KEY].correct(_board_named(body), body.get("ply"), body.get("note"))
    return web.json_response({"ok": True})


async def _withdraw(request: web.Request) -> web.Response:
    body = await _body(request)
    request.app[DESK_KEY].withdraw(_board_named(body), body.get("number"))
    return web.json_response({"ok": True})


async def _tournament(request: web.Request) -> web.Response:
    body = await _body(request)
    on = body.get("on")
    if not isinstance(on, bool):
        raise Refused("on must be true or false")
    request.app[DESK_KEY].set_tournament(on)
    return web.json_response({"ok": True})


def console_app(desk: ArbiterDesk, token: str, hosts: tuple[str, ...] = ()) -> web.Application:
    """The console's app: `hosts`, the names (beside addresses) it answers to."""
    app = web.Application(middlewares=[guarded, _refusals])
    app[DESK_KEY] = desk
    app[TOKEN_KEY] = token
    app[NAMES_KEY] = frozenset(hosts)
    app.on_response_prepare.append(console_headers(page_policy(PAGE, framed=False)))
    app.router.add_get("/arbiter", _page)
    app.router.add_get("/arbiter/api/boards", _boards)
    app.router.add_post("/arbiter/api/result", _result)
    app.router.add_post("/arbiter/api/players", _players)
    app.router.add_post("/arbiter/api/correct", _correct)
    app.router.add_post("/arbiter/api/withdraw", _withdraw)
    app.router.add_post("/arbiter/api/tournament", _tournament)
    return app
