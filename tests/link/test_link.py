"""The link's codecs and both endpoints as a pair in memory, with and without faults."""

from __future__ import annotations

import random

import pytest
from reedboard.link.acks import MoveNamed
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import Ack, BoardHello, MovesPage
from reedboard.link.frame import FrameDecoder, decode_line, encode_frame
from reedboard.link.host import HostEndpoint
from reedboard.link.messages import (
    AskState,
    Hello,
    Mark,
    ProtocolError,
    SetBrightness,
    SetMode,
    parse_command,
)

from tests.link.raw import answer_hello, effect


def test_a_frame_round_trips_and_is_one_ascii_line() -> None:
    message = {"type": "effect", "seq": 7, "event": "move", "san": "Nf3", "note": "é\n*"}
    frame = encode_frame(message)
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1 and frame.isascii()
    assert FrameDecoder().feed(frame) == [message]


@pytest.mark.parametrize(
    "line",
    [b"", b"hello", b'{"type":"x"}', b'{"type":"x"}*00000000', b"[1]*" + b"0" * 8, b"\xff\xfe*12"],
)
def test_bad_lines_are_not_messages(line: bytes) -> None:
    assert decode_line(line) is None


def test_bad_frames_are_counted_and_dropped_and_good_ones_survive_around_them() -> None:
    decoder = FrameDecoder(max_frame=200)
    good = encode_frame({"type": "ack", "seq": 1})
    corrupted = bytearray(encode_frame({"type": "ack", "seq": 2}))
    corrupted[5] ^= 0x20
    corrupted[9] ^= 0x01  # two flipped bits: beyond mending
    data = good + bytes(corrupted) + b"x" * 500 + b"\n" + good + b"\x00\xff garbage\n"
    out = []
    for i in range(0, len(data), 7):  # arriving in small pieces
        out += decoder.feed(data[i : i + 7])
    assert out == [{"type": "ack", "seq": 1}] * 2
    assert decoder.bad_frames == 3


@pytest.mark.parametrize("where", [0, 7, 23, -8, -2])
@pytest.mark.parametrize("bit", [0, 3, 7])
def test_one_flipped_bit_is_mended_anywhere_in_the_frame(where: int, bit: int) -> None:
    """In the JSON or in the CRC: the frame still arrives, counted as mended."""
    message = {"type": "effect", "seq": 12, "event": "move", "uci": "e2e4"}
    damaged = bytearray(encode_frame(message))
    damaged[where - 1 if where < 0 else where] ^= 1 << bit  # never the newline
    decoder = FrameDecoder()
    assert decoder.feed(bytes(damaged)) == [message]
    assert decoder.mended == 1 and decoder.bad_frames == 0


def test_a_frame_passed_on_is_the_one_that_came_and_a_mended_one_is_whole() -> None:
    """What only passes frames on (the publishing bridge) sends them as they came, the
    hex digits' case included; a mended frame goes on mended, not as it was damaged."""
    message = {"type": "effect", "seq": 12, "event": "move", "uci": "e2e4"}
    frame = encode_frame(message)
    upper = frame[:-9] + frame[-9:-1].upper() + b"\n"  # a CRC in capitals is good too
    damaged = bytearray(frame)
    damaged[7] ^= 1
    decoder = FrameDecoder()
    passed = decoder.feed_frames(upper + bytes(damaged))
    assert passed == [(upper[:-1], message), (frame[:-1], message)]
    assert decoder.mended == 1


def test_two_flipped_bits_are_never_mended_into_another_frame() -> None:
    rng = random.Random(4)
    frame = encode_frame({"type": "effect", "seq": 12, "event": "move", "uci": "e2e4"})
    body = len(frame) - 10  # the JSON, before `*`, the CRC and the newline
    for _ in range(3000):
        damaged = bytearray(frame)
        first, second = rng.sample(range(body), 2)
        damaged[first] ^= 1 << rng.randrange(8)
        damaged[second] ^= 1 << rng.randrange(8)
        assert decode_line(bytes(damaged[:-1])) is None


def test_commands_are_checked() -> None:
    assert parse_command({"type": "mode", "mode": "strict", "id": 3}) == SetMode("strict", 3)
    assert parse_command({"type": "mark"}) == Mark((), ())
    assert parse_command({"type": "brightness", "percent": 0}) == SetBrightness(0)
    for bad in (
        {"type": "fly"},
        {"type": "mode", "mode": "hard"},
        {"type": "new_game", "variant": "chess960", "number": 960},
        {"type": "promotion", "piece": "k"},
        {"type": "settings", "settle_ms": True},
        {"type": "resend", "after": -1},
        {"type": "mark", "squares": ["e9"]},
        {"type": "mark", "squares": "e4"},
        {"type": "brightness", "percent": 101},
        {"type": "brightness"},
    ):
        with pytest.raises(ProtocolError):
            parse_command(bad)


def test_unknown_and_malformed_messages_get_an_error_reply() -> None:
    board = BoardEndpoint("s")
    commands = board.receive_data(
        encode_frame({"type": "fly", "id": 1}) + encode_frame({"type": "mode", "id": 2}) + b"junk\n"
    )
    assert commands == []
    replies = {r["seq"]: r for r in FrameDecoder().feed(board.data_to_send())}.values()
    assert [(r["type"], r["id"], r["code"]) for r in replies] == [
        ("error", 1, "unknown_type"),
        ("error", 2, "bad_argument"),
    ]
    assert board.bad_frames == 1


def test_a_retried_command_is_carried_out_once_and_answered_again() -> None:
    board = BoardEndpoint("s")
    frame = encode_frame({"type": "takeback", "id": 9})
    [command] = board.receive_data(frame)
    board.reply(command, Ack(MoveNamed("e2e4"), command.id))
    first = board.data_to_send()
    assert board.receive_data(frame) == []
    assert board.data_to_send() == first


def _exchange(loss: float, corrupt: float, seed: int, count: int = 400) -> tuple[list[int], int]:
    """The board sends `count` effects over a faulty line; the host asks for what it
    misses. Returns the sequence numbers the host delivered, and its bad frames."""
    rng = random.Random(seed)

    def line(data: bytes) -> bytes:
        out = bytearray()
        for i in range(0, len(data), 16):  # the line loses and damages whole chunks
            chunk = bytearray(data[i : i + 16])
            if rng.random() < loss:
                continue
            for j in range(len(chunk)):
                if rng.random() < corrupt:
                    chunk[j] ^= 1 << rng.randrange(8)
            out += chunk
        return bytes(out)

    board, host = BoardEndpoint("s1"), HostEndpoint()
    delivered: list[int] = []
    host.hello()
    now = 0
    while (not delivered or delivered[-1] < count + 1 or host.in_gap) and now < 200_000:
        now += 10
        for command in board.receive_data(line(host.data_to_send())):
            if isinstance(command, Hello):
                board.reply(command, answer_hello(command, board.session))
        if host.session is not None and board.seq < count + 1 and now % 30 == 0:
            board.send(effect(event="move", n=board.seq))
        if now % 500 == 0:
            board.alive()
        for message in host.receive_data(line(board.data_to_send()), now):
            if not isinstance(message, BoardHello) or not delivered:
                delivered.append(message.seq)
        host.tick(now)
        if host.session is None and now % 300 == 0:
            host.hello()
    return delivered, host.bad_frames


def test_a_clean_line_delivers_everything_in_order() -> None:
    delivered, bad = _exchange(0.0, 0.0, seed=1)
    assert delivered == sorted(set(delivered)) and bad == 0
    assert delivered[-1] == 401


@pytest.mark.parametrize("seed", range(5))
def test_lost_and_corrupted_frames_are_asked_for_again_and_arrive_once_in_order(
    seed: int,
) -> None:
    delivered, bad = _exchange(0.02, 0.01, seed)
    first = delivered[0]
    assert delivered == list(range(first, first + len(delivered)))
    assert delivered[-1] == 401 and bad > 0


def test_a_new_hosts_hello_forgets_the_ids_an_earlier_host_used() -> None:
    board = BoardEndpoint("s")
    [command] = board.receive_data(encode_frame({"type": "takeback", "id": 2}))
    board.reply(command, Ack(MoveNamed("e2e4"), command.id))
    board.data_to_send()
    board.receive_data(encode_frame({"type": "hello", "id": 1, "protocol": 1}))
    [again] = board.receive_data(encode_frame({"type": "state", "id": 2}))
    assert again == AskState(2)  # carried out, not taken for the takeback's repeat


def test_a_reply_is_handed_over_ahead_of_a_gap() -> None:
    board, host = BoardEndpoint("s"), HostEndpoint()
    host.receive_data(encode_frame({"type": "hello", "seq": 1, "session": "s"}), 0)
    board.seq = 1
    board.send(effect(event="touch"))  # seq 2: lost on the way
    board.data_to_send()
    [command] = board.receive_data(encode_frame({"type": "moves", "id": 5}))
    board.reply(command, MovesPage(0, (), 0, "0" * 8, id=command.id))
    assert host.receive_data(board.data_to_send(), 10) == []  # held behind the gap
    assert isinstance(host.replies[5], MovesPage)


def test_one_resend_is_bounded() -> None:
    from reedboard.link.board import RESEND_BYTES

    board = BoardEndpoint("s")
    for _ in range(200):
        board.send(effect(event="move", fen="x" * 60))
    board.data_to_send()
    board.receive_data(encode_frame({"type": "resend", "after": 0, "session": "s"}))
    resent = board.data_to_send()
    assert RESEND_BYTES <= len(resent) < RESEND_BYTES + 200
    assert FrameDecoder().feed(resent)[0]["seq"] == 1
