"""The far end of a board's link in a test: every byte the board writes, kept for a host
endpoint (or a frame decoder) to read; the board reads nothing from it."""

from __future__ import annotations


class WireLink:
    """The link's far end: every byte the board writes, for a host endpoint to read."""

    def __init__(self) -> None:
        self.written = bytearray()

    def read(self, wait_s: float = 0.0) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.written += data
