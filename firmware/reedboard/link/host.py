"""The host's end of the link: a pure state machine, the mirror of `BoardEndpoint`.

It hands out the board's messages in sequence order, each exactly once; messages that
arrive after a gap are held until the gap is filled. Replies to commands are handed over
as soon as they arrive, ahead of any gap (`replies`).

What it asks the board for, and when (time comes in as arguments):

- a gap in the numbers (a frame lost or corrupted on the way) makes it ask at once for
  the frames of that gap (`resend` with `after` and `until`), and again after `retry_ms`
  (and the time a long gap's answer takes on a slow line) while the gap stays open: one
  request per gap in flight, however many frames arrive beyond it;
- with no gap known it still asks every `poll_ms` for what follows its last number: a
  board whose last frame was lost says so only in its next `alive`, a second later, and
  the board answers such a request with nothing when nothing was missed;
- a board that can no longer resend what it asks for answers with a `hello` of its
  session (`resync`): numbering goes on from there, and the application fetches the game
  (`moves` pages) instead of waiting for a backlog. A `state` message carries the whole
  game, so it too is taken whatever came before it.

A `hello` of the session already followed that answers the host's own `hello` (a
reconnection) is a reply: it goes to `replies`, and the numbering simply goes on, so a
host that comes back after a cut asks only for what it missed.
"""

from __future__ import annotations

from reedboard.link.board_messages import (
    Alive,
    BoardHello,
    BoardMessage,
    Reply,
    StateMessage,
    read_board_message,
)
from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.messages import PROTOCOL_VERSION, Hello, Resend, WireCommand

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
MAX_HELD = 8192
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
        self.retry_ms = retry_ms
        self.poll_ms = poll_ms
        self.asked = 0  # resend requests for a gap so far, for the curious
        self.polls = 0  # and requests for what may have followed
        self.decoder = FrameDecoder()
        self.session: str | None = None
        self.last_seq = 0
        self.highest_seen = 0
        self._asked_at: int | None = None  # when the board was last asked for frames
        self._asked_after: int | None = None  # and the number the request went on from
        self._held: dict[int, BoardMessage] = {}  # messages that came after a gap
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
    def in_gap(self) -> bool:
        return self.highest_seen > self.last_seq

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
        wire = command.to_wire()
        wire.pop("id", None)
        self._outbox += encode_frame({"type": wire.pop("type"), "id": command_id} | wire)

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
            if message is not None:  # None: a message whose number cannot be placed
                self._take(message, now_ms, delivered)
        return delivered

    def _take(self, message: BoardMessage, now_ms: int, delivered: list[BoardMessage]) -> None:
        seq = message.seq
        self._keep_reply(message)
        if isinstance(message, BoardHello) and message.session != self.session:
            # The board started afresh (or this is the first contact): numbering
            # starts from here; whatever came before belongs to another session.
            self.session = message.session
            self._held.clear()
            self._restart(message, delivered)
        elif self.session is None:
            return  # before the handshake nothing can be placed in order
        elif isinstance(message, BoardHello) and message.resync:
            if seq > self.last_seq:
                # What the host asked for is gone: go on from here (the application
                # fetches the game when it sees the hello).
                self._restart(message, delivered)
        elif isinstance(message, Alive):
            self._saw(seq, now_ms)
        elif seq <= self.last_seq:
            return  # a repeat: already delivered
        elif seq == self.last_seq + 1 or isinstance(message, StateMessage):
            self._deliver(message, delivered)
        else:
            # Ahead of a gap: kept, so one resend that fills the gap completes the run.
            if len(self._held) < MAX_HELD:
                self._held[seq] = message
            self._saw(seq, now_ms)

    def _keep_reply(self, message: BoardMessage) -> None:
        """A reply is handed over at once, ahead of any gap, to whoever waits on its id."""
        if isinstance(message, Reply) and message.id is not None:
            self.replies[message.id] = message
            if len(self.replies) > MAX_REPLIES:  # replies nobody waited for
                del self.replies[min(self.replies)]

    def _restart(self, message: BoardMessage, delivered: list[BoardMessage]) -> None:
        seq = message.seq
        self.last_seq = seq
        self.highest_seen = max(seq, max(self._held, default=seq))
        self._held = {s: m for s, m in self._held.items() if s > seq}
        self._asked_at = self._asked_after = None
        delivered.append(message)  # news the application must hear: fetch the game
        self._deliver_held(delivered)

    def _deliver(self, message: BoardMessage, delivered: list[BoardMessage]) -> None:
        self.last_seq = message.seq
        self.highest_seen = max(self.highest_seen, self.last_seq)
        if not _answers_own_hello(message):
            delivered.append(message)
        self._deliver_held(delivered)

    def _deliver_held(self, delivered: list[BoardMessage]) -> None:
        for seq in [s for s in self._held if s <= self.last_seq]:
            del self._held[seq]  # a state message covers everything before it
        while self.last_seq + 1 in self._held:
            self.last_seq += 1
            held = self._held.pop(self.last_seq)
            if not _answers_own_hello(held):
                delivered.append(held)

    def tick(self, now_ms: int) -> None:
        """Time passes: ask again for a gap still open, or for what may have followed."""
        if self.session is None:
            return
        every = self._retry_ms() if self.in_gap else self.poll_ms
        if self._asked_at is None or now_ms - self._asked_at >= every:
            self._ask(now_ms)

    def _retry_ms(self) -> int:
        missing = min(self._held, default=self.highest_seen + 1) - self.last_seq - 1
        return self.retry_ms + FRAME_MS * min(missing, MAX_FRAMES_PER_ANSWER)

    def _saw(self, seq: int, now_ms: int) -> None:
        self.highest_seen = max(self.highest_seen, seq)
        if self.in_gap and self._asked_after != self.last_seq:
            self._ask(now_ms)  # a new gap: asked for at once, then on the timer

    def _ask(self, now_ms: int) -> None:
        self._asked_at = now_ms
        self._asked_after = self.last_seq
        if self.in_gap:
            self.asked += 1
        else:
            self.polls += 1
        until = min(self._held, default=self.highest_seen + 1) if self.in_gap else None
        request = Resend(self.last_seq, self.session or "", until, resync="hello")
        self._outbox += encode_frame(request.to_wire()) * REQUEST_COPIES


def _answers_own_hello(message: BoardMessage) -> bool:
    """A `hello` of the session already followed that answers the host's own `hello` (it
    has an id): a reply, taken from `replies`; in the sequence it only takes up its
    number, for nothing was lost."""
    return isinstance(message, BoardHello) and message.id is not None and not message.resync
