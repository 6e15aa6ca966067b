"""A board's frame as the tests write it (a JSON object, as docs/protocol.md shows it)
read as the typed message the relay takes, as the link's codec reads it off the wire."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.link.board_messages import BoardMessage, read_board_message


def read(frame: Mapping[str, Any]) -> BoardMessage:
    message, problem = read_board_message(frame)
    assert message is not None, problem
    return message
