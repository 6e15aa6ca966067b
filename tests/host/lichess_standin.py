"""A stand-in for Lichess in a thread on 127.0.0.1: the account, the event stream, the
Board API's game stream, seeks, moves, resignation and draw offers, in the shapes
Lichess publishes. Its opponent answers each of the board player's moves with a random
legal move of its own."""

from __future__ import annotations

import json
import random
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from reedboard.rules.game import Game

GAME_ID = "abcd1234"
ME = {"id": "boardplayer", "username": "BoardPlayer"}
OPPONENT = {"id": "standin", "name": "StandIn"}
KEEPALIVE_S = 0.3


class StandIn:
    def __init__(self, token: str, *, seed: int = 5) -> None:
        self.token = token
        self.rng = random.Random(seed)
        self.changed = threading.Condition()
        self.events: list[dict[str, Any]] = []
        self.game = Game()
        self.status = "started"
        self.winner: str | None = None
        self.version = 0  # bumped on every change of the game
        self.seeks: list[dict[str, str]] = []
        self.posts: list[str] = []
        self.auth_headers: set[str] = set()
        self.closing = False
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_GET(self) -> None:
                standin._handle(self, "GET")

            def do_POST(self) -> None:
                standin._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def moves(self) -> list[str]:
        with self.changed:
            g = self.game
            return [b.uci(m) for b, m in zip(g.positions, g.moves, strict=False)]

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()
        self.server.shutdown()
        self.server.server_close()

    # ----- requests -----

    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        auth = h.headers.get("Authorization", "")
        with self.changed:
            self.auth_headers.add(auth)
        if auth != f"Bearer {self.token}":
            return self._json(h, 401, {"error": "No such token"})
        path = urllib.parse.urlsplit(h.path).path
        length = int(h.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(h.rfile.read(length).decode())) if length else {}
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/api/account":
            return self._json(h, 200, ME)
        if method == "GET" and path == "/api/stream/event":
            return self._stream(h, self._event_lines)
        if method == "GET" and path == f"/api/board/game/stream/{GAME_ID}":
            return self._stream(h, self._game_lines)
        if method == "POST" and path == "/api/board/seek":
            with self.changed:
                self.seeks.append(form)
                game = {"gameId": GAME_ID, "fullId": GAME_ID + "wxyz", "color": "white"}
                self.events.append({"type": "gameStart", "game": game})
                self.changed.notify_all()
            return self._json(h, 200, {})
        if method == "POST" and parts[:3] == ["api", "board", "game"] and parts[3] == GAME_ID:
            with self.changed:
                self.posts.append("/".join(parts[4:]))
                ok = self._game_post(parts[4:])
                self.changed.notify_all()
            return self._json(h, 200 if ok else 400, {"ok": True} if ok else {"error": "no"})
        return self._json(h, 404, {"error": "Not found"})

    def _game_post(self, rest: list[str]) -> bool:
        if self.status != "started":
            return False
        if rest[:1] == ["move"] and len(rest) == 2:
            if not self.game.position.turn:  # not the board player's turn (white)
                return False
            try:
                self.game.push_uci(rest[1])
            except ValueError:
                return False
            self.version += 1
            legal = list(self.game.position.legal_moves())
            if legal and self.game.outcome() is None:
                self.game.push(self.rng.choice(legal))
                self.version += 1
            return True
        if rest == ["resign"]:
            self.status, self.winner = "resign", "black"
            self.version += 1
            self.events.append({"type": "gameFinish", "game": {"gameId": GAME_ID}})
            return True
        return rest[:1] in (["draw"], ["abort"])

    # ----- answers -----

    @staticmethod
    def _json(h: BaseHTTPRequestHandler, code: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        h.send_response(code)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _stream(self, h: BaseHTTPRequestHandler, lines: Any) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.end_headers()
        sent: dict[str, int] = {}
        try:
            while True:
                with self.changed:
                    if self.closing:
                        return
                    out = lines(sent)
                    if not out:
                        self.changed.wait(KEEPALIVE_S)
                        out = lines(sent) or [""]
                h.wfile.write("".join(line + "\n" for line in out).encode())
                h.wfile.flush()
        except OSError:
            return  # the bridge went away

    def _event_lines(self, sent: dict[str, int]) -> list[str]:
        start = sent.get("events", 0)
        sent["events"] = len(self.events)
        return [json.dumps(e) for e in self.events[start:]]

    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "type": "gameState",
            "moves": " ".join(b.uci(m) for b, m in zip(self.game.positions, self.game.moves, strict=False)),
            "wtime": 900000, "btime": 900000, "winc": 10000, "binc": 10000,
            "status": self.status, "wdraw": False, "bdraw": False,
        }  # fmt: skip
        if self.winner:
            state["winner"] = self.winner
        return state

    def _game_lines(self, sent: dict[str, int]) -> list[str]:
        if "version" not in sent:
            sent["version"] = self.version
            full = {
                "type": "gameFull", "id": GAME_ID, "rated": False,
                "variant": {"key": "standard", "name": "Standard", "short": "Std"},
                "clock": {"initial": 900000, "increment": 10000}, "speed": "rapid",
                "white": {"id": ME["id"], "name": ME["username"], "rating": 1500},
                "black": {**OPPONENT, "rating": 1500},
                "initialFen": "startpos", "state": self._state(),
            }  # fmt: skip
            return [json.dumps(full), json.dumps({"type": "chatLine", "username": "StandIn",
                                                  "text": "good luck", "room": "player"})]  # fmt: skip
        if sent["version"] == self.version:
            return []
        sent["version"] = self.version
        return [json.dumps(self._state())]
