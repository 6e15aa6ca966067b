"""Every command a host may send survives the trip through its typed value: reading a
valid wire object and writing it back gives an object that reads as the same command,
and a command written and read again is the command it was."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from reedboard.hal.sensor_line import MAX_ADDED_MS
from reedboard.link.messages import HOST_TYPES, MAX_ID, MAX_PLY, SETTINGS, parse_command
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.squares import SQUARE_NAMES

SQUARE = st.sampled_from(SQUARE_NAMES)
UCI = st.builds(
    lambda a, b, p: a + b + p, SQUARE, SQUARE, st.sampled_from(["", "q", "r", "b", "n"])
)
SQUARES = st.none() | st.lists(SQUARE, max_size=64)
OPTIONAL = object()  # the field left out


def _fields(**choices: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Each field given a value of its strategy, or left out when it may be."""
    drawn = st.fixed_dictionaries({name: strategy for name, strategy in choices.items()})
    return drawn.map(lambda d: {k: v for k, v in d.items() if v is not OPTIONAL})


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.just(OPTIONAL) | strategy


def _resend() -> st.SearchStrategy[dict[str, Any]]:
    def until_after(d: dict[str, Any], gap: int | None) -> dict[str, Any]:
        return d if gap is None else d | {"until": d["after"] + gap}

    base = _fields(
        after=st.integers(0, MAX_ID - 100),
        session=_maybe(st.none() | st.text(max_size=20)),
        resync=_maybe(st.none() | st.sampled_from(["state", "hello"])),
    )
    return st.builds(until_after, base, st.none() | st.integers(1, 99))


def _new_game() -> st.SearchStrategy[dict[str, Any]]:
    standard = _fields(
        variant=_maybe(st.none() | st.just("standard")),
        fen=_maybe(st.none() | st.just(STARTING_FEN)),
    )
    chess960 = _fields(
        variant=st.just("chess960"), number=_maybe(st.integers(0, 959)), fen=_maybe(st.none())
    )
    return standard | chess960


FIELDS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "hello": _fields(
        protocol=_maybe(st.integers(0, MAX_PLY)),
        client=_maybe(st.none() | st.text(max_size=200)),
    ),
    "resend": _resend(),
    "state": st.just({}),
    "moves": _fields(**{"from": _maybe(st.integers(0, MAX_PLY))}),
    "new_game": _new_game(),
    "mode": _fields(mode=st.sampled_from(["casual", "strict"])),
    "promotion": _fields(piece=st.sampled_from(["q", "r", "b", "n"])),
    "takeback": _fields(to_ply=_maybe(st.integers(0, MAX_PLY)), game=_maybe(st.integers(0, 99))),
    "clock_add": _fields(
        color=st.sampled_from(["white", "black"]),
        ms=st.integers(1, MAX_ADDED_MS),
        game=_maybe(st.integers(0, 99)),
    ),
    "show": _fields(uci=_maybe(st.none() | UCI)),
    "mark": _fields(squares=_maybe(SQUARES), blink=_maybe(SQUARES)),
    "brightness": _fields(percent=st.integers(0, 100)),
    "draw": _fields(agreed=_maybe(st.none() | st.booleans())),
    "resign": _fields(color=_maybe(st.none() | st.sampled_from(["white", "black"]))),
    "led_test": st.just({}),
    "say": _fields(what=st.sampled_from(["position", "last"]) | SQUARE),
    "settings": _fields(
        **{name: _maybe(st.integers(low, high)) for name, (low, high) in SETTINGS.items()},
        tournament=_maybe(st.booleans()),
    ),
}
IDS = st.just(OPTIONAL) | st.none() | st.integers(0, MAX_ID)


@st.composite
def wire_commands(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(HOST_TYPES))
    message: dict[str, Any] = {"type": kind, **draw(FIELDS[kind])}
    command_id = draw(IDS)
    if command_id is not OPTIONAL:
        message["id"] = command_id
    return message


def test_every_command_has_a_strategy() -> None:
    assert set(FIELDS) == set(HOST_TYPES)


@given(wire_commands())
def test_a_valid_command_reads_back_as_itself_after_writing(message: dict[str, Any]) -> None:
    command = parse_command(message)
    wire = command.to_wire()
    assert wire["type"] == message["type"]
    assert parse_command(wire) == command
    # What a command writes is its one canonical form: read and written again, unchanged.
    assert parse_command(wire).to_wire() == wire
    # And it keeps everything the host said: each field given a value comes back with
    # that value (a mark's lists without repeats, a square lit steady not also blinking).
    said = _meant(message)
    assert {name: wire.get(name) for name in said} == said


def _meant(message: dict[str, Any]) -> dict[str, Any]:
    said = {name: value for name, value in message.items() if value is not None}
    if message["type"] == "mark":
        squares = list(dict.fromkeys(message.get("squares") or []))
        blink = [s for s in dict.fromkeys(message.get("blink") or []) if s not in squares]
        said |= {"squares": squares, "blink": blink}
    return said
