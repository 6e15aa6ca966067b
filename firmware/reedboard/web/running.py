"""The page's own thread, started by `reedboard run`: an asyncio loop serving the page
(`server`), with the page's client of the board (`feed`). aiohttp is imported on that
thread, so the board's loop starts without waiting for it. The page's address comes from
`--web HOST:PORT` (or `off`), else `[web]`; at start the page's URL is printed on stderr on
a line of its own (`http://HOST:PORT/`, the port the system gave for port 0). A page that
cannot listen is said in one line, and the board plays on without it."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reedboard.config import WebConfig
from reedboard.errors import ConfigError, ReedboardError
from reedboard.link.clients import Clients
from reedboard.link.messages import Mark
from reedboard.web.opponents import Opponents

if TYPE_CHECKING:
    import asyncio

    from reedboard.speaking import BoardVoice
    from reedboard.web.feed import BrokerLink

# A fake board on a PC: this machine only, on a free port (fake boards run side by side).
FAKE_DEFAULT = ("127.0.0.1", 0)
START_S = 30.0  # for the page's thread to listen, on a Pi Zero loading aiohttp


def page_address(value: str | None, config: WebConfig, *, fake: bool) -> tuple[str, int] | None:
    """Where the page is served: `--web` (HOST:PORT, or off), else `[web]` (a fake board
    with the default section: this machine only); None: no page."""
    if value is None:
        if not config.enabled:
            return None
        if fake and config == WebConfig():
            return FAKE_DEFAULT
        return config.address, config.port
    if value.strip().lower() == "off":
        return None
    host, colon, port = value.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"--web {value!r}: expected HOST:PORT (127.0.0.1:8080) or off")
    return host, int(port)


@dataclass(frozen=True)
class PageParts:
    """What the page serves from: the board's clients, its journal (past games), the folder
    its paired devices are kept in (None: in memory), its name, voice and opponents, the
    wall time of a board time (for the page's figures), and its link to a broker."""

    clients: Clients
    journal: str | None = None
    data_dir: str | None = None
    board: str = "reedboard"
    voice: BoardVoice | None = None
    opponents: Opponents | None = None
    commit_wall_ms: Callable[[int], float] | None = None
    broker: BrokerLink | None = None


class PageThread:
    def __init__(self, address: tuple[str, int], parts: PageParts) -> None:
        self.address = address
        self.parts = parts
        self.url: str | None = None
        self.started = False
        self._halt = False  # asked to stop before the loop was there to tell
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="page", daemon=True)

    def start(self) -> None:
        self.started = True
        self._thread.start()

    def wait_ready(self, timeout_s: float = START_S) -> str | None:
        """The page's URL once it listens (None: it could not)."""
        self._ready.wait(timeout_s)
        return self.url

    def stop(self) -> None:
        if not self.started:
            return
        self._halt = True
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # its loop already ended (it never listened)
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(5.0)

    def _run(self) -> None:
        # asyncio (with ssl) and aiohttp are loaded here, off the board's own start.
        import asyncio

        try:
            asyncio.run(self._serve())
        except (OSError, ReedboardError) as error:
            host, port = self.address
            why = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(
                f"reedboard run: the page cannot listen on {host}:{port} ({why});"
                " the board plays on without it",
                file=sys.stderr,
                flush=True,
            )
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        import asyncio
        import socket

        from aiohttp import web

        from reedboard.web.feed import Feed
        from reedboard.web.games import GameShelf
        from reedboard.web.pairing import Pairing, TokenStore
        from reedboard.web.server import Site, make_app

        parts = self.parts
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host, port = self.address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # Before the page becomes a client of the board: a page that cannot listen is none.
        listening = socket.create_server((host, port), family=family)  # OSError: said above
        feed = Feed(parts.clients, parts.opponents, parts.commit_wall_ms, parts.broker)
        pairing = Pairing(TokenStore(parts.data_dir), self._shown(feed), self._loop.time)
        games = GameShelf(parts.journal, parts.board)
        names = [socket.gethostname(), f"{socket.gethostname()}.local".lower()]
        runner = web.AppRunner(
            make_app(Site(feed, pairing, games, parts.voice), names), access_log=None
        )
        await runner.setup()
        feeding = asyncio.create_task(feed.run())
        try:
            await web.SockSite(runner, listening).start()
            bound = listening.getsockname()[1]
            shown_host = f"[{host}]" if ":" in host else host
            self.url = f"http://{shown_host}:{bound}/"
            print(self.url, file=sys.stderr, flush=True)
            self._ready.set()
            if not self._halt:
                await self._stop.wait()
        finally:
            feeding.cancel()
            feed.client.close()  # the board tells it nothing more
            await runner.cleanup()
            games.close()

    def _shown(self, feed: object) -> Callable[[str | None], None]:
        """How a pairing code is shown: lit on the board, and said if the voice is on."""
        from reedboard.web.feed import Feed
        from reedboard.web.pairing import code_squares

        assert isinstance(feed, Feed)
        voice = self.parts.voice

        def shown(code: str | None) -> None:
            feed.client.ask(Mark(squares=() if code is None else code_squares(code)))
            if code is not None and voice is not None:
                voice.say("Pairing code: " + ", ".join(code))

        return shown
