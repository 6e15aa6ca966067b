"""Reading a host's command (docs/protocol.md) with every field checked, from the
command's type (`wire_plan`): the first wrong field raises a `ProtocolError` naming the
command and the field, so a client's author sees at once what to fix. Pure.

For a field that has a default, null is the same as absent (a host sends `"uci": null`
to clear a lit move, `"color": null` for the side to move), except for a number: null is
not one, and is refused. A command class may check what its fields say together in a
`checked` method that returns the command the board carries out (or raises).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.link.wire_fields import ProtocolError, is_uci, shown
from reedboard.link.wire_plan import Plan, Slot
from reedboard.rules.squares import SQUARE_NAMES

_ABSENT = object()
# What a command's string or a FEN may hold at most.
_FEN_LIMIT = 120
_SQUARES_LIMIT = 64


def refused(kind: str, name: str, text: str) -> ProtocolError:
    """The `bad_argument` error for field `name` of command `kind`."""
    return ProtocolError("bad_argument", f"{kind}: {name} {text}", command=kind, field=name)


def read_command(plan: Plan, message: Mapping[str, Any], command_id: int | None) -> Any:
    """The command of `plan` that `message` says, its every field checked."""
    kind = plan.kind
    known = {slot.wire for slot in plan.slots}
    others = getattr(plan.cls, "OTHERS", None)
    if others is not None:  # a command that takes no field but its own (settings)
        for name in message:
            if name not in known and name != "type":
                raise refused(kind, name, f"{others} ({', '.join(_named(plan))})")
    values: dict[str, Any] = {}
    for slot in plan.slots:
        if slot.attr == "id":
            values["id"] = command_id
        else:
            values[slot.attr] = _field(kind, slot, message.get(slot.wire, _ABSENT))
    command = plan.made(values)
    checked = getattr(command, "checked", None)
    return command if checked is None else checked()


def _named(plan: Plan) -> list[str]:
    return [slot.wire for slot in plan.slots if slot.attr != "id"]


def _field(kind: str, slot: Slot, value: Any) -> Any:
    if value is _ABSENT or (value is None and not slot.required and slot.kind != "int"):
        if slot.required:
            raise refused(kind, slot.wire, f"is missing: {_wanted(slot)}")
        return slot.default
    read = _READERS[slot.arg.shape or slot.kind]
    good, result = read(slot, value)
    if not good:
        raise refused(kind, slot.wire, result)
    return result


def _wanted(slot: Slot) -> str:
    if slot.kind == "int":
        return f"an integer {slot.arg.low}..{slot.arg.high}"
    if slot.kind == "choice":
        return f"one of {', '.join(slot.choices)}"
    return "a string"


# Each reader: (True, the value read) or (False, what is wrong, after the field's name).


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
    if not isinstance(value, str) or not is_uci(value):
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
