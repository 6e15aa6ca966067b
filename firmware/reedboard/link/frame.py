"""Framing: one message per line, `<JSON>*<CRC-32 as 8 hex digits>\n`.

Why this shape: a line of JSON can be read and typed by hand on a serial console, a
client needs nothing beyond JSON and CRC-32 (in every standard library), and a newline
resynchronises the stream after any corruption, so one bad byte costs one frame. The JSON
is ASCII (non-ASCII characters are escaped), so it never contains the newline or `*`
outside of strings; the CRC is taken after the last `*`.

Pure: `encode_frame` and `FrameDecoder.feed` do no I/O.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

# A `state` message of a very long game stays well below this; anything longer is noise
# (a lost newline joining frames, or a peer speaking something else).
MAX_FRAME = 65536


def crc32_hex(payload: bytes) -> str:
    return f"{zlib.crc32(payload) & 0xFFFFFFFF:08x}"


def encode_frame(message: dict[str, Any]) -> bytes:
    """One message as its frame, newline included."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return payload + b"*" + crc32_hex(payload).encode("ascii") + b"\n"


def decode_line(line: bytes) -> dict[str, Any] | None:
    """The message in one line (without its newline), or None when the line is not a
    good frame: no CRC, a wrong CRC, not JSON, not an object with a string `type`."""
    payload, star, crc = line.rstrip(b"\r").rpartition(b"*")
    if not star or len(crc) != 8:
        return None
    try:
        if crc32_hex(payload) != crc.decode("ascii").lower():
            return None
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
        self._buffer = bytearray()
        self._skipping = False  # inside an overlong line: drop up to its newline

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.max_frame:
                    if not self._skipping:
                        self.bad_frames += 1
                    self._skipping = True
                    self._buffer.clear()
                return messages
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._skipping:
                self._skipping = False
                continue
            if not line.strip():
                continue  # blank lines are harmless keep-alives from a terminal
            message = decode_line(line) if len(line) <= self.max_frame else None
            if message is None:
                self.bad_frames += 1
            else:
                self.good_frames += 1
                messages.append(message)
