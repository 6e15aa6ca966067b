"""Light publishers for `bench/relay.py`: a thousand boards' MQTT connections in one
process, each replaying a board's stream recorded once from a whole fake board, at a
real board's pace, and answering the relay's requests from the recording.

On a site, each board is a device of its own; here they share the bench's two cores
with the relay, so what they cost is taken from the relay. They used to be a thousand
paho clients, every frame decoded and encoded again on its way out; they are now one
selector loop writing MQTT 3.1.1 packets built from bytes prepared before the run: the
broker, and so the relay, gets the same packets as before (the same client ids,
sessions kept, last wills, subscriptions, QoS, retained status, at most 20 QoS 1
messages in flight per connection as paho allows), for a fraction of the CPU. The
connections are made, the packets read and the publishes acknowledged by code of its
own rather than paho's, which would spend more Python on each packet than the relay
that the bench measures; only the relay's rare requests are decoded, as a board must.
"""

from __future__ import annotations

import collections
import contextlib
import heapq
import json
import random
import selectors
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard.link.frame import decode_line, encode_frame

KEEPALIVE_S = 30  # as the boards' paho clients asked of the broker
INFLIGHT = 20  # paho's `max_inflight_messages`: beyond it a board's QoS 1 frames wait
RECV = 65536


@dataclass
class Recording:
    """One whole board's stream as the broker carried it: each frame and when (seconds
    after the first), and the moves it played."""

    frames: list[tuple[float, bytes]]
    seqs: list[int]  # each frame's seq (0 for an `alive`)
    kinds: list[str]  # each frame's type
    moves: list[int]  # the indexes of the frames that are moves
    sans: list[str]


def _length(n: int) -> bytes:
    """MQTT's remaining length: seven bits a byte, the high bit saying more follow."""
    out = bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _text(value: bytes) -> bytes:
    return len(value).to_bytes(2, "big") + value


def connect_packet(client_id: bytes, will_topic: bytes, will: bytes) -> bytes:
    """CONNECT as paho writes it for a board: MQTT 3.1.1, the session kept (no clean
    session), a retained QoS 1 last will, no user name."""
    flags = 0x20 | 0x08 | 0x04  # will retained, will QoS 1, will
    body = _text(b"MQTT") + bytes([4, flags]) + KEEPALIVE_S.to_bytes(2, "big")
    body += _text(client_id) + _text(will_topic) + _text(will)
    return b"\x10" + _length(len(body)) + body


def publish_packet(topic: bytes, payload: bytes, qos: int, pid: int, retain: bool) -> bytes:
    head = 0x30 | (qos << 1) | int(retain)
    ident = pid.to_bytes(2, "big") if qos else b""
    size = 2 + len(topic) + len(ident) + len(payload)
    return b"".join((bytes([head]), _length(size), _text(topic), ident, payload))


def subscribe_packet(topic: bytes, pid: int) -> bytes:
    body = pid.to_bytes(2, "big") + _text(topic) + b"\x01"
    return b"\x82" + _length(len(body)) + body


PINGREQ = b"\xc0\x00"
DISCONNECT = b"\xe0\x00"


@dataclass(eq=False)
class Connection:
    """One board's connection: its socket, what is still to write, its QoS 1 messages in
    flight (kept to send again, DUP set, on a new connection of the same session) and
    those waiting for room."""

    n: int
    stream: bytes  # the stream topic
    sock: socket.socket | None = None
    out: bytearray = field(default_factory=bytearray)
    inbox: bytearray = field(default_factory=bytearray)
    inflight: dict[int, bytes] = field(default_factory=dict)
    waiting: collections.deque[tuple[bytes, bytes, bool]] = field(default_factory=collections.deque)
    next_pid: int = 0
    last_out: float = 0.0
    published: int = 0  # frames of its recording sent


class LightBoards:
    """The publishing process's loop (`replay`)."""

    def __init__(self, host: str, port: int, recordings: list[Recording], ids: list[str]):
        self.address = (host, port)
        self.recordings = recordings
        self.ids = ids
        self.selector = selectors.DefaultSelector()  # epoll: select() stops at 1023
        self.asked: dict[str, int] = {}
        self.drops = 0
        self.refused = 0  # CONNACKs refusing a connection
        self.times: dict[str, list[float]] = {b: [] for b in ids}
        self.boards = [Connection(n, f"reedboard/boards/{b}/stream".encode()) for n, b in
                       enumerate(ids)]  # fmt: skip
        # Each recording's frames, as most boards send them; a `hello` names its board
        # and is written for each board once, when first sent (`_own`).
        self._own: dict[tuple[int, int], bytes] = {}
        self._named = [
            {i for i, (_t, f) in enumerate(r.frames) if (decode_line(f) or {}).get("board")}
            for r in recordings
        ]
        self._buffer = bytearray(RECV)
        self._view = memoryview(self._buffer)

    # ----- connections -----

    def open_all(self) -> None:
        for board in self.boards:
            self._open(board, first=True)

    def _open(self, board: Connection, first: bool) -> None:
        name = self.ids[board.n]
        status = f"reedboard/boards/{name}/status".encode()
        sock = socket.create_connection(self.address)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as paho sets it
        board.sock = sock
        board.out.clear()
        board.inbox.clear()
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, board)
        self._write(board, connect_packet(f"reedboard-board-{name}".encode(), status, b"offline"))
        if first:
            self._write(board, subscribe_packet(f"reedboard/boards/{name}/request".encode(),
                                                self._pid(board)))  # fmt: skip
            self._publish(board, status, b"online", 1, retain=True)
        else:  # the session kept: what the broker did not acknowledge, again
            for packet in board.inflight.values():
                self._write(board, bytes([packet[0] | 0x08]) + packet[1:])

    def _dropped(self, board: Connection) -> None:
        self.drops += 1
        if board.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(board.sock)
            board.sock.close()
            board.sock = None
        with contextlib.suppress(OSError):
            self._open(board, first=False)

    def close_all(self) -> None:
        for board in self.boards:
            if board.sock is not None:
                self._write(board, DISCONNECT)
                with contextlib.suppress(OSError):
                    board.sock.setblocking(True)
                    board.sock.sendall(bytes(board.out))
                board.sock.close()

    # ----- writing -----

    def _pid(self, board: Connection) -> int:
        board.next_pid = board.next_pid % 65535 + 1
        return board.next_pid

    def _publish(self, board: Connection, topic: bytes, payload: bytes, qos: int,
                 retain: bool = False) -> None:  # fmt: skip
        if qos == 0:
            self._write(board, publish_packet(topic, payload, 0, 0, retain))
        elif len(board.inflight) >= INFLIGHT:
            board.waiting.append((topic, payload, retain))
        else:
            pid = self._pid(board)
            packet = publish_packet(topic, payload, 1, pid, retain)
            board.inflight[pid] = packet
            self._write(board, packet)

    def _write(self, board: Connection, data: bytes) -> None:
        board.last_out = time.monotonic()
        sock = board.sock
        if sock is None:
            return
        if not board.out:
            try:
                sent = sock.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:
                self._dropped(board)
                return
            if sent == len(data):
                return
            data = data[sent:]
            self.selector.modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, board)
        board.out += data

    def _flush(self, board: Connection) -> None:
        sock = board.sock
        if sock is None:
            return
        try:
            sent = sock.send(board.out)
        except BlockingIOError:
            return
        except OSError:
            self._dropped(board)
            return
        del board.out[:sent]
        if not board.out:
            self.selector.modify(sock, selectors.EVENT_READ, board)

    # ----- reading -----

    def _read(self, board: Connection) -> None:
        sock = board.sock
        if sock is None:
            return
        try:
            got = sock.recv_into(self._buffer)
        except BlockingIOError:
            return
        except OSError:
            got = 0
        if not got:
            self._dropped(board)
            return
        board.inbox += self._view[:got]
        self._packets(board)

    def _packets(self, board: Connection) -> None:
        inbox = board.inbox
        while len(inbox) >= 2:
            size, shift, at = 0, 0, 1
            while True:
                if at >= len(inbox):
                    return
                digit = inbox[at]
                size |= (digit & 0x7F) << shift
                shift += 7
                at += 1
                if not digit & 0x80:
                    break
            if len(inbox) < at + size:
                return
            kind, body = inbox[0], bytes(inbox[at : at + size])
            del inbox[: at + size]
            self._packet(board, kind, body)

    def _packet(self, board: Connection, kind: int, body: bytes) -> None:
        command = kind >> 4
        if command == 4:  # PUBACK: room for a waiting message
            board.inflight.pop(int.from_bytes(body[:2], "big"), None)
            while board.waiting and len(board.inflight) < INFLIGHT:
                self._publish(board, *board.waiting.popleft())
        elif command == 2 and len(body) >= 2 and body[1]:  # CONNACK refusing
            self.refused += 1
        elif command == 3:  # PUBLISH: a request of the relay's
            qos = (kind >> 1) & 3
            at = 2 + int.from_bytes(body[:2], "big")
            if qos:
                self._write(board, b"\x40\x02" + body[at : at + 2])
                at += 2
            self._answer(board, body[at:])

    def _answer(self, board: Connection, request: bytes) -> None:
        """As a board would: a `resend` with the frames asked for, a `hello` or a `state`
        with the recorded one (a real board writes a new one), if sent already."""
        wire = decode_line(request) or {}
        kind = str(wire.get("type", "?"))
        self.asked[kind] = self.asked.get(kind, 0) + 1
        r = board.n % len(self.recordings)
        recording = self.recordings[r]
        if kind == "resend":
            after, until = int(wire.get("after", 0)), int(wire.get("until") or 1 << 30)
            wanted = [i for i in range(board.published) if after < recording.seqs[i] < until]
        else:
            wanted = [i for i in range(board.published) if recording.kinds[i] == kind][:1]
        for i in wanted:
            self._publish(board, board.stream, self._frame(board.n, i), 1)

    def _frame(self, n: int, i: int) -> bytes:
        """Frame i of board n's recording as board n's (a `hello` names its board, and
        the relay refuses a frame naming another board than its topic's)."""
        r = n % len(self.recordings)
        frame = self.recordings[r].frames[i][1]
        if i not in self._named[r]:
            return frame
        own = self._own.get((n, i))
        if own is None:
            wire = decode_line(frame) or {}
            own = encode_frame(wire | {"board": self.ids[n]})
            own = own if frame.endswith(b"\n") else own.rstrip(b"\n")
            self._own[(n, i)] = own
        return own

    # ----- the loop -----

    def run(self, pace: float, stop: Any) -> None:
        rng = random.Random(1)
        moves = [set(r.moves) for r in self.recordings]
        began = time.monotonic() + 1.0
        due = [(began + rng.uniform(0, 5.0), n, 0) for n in range(len(self.ids))]
        heapq.heapify(due)
        last_misc = 0.0
        select = self.selector.select
        while not stop.is_set():
            now = time.monotonic()
            while due and due[0][0] <= now:
                at, n, i = heapq.heappop(due)
                board = self.boards[n]
                r = n % len(self.recordings)
                recording = self.recordings[r]
                qos = 0 if recording.seqs[i] == 0 else 1
                self._publish(board, board.stream, self._frame(n, i), qos)
                board.published = i + 1
                if i in moves[r]:
                    self.times[self.ids[n]].append(time.monotonic())
                if i + 1 < len(recording.frames):
                    step = (recording.frames[i + 1][0] - recording.frames[i][0]) / pace
                    heapq.heappush(due, (at + step, n, i + 1))
            wait = min(0.01, max(0.0, due[0][0] - time.monotonic())) if due else 0.01
            for key, events in select(wait):
                if events & selectors.EVENT_WRITE:
                    self._flush(key.data)
                if events & selectors.EVENT_READ:
                    self._read(key.data)
            if now - last_misc > 1.0:
                last_misc = now
                for board in self.boards:
                    if board.sock is None:
                        self._dropped(board)
                    elif now - board.last_out >= KEEPALIVE_S:
                        self._write(board, PINGREQ)


def replay(
    url: str, recordings: list[Recording], ids: list[str], pace: float, out: Path, stop: Any
) -> None:
    """The publishing process: one connection (session, last will) per board, all turned
    by one loop, each board replaying a recording at `pace` times the recorded speed;
    answers the relay's `resend`, `hello` and `state` from the recording. Writes when each
    move went out, and what the relay asked, to `out`."""
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    boards = LightBoards(host, int(port), recordings, ids)
    boards.open_all()
    try:
        boards.run(pace, stop)
    finally:
        boards.close_all()
    out.write_text(json.dumps({"times": boards.times, "asked": boards.asked,
                               "drops": boards.drops, "refused": boards.refused}))  # fmt: skip
