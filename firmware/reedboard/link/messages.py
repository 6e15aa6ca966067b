"""The messages of protocol version 1 (docs/protocol.md): what each side may send, and
the checks a message from the host must pass before the board acts on it. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reedboard.arbiter.mode import MODES
from reedboard.errors import InvalidInputError
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

PROTOCOL_VERSION = 1

# Board -> host. Every one carries `seq`.
BOARD_TYPES = ("hello", "effect", "state", "moves", "ack", "error", "alive")
# Host -> board.
HOST_TYPES = (
    "hello",
    "resend",
    "state",
    "moves",
    "new_game",
    "mode",
    "promotion",
    "takeback",
    "show",
    "mark",
    "brightness",
    "draw",
    "resign",
    "led_test",
    "settings",
    "say",
)
SETTINGS = {"settle_ms": (1, 60_000), "castle_wait_ms": (1, 60_000)}


class ProtocolError(InvalidInputError):
    """A message that is well framed but cannot be acted on. `code` names the fault for
    the `error` reply (`unknown_type`, `bad_argument`); `command` and `field` name the
    command and the field that are wrong, so a client's author sees at once what to fix."""

    def __init__(
        self, code: str, message: str, *, command: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.command = command
        self.field = field

    def reply_fields(self) -> dict[str, Any]:
        """The fields of the `error` reply, besides `id`."""
        return {
            "code": self.code,
            "message": str(self),
            "command": self.command,
            "field": self.field,
        }


@dataclass(frozen=True, slots=True)
class Command:
    """A checked message from the host: `kind` is its `type`, `id` the number the host
    gave it (echoed in the reply), `args` its fields with defaults filled in."""

    kind: str
    id: int | None = None
    args: dict[str, Any] = field(default_factory=dict)


# Every number a host sends fits JSON's exact integers; anything larger is noise or an
# attack, and would only make the board compute with it.
MAX_ID = 2**53 - 1
MAX_PLY = 2**31 - 1
_MISSING = object()


class _Fields:
    """The fields of one command, read with a check each: the first wrong one raises a
    `ProtocolError` naming the command and the field."""

    def __init__(self, message: dict[str, Any], kind: str) -> None:
        self.message = message
        self.kind = kind

    def bad(self, name: str, text: str) -> ProtocolError:
        return ProtocolError(
            "bad_argument", f"{self.kind}: {name} {text}", command=self.kind, field=name
        )

    def integer(self, name: str, low: int, high: int, default: Any = _MISSING) -> Any:
        """An integer low..high; absent: the default. Null is not a number: refused."""
        value = self.message.get(name, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise self.bad(name, f"is missing: an integer {low}..{high}")
            return default
        # bool is an int to Python, and a float (1.0, NaN, Infinity) is not a count.
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.bad(name, f"must be an integer {low}..{high}, not {_shown(value)}")
        return value

    # In the text, choice and list fields null stands for absent: a host sends
    # `"uci": null` to clear a lit move and `"color": null` for the side to move.

    def text(self, name: str, default: Any = _MISSING, *, limit: int = 200) -> Any:
        value = self.message.get(name, _MISSING)
        if value is _MISSING or (value is None and default is not _MISSING):
            if default is _MISSING:
                raise self.bad(name, "is missing: a string")
            return default
        if not isinstance(value, str) or len(value) > limit:
            raise self.bad(name, f"must be a string of at most {limit} characters")
        return value

    def choice(self, name: str, choices: tuple[str, ...], default: Any = _MISSING) -> Any:
        value = self.message.get(name, _MISSING)
        if value is _MISSING or (value is None and default is not _MISSING):
            if default is _MISSING:
                raise self.bad(name, f"is missing: one of {', '.join(choices)}")
            return default
        if not isinstance(value, str) or value not in choices:
            raise self.bad(name, f"must be one of {', '.join(choices)}, not {_shown(value)}")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self.message.get(name, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.bad(name, f"must be true or false, not {_shown(value)}")
        return value

    def squares(self, name: str) -> list[str]:
        value = self.message.get(name)
        if value is None:
            return []
        if not isinstance(value, list) or len(value) > 64:
            raise self.bad(name, "must be a list of squares such as e4")
        for item in value:
            if not isinstance(item, str) or item not in SQUARE_NAMES:
                raise self.bad(name, f"must be a list of squares such as e4, not {_shown(item)}")
        return list(dict.fromkeys(value))

    def uci(self, name: str) -> str | None:
        """A move in UCI notation (its legality is the game's to judge), or None."""
        value = self.message.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or not _is_uci(value):
            raise self.bad(name, f"must be a move such as e2e4 or e7e8q, not {_shown(value)}")
        return value

    def fen(self, name: str, *, chess960: bool) -> str | None:
        value = self.message.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or len(value) > 120:
            raise self.bad(name, "must be a FEN string")
        try:
            Position.from_fen(value, chess960=chess960)
        except InvalidInputError as error:
            raise self.bad(name, f"is not a position: {error}") from None
        return value


def _is_uci(text: str) -> bool:
    if len(text) not in (4, 5) or text[:2] not in SQUARE_NAMES or text[2:4] not in SQUARE_NAMES:
        return False
    return len(text) == 4 or text[4] in "qrbn"


def _shown(value: Any) -> str:
    """A wrong value as the error message shows it: short, whatever was sent."""
    text = "null" if value is None else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _hello(f: _Fields) -> dict[str, Any]:
    return {"protocol": f.integer("protocol", 0, MAX_PLY, None), "client": f.text("client", "")}


def _resend(f: _Fields) -> dict[str, Any]:
    after = f.integer("after", 0, MAX_ID)
    until = f.integer("until", 0, MAX_ID, None)
    if until is not None and until <= after:
        raise f.bad("until", "must be beyond after")
    return {
        "after": after,
        "session": f.text("session", ""),
        "until": until,
        "resync": f.choice("resync", ("state", "hello"), "state"),
    }


def _moves(f: _Fields) -> dict[str, Any]:
    return {"from": f.integer("from", 0, MAX_PLY, 0)}


def _new_game(f: _Fields) -> dict[str, Any]:
    variant = f.choice("variant", ("standard", "chess960"), "standard")
    number = f.integer("number", 0, 959, None)
    fen = f.fen("fen", chess960=variant == "chess960")
    if number is not None and variant != "chess960":
        raise f.bad("number", "needs variant chess960")
    return {"variant": variant, "number": number, "fen": fen}


def _mode(f: _Fields) -> dict[str, Any]:
    return {"mode": f.choice("mode", MODES)}


def _promotion(f: _Fields) -> dict[str, Any]:
    return {"piece": f.choice("piece", ("q", "r", "b", "n"))}


def _show(f: _Fields) -> dict[str, Any]:
    return {"uci": f.uci("uci")}


def _mark(f: _Fields) -> dict[str, Any]:
    squares = f.squares("squares")
    blink = [name for name in f.squares("blink") if name not in squares]
    return {"squares": squares, "blink": blink}


def _brightness(f: _Fields) -> dict[str, Any]:
    return {"percent": f.integer("percent", 0, 100)}


def _draw(f: _Fields) -> dict[str, Any]:
    return {"agreed": f.boolean("agreed", False)}


def _resign(f: _Fields) -> dict[str, Any]:
    return {"color": f.choice("color", ("white", "black"), None)}


def _settings(f: _Fields) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in f.message:
        if name in ("type", "id"):
            continue
        if name not in SETTINGS:
            raise f.bad(name, f"is not a setting ({', '.join(SETTINGS)})")
        low, high = SETTINGS[name]
        values[name] = f.integer(name, low, high)
    return values


def _say(f: _Fields) -> dict[str, Any]:
    what = f.text("what", limit=8)
    if what not in ("position", "last") and what not in SQUARE_NAMES:
        raise f.bad("what", f"must be position, last or a square such as e4, not {_shown(what)}")
    return {"what": what}


def _nothing(_f: _Fields) -> dict[str, Any]:
    return {}


_ARGUMENTS: dict[str, Callable[[_Fields], dict[str, Any]]] = {
    "hello": _hello,
    "resend": _resend,
    "state": _nothing,
    "moves": _moves,
    "new_game": _new_game,
    "mode": _mode,
    "promotion": _promotion,
    "takeback": _nothing,
    "show": _show,
    "mark": _mark,
    "brightness": _brightness,
    "draw": _draw,
    "resign": _resign,
    "led_test": _nothing,
    "settings": _settings,
    "say": _say,
}


def message_id(message: dict[str, Any]) -> int | None:
    """The message's `id` when it is a usable one, for the reply; otherwise None."""
    value = message.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        return None
    return value


def parse_command(message: dict[str, Any]) -> Command:
    """A decoded frame from the host as a `Command` whose every field has been checked,
    or a `ProtocolError` naming the command and the field: the one place where what a
    host sends is judged, so the board acts only on values it can carry out."""
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(
            "bad_argument", "a message needs a string type", command=None, field="type"
        )
    check = _ARGUMENTS.get(kind)
    if check is None:
        raise ProtocolError(
            "unknown_type", f"unknown message type {_shown(kind)}", command=kind[:40], field="type"
        )
    fields = _Fields(message, kind)
    if "id" in message and message["id"] is not None and message_id(message) is None:
        raise fields.bad("id", f"must be an integer 0..{MAX_ID}, not {_shown(message['id'])}")
    return Command(kind, message_id(message), check(fields))
