"""The host's end of the link: a pure state machine, the mirror of `BoardEndpoint`.

It reads frames off the line, hands the board's messages over in sequence order, each
exactly once (`StreamReceiver`, which a relay uses for each board too), and writes the
host's commands and the receiver's requests. Replies to commands are handed over as soon
as they arrive, ahead of any gap (`replies`).

On a serial line asking is cheap and a frame is often lost: a gap is asked for at once
(`resend` with `after` and `until`) and again after `retry_ms` (and the time a long gap's
answer takes on a slow line) while it stays open; with no gap known the host still asks
every `poll_ms` for what follows its last number (a board whose last frame was lost says
so only in its next `alive`, a second later; it answers such a request with nothing when
nothing was missed). A board that can no longer resend answers with a `hello` of its
session (`resync`), and the application fetches the game (`moves` pages).

A `hello` of the session already followed that answers the host's own `hello` (a
reconnection) is a reply: it goes to `replies`, and the numbering simply goes on, so a
host that comes back after a cut asks only for what it missed.
"""

from __future__ import annotations

from reedboard.link.board_messages import BoardMessage, Reply, read_board_message
from reedboard.link.frame import FrameDecoder
from reedboard.link.messages import PROTOCOL_VERSION, Hello, WireCommand, command_frame
from reedboard.link.receiver import Pacing, StreamReceiver

# A round trip over any serial line takes a few milliseconds; a request or its answer is
# lost often on a noisy line, and asking again soon is what keeps the host close behind.
DEFAULT_RETRY_MS = 50
DEFAULT_POLL_MS = 100
# Each request goes out this many times: a frame of 90 bytes arrives only one time in
# three when a byte in a hundred is damaged.
REQUEST_COPIES = 2
# A long gap's answer takes a while on a slow line (a 170-byte frame is 15 ms at 115200
# baud, and one answer carries up to about 25 of them): asked for again only once it has
# had time to arrive, so that requests never pile up answers the line cannot carry.
FRAME_MS = 15
MAX_FRAMES_PER_ANSWER = 25
MAX_REPLIES = 256


class HostEndpoint:
    def __init__(
        self,
        *,
        client: str = "reedboard-host",
        retry_ms: int = DEFAULT_RETRY_MS,
        poll_ms: int = DEFAULT_POLL_MS,
    ) -> None:
        self.client = client
        self.receiver = StreamReceiver(serial_pacing(retry_ms, poll_ms))
        self.decoder = FrameDecoder()
        self._next_id = 1
        self._outbox = bytearray()
        # Replies to commands, handed over as soon as they arrive, even ahead of a gap:
        # a reply answers one question and need not wait for the effects before it.
        self.replies: dict[int, Reply] = {}
        # What was wrong with each board message that failed its checks (skipped).
        self.problems: list[str] = []

    @property
    def bad_frames(self) -> int:
        return self.decoder.bad_frames

    @property
    def session(self) -> str | None:
        return self.receiver.session

    @property
    def last_seq(self) -> int:
        return self.receiver.last_seq

    @property
    def highest_seen(self) -> int:
        return self.receiver.highest_seen

    @property
    def in_gap(self) -> bool:
        return self.receiver.in_gap

    @property
    def asked(self) -> int:
        """Requests for a gap so far, for the curious."""
        return self.receiver.asked

    @property
    def polls(self) -> int:
        """And requests for what may have followed."""
        return self.receiver.polls

    # ----- out -----

    def hello(self) -> int:
        return self.request(Hello(PROTOCOL_VERSION, self.client))

    def request(self, command: WireCommand) -> int:
        """Queue a command under a new id (its own is not used); returns the id (retry
        with `request_again`)."""
        command_id = self._next_id
        self._next_id += 1
        self.request_again(command_id, command)
        return command_id

    def request_again(self, command_id: int, command: WireCommand) -> None:
        """The same command once more: the board carries out an id only once."""
        self._outbox += command_frame(command, command_id)

    def data_to_send(self) -> bytes:
        """The bytes to write, after a newline that ends any line damaged before."""
        if not self._outbox:
            return b""
        data = b"\n" + bytes(self._outbox)
        self._outbox.clear()
        return data

    # ----- in -----

    def receive_data(self, data: bytes, now_ms: int) -> list[BoardMessage]:
        delivered: list[BoardMessage] = []
        for decoded in self.decoder.feed(data):
            message, problem = read_board_message(decoded)
            if problem is not None:
                self.problems.append(problem)  # for the connection's log, one line each
            if message is None:
                continue  # a message whose number cannot be placed
            if isinstance(message, Reply) and message.id is not None:
                self._keep_reply(message.id, message)
            delivered += self.receiver.take(message, now_ms)
        self._ask(now_ms)  # a new gap: asked for at once, then on the timer
        return delivered

    def _keep_reply(self, command_id: int, message: Reply) -> None:
        """A reply is handed over at once, ahead of any gap, to whoever waits on its id."""
        self.replies[command_id] = message
        if len(self.replies) > MAX_REPLIES:  # replies nobody waited for
            del self.replies[min(self.replies)]

    def tick(self, now_ms: int) -> None:
        """Time passes: ask again for a gap still open, or for what may have followed."""
        self._ask(now_ms)

    def _ask(self, now_ms: int) -> None:
        if self.receiver.session is None:
            return  # the handshake (`hello`) comes first
        request = self.receiver.request(now_ms)
        if request is not None:
            self._outbox += request.to_frame() * REQUEST_COPIES


def serial_pacing(retry_ms: int = DEFAULT_RETRY_MS, poll_ms: int = DEFAULT_POLL_MS) -> Pacing:
    """How a host asks over a serial line: at once, often, without backing off."""
    return Pacing(
        retry_ms=retry_ms,
        longest_ms=retry_ms,
        poll_ms=poll_ms,
        gap_at_once=True,
        frame_ms=FRAME_MS,
        frames_per_answer=MAX_FRAMES_PER_ANSWER,
    )
