"""Board messages with any fields at all, for the tests of the link's numbering, resending
and checks: what they carry is beside the point, their size and number are not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reedboard.link.board_messages import BoardHello
from reedboard.link.messages import Hello, Resync


@dataclass(frozen=True)
class Raw:
    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seq": 0, **self.fields}


def effect(**fields: Any) -> Raw:
    """An `effect` message with these fields, `event` among them."""
    return Raw("effect", fields)


def answer_hello(command: Hello | Resync, session: str) -> BoardHello:
    """The board's `hello` answering `command`, whole as the board makes it: the command's
    id, and `resync` when it answers a `resend` the history could not serve."""
    return BoardHello(
        session, protocol=1, resync=isinstance(command, Resync), id=command.id, answers=True
    )
