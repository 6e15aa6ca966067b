"""How the link's commands and replies go on the wire, read from their types: each class
is read once, from its type hints, into a plan of its fields, which `command_codec` (a
host's command, read by the board) and `reply_codec` (a board's reply, read by a host)
write and read. Pure.

A field's Python type says what JSON value it is: `int` an integer, `str` a string,
`bool` true or false, a `Literal` one of its words, a tuple a list (of strings, or of the
shape `Arg` names), a dataclass an object of its own fields; `| None` that it may be left
out. An `Arg` in the field's `Annotated` says what the type does not: the integer's range,
the string's length, a shape (a square, a move in UCI, a FEN, ...), the wire's name where
it differs, and which value is left out (None unless said; `always`: none is). A field
without a default must be there.

On the wire a message is `type`, then its fields in the order of its class, the `seq`
and the `id` first, or in the order its `ORDER` names where the wire's differs.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from reedboard.link.frame import Wire, encode_frame

MAX_NUMBER = 2**53 - 1  # JSON's exact integers
_NOTHING = object()  # `Arg.omit` when every value is written


@dataclass(frozen=True, slots=True)
class Arg:
    """What a field of a command or a reply holds beyond its Python type: `shape` (uci,
    fen, squares, hex8, hex16, result; outcome: a union of classes whose fields are
    written into the message), an integer's `low` and `high`, a string's `limit`, the
    wire's `name`, the value left out (`omit`; with `always`, none). `when` pairs a
    field written only while a flag of the message is true (naming the flag) with that
    flag, a bool not on the wire (naming the field: read back as whether it came)."""

    shape: str = ""
    low: int = 0
    high: int = MAX_NUMBER
    limit: int = 200
    name: str | None = None
    omit: object = None
    always: bool = False
    when: str | None = None


@dataclass(frozen=True, slots=True)
class Slot:
    """One field of a message class, as the wire has it. `kind` is int, str, bool,
    choice, list, pair, object (a dataclass: `inner`), outcome (a union of dataclasses
    written into the message: `outcomes`) or flag (not on the wire: whether `arg.when`'s
    field came)."""

    attr: str
    wire: str
    kind: str
    arg: Arg
    nullable: bool  # None is a value of the field
    required: bool
    default: Any
    choices: tuple[str, ...] = ()
    inner: Plan | None = None
    outcomes: tuple[Plan, ...] = ()

    @property
    def written_null(self) -> bool:
        """Whether None goes on the wire as null (rather than being left out)."""
        return self.nullable and (self.arg.always or self.arg.omit is not None)

    def left_out(self, value: Any) -> bool:
        return not self.arg.always and value is self.arg.omit


@dataclass(frozen=True, slots=True)
class Plan:
    """How one message class is written and read: its slots in the wire's order."""

    cls: type
    kind: str  # the message's `type` (empty for an object inside one)
    slots: tuple[Slot, ...]

    def made(self, values: dict[str, Any]) -> Any:
        return self.cls(**values)


_PLANS: dict[type, Plan] = {}


def plan_of(cls: type) -> Plan:
    """The plan of a message class, made at its first use (reading the type hints costs
    a few ms on a Pi Zero)."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    return plan


def _plan(cls: type) -> Plan:
    hints = typing.get_type_hints(cls, include_extras=True)
    slots = {spec.name: _slot(spec, hints[spec.name]) for spec in dataclasses.fields(cls)}
    order: tuple[str, ...] | None = getattr(cls, "ORDER", None)
    if order is None:
        first = [name for name in ("seq", "id") if name in slots]
        order = (*first, *(name for name in slots if name not in first))
    assert set(order) == set(slots), f"{cls.__name__}.ORDER names every field once"
    return Plan(cls, getattr(cls, "TYPE", ""), tuple(slots[name] for name in order))


def _slot(spec: dataclasses.Field[Any], hint: Any) -> Slot:
    arg = Arg()
    if typing.get_origin(hint) is typing.Annotated:
        hint, arg = hint.__origin__, hint.__metadata__[0]
    nullable = False
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        # Neither None nor the type of the value left out (`Arg.omit`) goes on the wire.
        members = [
            member
            for member in typing.get_args(hint)
            if member is not type(None)
            and not (arg.omit is not None and isinstance(arg.omit, member))
        ]
        nullable = type(None) in typing.get_args(hint)
        hint = members[0] if len(members) == 1 else hint
        if typing.get_origin(hint) is typing.Annotated:  # `Names | None`
            hint, arg = hint.__origin__, hint.__metadata__[0]
    if spec.default is not dataclasses.MISSING:
        required, default = False, spec.default
    elif spec.default_factory is not dataclasses.MISSING:
        required, default = False, spec.default_factory()
    else:
        required, default = True, None
    slot = Slot(spec.name, arg.name or spec.name, "", arg, nullable, required, default)
    return _typed(slot, hint)


def _typed(slot: Slot, hint: Any) -> Slot:
    """The slot with what its type says: its kind, and the words or classes it takes."""
    origin = typing.get_origin(hint)
    if slot.arg.shape == "outcome":
        plans = tuple(plan_of(member) for member in typing.get_args(hint))
        return dataclasses.replace(slot, kind="outcome", outcomes=plans)
    if hint is bool and slot.arg.when is not None:
        return dataclasses.replace(slot, kind="flag")
    if origin is Literal:
        return dataclasses.replace(slot, kind="choice", choices=typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        return dataclasses.replace(slot, kind="list" if args[-1] is Ellipsis else "pair")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return dataclasses.replace(slot, kind="object", inner=plan_of(hint))
    kinds = {int: "int", str: "str", bool: "bool"}
    assert hint in kinds, f"{slot.attr}: no wire form for {hint!r}"
    return dataclasses.replace(slot, kind=kinds[hint])


# ----- writing -----


def wire_of(message: Any, head: Wire | None = None) -> Wire:
    """`message` as the wire carries it: `type`, then its fields in the plan's order."""
    plan = plan_of(type(message))
    wire: Wire = {"type": plan.kind} if head is None else head
    _write(plan, message, wire)
    return wire


def _write(plan: Plan, message: Any, wire: Wire) -> None:
    for slot in plan.slots:
        value = getattr(message, slot.attr)
        if slot.kind == "flag" or slot.left_out(value):
            continue
        if slot.arg.when is not None and not getattr(message, slot.arg.when):
            continue
        if slot.kind == "outcome":
            _write(plan_of(type(value)), value, wire)
        elif value is None:
            wire[slot.wire] = None
        elif slot.kind in ("list", "pair"):
            wire[slot.wire] = list(value)
        elif slot.kind == "object":
            assert slot.inner is not None
            inner: Wire = {}
            _write(slot.inner, value, inner)
            wire[slot.wire] = inner
        else:
            wire[slot.wire] = value


class WireValue:
    """A command or a reply: written for the wire from its type (`to_wire`). The base of
    every such class, so that each has the one codec rather than one of its own."""

    __slots__ = ()

    def to_wire(self) -> Wire:
        return wire_of(self)

    def to_frame(self) -> bytes:
        """The message's frame, newline included, as it is (`id` and `seq` its own)."""
        return encode_frame(wire_of(self))
