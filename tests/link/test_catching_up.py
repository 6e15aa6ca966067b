"""Catching up on a bad line, in memory with a virtual clock: one request per gap in
flight, only the gap's frames resent and several times over, a reply taken ahead of a
gap, a short `hello` instead of a long `state` when the board cannot resend, and the
handshake of a reconnection that does not wait for the backlog."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from reedboard.link.board import COPIES, BoardEndpoint
from reedboard.link.board_messages import BoardHello, BoardMessage, EffectMessage
from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.host import (
    DEFAULT_POLL_MS,
    DEFAULT_RETRY_MS,
    FRAME_MS,
    MAX_FRAMES_PER_ANSWER,
    REQUEST_COPIES,
    HostEndpoint,
)
from reedboard.link.messages import Hello, Resync
from reedboard_host.connection import HANDSHAKE_NOISY_S, BoardConnection, HostError

from tests.link.raw import Raw, answer_hello, effect


def _frames(data: bytes) -> list[dict[str, Any]]:
    return FrameDecoder().feed(data)


def _followed(session: str = "s", last: int = 1) -> HostEndpoint:
    """A host that has followed session `session` up to number `last`."""
    host = HostEndpoint()
    host.receive_data(encode_frame({"type": "hello", "seq": last, "session": session}), 0)
    host.data_to_send()
    return host


def _effect(seq: int) -> bytes:
    touch = {"event": "touch", "t_ms": 0, "square": "e2", "piece": "P", "game": 1}
    return encode_frame({"type": "effect", "seq": seq, **touch})


def test_a_gap_is_asked_for_once_however_many_frames_come_beyond_it() -> None:
    host = _followed()
    for seq in range(3, 9):  # 2 was lost; six frames beyond it, in six reads
        host.receive_data(_effect(seq), now_ms=5)
        host.tick(5)
    requests = _frames(host.data_to_send())
    assert len(requests) == REQUEST_COPIES
    assert {(r["type"], r["after"], r["until"]) for r in requests} == {("resend", 1, 3)}
    again = DEFAULT_RETRY_MS + FRAME_MS  # one frame missing
    host.tick(5 + again - 1)
    assert host.data_to_send() == b""  # not again before the timer
    host.tick(5 + again)
    assert [r["after"] for r in _frames(host.data_to_send())] == [1] * REQUEST_COPIES


def test_a_long_gap_is_asked_for_again_only_once_its_answer_had_time_to_arrive() -> None:
    host = _followed()
    host.receive_data(_effect(200), now_ms=0)  # 2..199 missing: answers of ~4 KB each
    host.data_to_send()
    host.tick(DEFAULT_RETRY_MS + FRAME_MS)
    assert host.data_to_send() == b""
    host.tick(DEFAULT_RETRY_MS + FRAME_MS * MAX_FRAMES_PER_ANSWER)
    assert [r["until"] for r in _frames(host.data_to_send())] == [200] * REQUEST_COPIES


def test_filling_the_gap_delivers_the_run_held_beyond_it_in_order() -> None:
    host = _followed()
    for seq in (3, 4, 5):
        assert host.receive_data(_effect(seq), 0) == []
    delivered = host.receive_data(_effect(2), 10)
    assert [m.seq for m in delivered] == [2, 3, 4, 5] and not host.in_gap


def test_the_board_resends_only_the_gap_and_several_times_over() -> None:
    board = BoardEndpoint("s")
    for _ in range(10):
        board.send(effect(event="touch"))
    board.data_to_send()
    request = {"type": "resend", "after": 3, "until": 6, "session": "s"}
    assert board.receive_data(encode_frame(request)) == []
    assert [m["seq"] for m in _frames(board.data_to_send())] == [4, 5] * COPIES


def test_without_until_the_board_resends_everything_after() -> None:
    board = BoardEndpoint("s")
    for _ in range(5):
        board.send(effect(event="touch"))
    board.data_to_send()
    board.receive_data(encode_frame({"type": "resend", "after": 2, "session": "s"}))
    assert [m["seq"] for m in _frames(board.data_to_send())] == [3, 4, 5] * COPIES


def test_a_lost_last_frame_is_asked_for_before_the_next_alive() -> None:
    board, host = BoardEndpoint("s"), _followed(last=0)
    board.send(effect(event="move", uci="e2e4"))
    board.data_to_send()  # lost on the way: the board says nothing more for a while
    host.tick(DEFAULT_POLL_MS)
    assert board.receive_data(host.data_to_send()) == []
    delivered = host.receive_data(board.data_to_send(), DEFAULT_POLL_MS + 5)
    assert [m.seq for m in delivered] == [1]  # once, though it came three times


def test_a_poll_with_nothing_missed_gets_no_answer() -> None:
    board, host = BoardEndpoint("s"), _followed(last=0)
    board.send(effect(event="touch"))
    host.receive_data(board.data_to_send(), 0)
    host.tick(DEFAULT_POLL_MS)
    board.receive_data(host.data_to_send())
    assert board.data_to_send() == b""


def test_a_board_that_cannot_resend_answers_with_a_short_hello_when_asked_to() -> None:
    board = BoardEndpoint("s", history=4)
    for _ in range(10):
        board.send(effect(event="touch"))
    board.data_to_send()
    request = {"type": "resend", "after": 2, "session": "s", "resync": "hello"}
    [command] = board.receive_data(encode_frame(request))
    assert command == Resync("hello")
    board.reply(command, answer_hello(command, "s"))
    replies = _frames(board.data_to_send())
    assert [(r["type"], r["seq"], r["resync"]) for r in replies] == [("hello", 11, True)] * COPIES
    old = {"type": "resend", "after": 2, "session": "s"}
    [command] = board.receive_data(encode_frame(old))  # a host that did not say
    assert command == Resync("state")


def test_the_host_goes_on_from_a_resync_hello_and_delivers_what_it_held_beyond() -> None:
    host = _followed(last=1)
    host.receive_data(_effect(30), 0)  # beyond the gap: held
    hello = {"type": "hello", "seq": 29, "session": "s", "resync": True, "id": None}
    delivered = host.receive_data(encode_frame(hello), 5)
    assert [(type(m), m.seq) for m in delivered] == [(BoardHello, 29), (EffectMessage, 30)]
    assert not host.in_gap
    assert host.receive_data(encode_frame(hello), 6) == []  # its copies change nothing


def test_a_reply_to_the_hosts_hello_is_taken_ahead_of_the_gap_and_not_delivered() -> None:
    """A reconnection: the host had 1..5; the board's hello answer (20) comes before the
    frames the host missed during the cut, which are then asked for and delivered."""
    host = _followed(last=5)
    command_id = host.hello()
    host.data_to_send()
    answer = {"type": "hello", "seq": 20, "session": "s", "id": command_id, "protocol": 1}
    assert host.receive_data(encode_frame(answer), 0) == []
    assert host.replies[command_id].seq == 20
    [request, *_] = _frames(host.data_to_send() or _tick(host, DEFAULT_RETRY_MS))
    assert (request["after"], request["until"]) == (5, 20)
    missed = b"".join(_effect(seq) for seq in range(6, 20))
    delivered = host.receive_data(missed, 10)
    assert [m.seq for m in delivered] == list(range(6, 20))  # the hello is no news


def _tick(host: HostEndpoint, now_ms: int) -> bytes:
    host.tick(now_ms)
    return host.data_to_send()


def test_a_new_session_starts_afresh_and_forgets_what_was_held() -> None:
    host = _followed(session="old", last=1)
    host.receive_data(_effect(9), 0)
    delivered = host.receive_data(encode_frame({"type": "hello", "seq": 1, "session": "new"}), 5)
    assert [type(m) for m in delivered] == [BoardHello] and not host.in_gap
    assert [m.seq for m in host.receive_data(_effect(2), 6)] == [2]


# ----- the pair over a bad line, with a board that keeps little history -----


def _damaging_line(rng: random.Random, corrupt: float, drop: float) -> Callable[[bytes], bytes]:
    def line(data: bytes) -> bytes:
        out = bytearray()
        for byte in data:
            if rng.random() < drop:
                continue
            if rng.random() < corrupt:
                byte ^= 1 << rng.randrange(8)
            out.append(byte)
        return bytes(out)

    return line


@pytest.mark.parametrize("seed", range(4))
def test_every_effect_arrives_once_in_order_or_is_covered_by_a_resync(seed: int) -> None:
    """1 % of the bytes corrupted and 0.2 % dropped, both ways, and a board that keeps
    only 16 messages: the host sees every effect once, in order, except where a resync
    hello says the board could no longer resend (the host then fetches the game)."""
    rng = random.Random(seed)
    line = _damaging_line(rng, 0.01, 0.002)
    board, host = BoardEndpoint("s", history=16), HostEndpoint()
    delivered: list[BoardMessage] = []
    host.hello()
    count = 300
    for now in range(0, 120_000, 5):
        for command in board.receive_data(line(host.data_to_send())):
            if isinstance(command, Hello):
                board.reply(command, answer_hello(command, "s"))
        if host.session is not None and board.seq < count and now % 25 == 0:
            board.send(effect(event="touch", n=board.seq))
        if now % 1000 == 0:
            board.alive()
        delivered += host.receive_data(line(board.data_to_send()), now)
        host.tick(now)
        if host.session is None and now % 100 == 0:
            host.hello()
        if board.seq >= count and host.last_seq == board.seq and not host.in_gap:
            break
    seqs = [m.seq for m in delivered]
    assert len(seqs) == len(set(seqs)) and seqs == sorted(seqs)  # none twice, in order
    assert seqs[-1] == board.seq  # caught up with the last
    for before, after in itertools.pairwise(seqs):
        if after != before + 1:  # a hole only where the board said it could not resend
            resync = delivered[seqs.index(after)]
            assert isinstance(resync, BoardHello) and resync.resync


# ----- the handshake, through the host's real connection code -----


class BoardOnAWire:
    """A board's endpoint behind a port-like object, with a virtual clock that moves on
    as the host waits on `read`. `deaf` swallows what the host writes."""

    def __init__(self, clock: list[float], *, first_seq: int = 0, deaf: bool = False) -> None:
        self.clock = clock
        self.board = BoardEndpoint("s")
        self.board.seq = first_seq
        self.deaf = deaf
        self.pending = b""

    def write(self, data: bytes) -> None:
        if self.deaf:
            return
        for command in self.board.receive_data(data):
            if isinstance(command, Hello):
                self.board.reply(command, answer_hello(command, "s"))
        self.pending += self.board.data_to_send()

    def read(self, wait_s: float = 0.0) -> bytes:
        self.clock[0] += max(wait_s, 0.001)
        data, self.pending = self.pending, b""
        return data

    def close(self) -> None:
        pass


class _ListClock:
    """The host's clock, read from the wire's: waiting is the wire's to do."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock

    def monotonic(self) -> float:
        return self.clock[0]

    def sleep(self, seconds: float) -> None:
        self.clock[0] += seconds


def _connection(port: BoardOnAWire, clock: list[float]) -> BoardConnection:
    connection = BoardConnection("wire", clock=_ListClock(clock))
    connection._port = port
    return connection


def test_a_reconnection_shakes_hands_on_the_reply_though_frames_were_missed() -> None:
    clock = [0.0]
    connection = _connection(BoardOnAWire(clock), clock)
    assert connection.handshake().session == "s"
    connection.endpoint.receive_data(b"", 0)
    # The board went on to 40 while the cable was out; its answer comes after.
    connection._port = BoardOnAWire(clock, first_seq=40)
    started = clock[0]
    hello = connection.handshake()
    assert hello.seq > 40
    assert clock[0] - started < 1.0  # one round, not a wait for 40 frames (virtual time)
    assert connection.endpoint.in_gap  # and the missed frames are asked for next


def test_a_silent_port_after_an_earlier_connection_is_given_up_on_time() -> None:
    """Good frames of an earlier connection do not make a dead port a noisy board."""
    clock = [0.0]
    connection = _connection(BoardOnAWire(clock), clock)
    connection.handshake()
    connection._port = BoardOnAWire(clock, deaf=True)
    started = clock[0]
    with pytest.raises(HostError, match="no reedboard answers"):
        connection.handshake(timeout_s=1.0)
    assert clock[0] - started < HANDSHAKE_NOISY_S / 2  # virtual time


def test_short_frames_go_out_twice_and_a_long_state_once() -> None:
    board = BoardEndpoint("s")
    board.send(effect(event="touch"))
    board.send(Raw("state", {"moves": ["e2e4"] * 300}))
    assert [m["seq"] for m in _frames(board.data_to_send())] == [1, 1, 2]
