"""What the link's codecs read a message with: the bounds of its numbers, the errors that
name a wrong field (`ProtocolError` for a host's command, `BadField` within the reading
of the board's messages), and how a wrong value is shown. Pure."""

from __future__ import annotations

import re

from reedboard.errors import InvalidInputError

# Every number a host sends fits JSON's exact integers; anything larger is noise or an
# attack, and would only make the board compute with it.
MAX_ID = 2**53 - 1
MAX_PLY = 2**31 - 1


class ProtocolError(InvalidInputError):
    """A message that is well framed but cannot be acted on. `code` names the fault for
    the `error` reply (`unknown_type`, `bad_argument`); `command` and `field` name the
    command and the field that are wrong."""

    def __init__(
        self, code: str, message: str, *, command: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.command = command
        self.field = field


class BadField(InvalidInputError):
    """A field that fails its check: the problem, in a few words. The codecs that read the
    board's messages (`event_codec`, `reply_codec`) raise it within their reading and give
    it back as the message's problem."""


# A move in UCI: two squares, then a promotion's piece (legality is the game's to judge).
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


def is_uci(value: object) -> bool:
    """Whether `value` is a move in UCI, the one check of it in every codec."""
    return isinstance(value, str) and _UCI.fullmatch(value) is not None


def shown(value: object) -> str:
    """A wrong value as an error message shows it: short, whatever was sent."""
    text = "null" if value is None else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."
