"""Reading a message from the board (docs/protocol.md) as the typed value its class
declares, every field checked against the field's type (`wire_plan`), so that a host only
ever acts on values it can use. What is wrong comes back in a few words naming the message
and the field (`hello: session must be a string, not 5`), for one line in the log. Pure.

A field left out takes its default; null is a value only of a field whose None the board
writes as null. Fields a class does not name pass: the protocol may add some.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from reedboard.errors import InvalidInputError
from reedboard.link.wire_fields import BadField, is_uci, shown
from reedboard.link.wire_plan import MAX_NUMBER, Plan, Slot
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_HEX = {"hex8": re.compile(r"[0-9a-f]{8}"), "hex16": re.compile(r"[0-9a-f]{16}")}
_ABSENT = object()
_FEN = "a FEN of a legal position"

Check = Callable[[Any], bool]


def count(low: int = 0) -> Check:
    """A check for an integer low..2^53-1 (JSON's exact integers)."""

    def check(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= MAX_NUMBER

    check.__doc__ = f"an integer {low}..2^53-1"
    return check


def _is_square(value: Any) -> bool:
    return isinstance(value, str) and value in SQUARE_NAMES


# What a string of a shape must be: (in a problem's words, the check).
_TEXTS: dict[str, tuple[str, Check]] = {
    "": ("a string", lambda v: isinstance(v, str)),
    "fen": ("a string", lambda v: isinstance(v, str)),  # the position: `_fen_problem`
    "uci": ("a move such as e2e4", is_uci),
    "result": (f"one of {', '.join(RESULTS)}", lambda v: v in RESULTS),
    "hex8": (
        "8 hexadecimal digits",
        lambda v: isinstance(v, str) and bool(_HEX["hex8"].fullmatch(v)),
    ),
    "hex16": (
        "16 hexadecimal digits",
        lambda v: isinstance(v, str) and bool(_HEX["hex16"].fullmatch(v)),
    ),
}
_ITEMS: dict[str, tuple[str, Check]] = {
    "": ("strings", lambda v: isinstance(v, str)),
    "squares": ("squares", _is_square),
    "uci": ("moves such as e2e4", is_uci),
}


def doc(slot: Slot) -> str:
    """What a field must be, in a problem's words."""
    said = _doc(slot)
    return f"null or {said}" if slot.written_null else said


def _doc(slot: Slot) -> str:
    match slot.kind:
        case "int":
            return count(slot.arg.low).__doc__ or ""
        case "bool":
            return "true or false"
        case "choice":
            return " or ".join(slot.choices)
        case "list":
            return f"a list of {_ITEMS[slot.arg.shape][0]}"
        case "pair":
            return "two squares"
        case "object":
            assert slot.inner is not None
            return "an object of " + ", ".join(f"{s.wire} ({doc(s)})" for s in slot.inner.slots)
        case _:
            return _TEXTS[slot.arg.shape][0]


def _read(slot: Slot, value: Any) -> Any:
    """The value of `slot` in the wire's `value`, or `BadField` without the field's name."""
    if value is None and slot.written_null:
        return None
    good: bool
    match slot.kind:
        case "int":
            good = count(slot.arg.low)(value)
        case "bool":
            good = isinstance(value, bool)
        case "choice":
            good = value in slot.choices
        case "list":
            check = _ITEMS[slot.arg.shape][1]
            good = isinstance(value, list) and all(check(item) for item in value)
            value = tuple(value) if good else value
        case "pair":
            good = isinstance(value, list) and len(value) == 2 and all(map(_is_square, value))
            value = (value[0], value[1]) if good else value
        case "object":
            assert slot.inner is not None
            if isinstance(value, dict):
                try:
                    return slot.inner.made(_values(slot.inner, value))
                except BadField:
                    pass
            good = False
        case _:
            good = _TEXTS[slot.arg.shape][1](value)
    if not good:
        raise BadField(f"must be {doc(slot)}, not {shown(value)}")
    return value


def _values(plan: Plan, wire: Mapping[str, Any], label: str = "") -> dict[str, Any]:
    values: dict[str, Any] = {}
    for slot in plan.slots:
        if slot.kind == "flag":
            values[slot.attr] = slot.arg.when in wire
            continue
        if slot.kind == "outcome":
            values[slot.attr] = _outcome(slot, wire, label)
            continue
        value = wire.get(slot.wire, _ABSENT)
        if value is _ABSENT:
            if slot.required:
                raise BadField(f"{label}: {slot.wire} is missing")
            values[slot.attr] = slot.default
            continue
        try:
            values[slot.attr] = _read(slot, value)
        except BadField as bad:
            raise BadField(f"{label}: {slot.wire} {bad}") from None
    return values


def _outcome(slot: Slot, wire: Mapping[str, Any], label: str) -> Any:
    """What an `ack` tells: every field any outcome has is checked where it came; the
    outcome is the one, of most fields first, whose fields all came."""
    fields: dict[str, Slot] = {}
    for plan in slot.outcomes:
        for inner in plan.slots:
            fields.setdefault(inner.wire, inner)
    read = {}
    for name, inner in fields.items():
        if name in wire:
            try:
                read[inner.attr] = _read(inner, wire[name])
            except BadField as bad:
                raise BadField(f"{label}: {name} {bad}") from None
    told = sorted(slot.outcomes, key=lambda plan: -len(plan.slots))
    for plan in told:
        if plan.slots and all(inner.wire in wire for inner in plan.slots):
            return plan.made({inner.attr: read[inner.attr] for inner in plan.slots})
    return slot.default


def read_reply(plan: Plan, wire: Mapping[str, Any], label: str) -> tuple[Any, str | None]:
    """The message of `plan` that `wire` holds, or None and what is wrong with it."""
    try:
        values = _values(plan, wire, label)
        _fen_problem(plan, values, label)
    except BadField as bad:
        return None, str(bad)
    return plan.made(values), None


def _fen_problem(plan: Plan, values: dict[str, Any], label: str) -> None:
    """A position a host will build a game from must be one the rules can set up."""
    for slot in plan.slots:
        fen = values[slot.attr]
        if slot.arg.shape == "fen" and fen is not None:
            try:
                Position.from_fen(fen, chess960=values.get("chess960") is True)
            except InvalidInputError:
                raise BadField(f"{label}: {slot.wire} must be {_FEN}, not {shown(fen)}") from None
