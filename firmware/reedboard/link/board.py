"""The board's end of the link: a pure state machine in the manner of h11.

`receive_data(bytes)` gives the host's checked commands; `send(...)` and `reply(...)` queue
messages; `data_to_send()` hands over the bytes for the wire. The endpoint numbers every
message (`seq`, from 1 in each session), keeps the latest ones so that a host that lost
some can ask for them again (`resend`), answers malformed or unknown messages with an
`error`, and answers a command it has already carried out (the host retried because the
reply was lost) with the reply it gave, without carrying it out twice.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.messages import Command, ProtocolError, message_id, parse_command

DEFAULT_HISTORY = 4096
# At most this much is resent for one `resend`: on a line that loses many frames, a host
# far behind would otherwise get the whole backlog again every few hundred milliseconds,
# more than a 115200 baud line carries. It asks again for the rest.
RESEND_BYTES = 4096
_REMEMBERED_IDS = 256


class BoardEndpoint:
    def __init__(self, session: str, *, history: int = DEFAULT_HISTORY) -> None:
        """`session` names this run of the firmware: a host that sees it change knows the
        numbering started again."""
        self.session = session
        self.seq = 0
        self.decoder = FrameDecoder()
        self._history: deque[tuple[int, bytes]] = deque(maxlen=history)
        self._outbox = bytearray()
        self._replies: OrderedDict[int, int] = OrderedDict()  # command id -> seq of reply

    @property
    def bad_frames(self) -> int:
        return self.decoder.bad_frames

    # ----- out -----

    def send(self, kind: str, fields: dict[str, Any] | None = None) -> int:
        """Queue one numbered message; returns its sequence number."""
        self.seq += 1
        frame = encode_frame({"type": kind, "seq": self.seq, **(fields or {})})
        self._history.append((self.seq, frame))
        self._outbox += frame
        return self.seq

    def reply(self, command: Command, kind: str, fields: dict[str, Any] | None = None) -> int:
        """Queue the answer to `command` (`ack`, `error`, `state`, ...), with its id."""
        seq = self.send(kind, {"id": command.id, **(fields or {})})
        if command.id is not None:
            self._replies[command.id] = seq
            while len(self._replies) > _REMEMBERED_IDS:
                self._replies.popitem(last=False)
        return seq

    def alive(self) -> None:
        """A keep-alive naming the latest sequence number, so that a host that lost the
        last frames notices even when nothing else follows. It is not numbered itself."""
        self._outbox += encode_frame({"type": "alive", "seq": self.seq})

    def data_to_send(self) -> bytes:
        """The bytes to write. Each batch starts with a newline: it ends a line that the
        line damaged earlier, so that line cannot swallow the batch's first frame."""
        if not self._outbox:
            return b""
        data = b"\n" + bytes(self._outbox)
        self._outbox.clear()
        return data

    # ----- in -----

    def receive_data(self, data: bytes) -> list[Command]:
        """The commands in `data` for the board to carry out. `resend` is answered here
        when the history reaches back far enough; otherwise it comes out as a `state`
        command (the host gets everything in one message instead)."""
        commands: list[Command] = []
        for message in self.decoder.feed(data):
            try:
                command = parse_command(message)
            except ProtocolError as error:
                self.send("error", {"id": message_id(message), **error.reply_fields()})
                continue
            if command.kind == "hello":
                # A host starting a conversation numbers its commands afresh: an id that
                # another (earlier) host used is not a repeat of that host's command.
                self._replies.clear()
            if command.id is not None and command.id in self._replies:
                if not self._resend_one(self._replies[command.id]):
                    commands.append(command)  # the reply is gone: answer afresh
                continue
            if command.kind == "resend":
                if not self._resend_after(command.args["after"], command.args["session"]):
                    commands.append(Command("state", command.id, {"resync": True}))
                continue
            commands.append(command)
        return commands

    def _resend_after(self, after: int, session: str) -> bool:
        if session != self.session or after > self.seq:
            return False
        if after == self.seq:
            return True  # nothing was missed
        if not self._history or self._history[0][0] > after + 1:
            return False
        budget = RESEND_BYTES
        for seq, frame in self._history:
            if seq > after:
                self._outbox += frame
                budget -= len(frame)
                if budget <= 0:
                    break
        return True

    def _resend_one(self, seq: int) -> bool:
        for number, frame in self._history:
            if number == seq:
                self._outbox += frame
                return True
        return False
