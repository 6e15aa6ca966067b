"""The bytes of every kind of command and reply, with fields given and left out, and of
the `error` that answers each kind of wrong command, as the link wrote them before its
codec was derived from the types (`recorded/*.frames`, written by that code): the codec
writes the same frames, and reads each back as the value it was written from."""

from __future__ import annotations

from pathlib import Path

from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import read_board_message
from reedboard.link.frame import decode_line, encode_frame
from reedboard.link.messages import parse_command

from tests.link.wire_samples import COMMANDS, READ, REFUSED, REPLIES

RECORDED = Path(__file__).parent / "recorded"


def _recorded(name: str) -> list[bytes]:
    return (RECORDED / name).read_bytes().splitlines(keepends=True)


def test_every_command_is_written_as_before_and_read_back() -> None:
    assert [encode_frame(command.to_wire()) for command in COMMANDS] == _recorded("commands.frames")
    for line, command in zip(_recorded("commands.frames"), COMMANDS, strict=True):
        wire = decode_line(line.rstrip(b"\n"))
        assert wire is not None
        assert parse_command(wire) == command


def test_what_a_host_may_leave_out_or_repeat_reads_as_before() -> None:
    written = [encode_frame(parse_command(message).to_wire()) for message in READ]
    assert written == _recorded("read.frames")


def test_every_reply_is_written_as_before_and_read_back() -> None:
    assert [encode_frame(reply.to_wire()) for reply in REPLIES] == _recorded("replies.frames")
    for line, reply in zip(_recorded("replies.frames"), REPLIES, strict=True):
        wire = decode_line(line.rstrip(b"\n"))
        assert wire is not None
        assert read_board_message(wire) == (reply, None)


def test_every_wrong_command_is_answered_in_the_same_words() -> None:
    board = BoardEndpoint("s1")
    answers: list[bytes] = []
    for message in REFUSED:
        assert board.receive_data(encode_frame(message)) == []
        lines = {line for line in board.data_to_send().split(b"\n") if line}
        assert len(lines) == 1, message
        answers.append(lines.pop() + b"\n")
    assert answers == _recorded("refusals.frames")
