"""What the link's codecs read a message with: the bounds of its numbers, the errors that
name a wrong field (`ProtocolError` for a host's command, `BadField` within the reading
of the board's messages), and how a wrong value is shown. Pure."""

from __future__ import annotations

from reedboard.errors import InvalidInputError
from reedboard.rules.squares import SQUARE_NAMES

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


def is_uci(text: str) -> bool:
    if len(text) not in (4, 5) or text[:2] not in SQUARE_NAMES or text[2:4] not in SQUARE_NAMES:
        return False
    return len(text) == 4 or text[4] in "qrbn"


def shown(value: object) -> str:
    """A wrong value as an error message shows it: short, whatever was sent."""
    text = "null" if value is None else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."
