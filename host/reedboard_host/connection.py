"""The host's connection to a board: a port (opened by the `open_port` it is given: a
serial port, or a board in memory), the host end of the link protocol, the handshake, and
commands that are retried until the board answers. All waiting happens here, on the clock
it is given; the protocol itself (`reedboard.link.host`) is pure."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from reedboard.errors import BoardRequestError, LinkError
from reedboard.events import MoveMade
from reedboard.link.board_messages import (
    BoardHello,
    BoardMessage,
    EffectMessage,
    ErrorReply,
    OtherMessage,
    Reply,
)
from reedboard.link.host import HostEndpoint
from reedboard.link.messages import PROTOCOL_VERSION, WireCommand

from reedboard_host.transport import REAL_TIME, BoardPort, HostClock, PortOpener, open_port

logger = logging.getLogger(__name__)

HANDSHAKE_S = 3.0
# A board that answers with good frames, but not yet with its hello (a noisy line), gets
# this long in all before the handshake gives up.
HANDSHAKE_NOISY_S = 20.0
HELLO_EVERY_S = 0.1
REPLY_S = 1.0
ATTEMPTS = 4
QUIET_READS_TOLD = 200  # at debug, one line for this many reads of nothing new


class HostError(BoardRequestError):
    """Something the user must hear about in one line: no board, a refused command."""


class NoAnswerError(HostError):
    """Nothing on the port answers the handshake: no board there, or one still starting
    (`reedboard run` not begun yet)."""


class RefusedError(HostError):
    """The board answered a command with an error: asking again will not change that.
    `code` is the board's (`bad_argument` for a command it cannot read, `refused` for one
    the game does not allow now)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def choose_port(port: str | None) -> str:
    """The port named, else the first USB serial port."""
    if port:
        return port
    from reedboard_host.usb_ports import usb_serial_ports

    found = usb_serial_ports()
    if not found:
        raise HostError("no USB serial port found: connect the board's USB cable or give --port")
    return found[0]


class BoardConnection:
    def __init__(
        self,
        port: str | None,
        *,
        client: str = "reedboard-host",
        on_message: Callable[[BoardMessage], object] | None = None,  # its result is unused
        open_port: PortOpener = open_port,
        clock: HostClock = REAL_TIME,
    ) -> None:
        self.port = port  # as given; None: the first USB serial port, looked for at `open`
        self.url = port or "the first USB serial port"  # the one opened, once it is
        self.endpoint = HostEndpoint(client=client)
        self.on_message = on_message
        self.hello: BoardHello | None = None
        self.clock = clock
        self._monotonic = clock.monotonic
        self._open_port = open_port
        self._port: BoardPort | None = None
        self._replies = self.endpoint.replies  # filled by the endpoint as replies arrive
        self._quiet_reads = 0  # reads of nothing new since the last debug line told of one

    def now_ms(self) -> int:
        return int(self._monotonic() * 1000)

    # ----- connecting -----

    def open(self, timeout_s: float = HANDSHAKE_S) -> BoardHello:
        """Open the port and shake hands; returns the board's hello."""
        self.open_line()
        return self.handshake(timeout_s)

    def open_line(self) -> None:
        """Open the port, nothing said on it yet: a port that is absent or busy fails
        here (`LinkError`), apart from a line that fails once open (a cable pulled).
        A port still open is closed first: its exclusive lock would make this one busy."""
        self.close()
        self.url = choose_port(self.port)
        self._port = self._open_port(self.url)

    def handshake(self, timeout_s: float = HANDSHAKE_S) -> BoardHello:
        self.hello = None
        started = self._monotonic()
        asked: list[int] = []
        good_before = self.endpoint.decoder.good_frames  # those of an earlier connection
        while self.hello is None:
            asked.append(self.endpoint.hello())
            # Good frames from the other end mean a board is there and the line is noisy:
            # it gets longer to answer than a port where nobody speaks the protocol.
            alive = self.endpoint.decoder.good_frames > good_before
            deadline = started + (max(timeout_s, HANDSHAKE_NOISY_S) if alive else timeout_s)
            self._pump(min(HELLO_EVERY_S, max(0.0, deadline - self._monotonic())))
            # The board's answer is a reply: taken as soon as it comes, ahead of any gap
            # (after a cut, the frames the host missed come after it, not before).
            answered = [self._replies.pop(i) for i in asked if i in self._replies]
            if answered:
                reply = answered[-1]
                if not isinstance(reply, BoardHello):  # an unreadable hello: no version
                    raise self._other_version(None)
                self.hello = reply
            if self.hello is None and self._monotonic() >= deadline:
                if self.endpoint.bad_frames and not alive:
                    raise HostError(
                        f"{self.url} does not speak the reedboard protocol "
                        f"({self.endpoint.bad_frames} unreadable frames)"
                    )
                raise NoAnswerError(f"no reedboard answers on {self.url} (is `reedboard run` on?)")
        if self.hello.protocol != PROTOCOL_VERSION:
            raise self._other_version(self.hello.protocol)
        return self.hello

    def _other_version(self, version: int | None) -> HostError:
        return HostError(
            f"the board on {self.url} speaks protocol version {version}; "
            f"this reedboard-host speaks version {PROTOCOL_VERSION}: update the older one"
        )

    def close(self) -> None:
        if self._port is not None:
            self._port.close()
            self._port = None

    # ----- traffic -----

    def poll(self, wait_s: float = 0.0) -> None:
        """Read what has come (waiting up to `wait_s` for it) and hand each board
        message to `on_message`, in order."""
        self._pump(wait_s)

    def request(
        self, command: WireCommand, timeout_s: float = REPLY_S, attempts: int = ATTEMPTS
    ) -> Reply:
        """Send a command and wait for its reply (retried: the board carries out each
        command once however often it arrives). An `error` reply raises `HostError`."""
        kind = command.TYPE
        command_id = self.endpoint.request(command)
        for attempt in range(attempts):
            if attempt:
                self.endpoint.request_again(command_id, command)
            deadline = self._monotonic() + timeout_s
            while command_id not in self._replies:
                left = deadline - self._monotonic()
                if left <= 0:
                    break
                self._pump(min(left, 0.1))
            reply = self._replies.pop(command_id, None)
            if reply is not None:
                if isinstance(reply, ErrorReply):
                    raise RefusedError(f"the board refused {kind}: {reply.message}", reply.code)
                return reply
        raise HostError(f"the board did not answer {kind} on {self.url}")

    def ask(self, command: WireCommand) -> int:
        """Send a command without waiting for its reply (it goes out with the next read);
        returns its id, for `answer` and `ask_again`."""
        return self.endpoint.request(command)

    def ask_again(self, command_id: int, command: WireCommand) -> None:
        self.endpoint.request_again(command_id, command)

    def answer(self, command_id: int) -> Reply | None:
        """The reply to an `ask`ed command, once it has come (taken once), else None."""
        return self._replies.pop(command_id, None)

    def request_many(
        self,
        commands: Sequence[WireCommand],
        *,
        timeout_s: float = REPLY_S,
        attempts: int = ATTEMPTS,
        copies: int = 1,
    ) -> list[Reply]:
        """Several commands at once, each sent `copies` times, and every one still
        unanswered sent again after `timeout_s`: on a noisy line each has its own chance
        each round, instead of waiting behind the others. The replies come back in the
        order of `commands`; an `error` reply raises `HostError`."""
        kind = " and ".join(dict.fromkeys(command.TYPE for command in commands))
        ids = [self.endpoint.request(command) for command in commands]
        for _ in range(copies - 1):
            for command_id, command in zip(ids, commands, strict=True):
                self.endpoint.request_again(command_id, command)
        replies: dict[int, Reply] = {}
        for attempt in range(attempts):
            if attempt:
                for command_id, command in zip(ids, commands, strict=True):
                    if command_id not in replies:
                        for _ in range(copies):
                            self.endpoint.request_again(command_id, command)
            deadline = self._monotonic() + timeout_s
            while len(replies) < len(ids):
                left = deadline - self._monotonic()
                if left <= 0:
                    break
                self._pump(min(left, 0.05))
                for command_id in ids:
                    if command_id in self._replies:
                        replies[command_id] = self._replies.pop(command_id)
            if len(replies) == len(ids):
                break
        else:
            raise HostError(f"the board did not answer {kind} on {self.url}")
        for reply in replies.values():
            if isinstance(reply, ErrorReply):
                raise RefusedError(f"the board refused {kind}: {reply.message}", reply.code)
        return [replies[command_id] for command_id in ids]

    def _pump(self, wait_s: float) -> None:
        if self._port is None:
            raise LinkError(f"{self.url} is not open")
        self._port.write(self.endpoint.data_to_send())
        data = self._port.read(wait_s)
        messages = self.endpoint.receive_data(data, self.now_ms())
        for problem in self.endpoint.problems:
            logger.warning("skipped a board message: %s", problem)
        self.endpoint.problems.clear()
        self.endpoint.tick(self.now_ms())
        self._port.write(self.endpoint.data_to_send())
        if data and logger.isEnabledFor(logging.DEBUG):
            self._log_read(len(data), messages)
        for message in messages:
            if isinstance(message, BoardHello):
                self.hello = message  # the board started afresh, or started over
            if self.on_message is not None:
                self.on_message(message)

    def _log_read(self, size: int, messages: Sequence[BoardMessage]) -> None:
        """One debug line a read that brought news: what came, in the order handed on,
        and where the numbering stands (a gap the endpoint is asking the board to fill).
        Reads of nothing new (an `alive`, a repeat) are counted, and told with the next
        news or once every `QUIET_READS_TOLD` of them: a host that still reads the line."""
        endpoint = self.endpoint
        if not messages and not endpoint.in_gap:
            self._quiet_reads += 1
            if self._quiet_reads < QUIET_READS_TOLD:
                return
        quiet, self._quiet_reads = self._quiet_reads, 0
        gap = f", missing up to {endpoint.highest_seen}" if endpoint.in_gap else ""
        after = f" (after {quiet} reads of nothing new)" if quiet else ""
        logger.debug(
            "read %d bytes: %s; in order up to %d%s%s",
            size, ", ".join(map(_described, messages)) or "nothing new", endpoint.last_seq, gap,
            after,
        )  # fmt: skip


def _described(message: BoardMessage) -> str:
    """A board message in a few words: its type, number, and the event an effect tells."""
    kind = message.type if isinstance(message, OtherMessage) else message.TYPE
    text = f"{kind} {message.seq}"
    if isinstance(message, EffectMessage):
        effect = message.effect
        text += f" {effect.kind}" + (f" {effect.uci}" if isinstance(effect, MoveMade) else "")
    return text
