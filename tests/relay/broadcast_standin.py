"""A stand-in for Lichess's broadcast push endpoint, over real HTTP on 127.0.0.1: it keeps
every push (its time, round, token and PGN) and answers the statuses a test queues
(`refuse_next`: 429, 503, ...) before taking pushes again. It answers as Lichess does, a
200 with JSON: `{"games": [...]}`, one entry per game, `moves` for a game taken, `error`
for one refused (here, a game holding a move named in `bad_moves`: `Invalid move: Zz9`),
and then nothing of the push is taken; or `{"error": ...}` for the push as a whole
(`error_next`)."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATH = "/api/broadcast/round/"


class BroadcastStandIn:
    def __init__(self) -> None:
        self.pushes: list[tuple[float, str, str, str]] = []  # (time, round, token, pgn)
        self.refused: list[tuple[float, int]] = []
        self.refuse_next: list[int] = []
        self.error_next: list[str] = []  # 200s whose answer is an error for the push
        self.bad_moves: set[str] = set()
        self.answered: list[tuple[str, dict[str, Any]]] = []  # (pgn, answer) of each 200
        self.arrived = threading.Condition()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                outer._push(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> BroadcastStandIn:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _push(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length).decode()
        token = (h.headers.get("Authorization") or "").removeprefix("Bearer ")
        if not h.path.startswith(PATH) or not h.path.endswith("/push"):
            h.send_response(404)
            h.end_headers()
            return
        round_id = h.path[len(PATH) : -len("/push")]
        with self.arrived:
            status = self.refuse_next.pop(0) if self.refuse_next else 200
            answer: dict[str, Any] = {"error": "refused"}
            if status == 200:
                answer = self._answer(body)
                self.answered.append((body, answer))
                if "error" not in answer and not any("error" in g for g in answer["games"]):
                    self.pushes.append((time.monotonic(), round_id, token, body))
            else:
                self.refused.append((time.monotonic(), status))
            self.arrived.notify_all()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.end_headers()
        h.wfile.write(json.dumps(answer).encode())

    def _answer(self, body: str) -> dict[str, Any]:
        if self.error_next:
            return {"error": self.error_next.pop(0)}
        games = []
        for text in re.split(r"\n(?=\[Event )", body.strip()) if body.strip() else []:
            tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.MULTILINE))
            moves = [t for t in re.sub(r"\{[^}]*\}|^\[.*$", " ", text, flags=re.M).split()
                     if not re.fullmatch(r"\d+\.+|\*|1-0|0-1|1/2-1/2", t)]  # fmt: skip
            bad = [move for move in moves if move in self.bad_moves]
            entry: dict[str, Any] = {"tags": tags}
            entry |= {"error": f"Invalid move: {bad[0]}"} if bad else {"moves": len(moves)}
            games.append(entry)
        return {"games": games}

    def wait_for(self, test: Any, timeout_s: float = 20.0) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: test(self), timeout_s)
