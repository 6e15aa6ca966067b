"""A control request from the page, checked: the board's own command codec reads it (the
same checks as a host's command: a wrong field is a clear error naming it), and only the
commands a player at the page may give are taken. The page's own requests (the opponent, a
hint, the voice) are named by `op`. Pure."""

from __future__ import annotations

from collections.abc import Mapping

from reedboard.errors import ReedboardError
from reedboard.link.messages import Command, parse_command
from reedboard.link.wire_fields import ProtocolError

# What the page's controls send to the board, by the link's type names.
PAGE_COMMANDS = (
    "new_game",
    "mode",
    "promotion",
    "takeback",
    "draw",
    "resign",
    "settings",
    "brightness",
    "state",
)
MAX_SPEC = 80  # an opponent's description ("engine 5", "lichess seek 10+0")


class BadRequest(ReedboardError):
    """A page's request of the wrong shape: the words say what is wrong."""


def page_command(fields: object) -> Command:
    """The board's command for a page's `{"op": "command", "command": {...}}`."""
    if not isinstance(fields, Mapping) or not isinstance(fields.get("type"), str):
        raise BadRequest("a command is an object with a type")
    kind = fields["type"]
    if kind not in PAGE_COMMANDS:
        raise BadRequest(f"the page cannot send {kind[:40]!r}: one of {', '.join(PAGE_COMMANDS)}")
    try:
        # The page's command has no number: the feed gives it one of its own.
        return parse_command({k: v for k, v in fields.items() if k != "id"})
    except ProtocolError as error:
        raise BadRequest(str(error)) from None


def opponent_spec(fields: Mapping[str, object]) -> str:
    spec = fields.get("spec")
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise BadRequest(f"an opponent is a short text (up to {MAX_SPEC} characters)")
    return spec.strip()
