"""Board messages with any fields at all, for the tests of the link's numbering, resending
and checks: what they carry is beside the point, their size and number are not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Raw:
    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        return {"type": self.type, "seq": 0, **self.fields}


def effect(**fields: Any) -> Raw:
    """An `effect` message with these fields, `event` among them."""
    return Raw("effect", fields)
