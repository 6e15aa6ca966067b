"""`reedboard-host lichess`: the board plays on Lichess through the Board API.

Lichess is the truth about the game; the board is where the person plays it. The
opponent's moves are lit on the board (`show`) for the person to carry out, and the
person's own moves are sent to Lichess. A board that disagrees with Lichess (the
opponent's piece moved elsewhere than shown, a move Lichess refused) takes its last move
back and is shown the right one.

Two streams run in threads: the account's events (a game starts, a challenge arrives) and
the game in progress. Their objects, and the lines typed on stdin (`resign`, `draw`,
`no`, `abort`), reach the one loop that talks to the board through a queue, so only that
loop touches the board."""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reedboard.errors import LinkError, ReedboardError
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from reedboard_host.connection import HostError, choose_port
from reedboard_host.follow import Follower
from reedboard_host.lichess_api import DEFAULT_SERVER, LichessApi, LichessError, read_token

POLL_S = 0.05
RETRY_S = 1.0  # before a stream that ended is opened again
OVER = {"aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat",
        "noStart", "unknownFinish", "variantEnd"}  # fmt: skip
COMMANDS = ("resign", "draw", "no", "abort")


def _quote(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _clock(text: str) -> tuple[float, int]:
    """`15+10` -> (15 minutes, 10 seconds increment)."""
    minutes, _, increment = text.partition("+")
    try:
        result = float(minutes), int(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not MINUTES+INCREMENT") from None
    if result[0] <= 0 or not 0 <= result[1] <= 180:
        raise argparse.ArgumentTypeError(f"{text!r} is not MINUTES+INCREMENT")
    return result


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--token-file", metavar="F", help="the API token (else LICHESS_TOKEN)")
    p.add_argument("--server", default=DEFAULT_SERVER, metavar="URL", help="the Lichess server")
    p.add_argument("--seek", type=_clock, metavar="MIN+INC",
                   help="seek an opponent (rapid or classical, as the Board API allows)")  # fmt: skip
    p.add_argument("--challenge", metavar="USER", help="challenge this player")
    p.add_argument("--clock", type=_clock, default=(3.0, 2), metavar="MIN+INC",
                   help="the challenge's clock (default 3+2)")  # fmt: skip
    p.add_argument("--rated", action="store_true", help="a rated seek or challenge")


@dataclass
class _Game:
    id: str
    we_white: bool
    start: Game  # the position the board's game starts from, with Lichess's moves before it
    moves: list[str] = field(default_factory=list)  # all of Lichess's moves
    shown: tuple[int, str] | None = None  # (board ply, uci) lit on the board
    posted: int = 0  # board plies sent to Lichess (or found there)
    status: str = "started"
    board_id: int | None = None  # the board's game number for this game
    board_ended: bool = False  # the board's own end of the game was handled
    offer_seen: bool = False

    @property
    def offset(self) -> int:
        return len(self.start)


class LichessBridge:
    def __init__(
        self,
        api: LichessApi,
        follower: Follower,
        *,
        stop: Callable[[], bool],
        log: Callable[[str], None],
    ) -> None:
        self.api = api
        self.follower = follower
        self.stop = stop
        self.log = log
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.me = ""
        self.game: _Game | None = None
        self._stream_for: str | None = None  # the game whose stream thread runs

    # ----- threads: streams and stdin -----

    def _events(self) -> None:
        while not self.stop():
            try:
                for event in self.api.stream("/api/stream/event", closed=self.stop):
                    self.inbox.put(("event", event))
            except LichessError as error:
                self.inbox.put(("log", f"event stream: {error}"))
            time.sleep(RETRY_S)

    def _game_stream(self, game_id: str) -> None:
        path = f"/api/board/game/stream/{_quote(game_id)}"
        while not self.stop() and self._stream_for == game_id:
            try:
                for item in self.api.stream(path, closed=lambda: self._stream_for != game_id):
                    self.inbox.put(("game", (game_id, item)))
            except LichessError as error:
                self.inbox.put(("log", f"game stream: {error}"))
            time.sleep(RETRY_S)

    def _stdin(self) -> None:
        for line in sys.stdin:
            self.inbox.put(("command", line.strip().lower()))

    def _start_thread(self, target: Callable[..., None], *args: Any) -> None:
        threading.Thread(target=target, args=args, daemon=True).start()

    # ----- the loop -----

    def run(self, *, seek: tuple[float, int] | None, challenge: str | None,
            clock: tuple[float, int], rated: bool) -> int:  # fmt: skip
        account = self.api.get("/api/account")  # a bad token fails here, in one line
        self.me = str(account.get("id") or account.get("username") or "").lower()
        self.log(f"signed in to {self.api.server} as {account.get('username', self.me)}")
        self.follower.connect()
        self._start_thread(self._events)
        self._start_thread(self._stdin)
        if seek is not None:
            form = {"time": f"{seek[0]:g}", "increment": seek[1], "rated": str(rated).lower()}
            self._start_thread(self._post_quietly, "/api/board/seek", form, 3600.0)
            self.log(f"seeking a {seek[0]:g}+{seek[1]} game")
        if challenge:
            form = {"clock.limit": int(clock[0] * 60), "clock.increment": clock[1],
                    "rated": str(rated).lower()}  # fmt: skip
            self._start_thread(self._post_quietly, f"/api/challenge/{_quote(challenge)}", form)
            self.log(f"challenging {challenge} to {clock[0]:g}+{clock[1]}")
        while not self.stop():
            try:
                self._turn()
            except LinkError as error:
                self.log(f"lost the board: {error}; reconnecting")
                self.follower.connection.close()
                self.follower.connected = False
                self.follower.run(lambda: self.follower.connected or self.stop())
            except (HostError, ReedboardError) as error:
                self.log(str(error))
        return 0

    def _post_quietly(self, path: str, form: dict[str, Any], timeout: float = 15.0) -> None:
        try:
            self.api.post(path, form, timeout=timeout)
        except LichessError as error:
            self.inbox.put(("log", str(error)))

    def _turn(self) -> None:
        self.follower.connection.poll(POLL_S)
        if self.follower.mirror.needs_state:
            self.follower.sync()
        while True:
            try:
                kind, item = self.inbox.get_nowait()
            except queue.Empty:
                break
            try:
                if kind == "event":
                    self._event(item)
                elif kind == "game":
                    self._game_item(*item)
                elif kind == "command":
                    self._command(item)
                elif kind == "log":
                    self.log(item)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                # Lichess (or a stand-in) sent something of another shape: skip it.
                self.log(f"ignored a {kind} message: {type(error).__name__}: {error}")
        self._step()

    # ----- Lichess's side -----

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "gameStart":
            game = event["game"]
            game_id = str(game.get("gameId") or game["id"])
            if self.game is not None and self.game.status not in OVER:
                if self.game.id != game_id:
                    self.log(f"game {game_id} started, but {self.game.id} is on the board")
                return
            if self._stream_for != game_id:
                self._stream_for = game_id
                self._start_thread(self._game_stream, game_id)
        elif kind == "gameFinish":
            self.log(f"game {event['game'].get('gameId') or event['game'].get('id')} finished")
        elif kind == "challenge":
            c = event["challenge"]
            who = (c.get("challenger") or {}).get("name", "someone")
            if str((c.get("challenger") or {}).get("id", "")).lower() != self.me:
                self.log(f"challenge {c.get('id')} from {who}: accept it on Lichess to play")
        elif kind in ("challengeDeclined", "challengeCanceled"):
            self.log(f"challenge {event['challenge'].get('id')}: {kind[9:].lower()}")

    def _game_item(self, game_id: str, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "gameFull":
            self._game_full(game_id, item)
        elif kind == "gameState":
            self._game_state(item)
        elif kind == "chatLine":
            self.log(f"chat {item.get('username')}: {item.get('text')}")
        elif kind == "opponentGone":
            self.log(
                "the opponent has left the game" if item.get("gone") else "the opponent is back"
            )

    def _game_full(self, game_id: str, full: dict[str, Any]) -> None:
        variant = (full.get("variant") or {}).get("key", "standard")
        if variant not in ("standard", "fromPosition"):
            self.log(f"game {game_id} is {variant}: the board plays standard chess only")
            self._stream_for = None
            return
        white = str((full.get("white") or {}).get("id", "")).lower()
        state = full.get("state") or {}
        moves = str(state.get("moves", "")).split()
        if self.game is not None and self.game.id == game_id and self.game.board_id is not None:
            self._game_state(state)  # the stream was opened again: the same game goes on
            return
        fen = full.get("initialFen") or "startpos"
        start = Game() if fen == "startpos" else Game(Position.from_fen(fen))
        for uci in moves:
            start.push_uci(uci)
        game = _Game(game_id, white == self.me, start, moves, posted=0)
        self.game = game
        fields: dict[str, Any] = {"variant": "standard"}
        if moves or fen != "startpos":
            fields["fen"] = start.position.fen()
        self.follower.connection.request("new_game", **fields)
        self.follower.sync()
        current = self.follower.mirror.current
        game.board_id = current.id if current is not None else None
        colour = "white" if game.we_white else "black"
        opponent = (full.get("black" if game.we_white else "white") or {}).get("name", "?")
        self.log(f"game {game_id} against {opponent}: you play {colour}")
        self._game_state(state)

    def _game_state(self, state: dict[str, Any]) -> None:
        game = self.game
        if game is None:
            return
        game.moves = str(state.get("moves", "")).split()
        status = str(state.get("status", "started"))
        theirs = state.get("bdraw" if game.we_white else "wdraw")
        if theirs and not game.offer_seen:
            self.log("your opponent offers a draw: type `draw` to accept, `no` to decline")
        game.offer_seen = bool(theirs)
        if status in OVER and game.status not in OVER:
            game.status = status
            self._lichess_ended(game, status, state.get("winner"))

    def _lichess_ended(self, game: _Game, status: str, winner: Any) -> None:
        self.log(
            f"game {game.id} is over on Lichess: {status}" + (f", {winner} wins" if winner else "")
        )
        self._stream_for = None
        current = self.follower.mirror.current
        if current is None or current.result is not None or current.id != game.board_id:
            return
        game.board_ended = True  # the board's end below is Lichess's, not the person's
        conn = self.follower.connection
        try:
            conn.request("show", uci=None)
            if status == "resign" and winner in ("white", "black"):
                conn.request("resign", color="black" if winner == "white" else "white")
            elif status == "draw":
                conn.request("draw", agreed=True)
        except HostError as error:
            self.log(str(error))

    def _command(self, line: str) -> None:
        game = self.game
        if line not in COMMANDS:
            if line:
                self.log(f"unknown command {line!r}: one of {', '.join(COMMANDS)}")
            return
        if game is None or game.status in OVER:
            self.log(f"{line}: no game in progress")
            return
        base = f"/api/board/game/{_quote(game.id)}"
        if line == "resign":
            try:
                # The board ends its game; `_step` sees that and tells Lichess.
                colour = "white" if game.we_white else "black"
                self.follower.connection.request("resign", color=colour)
            except HostError:
                self._post_quietly(f"{base}/resign", {})
        elif line == "draw":
            self._post_quietly(f"{base}/draw/yes", {})
            self.log("draw offered (or accepted)")
        elif line == "no":
            self._post_quietly(f"{base}/draw/no", {})
        elif line == "abort":
            self._post_quietly(f"{base}/abort", {})

    # ----- the board's side -----

    def _step(self) -> None:
        game = self.game
        current = self.follower.mirror.current
        if game is None or current is None or current.id != game.board_id:
            return
        board = current.game
        played = [b.uci(m) for b, m in zip(board.positions, board.moves, strict=False)]
        if current.result is not None:
            self._board_ended(game, current.result, current.reason)
            return
        if game.status in OVER:
            return
        lichess = game.moves[game.offset :]
        conn = self.follower.connection
        common = 0
        while common < min(len(played), len(lichess)) and played[common] == lichess[common]:
            common += 1
        if common < len(played):
            mover_white = board.positions[common].turn
            if (
                common == len(lichess)
                and len(played) == common + 1
                and mover_white == game.we_white
            ):
                if game.posted < len(played):
                    self._post_move(game, played[-1], len(played))
                return
            # The board went another way than Lichess: its last move is taken back, and
            # the move Lichess wants is lit again below once the board is back.
            self.log(f"{played[-1]} is not the game's move on Lichess: take it back")
            conn.request("takeback")
            game.shown = None
            self.follower.sync()
            return
        if common < len(lichess):
            want = (len(played), lichess[len(played)])
            if game.shown != want:
                conn.request("show", uci=want[1])
                game.shown = want
                self.log(
                    f"{'your opponent plays' if board.position.turn != game.we_white else 'Lichess has'} {want[1]}: carry it out on the board"
                )
        elif game.shown is not None:
            game.shown = None

    def _post_move(self, game: _Game, uci: str, ply: int) -> None:
        game.posted = ply
        try:
            self.api.post(f"/api/board/game/{_quote(game.id)}/move/{_quote(uci)}")
        except LichessError as error:
            self.log(f"Lichess did not take {uci}: {error}")
            game.posted = ply - 1
            self.follower.connection.request("takeback")
            self.follower.sync()

    def _board_ended(self, game: _Game, result: str, reason: str | None) -> None:
        if game.board_ended:
            return
        game.board_ended = True
        if game.status in OVER:
            return
        base = f"/api/board/game/{_quote(game.id)}"
        if reason == "resignation":
            loser_white = result == "0-1"
            if loser_white == game.we_white:
                self.log("you resigned on the board: resigning on Lichess")
                self._post_quietly(f"{base}/resign", {})
            else:
                self.log("the board ended the game for your opponent: Lichess plays on")
        elif reason == "agreement":
            self.log("draw agreed on the board: offering it on Lichess")
            self._post_quietly(f"{base}/draw/yes", {})
        else:
            # Mate, stalemate and the like: Lichess sees it in the moves themselves.
            self.log(f"the board ends the game: {result} ({reason})")


def lichess(
    args: argparse.Namespace, *, stop: Callable[[], bool], log: Callable[[str], None]
) -> int:
    token = read_token(args.token_file, os.environ)
    api = LichessApi(args.server, token)
    if args.challenge and args.seek:
        raise HostError("give --seek or --challenge, not both")
    follower = Follower(choose_port(args.port), log=log)
    bridge = LichessBridge(api, follower, stop=stop, log=log)
    try:
        return bridge.run(seek=args.seek, challenge=args.challenge, clock=args.clock,
                          rated=args.rated)  # fmt: skip
    finally:
        follower.connection.close()
