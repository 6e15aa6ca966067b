"""A command or a reply added to the protocol is a class declared, nothing more: the
link's codec writes it and reads it back, with every field checked, from its type hints
alone. A class declared here, that no codec names, goes through it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

import pytest
from reedboard.link.command_codec import read_command
from reedboard.link.reply_codec import read_reply
from reedboard.link.wire_fields import ProtocolError
from reedboard.link.wire_plan import Arg, WireValue, plan_of


@dataclass(frozen=True, slots=True)
class Blink(WireValue):
    """A command no host sends today: blink a square a few times."""

    TYPE: ClassVar[str] = "blink"
    square: Annotated[str, Arg(limit=2)]
    times: Annotated[int, Arg(low=1, high=9)] = 3
    color: Literal["red", "green"] | None = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Battery(WireValue):
    """A reply no board sends today: what is left in its battery."""

    TYPE: ClassVar[str] = "battery"
    percent: int
    charging: Annotated[bool | None, Arg(always=True)] = None
    id: Annotated[int | None, Arg(always=True)] = None
    seq: int = 0


def test_a_command_declared_is_written_and_read_with_its_checks() -> None:
    assert Blink("e4", 2, id=5).to_wire() == {"type": "blink", "id": 5, "square": "e4", "times": 2}
    assert read_command(Blink, {"type": "blink", "square": "e4"}, None) == Blink("e4")
    wire = Blink("h8", 9, "green", 7).to_wire()
    assert read_command(Blink, wire, 7) == Blink("h8", 9, "green", 7)
    for fields, said in (
        ({"square": "e4", "times": 10}, "blink: times must be an integer 1..9, not 10"),
        ({"square": "e4", "times": None}, "blink: times must be an integer 1..9, not null"),
        ({"times": 2}, "blink: square is missing: a string"),
        ({"square": "e44"}, "blink: square must be a string of at most 2 characters"),
        ({"square": "e4", "color": "blue"}, "blink: color must be one of red, green, not 'blue'"),
    ):
        with pytest.raises(ProtocolError) as refused:
            read_command(Blink, {"type": "blink", **fields}, None)
        assert str(refused.value) == said


def test_a_reply_declared_is_written_and_read_with_its_checks() -> None:
    battery = Battery(80, None, 3, seq=12)
    wire = battery.to_wire()
    assert wire == {"type": "battery", "seq": 12, "id": 3, "percent": 80, "charging": None}
    assert read_reply(plan_of(Battery), wire, "battery") == (battery, None)
    assert read_reply(plan_of(Battery), wire | {"percent": -1}, "battery") == (
        None,
        "battery: percent must be an integer 0..2^53-1, not -1",
    )
    missing = {k: v for k, v in wire.items() if k != "percent"}
    assert read_reply(plan_of(Battery), missing, "battery") == (None, "battery: percent is missing")
