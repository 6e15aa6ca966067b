"""The host's end of the link: a pure state machine, the mirror of `BoardEndpoint`.

It hands out the board's messages in sequence order, each exactly once; messages that
arrive after a gap are held until the gap is filled. A gap in the
numbers (a frame lost or corrupted on the way) or a keep-alive naming a number not seen
yet makes it ask the board for everything after the last number it has (`resend`),
again after `retry_ms` while the gap stays open. A `state` message carries the whole
game, so it is taken whatever came before it. Time comes in as arguments.
"""

from __future__ import annotations

from typing import Any

from reedboard.link.board_messages import check_board_message
from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.messages import PROTOCOL_VERSION

DEFAULT_RETRY_MS = 300
MAX_HELD = 8192
MAX_REPLIES = 256
REPLY_TYPES = ("ack", "error", "state", "moves", "hello")


class HostEndpoint:
    def __init__(self, *, client: str = "reedboard-host", retry_ms: int = DEFAULT_RETRY_MS) -> None:
        self.client = client
        self.retry_ms = retry_ms
        self.decoder = FrameDecoder()
        self.session: str | None = None
        self.last_seq = 0
        self.highest_seen = 0
        self._asked_at: int | None = None  # when the open gap was last asked for
        self._held: dict[int, dict[str, Any]] = {}  # messages that came after a gap
        self._next_id = 1
        self._outbox = bytearray()
        # Replies to commands, handed over as soon as they arrive, even ahead of a gap:
        # a reply answers one question and need not wait for the effects before it.
        self.replies: dict[int, dict[str, Any]] = {}
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
        return self.request("hello", protocol=PROTOCOL_VERSION, client=self.client)

    def request(self, kind: str, **fields: Any) -> int:
        """Queue a command; returns its id (retry with `request_again`)."""
        command_id = self._next_id
        self._next_id += 1
        self.request_again(command_id, kind, **fields)
        return command_id

    def request_again(self, command_id: int, kind: str, **fields: Any) -> None:
        """The same command once more: the board carries out an id only once."""
        self._outbox += encode_frame({"type": kind, "id": command_id, **fields})

    def data_to_send(self) -> bytes:
        """The bytes to write, after a newline that ends any line damaged before."""
        if not self._outbox:
            return b""
        data = b"\n" + bytes(self._outbox)
        self._outbox.clear()
        return data

    # ----- in -----

    def receive_data(self, data: bytes, now_ms: int) -> list[dict[str, Any]]:
        delivered: list[dict[str, Any]] = []
        for decoded in self.decoder.feed(data):
            message, problem = check_board_message(decoded)
            if problem is not None:
                self.problems.append(problem)  # for the connection's log, one line each
            if message is None:
                continue
            seq = message.get("seq")
            if isinstance(seq, bool) or not isinstance(seq, int):
                continue  # every board message is numbered; this one cannot be placed
            kind = message["type"]
            reply_id = message.get("id")
            if kind in REPLY_TYPES and isinstance(reply_id, int) and not isinstance(reply_id, bool):
                self.replies[reply_id] = message
                if len(self.replies) > MAX_REPLIES:  # replies nobody waited for
                    del self.replies[min(self.replies)]
            if kind == "hello" and message.get("session") != self.session:
                # The board started afresh (or this is the first contact): numbering
                # starts from here; whatever came before belongs to another session.
                self.session = str(message.get("session"))
                self.last_seq = self.highest_seen = seq
                self._asked_at = None
                self._held.clear()
                delivered.append(message)
                continue
            if self.session is None:
                continue  # before the handshake nothing can be placed in order
            if kind == "alive":
                self._saw(seq, now_ms)
                continue
            if seq <= self.last_seq:
                continue  # a repeat: already delivered
            if seq == self.last_seq + 1 or kind == "state":
                self._deliver(message, delivered)
                continue
            # Ahead of a gap: kept, so one resend that fills the gap completes the run.
            if len(self._held) < MAX_HELD:
                self._held[seq] = message
            self._saw(seq, now_ms)
        return delivered

    def _deliver(self, message: dict[str, Any], delivered: list[dict[str, Any]]) -> None:
        self.last_seq = message["seq"]
        self.highest_seen = max(self.highest_seen, self.last_seq)
        delivered.append(message)
        for seq in [s for s in self._held if s <= self.last_seq]:
            del self._held[seq]  # a state message covers everything before it
        while self.last_seq + 1 in self._held:
            self.last_seq += 1
            delivered.append(self._held.pop(self.last_seq))
        if not self.in_gap:
            self._asked_at = None

    def tick(self, now_ms: int) -> None:
        """Time passes: ask again for a gap that is still open."""
        if self.in_gap and (self._asked_at is None or now_ms - self._asked_at >= self.retry_ms):
            self._ask(now_ms)

    def _saw(self, seq: int, now_ms: int) -> None:
        self.highest_seen = max(self.highest_seen, seq)
        if self.in_gap and self._asked_at is None:
            self._ask(now_ms)

    def _ask(self, now_ms: int) -> None:
        self._asked_at = now_ms
        self._outbox += encode_frame(
            {"type": "resend", "after": self.last_seq, "session": self.session}
        )
