"""Following a board for as long as the user wants: the connection, the mirror of its
games, and the one place that keeps the link up. Every command that stays connected
(record, watch, play, uci, lichess, emulate) turns `keep_up` and calls `lost` when a
request finds the link gone; a port that is absent or vanishes is tried again every
`RECONNECT_S` (`reedboard.link.reopening`, the board's loop too), with one line in the log
when the wait begins and one when the board is back.

After every (re)connection the board's game is fetched (page by page, see `fetch`) when
the board started afresh, so the mirror is the board's game whatever was missed."""

from __future__ import annotations

import logging
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.link.board_messages import BoardHello, BoardMessage
from reedboard.link.reopening import Reopening

from reedboard_host.connection import BoardConnection, HostError, NoAnswerError
from reedboard_host.fetch import fetch_game
from reedboard_host.mirror import GameMirror
from reedboard_host.transport import REAL_TIME, HostClock, PortOpener, open_port

# How often an absent or vanished port is looked for again: often, for a host that comes
# back within a fifth of a second of its cable catches up before the next move (the board
# looks for its own port once a second, where nothing waits on it).
RECONNECT_S = 0.2
RECONNECT_HANDSHAKE_S = 1.0  # short: a command waiting for the board answers meanwhile

logger = logging.getLogger(__name__)


class Follower:
    def __init__(
        self,
        port: str | None,
        *,
        on_change: Callable[[GameMirror], None] | None = None,
        on_message: Callable[[BoardMessage], None] | None = None,
        on_connect: Callable[[], None] | None = None,
        open_port: PortOpener = open_port,
        clock: HostClock = REAL_TIME,
    ) -> None:
        self.mirror = GameMirror()
        self.on_change = on_change
        self.on_message_hook = on_message
        self.on_connect = on_connect  # after each connection, the game fetched
        self.clock = clock
        self.connection = BoardConnection(
            port, on_message=self._message, open_port=open_port, clock=clock
        )
        self.connected = False
        self._was_connected = False  # a later connection is a reconnection
        self._kept = Reopening(
            self._open_again, BoardConnection.close, every_s=RECONNECT_S,
            now_s=clock.monotonic, logger=logger, failures=(LinkError, HostError),
        )  # fmt: skip
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

    def connect(
        self, stop: Callable[[], bool] = lambda: False, *, wait_for_board: bool = False
    ) -> BoardHello | None:
        """The first connection. A port that is absent or busy, or a board that does not
        answer, is the user's to hear about: raised, in one line. With `wait_for_board`
        (a command that runs for as long as the board does), a port where nothing answers
        yet is a board still starting: said once, and waited for. A line that fails once
        its port is open (the cable pulled during the handshake or the game's fetch) is
        a board lost, as it is later: said, and looked for again until it is back (its
        hello returned, the game fetched) or `stop()` says to end (None)."""
        self.connection.open_line()
        self._was_connected = True  # the board's port was there: it comes back "again"
        self._kept.opened(self.connection)  # a failure from here on is a loss, and said
        try:
            self.connection.handshake()
        except NoAnswerError as error:
            if not wait_for_board:
                raise
            self._was_connected = False  # the board's first hello is still to come
            self._kept.lost(error, "waiting for the board: ")
            self.connection.close()
        except LinkError as error:
            self.lost(error)
        else:  # another HostError: no board of this protocol version there, raised
            self._first_sync()
        while not self.connected:
            if stop():
                return None
            self.keep_up(RECONNECT_S)
        hello = self.connection.hello
        assert hello is not None  # a connection is made by a handshake
        return hello

    def _first_sync(self) -> None:
        """The game's fetch once the board has answered: connected from here on, until a
        failure of the line closes the port (`lost`), never on a port closed here."""
        self.connected = True
        try:
            self.sync()
        except HostError as error:
            # A noisy line can keep a long state message from arriving: `keep_up` asks again.
            logger.warning("%s; asking again", error)
        except LinkError as error:
            self.lost(error)

    def sync(self) -> None:
        self.mirror.needs_state = True
        while self.mirror.needs_state:
            self._held = []
            try:
                state = fetch_game(self.connection)
            finally:
                held, self._held = self._held, None
            logger.debug(
                "fetched the board's game: %d plies, at number %d", len(state.moves), state.seq
            )
            self._apply(state)
            for message in held:
                if message.seq > state.seq:
                    self._apply(message)

    def run(self, stop: Callable[[], bool], wait_s: float = 0.1) -> None:
        while not stop():
            self.keep_up(wait_s)

    def keep_up(self, wait_s: float, *, idle: bool = True) -> bool:
        """One turn of keeping the link up: read what has come (waiting up to `wait_s`)
        and fetch the game when the mirror lost track of it; or, without a link, look for
        the board once a second. With `idle`, a turn without a link waits `wait_s` too;
        a caller with something else to wait on (a GUI's input) passes False. Whether the
        board is connected at the end."""
        if not self.connected:
            if not self._reconnect() and idle:
                self.clock.sleep(wait_s)
            return self.connected
        try:
            self.connection.poll(wait_s)
            if self.mirror.needs_state:
                self.sync()
        except HostError as error:
            logger.warning("%s; asking again", error)
        except LinkError as error:
            self.lost(error)
        return self.connected

    def lost(self, error: Exception) -> None:
        """The link failed under a request or a read: close it and look for the board
        again from the next turn."""
        self._kept.lost(error, "lost the board: ")
        self.connection.close()
        self.connected = False

    def _open_again(self) -> BoardConnection:
        try:
            self.connection.open(timeout_s=RECONNECT_HANDSHAKE_S)
            self.connected = True
            # The same run of the board: the link asks for what was missed meanwhile. The
            # game is fetched again only when the board started afresh (its hello says so).
            if self.mirror.needs_state:
                self.sync()
        except (LinkError, HostError):
            self.connection.close()
            self.connected = False
            raise
        return self.connection

    def _reconnect(self) -> bool:
        if self._kept.get() is None:
            return False
        again = " again" if self._was_connected else ""
        logger.info("connected%s to the board on %s", again, self.connection.url)
        self._was_connected = True
        if self.on_connect is not None:
            self.on_connect()
        return True
