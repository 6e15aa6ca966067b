"""The messages of protocol version 1 (docs/protocol.md): what each side may send, and
the checks a message from the host must pass before the board acts on it. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reedboard.errors import InvalidInputError
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
)
SETTINGS = {"settle_ms": (1, 60_000), "castle_wait_ms": (1, 60_000)}


class ProtocolError(InvalidInputError):
    """A message that is well framed but cannot be acted on; `code` names the fault for
    the `error` reply (`unknown_type`, `bad_argument`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Command:
    """A checked message from the host: `kind` is its `type`, `id` the number the host
    gave it (echoed in the reply), `args` its fields with defaults filled in."""

    kind: str
    id: int | None = None
    args: dict[str, Any] = field(default_factory=dict)


def _opt(message: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = message.get(name, default)
    if value is None or value is default:
        return value
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ProtocolError("bad_argument", f"{name} must not be true or false")
    if not isinstance(value, kind):
        raise ProtocolError("bad_argument", f"{name} has the wrong type")
    return value


def _choice(message: dict[str, Any], name: str, choices: tuple[str, ...], default: Any) -> Any:
    value = message.get(name, default)
    if value is not None and value not in choices:
        raise ProtocolError("bad_argument", f"{name} must be one of {', '.join(choices)}")
    return value


def _hello(m: dict[str, Any]) -> dict[str, Any]:
    return {"protocol": _opt(m, "protocol", int, None), "client": _opt(m, "client", str, "")}


def _resend(m: dict[str, Any]) -> dict[str, Any]:
    after = _opt(m, "after", int, None)
    if after is None or after < 0:
        raise ProtocolError("bad_argument", "resend needs after, a sequence number >= 0")
    until = _opt(m, "until", int, None)
    if until is not None and until <= after:
        raise ProtocolError("bad_argument", "resend's until must be beyond after")
    return {
        "after": after,
        "session": _opt(m, "session", str, ""),
        "until": until,
        "resync": _choice(m, "resync", ("state", "hello"), "state"),
    }


def _moves(m: dict[str, Any]) -> dict[str, Any]:
    start = _opt(m, "from", int, 0)
    if start < 0:
        raise ProtocolError("bad_argument", "from must be a ply number >= 0")
    return {"from": start}


def _new_game(m: dict[str, Any]) -> dict[str, Any]:
    variant = _choice(m, "variant", ("standard", "chess960"), "standard")
    number = _opt(m, "number", int, None)
    fen = _opt(m, "fen", str, None)
    if number is not None and not 0 <= number <= 959:
        raise ProtocolError("bad_argument", "number must be a Chess960 start position 0..959")
    if number is not None and variant != "chess960":
        raise ProtocolError("bad_argument", "number needs variant chess960")
    return {"variant": variant, "number": number, "fen": fen}


def _mode(m: dict[str, Any]) -> dict[str, Any]:
    mode = _choice(m, "mode", ("casual", "strict"), None)
    if mode is None:
        raise ProtocolError("bad_argument", "mode needs mode: casual or strict")
    return {"mode": mode}


def _promotion(m: dict[str, Any]) -> dict[str, Any]:
    piece = _choice(m, "piece", ("q", "r", "b", "n"), None)
    if piece is None:
        raise ProtocolError("bad_argument", "promotion needs piece: q, r, b or n")
    return {"piece": piece}


def _show(m: dict[str, Any]) -> dict[str, Any]:
    return {"uci": _opt(m, "uci", str, None)}


def _square_names(m: dict[str, Any], name: str) -> list[str]:
    value = m.get(name, [])
    if value is None:
        return []
    if not isinstance(value, list) or not all(v in SQUARE_NAMES for v in value):
        raise ProtocolError("bad_argument", f"{name} must be a list of squares such as e4")
    return list(dict.fromkeys(value))


def _mark(m: dict[str, Any]) -> dict[str, Any]:
    squares = _square_names(m, "squares")
    blink = [name for name in _square_names(m, "blink") if name not in squares]
    return {"squares": squares, "blink": blink}


def _brightness(m: dict[str, Any]) -> dict[str, Any]:
    percent = _opt(m, "percent", int, None)
    if percent is None or not 0 <= percent <= 100:
        raise ProtocolError("bad_argument", "brightness needs percent, 0..100")
    return {"percent": percent}


def _draw(m: dict[str, Any]) -> dict[str, Any]:
    return {"agreed": bool(_opt(m, "agreed", bool, False))}


def _resign(m: dict[str, Any]) -> dict[str, Any]:
    return {"color": _choice(m, "color", ("white", "black"), None)}


def _settings(m: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, value in m.items():
        if name in ("type", "id"):
            continue
        if name not in SETTINGS:
            raise ProtocolError("bad_argument", f"unknown setting {name!r}")
        low, high = SETTINGS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ProtocolError("bad_argument", f"{name} must be an integer {low}..{high}")
        values[name] = value
    return values


def _nothing(_m: dict[str, Any]) -> dict[str, Any]:
    return {}


_ARGUMENTS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
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
}


def message_id(message: dict[str, Any]) -> int | None:
    value = message.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_command(message: dict[str, Any]) -> Command:
    """A decoded frame from the host as a `Command`, or `ProtocolError`."""
    kind = message["type"]
    check = _ARGUMENTS.get(kind)
    if check is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
    return Command(kind, message_id(message), check(message))
