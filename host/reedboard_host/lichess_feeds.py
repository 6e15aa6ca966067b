"""What reaches the Lichess bridge from outside, each in a thread of its own: the
account's events, the game in progress, a seek or challenge held open while Lichess
answers it, the lines typed on stdin, and the answers to calls the bridge does not wait
for. Everything goes into one queue (`inbox`) as `(kind, item)`, which the bridge's loop
empties, so only that loop touches the board.

A stream that ends is opened again after a second; one that fails, after a wait that
doubles up to `BACKOFF_MAX_S`; after a 429 nothing is called until Lichess's minute is
over (`LichessApi.wait_turn`). A game stream Lichess answers with 404 is a game that is
gone: it is left, and `gone` tells the bridge. Calls kept for later are made again after
a 429's minute. Every wait is on the API's clock."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, TextIO

from reedboard_host.lichess_actions import quote
from reedboard_host.lichess_api import LichessApi, LichessError, RateLimited

RETRY_S = 1.0  # before a stream that ended is opened again
BACKOFF_MAX_S = 30.0  # the longest wait before a stream that keeps failing is tried again


class LichessFeeds:
    def __init__(self, api: LichessApi, stop: Callable[[], bool]) -> None:
        self.api = api
        self.stop = stop
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.events_open = threading.Event()
        self.game_followed: str | None = None  # the game whose stream thread runs
        self.game_thread: threading.Thread | None = None  # the last game's stream thread

    def follow_events(self) -> None:
        _start(self._events)

    def follow_game(self, game_id: str | None) -> None:
        """Stream this game (None: none); the stream of another game stops."""
        if game_id == self.game_followed:
            return
        self.game_followed = game_id
        if game_id is not None:
            self.game_thread = _start(self._game_stream, game_id)

    def hold_open(self, path: str, form: dict[str, Any]) -> None:
        """A seek or a challenge stays on Lichess while its answer streams."""
        _start(self._hold_open, path, form)

    def read_stdin(self, lines: TextIO) -> None:
        """The commands typed (`lines`: stdin)."""
        _start(self._stdin, lines)

    def post_later(self, path: str, form: dict[str, Any] | None = None) -> None:
        """A call whose answer the loop need not wait for: it comes as `posted` or
        `refused`."""
        _start(self._post, path, form or {})

    # ----- the threads -----

    def _events(self) -> None:
        def read(opened: Callable[[], None]) -> None:
            def on_open() -> None:
                self.events_open.set()
                opened()

            for event in self.api.stream("/api/stream/event", closed=self.stop, opened=on_open):
                self.inbox.put(("event", event))

        self._follow("event stream", read, lambda: not self.stop())

    def _game_stream(self, game_id: str) -> None:
        def following() -> bool:
            return not self.stop() and self.game_followed == game_id

        def read(opened: Callable[[], None]) -> None:
            path = f"/api/board/game/stream/{quote(game_id)}"
            for item in self.api.stream(path, closed=lambda: not following(), opened=opened):
                self.inbox.put(("game", (game_id, item)))

        self._follow("game stream", read, following, gone=game_id)

    def _follow(
        self,
        name: str,
        read: Callable[[Callable[[], None]], None],
        wanted: Callable[[], bool],
        *,
        gone: str | None = None,
    ) -> None:
        """Read a stream for as long as it is `wanted`, opening it again after it ends
        or fails; `read` is told to call its argument once the stream is open. A 404 for
        a game (`gone`: its id) ends it for good."""
        failures = [0]  # in a row, since the stream last opened

        def opened() -> None:
            failures[0] = 0

        while wanted():
            self.api.wait_turn(lambda: not wanted())
            if not wanted():
                return
            try:
                read(opened)
            except RateLimited as error:
                self.inbox.put(("log", f"{name}: {error}"))
                continue  # the wait is `wait_turn`'s, Lichess's minute
            except LichessError as error:
                if gone is not None and error.status == 404:
                    if self.game_followed == gone:
                        self.game_followed = None
                    self.inbox.put(("gone", gone))
                    return
                failures[0] += 1
                self.inbox.put(("log", f"{name}: {error}"))
            delay = min(RETRY_S * 2 ** max(0, failures[0] - 1), BACKOFF_MAX_S)
            self.api.clock.wait_until(self.api.clock.now() + delay, lambda: not wanted())

    def _hold_open(self, path: str, form: dict[str, Any]) -> None:
        def read() -> None:
            for item in self.api.stream(path, form, closed=self.stop):
                if "url" in item and item.get("status") == "created":
                    self.inbox.put(("log", f"challenge sent: {item['url']}"))

        try:
            self._after_waits(read)
        except LichessError as error:
            self.inbox.put(("log", str(error)))

    def _stdin(self, lines: TextIO) -> None:
        for line in lines:
            self.inbox.put(("command", line.strip().lower()))

    def _post(self, path: str, form: dict[str, Any], timeout: float = 15.0) -> None:
        try:
            self._after_waits(lambda: self.api.post(path, form, timeout=timeout))
        except LichessError as error:
            self.inbox.put(("refused", (path, str(error))))
        else:
            self.inbox.put(("posted", path))

    def _after_waits(self, call: Callable[[], object]) -> None:
        """Make `call`, and make it again after each 429's minute (saying so), until it
        is answered otherwise or the bridge stops."""
        while True:
            self.api.wait_turn(self.stop)
            if self.stop():
                return
            try:
                call()
                return
            except RateLimited as error:
                self.inbox.put(("log", f"{error}; then it is sent again"))


def _start(target: Callable[..., None], *args: Any) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread
