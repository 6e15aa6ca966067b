"""Following a board for as long as the user wants: the connection, the mirror of its
games, and reconnecting after the link drops (an unplugged cable, a board that restarts).
After every (re)connection the board's game is fetched (page by page, see `fetch`), so the
mirror is the board's game whatever was missed."""

from __future__ import annotations

import time
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.link.board_messages import BoardHello, BoardMessage

from reedboard_host.connection import BoardConnection, HostError
from reedboard_host.fetch import fetch_game
from reedboard_host.mirror import GameMirror

RECONNECT_S = 0.2  # how often an absent port is looked for again


class Follower:
    def __init__(
        self,
        url: str,
        *,
        on_change: Callable[[GameMirror], None] | None = None,
        on_message: Callable[[BoardMessage], None] | None = None,
        log: Callable[[str], None] = lambda _text: None,
    ) -> None:
        self.mirror = GameMirror()
        self.on_change = on_change
        self.on_message_hook = on_message
        self.log = log
        self.connection = BoardConnection(url, on_message=self._message, log=log)
        self.connected = False
        # While the game is being fetched, the board's effects wait here: the fetched game
        # stands at one sequence number, and only what came after it applies on top.
        self._held: list[BoardMessage] | None = None

    def _message(self, message: BoardMessage) -> None:
        if self._held is not None:
            self._held.append(message)
        else:
            self._apply(message)
        if self.on_message_hook is not None:
            self.on_message_hook(message)

    def _apply(self, message: BoardMessage) -> None:
        if self.mirror.apply(message) and self.on_change is not None:
            self.on_change(self.mirror)

    def connect(self) -> BoardHello:
        """The first connection: its failure is the user's to hear about."""
        hello = self.connection.open()
        self.connected = True
        try:
            self.sync()
        except HostError as error:
            # A noisy line can keep a long state message from arriving: `run` asks again.
            self.log(f"{error}; asking again")
        except LinkError as error:
            # Unplugged while the game was being fetched: `run` connects again.
            self.log(f"lost the board: {error}; reconnecting")
            self.connection.close()
            self.connected = False
        return hello

    def sync(self) -> None:
        self.mirror.needs_state = True
        while self.mirror.needs_state:
            self._held = []
            try:
                state = fetch_game(self.connection)
            finally:
                held, self._held = self._held, None
            self._apply(state)
            for message in held:
                if message.seq > state.seq:
                    self._apply(message)

    def run(self, stop: Callable[[], bool], wait_s: float = 0.1) -> None:
        while not stop():
            try:
                if not self.connected:
                    self._reconnect()
                    continue
                self.connection.poll(wait_s)
                if self.mirror.needs_state:
                    self.sync()
            except HostError as error:
                self.log(f"{error}; asking again")
            except LinkError as error:
                if self.connected:
                    self.log(f"lost the board: {error}; reconnecting")
                self.connection.close()
                self.connected = False
                time.sleep(wait_s)

    def _reconnect(self) -> None:
        try:
            self.connection.open(timeout_s=1.0)
        except (LinkError, HostError):
            self.connection.close()
            time.sleep(RECONNECT_S)
            return
        self.connected = True
        self.log("connected again")
        # The same run of the board: the link asks for what was missed meanwhile. The game
        # is fetched again only when the board started afresh (its new hello says so).
        if self.mirror.needs_state:
            self.sync()
