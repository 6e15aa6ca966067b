"""What the codec gives those who only pass a board's frames on or show its messages: a
bridge's frames go as they came, a `hello` written anew under the bridge's name with every
other field kept in its place (a newer board's too); a reply is shown as its type and its
fields as the link writes them, without the endpoint's number."""

from __future__ import annotations

from pathlib import Path

from reedboard.events import MoveMade
from reedboard.link.acks import ModeSet
from reedboard.link.board_messages import (
    Ack,
    EffectMessage,
    ErrorReply,
    named_frame,
    reply_fields,
    shown_json,
)
from reedboard.link.frame import FrameDecoder, decode_line, encode_frame

RECORDED = Path(__file__).parent / "recorded"
F = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def passed(data: bytes, board: str) -> list[bytes]:
    return [named_frame(frame, wire, board) for frame, wire in FrameDecoder().feed_frames(data)]


def test_a_frame_other_than_a_hello_goes_byte_for_byte_as_it_came() -> None:
    data = (RECORDED / "effects.frames").read_bytes() + (RECORDED / "replies.frames").read_bytes()
    lines = [line for line in data.split(b"\n") if line and not line.startswith(b'{"type":"hello"')]
    # Upper-case CRC digits: a frame is not written anew, even where JSON would match.
    shouting = lines[0].rpartition(b"*")[0] + b"*" + lines[0].rpartition(b"*")[2].upper()
    sent = b"\n".join([*lines, shouting]) + b"\n"
    assert passed(sent, "b7") == [*lines, shouting]


def test_a_hello_names_the_bridge_board_in_its_place_or_last() -> None:
    named = encode_frame({"type": "hello", "seq": 2, "board": "desk", "session": "s"})
    unnamed = encode_frame({"type": "hello", "seq": 3, "session": "s", "newer": [1, {"x": 2}]})
    lines = passed(named + unnamed, "b7")
    assert [line.rpartition(b"*")[0] for line in lines] == [
        b'{"type":"hello","seq":2,"board":"b7","session":"s"}',
        b'{"type":"hello","seq":3,"session":"s","newer":[1,{"x":2}],"board":"b7"}',
    ]
    assert all(decode_line(line) is not None for line in lines)  # each CRC written anew


def test_a_reply_is_shown_as_its_type_and_fields_without_its_number() -> None:
    ack = Ack(ModeSet("strict"), id=7, seq=12)
    assert reply_fields(ack) == ("ack", {"mode": "strict"})
    error = ErrorReply("refused", "no game to take back", id=3, seq=4)
    assert reply_fields(error) == ("error", {"code": "refused", "message": "no game to take back"})


def test_an_effect_is_shown_as_the_link_writes_it() -> None:
    message = EffectMessage(MoveMade(10, "e2e4", "e4", F, 1), 3, seq=5)
    shown = shown_json(message)
    assert encode_frame(shown) == encode_frame(message.to_wire())
    assert list(shown)[:4] == ["type", "seq", "event", "t_ms"]
