"""Reading a host's command (docs/protocol.md) with every field checked, from the
command's type (`wire_plan`): the first wrong field raises a `ProtocolError` naming the
command and the field, so a client's author sees at once what to fix. Pure.

For a field that has a default, null is the same as absent (a host sends `"uci": null`
to clear a lit move, `"color": null` for the side to move), except for a number: null is
not one, and is refused. A command class may check what its fields say together in a
`checked` method that returns the command the board carries out (or raises).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias, TypeVar

from reedboard.link.wire_fields import ProtocolError, is_uci, shown
from reedboard.link.wire_plan import Plan, Slot, plan_of
from reedboard.rules.squares import SQUARE_NAMES

T = TypeVar("T")
_ABSENT = object()
# A field's reader: (True, the value read) or (False, what is wrong, after the field's name).
Reader: TypeAlias = "Callable[[Slot, Any], tuple[bool, Any]]"
# What a command's string or a FEN may hold at most.
_FEN_LIMIT = 120
_SQUARES_LIMIT = 64


def refused(kind: str, name: str, text: str) -> ProtocolError:
    """The `bad_argument` error for field `name` of command `kind`."""
    return ProtocolError("bad_argument", f"{kind}: {name} {text}", command=kind, field=name)


class _Field(NamedTuple):
    """One field, as `read_command` takes it (a tuple: read for every command)."""

    wire: str
    attr: str
    read: Reader
    slot: Slot
    required: bool
    null_is_absent: bool  # null means absent (not for a number: null is not one)
    default: Any


@dataclass(frozen=True, slots=True)
class _Reading:
    """How one command class is read: its fields with their readers, made once."""

    plan: Plan
    fields: tuple[_Field, ...]  # every field but the id
    known: frozenset[str]  # the wire's names of its fields
    others: str | None  # a command that takes no other field: what one is called
    checked: bool  # whether the class checks its fields together


_READINGS: dict[type, _Reading] = {}


def _reading(cls: type) -> _Reading:
    reading = _READINGS.get(cls)
    if reading is None:
        plan = plan_of(cls)
        fields = tuple(
            _Field(
                slot.wire,
                slot.attr,
                _READERS[slot.arg.shape or slot.kind],
                slot,
                slot.required,
                not slot.required and slot.kind != "int",
                slot.default,
            )
            for slot in plan.slots
            if slot.attr != "id"
        )
        reading = _READINGS[cls] = _Reading(
            plan,
            fields,
            frozenset(slot.wire for slot in plan.slots) | {"type"},
            getattr(cls, "OTHERS", None),
            hasattr(cls, "checked"),
        )
    return reading


def read_command(cls: type[T], message: Mapping[str, Any], command_id: int | None) -> T:
    """The command of class `cls` that `message` says, its every field checked."""
    reading = _reading(cls)
    kind = reading.plan.kind
    if reading.others is not None:  # a command that takes no field but its own (settings)
        for name in message:
            if name not in reading.known:
                named = ", ".join(field.wire for field in reading.fields)
                raise refused(kind, name, f"{reading.others} ({named})")
    values: dict[str, Any] = {"id": command_id}
    for wire, attr, read, slot, required, null_is_absent, default in reading.fields:
        value = message.get(wire, _ABSENT)
        if value is _ABSENT or (value is None and null_is_absent):
            if required:
                raise refused(kind, wire, f"is missing: {_wanted(slot)}")
            values[attr] = default
            continue
        good, result = read(slot, value)
        if not good:
            raise refused(kind, wire, result)
        values[attr] = result
    command = cls(**values)
    checked: T = command.checked() if reading.checked else command  # type: ignore[attr-defined]
    return checked


def _wanted(slot: Slot) -> str:
    if slot.kind == "int":
        return f"an integer {slot.arg.low}..{slot.arg.high}"
    if slot.kind == "choice":
        return f"one of {', '.join(slot.choices)}"
    return "a string"


def _integer(slot: Slot, value: Any) -> tuple[bool, Any]:
    # bool is an int to Python, and a float (1.0, NaN, Infinity) is not a count.
    low, high = slot.arg.low, slot.arg.high
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return False, f"must be {_wanted(slot)}, not {shown(value)}"
    return True, value


def _text(slot: Slot, value: Any) -> tuple[bool, Any]:
    if not isinstance(value, str) or len(value) > slot.arg.limit:
        return False, f"must be a string of at most {slot.arg.limit} characters"
    return True, value


def _choice(slot: Slot, value: Any) -> tuple[bool, Any]:
    for choice in slot.choices:
        if isinstance(value, str) and value == choice:
            return True, choice
    return False, f"must be {_wanted(slot)}, not {shown(value)}"


def _boolean(_slot: Slot, value: Any) -> tuple[bool, Any]:
    if not isinstance(value, bool):
        return False, f"must be true or false, not {shown(value)}"
    return True, value


def _squares(_slot: Slot, value: Any) -> tuple[bool, Any]:
    if not isinstance(value, list) or len(value) > _SQUARES_LIMIT:
        return False, "must be a list of squares such as e4"
    for item in value:
        if not isinstance(item, str) or item not in SQUARE_NAMES:
            return False, f"must be a list of squares such as e4, not {shown(item)}"
    return True, tuple(dict.fromkeys(value))  # each square once


def _uci(_slot: Slot, value: Any) -> tuple[bool, Any]:
    """A move in UCI notation (its legality is the game's to judge)."""
    if not is_uci(value):
        return False, f"must be a move such as e2e4 or e7e8q, not {shown(value)}"
    return True, value


def _fen(_slot: Slot, value: Any) -> tuple[bool, Any]:
    """A FEN's text; the position is the command's to check (it knows the variant)."""
    if not isinstance(value, str) or len(value) > _FEN_LIMIT:
        return False, "must be a FEN string"
    return True, value


_READERS = {
    "int": _integer,
    "str": _text,
    "choice": _choice,
    "bool": _boolean,
    "squares": _squares,
    "uci": _uci,
    "fen": _fen,
}
