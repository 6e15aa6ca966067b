"""The relay in the test's own process: `reedboard-relay`'s `run`, with the command line
the test gives, on a thread of its own (its own asyncio loop, its own MQTT client, its
own SQLite store), told its two URLs as the command prints them, and ended by the test
as the command is by SIGTERM. The same relay code as the command's, without a Python
process to start and its libraries to load each time: the tests about the command itself
(its signals, its exit status, its output) still start it as a process.

`relay_thread(argv)` stops it whatever happens when its block ends, and fails the test
if the relay did not end cleanly (status 0, within `GRACE_S`)."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Iterator

from reedboard_relay.cli import Serving, parser, run

START_S = 60.0  # a bound for the relay to say where it serves, on a loaded machine
GRACE_S = 30.0  # for it to end once asked


class RelayThread:
    def __init__(self, argv: list[str]) -> None:
        self.args = parser().parse_args(argv)
        self.said: queue.Queue[str | None] = queue.Queue()  # None: the relay has ended
        self.status: int | None = None
        self.error: BaseException | None = None
        self._guard = threading.Lock()
        self._asked = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, name="relay", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def line(self) -> str:
        """The next line the relay says (its page's URL, then its console's)."""
        said = self.said.get(timeout=START_S)
        assert said is not None, f"the relay ended ({self.status}, {self.error!r})"
        return said

    def stop(self) -> int | None:
        """Ask the relay to end, as SIGTERM does, and wait for it; its exit status."""
        with self._guard:
            self._asked = True
            loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed: it has ended
                loop.call_soon_threadsafe(stopping.set)
        self.thread.join(GRACE_S)
        assert not self.thread.is_alive(), f"the relay did not end within {GRACE_S} s"
        if self.error is not None:
            raise AssertionError("the relay failed") from self.error
        return self.status

    def _stop_event(self) -> asyncio.Event:
        """The event the relay waits on to end, made on its own loop."""
        stopping = asyncio.Event()
        with self._guard:
            self._loop, self._stopping = asyncio.get_running_loop(), stopping
            if self._asked:  # asked to end before it was ready
                stopping.set()
        return stopping

    def _run(self) -> None:
        try:
            self.status = run(self.args, Serving(self.said.put, self._stop_event))
        except BaseException as error:  # the test is told, in `stop`
            self.error = error
        finally:
            self.said.put(None)


@contextlib.contextmanager
def relay_thread(argv: list[str]) -> Iterator[RelayThread]:
    """The relay on a thread for the block, stopped whatever happens; a relay that did not
    end with status 0 fails the test."""
    relay = RelayThread(argv)
    relay.start()
    try:
        yield relay
    finally:
        status = relay.stop()
    assert status == 0, f"the relay ended with status {status}"
