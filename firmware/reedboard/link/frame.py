"""Framing: one message per line, `<JSON>*<CRC-32 as 8 hex digits>\n`.

Why this shape: a line of JSON can be read and typed by hand on a serial console, a
client needs nothing beyond JSON and CRC-32 (in every standard library), and a newline
resynchronises the stream after any corruption, so one bad byte costs one frame. The JSON
is ASCII (non-ASCII characters are escaped), so it never contains the newline or `*`
outside of strings; the CRC is taken after the last `*`.

A line whose CRC does not match is mended when one flipped bit explains it (the usual
damage on a serial line): CRC-32 keeps a Hamming distance of at least 5 up to 2974 bits,
so within `MEND_UP_TO` bytes a single flipped bit is found by its syndrome, and a line
with two or three flipped bits is never mistaken for one with a single flip. On a line
that damages a byte in a hundred this nearly triples the share of 180-byte frames that
get through. Nothing changes on the wire.

Pure: `encode_frame` and `FrameDecoder.feed` do no I/O.
"""

from __future__ import annotations

import functools
import json
import zlib
from typing import Any, TypeAlias

# A `state` message of a very long game stays well below this; anything longer is noise
# (a lost newline joining frames, or a peer speaking something else).
MAX_FRAME = 65536
# Frames up to this many bytes of JSON (2048 bits, with the CRC's 32 well below 2974) are
# mended when one bit flipped on the way.
MEND_UP_TO = 256

# One message as JSON has it: an object with a string `type`. The link's one untyped
# value, kept inside its codec (this module, `wire_plan`, `command_codec`, `reply_codec`,
# `event_codec`, `messages`, `acks`, `board_messages`), which makes the typed messages
# from it and writes them to it. Everything else holds typed messages, or frames as
# bytes (`board_messages.named_frame` for a bridge); a message shown as the link writes
# it is a `dict[str, object]` (`board_messages.shown_json`); the relay keeps a message
# as its JSON text (`board_messages.message_text`) (tests/link/test_wire_in_codec.py).
Wire: TypeAlias = dict[str, Any]


def crc32_hex(payload: bytes) -> str:
    return f"{zlib.crc32(payload) & 0xFFFFFFFF:08x}"


def encode_frame(message: Wire) -> bytes:
    """One message as its frame, newline included."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return payload + b"*" + crc32_hex(payload).encode("ascii") + b"\n"


def decode_line(line: bytes) -> Wire | None:
    """The message in one line (without its newline), or None when the line is not a
    good frame: no CRC, a wrong CRC that one flipped bit does not explain, not JSON, not
    an object with a string `type`."""
    return _decode(line)[0]


def _decode(line: bytes) -> tuple[Wire | None, bool]:
    """The message and whether it had to be mended."""
    payload, star, field = line.rstrip(b"\r").rpartition(b"*")
    if not star or len(field) != 8:
        return None, False
    sent = field.lower()
    actual = crc32_hex(payload).encode("ascii")
    if actual == sent:
        return _message(payload), False
    if len(payload) > MEND_UP_TO:
        return None, False
    if sum(a != b for a, b in zip(actual, sent, strict=True)) == 1:
        # One character of the CRC itself changed: the payload came through.
        a, b = next((a, b) for a, b in zip(actual, sent, strict=True) if a != b)
        return (_message(payload), True) if (a ^ b).bit_count() == 1 else (None, False)
    try:
        expected = int(sent, 16)
    except ValueError:
        return None, False
    bit = _one_bit_syndromes(len(payload)).get(zlib.crc32(payload) ^ expected)
    if bit is None:
        return None, False
    mended = bytearray(payload)
    mended[bit // 8] ^= 1 << (bit % 8)
    return _message(bytes(mended)), True


@functools.lru_cache(maxsize=64)
def _one_bit_syndromes(length: int) -> dict[int, int]:
    """For payloads of `length` bytes: the CRC difference that one flipped bit makes,
    mapped to that bit's position. CRC-32 is affine, so crc(p ^ e) ^ crc(p) is
    crc(e) ^ crc(0...0) whatever p is."""
    zero = zlib.crc32(bytes(length))
    syndromes: dict[int, int] = {}
    error = bytearray(length)
    for index in range(length):
        for bit in range(8):
            error[index] = 1 << bit
            syndromes[zlib.crc32(error) ^ zero] = index * 8 + bit
        error[index] = 0
    return syndromes


def _message(payload: bytes) -> Wire | None:
    try:
        message = json.loads(payload.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None
    return message


class FrameDecoder:
    """Bytes in, good messages out; bad frames are counted and dropped."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self.bad_frames = 0
        self.good_frames = 0
        self.mended = 0  # good frames that one flipped bit had damaged
        self._buffer = bytearray()
        self._skipping = False  # inside an overlong line: drop up to its newline

    def feed(self, data: bytes) -> list[Wire]:
        messages: list[Wire] = []
        self._feed(data, messages, None)
        return messages

    def feed_frames(self, data: bytes) -> list[tuple[bytes, Wire]]:
        """Each good message with its frame as it came (without the newline), so that
        what only passes frames on needs not write them again; a mended one's frame is
        written anew, whole."""
        frames: list[tuple[bytes, Wire]] = []
        self._feed(data, None, frames)
        return frames

    def _feed(
        self,
        data: bytes,
        messages: list[Wire] | None,
        frames: list[tuple[bytes, Wire]] | None,
    ) -> None:
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.max_frame:
                    if not self._skipping:
                        self.bad_frames += 1
                    self._skipping = True
                    self._buffer.clear()
                return
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._skipping:
                self._skipping = False
                continue
            if not line.strip():
                continue  # blank lines are harmless keep-alives from a terminal
            message, mended = _decode(line) if len(line) <= self.max_frame else (None, False)
            self.mended += mended
            if message is None:
                self.bad_frames += 1
                continue
            self.good_frames += 1
            if messages is not None:
                messages.append(message)
            if frames is not None:
                frame = encode_frame(message)[:-1] if mended else line.rstrip(b"\r")
                frames.append((frame, message))
