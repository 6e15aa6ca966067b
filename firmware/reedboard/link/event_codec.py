"""The link's codec for the board's events (`reedboard.events`): an event as the fields
of an `effect` message (docs/protocol.md) and back. Pure.

Nothing here names an event's fields: each event class is read once, from its type
hints, into the plan of how its fields are written and checked. A field's Python type
gives its JSON value (int: an integer 0..2^53-1, str: a string, bool: true or false),
its `Wired` annotation anything more (a square by its name, a move in UCI, a field
under another name or inside an object); a field with a default may be left out (None
is never written), one without must be there. The checks a host makes of a message it
reads are therefore those of the types it builds from it, and an event added to the
family is written and read as soon as it is listed in `EVENT_TYPES`.

On the wire an effect is `type`, `seq`, `event`, `t_ms`, the event's own fields in the
order of its class (objects such as `added` after the plain ones), `game`, then what the
board adds around the event (a new game's variant, a faulty switch's place).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reedboard.errors import InvalidInputError
from reedboard.events import EVENT_TYPES, Effect, Wired
from reedboard.link.reply_codec import RESULTS, count
from reedboard.link.wire_fields import BadField, is_uci, shown
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, square_names_of
from reedboard.sensing.selftest import SwitchPlace

_COUNT = count()
_INDEX = {name: index for index, name in enumerate(SQUARE_NAMES)}
_ABSENT = object()


def _same(value: Any) -> Any:
    return value


def _is_square(value: Any) -> bool:
    return isinstance(value, str) and value in _INDEX


def _bitboard(names: list[str]) -> int:
    board = 0
    for name in names:
        board |= 1 << _INDEX[name]
    return board


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_square(s) for s in value)


def _is_clock(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and count()(value.get("white_ms"))
        and count()(value.get("black_ms"))
    )


@dataclass(frozen=True, slots=True)
class Shape:
    """How one kind of value goes on the wire: `doc` says it in a problem's words."""

    doc: str
    check: Callable[[Any], bool]
    write: Callable[[Any], Any] = _same
    read: Callable[[Any], Any] = _same


SHAPES: dict[str, Shape] = {
    "int": Shape("an integer 0..2^53-1", _COUNT),
    "positive": Shape("an integer 1..2^53-1", count(1)),
    "str": Shape("a string", lambda v: isinstance(v, str)),
    "bool": Shape("true or false", lambda v: isinstance(v, bool)),
    "square": Shape(
        "a square such as e4", _is_square, SQUARE_NAMES.__getitem__, _INDEX.__getitem__
    ),
    "squares": Shape(
        "a list of squares",
        lambda v: isinstance(v, list) and all(_is_square(s) for s in v),
        square_names_of,
        _bitboard,
    ),
    "pairs": Shape(
        "a list of pairs of squares",
        lambda v: isinstance(v, list) and all(_is_pair(p) for p in v),
        lambda pairs: [[SQUARE_NAMES[a], SQUARE_NAMES[b]] for a, b in pairs],
        lambda v: tuple((_INDEX[a], _INDEX[b]) for a, b in v),
    ),
    "uci": Shape("a move such as e2e4", is_uci),
    # The position itself is checked once the message's `chess960` is known (`_fen_problem`).
    "fen": Shape("a FEN of a legal position", lambda v: isinstance(v, str)),
    "result": Shape(f"one of {', '.join(RESULTS)}", lambda v: v in RESULTS),
    "clock": Shape(
        "an object of white_ms and black_ms, integers 0..2^53-1",
        _is_clock,
        lambda c: {"white_ms": c[0], "black_ms": c[1]},
        lambda v: (v["white_ms"], v["black_ms"]),
    ),
    "color": Shape(
        "white or black",
        lambda v: v in ("white", "black"),
        lambda white: "white" if white else "black",
        lambda v: v == "white",
    ),
}
# A faulty switch's place is written as four fields of the message.
_PLACE_CHECKS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "row": ("a string", lambda v: isinstance(v, str)),
    "column": ("a string", lambda v: isinstance(v, str)),
    "pins": ("a list of integers", lambda v: isinstance(v, list) and all(_COUNT(p) for p in v)),
    "where": ("a string", lambda v: isinstance(v, str)),
}


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event class as the wire has it."""

    attr: str
    wire: str
    shape: Shape | None  # None: a switch's place
    required: bool
    default: Any
    inside: str | None
    added: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """How one event class is written and read."""

    cls: type[Effect]
    own: tuple[Field, ...]  # the plain fields, in the class's order
    objects: tuple[tuple[str, tuple[Field, ...]], ...]  # the objects such as `added`
    added: tuple[Field, ...]  # written after the message's `game`
    fens: tuple[str, ...]  # the wire's names of the positions a host builds games from
    label: str  # how a problem names the message: "move effect"


def _plan(cls: type[Effect]) -> Plan:
    hints = typing.get_type_hints(cls, include_extras=True)
    own: list[Field] = []
    objects: dict[str, list[Field]] = {}
    added: list[Field] = []
    for spec in dataclasses.fields(cls):
        if spec.name == "t_ms":
            continue
        hint = hints[spec.name]
        wired = Wired()
        if typing.get_origin(hint) is typing.Annotated:
            hint, wired = hint.__origin__, hint.__metadata__[0]
        shape_name = wired.shape or _plain(hint)
        has_default = spec.default is not dataclasses.MISSING
        found = Field(
            spec.name,
            wired.name or spec.name,
            None if shape_name == "place" else SHAPES[shape_name],
            not has_default,
            spec.default if has_default else None,
            wired.inside,
            wired.added,
        )
        if wired.added:
            added.append(found)
        elif wired.inside is not None:
            objects.setdefault(wired.inside, []).append(found)
        else:
            own.append(found)
    nested = tuple((name, tuple(fields)) for name, fields in objects.items())
    fens = tuple(field.wire for field in own if field.shape is SHAPES["fen"])
    return Plan(cls, tuple(own), nested, tuple(added), fens, f"{cls.kind} effect")


def _plain(hint: Any) -> str:
    """The shape of a plain type (int, str, bool, or one of them or None)."""
    if isinstance(hint, types.UnionType):
        (hint,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    return {int: "int", str: "str", bool: "bool"}[hint]


_PLANS: dict[type[Effect], Plan] = {}
_BY_NAME: dict[str, list[Plan]] = {}


def _plans() -> dict[type[Effect], Plan]:
    """The plans, made at the first use (the type hints cost a few ms on a Pi Zero)."""
    if not _PLANS:
        for cls in EVENT_TYPES:
            plan = _plan(cls)
            _PLANS[cls] = plan
            _BY_NAME.setdefault(cls.kind, []).append(plan)
    return _PLANS


# ----- writing -----


def _write(fields: tuple[Field, ...], effect: Effect, into: dict[str, Any]) -> None:
    for field in fields:
        value = getattr(effect, field.attr)
        if value is None:
            continue
        if field.shape is None:
            place: SwitchPlace = value
            into |= {
                "row": place.row,
                "column": place.column,
                "pins": list(place.pins),
                "where": place.where,
            }
        else:
            into[field.wire] = field.shape.write(value)


def effect_wire(effect: Effect, game: int | None, seq: int | None) -> dict[str, Any]:
    """The `effect` message of `effect` in the journal's game `game` (None: the replay's
    JSON object, without the envelope), numbered `seq`."""
    plan = _plans()[type(effect)]
    wire: dict[str, Any] = {} if seq is None else {"type": "effect", "seq": seq}
    wire["event"] = effect.kind
    wire["t_ms"] = effect.t_ms
    _write(plan.own, effect, wire)
    for name, fields in plan.objects:
        inner: dict[str, Any] = {}
        _write(fields, effect, inner)
        wire[name] = inner
    if game is not None:
        wire["game"] = game
    _write(plan.added, effect, wire)
    return wire


def effect_json(effect: Effect) -> dict[str, Any]:
    """The effect as `reedboard replay` prints it: `event`, `t_ms`, then its fields."""
    return effect_wire(effect, None, None)


# ----- reading -----


def _read(fields: tuple[Field, ...], source: Mapping[str, Any], label: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in fields:
        shape = field.shape
        if shape is None:
            values[field.attr] = _read_place(source, label)
            continue
        value = source.get(field.wire, _ABSENT)
        if value is _ABSENT:
            if field.required:
                raise BadField(f"{label}: {field.wire} is missing")
            values[field.attr] = field.default
        elif shape.check(value):
            values[field.attr] = value if shape.read is _same else shape.read(value)
        else:
            raise BadField(f"{label}: {field.wire} must be {shape.doc}, not {shown(value)}")
    return values


def _read_place(wire: Mapping[str, Any], label: str) -> SwitchPlace | None:
    if not any(name in wire for name in _PLACE_CHECKS):
        return None
    for name, (doc, check) in _PLACE_CHECKS.items():
        if not check(wire.get(name)):
            raise BadField(f"{label}: {name} must be {doc}, not {shown(wire.get(name))}")
    return SwitchPlace(wire["row"], wire["column"], tuple(wire["pins"]), wire["where"])


def _object_doc(fields: tuple[Field, ...]) -> str:
    return "an object of " + ", ".join(
        f"{field.wire} ({field.shape.doc if field.shape else 'a place'})" for field in fields
    )


def _chosen(plans: list[Plan], wire: Mapping[str, Any]) -> Plan:
    """Of the classes of one event name, the first whose objects the message carries."""
    if len(plans) == 1:
        return plans[0]
    for plan in plans:
        if all(name in wire for name, _fields in plan.objects):
            return plan
    return plans[-1]


def read_effect(wire: Mapping[str, Any]) -> tuple[Effect | None, str | None]:
    """The event of an `effect` message whose `event` is a string, and what is wrong with
    it (None when nothing is). None and no problem: an event this host does not know."""
    if not _PLANS:
        _plans()
    plans = _BY_NAME.get(wire["event"])
    if plans is None:
        return None, None
    plan = _chosen(plans, wire)
    label = plan.label
    try:
        t_ms = wire.get("t_ms", _ABSENT)
        if t_ms is _ABSENT:
            raise BadField(f"{label}: t_ms is missing")
        if not _COUNT(t_ms):
            raise BadField(f"{label}: t_ms must be {_COUNT.__doc__}, not {shown(t_ms)}")
        values = _read(plan.own, wire, label)
        for name, fields in plan.objects:
            inner = wire.get(name)
            if not isinstance(inner, dict):
                raise BadField(f"{label}: {name} must be {_object_doc(fields)}, not {shown(inner)}")
            try:
                values |= _read(fields, inner, label)
            except BadField:
                raise BadField(
                    f"{label}: {name} must be {_object_doc(fields)}, not {shown(inner)}"
                ) from None
        if plan.added:
            values |= _read(plan.added, wire, label)
        if plan.fens:
            _fen_problem(plan, wire, label)
    except BadField as bad:
        return None, str(bad)
    return plan.cls(t_ms=t_ms, **values), None


def _fen_problem(plan: Plan, wire: Mapping[str, Any], label: str) -> None:
    """A position a host will build a game from must be one the rules can set up."""
    chess960 = wire.get("chess960") is True
    for field in plan.own:
        if field.shape is SHAPES["fen"] and field.wire in wire:
            try:
                Position.from_fen(wire[field.wire], chess960=chess960)
            except InvalidInputError:
                value = shown(wire[field.wire])
                raise BadField(
                    f"{label}: {field.wire} must be {field.shape.doc}, not {value}"
                ) from None
