"""What reaches the Lichess bridge from outside, each in a thread of its own: the
account's events, the game in progress, a seek or challenge held open while Lichess
answers it, the lines typed on stdin, and the answers to calls the bridge does not wait
for. Everything goes into one queue (`inbox`) as `(kind, item)`, which the bridge's loop
empties, so only that loop touches the board."""

from __future__ import annotations

import queue
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from reedboard_host.lichess_api import LichessApi, LichessError

RETRY_S = 1.0  # before a stream that ended is opened again


def quote(text: str) -> str:
    """`text` as one segment of a Lichess path."""
    return urllib.parse.quote(text, safe="")


class LichessFeeds:
    def __init__(self, api: LichessApi, stop: Callable[[], bool]) -> None:
        self.api = api
        self.stop = stop
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.events_open = threading.Event()
        self.game_followed: str | None = None  # the game whose stream thread runs

    def follow_events(self) -> None:
        _start(self._events)

    def follow_game(self, game_id: str | None) -> None:
        """Stream this game (None: none); the stream of another game stops."""
        if game_id == self.game_followed:
            return
        self.game_followed = game_id
        if game_id is not None:
            _start(self._game_stream, game_id)

    def hold_open(self, path: str, form: dict[str, Any]) -> None:
        """A seek or a challenge stays on Lichess while its answer streams."""
        _start(self._hold_open, path, form)

    def read_stdin(self) -> None:
        _start(self._stdin)

    def post_later(self, path: str, form: dict[str, Any] | None = None) -> None:
        """A call whose answer the loop need not wait for: it comes as `posted` or
        `refused`."""
        _start(self._post, path, form or {})

    # ----- the threads -----

    def _events(self) -> None:
        while not self.stop():
            try:
                events = self.api.stream(
                    "/api/stream/event", closed=self.stop, opened=self.events_open.set
                )
                for event in events:
                    self.inbox.put(("event", event))
            except LichessError as error:
                self.inbox.put(("log", f"event stream: {error}"))
            time.sleep(RETRY_S)

    def _game_stream(self, game_id: str) -> None:
        path = f"/api/board/game/stream/{quote(game_id)}"
        while not self.stop() and self.game_followed == game_id:
            try:
                for item in self.api.stream(path, closed=lambda: self.game_followed != game_id):
                    self.inbox.put(("game", (game_id, item)))
            except LichessError as error:
                self.inbox.put(("log", f"game stream: {error}"))
            time.sleep(RETRY_S)

    def _hold_open(self, path: str, form: dict[str, Any]) -> None:
        try:
            for item in self.api.stream(path, form, closed=self.stop):
                if "url" in item and item.get("status") == "created":
                    self.inbox.put(("log", f"challenge sent: {item['url']}"))
        except LichessError as error:
            self.inbox.put(("log", str(error)))

    def _stdin(self) -> None:
        for line in sys.stdin:
            self.inbox.put(("command", line.strip().lower()))

    def _post(self, path: str, form: dict[str, Any], timeout: float = 15.0) -> None:
        try:
            self.api.post(path, form, timeout=timeout)
        except LichessError as error:
            self.inbox.put(("refused", (path, str(error))))
        else:
            self.inbox.put(("posted", path))


def _start(target: Callable[..., None], *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()
