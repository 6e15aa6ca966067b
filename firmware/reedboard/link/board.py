"""The board's end of the link: a pure state machine in the manner of h11.

`receive_data(bytes)` gives the host's checked commands; `send(...)` and `reply(...)` queue
messages; `data_to_send()` hands over the bytes for the wire. The endpoint numbers every
message (`seq`, from 1 in each session), keeps the latest ones so that a host that lost
some can ask for them again (`resend`), answers malformed or unknown messages with an
`error`, and answers a command it has already carried out (the host retried because the
reply was lost) with the reply it gave, without carrying it out twice.

On a noisy line (a byte in a hundred damaged) a frame of 180 bytes arrives only one time in
eight, so what a host is waiting for goes out more than once: every short numbered frame twice,
and the frames of the gap a host names (`resend` with `until`) and the answer to a
`hello` three times over, which costs a few hundred bytes and saves the host a round trip
or two each time.
"""

from __future__ import annotations

from collections import OrderedDict, deque

from reedboard.link.board_messages import (
    Alive,
    BoardHello,
    ErrorReply,
    Reply,
    WireMessage,
    numbered_frame,
)
from reedboard.link.frame import FrameDecoder
from reedboard.link.messages import Command, Hello, Resend, Resync, message_id, parse_command
from reedboard.link.wire_fields import ProtocolError

DEFAULT_HISTORY = 4096
# At most this much is resent for one `resend`: on a line that loses many frames, a host
# far behind would otherwise get the whole backlog again every few hundred milliseconds,
# more than a 115200 baud line carries. It asks again for the rest.
RESEND_BYTES = 4096
# An answer to a `resend` no longer than this (the frames of one gap, as a host that names
# `until` asks for) goes out COPIES times, a numbered frame SEND_COPIES times; longer ones
# once.
COPIES_UP_TO = 640
COPIES = 3
SEND_COPIES = 2
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

    def send(self, message: WireMessage) -> int:
        """Queue one numbered message; returns its sequence number."""
        self.seq += 1
        frame = numbered_frame(message, self.seq)
        self._history.append((self.seq, frame))
        self._outbox += frame * _copies(frame)
        return self.seq

    def reply(self, command: Command, message: Reply) -> int:
        """Queue the answer to `command` (`ack`, `error`, `state`, ...), made whole by
        whoever carried the command out (its id, a resync's flag), and remember it for a
        host that asks again."""
        seq = self.send(message)
        if isinstance(message, BoardHello):
            # The reply a (re)connecting host waits on before anything else: it goes out
            # a few times, so that one noisy moment does not cost the host a round trip.
            frame = self._history[-1][1]
            self._outbox += frame * (COPIES - _copies(frame))
        if command.id is not None:
            self._replies[command.id] = seq
            while len(self._replies) > _REMEMBERED_IDS:
                self._replies.popitem(last=False)
        return seq

    def alive(self) -> None:
        """A keep-alive naming the latest sequence number, so that a host that lost the
        last frames notices even when nothing else follows. It is not numbered itself."""
        self._outbox += Alive(self.seq, self.session).to_frame()

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
                self.send(_error_reply(error, message_id(message)))
                continue
            if isinstance(command, Hello):
                # A host starting a conversation numbers its commands afresh: an id that
                # another (earlier) host used is not a repeat of that host's command.
                self._replies.clear()
            if command.id is not None and command.id in self._replies:
                if not self._resend_one(self._replies[command.id]):
                    commands.append(command)  # the reply is gone: answer afresh
                continue
            if isinstance(command, Resend):
                if not self._resend_after(command.after, command.session, command.until):
                    # Too far back to resend: a host that fetches the game page by page
                    # asks for a short `hello` to start again from (a `state` of a long
                    # game is a frame of kilobytes, which a noisy line rarely carries).
                    commands.append(Resync(command.resync, command.id))
                continue
            commands.append(command)
        return commands

    def _resend_after(self, after: int, session: str, until: int | None = None) -> bool:
        """Queue the frames after `after` (and before `until`, when given) again; False
        when the history does not reach back that far."""
        if session != self.session or after > self.seq:
            return False
        if after == self.seq:
            return True  # nothing was missed
        if not self._history or self._history[0][0] > after + 1:
            return False
        first = after + 1 - self._history[0][0]  # the history's numbers have no holes
        last = (
            len(self._history)
            if until is None
            else min(len(self._history), first + until - after - 1)
        )
        frames: list[bytes] = []
        budget = RESEND_BYTES
        for index in range(first, last):
            frame = self._history[index][1]
            frames.append(frame)
            budget -= len(frame)
            if budget <= 0:
                break
        answer = b"".join(frames)
        self._outbox += answer * (COPIES if len(answer) <= COPIES_UP_TO else 1)
        return True

    def _resend_one(self, seq: int) -> bool:
        for number, frame in self._history:
            if number == seq:
                self._outbox += frame * _copies(frame)
                return True
        return False


def _error_reply(error: ProtocolError, command_id: int | None) -> ErrorReply:
    """The `error` reply to a command the board could not read."""
    return ErrorReply(error.code, str(error), error.command, error.field, command_id)


def _copies(frame: bytes) -> int:
    """How many times a numbered frame goes out: a short one twice (a repeat costs a host
    nothing, it drops numbers it has, and on a noisy line it doubles the chance that the
    frame arrives without a round trip), a long one (a `state`) once."""
    return SEND_COPIES if len(frame) <= COPIES_UP_TO else 1
