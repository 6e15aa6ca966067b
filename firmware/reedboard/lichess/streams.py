"""What reaches the Lichess bridge from outside, each as a task of the bridge's asyncio
loop: the account's events, the game in progress, a seek or challenge held open while
Lichess answers it, and the answers to calls the bridge does not wait for. Everything
goes into one queue (`inbox`) as `(kind, item)`, which the bridge's board task empties,
so only that task touches the board.

A stream that ends is opened again after a second; one that fails, after a wait that
doubles up to `BACKOFF_MAX_S`; after a 429 nothing is called until Lichess's minute is
over (`LichessApi.wait_turn`). A game stream Lichess answers with 404 is a game that is
gone: it is left, and `gone` tells the bridge. Calls kept for later are made again after
a 429's minute. Every wait is on the API's clock. Stopping cancels the tasks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from reedboard.lichess.actions import quote
from reedboard.lichess.api import JsonObject, LichessApi, LichessError, RateLimited

RETRY_S = 1.0  # before a stream that ended is opened again
BACKOFF_MAX_S = 30.0  # the longest wait before a stream that keeps failing is tried again


class LichessStreams:
    def __init__(self, api: LichessApi) -> None:
        self.api = api
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.events_open = asyncio.Event()
        self.game_followed: str | None = None  # the game whose stream task runs
        self.game_task: asyncio.Task[None] | None = None  # the last game's stream task
        self._tasks: set[asyncio.Task[None]] = set()

    def follow_events(self) -> None:
        self._start(self._events())

    def follow_game(self, game_id: str | None) -> None:
        """Stream this game (None: none); the stream of another game stops."""
        if game_id == self.game_followed:
            return
        self.game_followed = game_id
        if self.game_task is not None:
            self.game_task.cancel()
        self.game_task = None if game_id is None else self._start(self._game_stream(game_id))

    def hold_open(self, path: str, form: JsonObject) -> None:
        """A seek or a challenge stays on Lichess while its answer streams."""
        self._start(self._hold_open(path, form))

    def post_later(self, path: str, form: JsonObject | None = None) -> None:
        """A call whose answer the bridge need not wait for: it comes as `posted` or
        `refused`."""
        self._start(self._post(path, form or {}))

    async def close(self) -> None:
        """Every task cancelled, and ended."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _start(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # kept: the loop holds only weak references to tasks
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._said_if_failed)
        return task

    def _said_if_failed(self, task: asyncio.Task[None]) -> None:
        """A task ended by something unforeseen is told, not lost without a word."""
        if not task.cancelled() and (error := task.exception()) is not None:
            self.inbox.put_nowait(
                ("log", f"a Lichess task stopped: {type(error).__name__}: {error}")
            )

    # ----- the tasks -----

    async def _events(self) -> None:
        async def read(opened: Callable[[], None]) -> None:
            def on_open() -> None:
                self.events_open.set()
                opened()

            async for event in self.api.stream("/api/stream/event", opened=on_open):
                self.inbox.put_nowait(("event", event))

        await self._follow("event stream", read, lambda: True)

    async def _game_stream(self, game_id: str) -> None:
        def following() -> bool:
            return self.game_followed == game_id

        async def read(opened: Callable[[], None]) -> None:
            path = f"/api/board/game/stream/{quote(game_id)}"
            async for item in self.api.stream(path, opened=opened):
                if not following():
                    return
                self.inbox.put_nowait(("game", (game_id, item)))

        await self._follow("game stream", read, following, gone=game_id)

    async def _follow(
        self,
        name: str,
        read: Callable[[Callable[[], None]], Awaitable[None]],
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
            await self.api.wait_turn()
            if not wanted():
                return
            try:
                await read(opened)
            except RateLimited as error:
                self.inbox.put_nowait(("log", f"{name}: {error}"))
                continue  # the wait is `wait_turn`'s, Lichess's minute
            except LichessError as error:
                if gone is not None and error.status == 404:
                    if self.game_followed == gone:
                        self.game_followed = None
                    self.inbox.put_nowait(("gone", gone))
                    return
                failures[0] += 1
                self.inbox.put_nowait(("log", f"{name}: {error}"))
            delay = min(RETRY_S * 2 ** max(0, failures[0] - 1), BACKOFF_MAX_S)
            await self.api.clock.wait_until(self.api.clock.now() + delay)

    async def _hold_open(self, path: str, form: JsonObject) -> None:
        async def read() -> None:
            async for item in self.api.stream(path, form):
                if "url" in item and item.get("status") == "created":
                    self.inbox.put_nowait(("log", f"challenge sent: {item['url']}"))

        try:
            await self._after_waits(read)
        except LichessError as error:
            self.inbox.put_nowait(("log", str(error)))

    async def _post(self, path: str, form: JsonObject, timeout: float = 15.0) -> None:
        async def call() -> None:
            await self.api.post(path, form, timeout=timeout)

        try:
            await self._after_waits(call)
        except LichessError as error:
            self.inbox.put_nowait(("refused", (path, str(error))))
        else:
            self.inbox.put_nowait(("posted", path))

    async def _after_waits(self, call: Callable[[], Awaitable[None]]) -> None:
        """Make `call`, and make it again after each 429's minute (saying so), until it
        is answered otherwise (or the task is cancelled)."""
        while True:
            await self.api.wait_turn()
            try:
                await call()
                return
            except RateLimited as error:
                self.inbox.put_nowait(("log", f"{error}; then it is sent again"))
