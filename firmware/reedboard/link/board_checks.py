"""The checks a message from the board must pass before a host acts on it: every field of
every message type (docs/protocol.md), as one table, so that the typed messages that
`board_messages.read_board_message` makes of them only ever hold values a host can use.
Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from reedboard.errors import InvalidInputError
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

MAX_NUMBER = 2**53 - 1  # JSON's exact integers
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
_HEX8 = re.compile(r"[0-9a-f]{8}")
_HEX16 = re.compile(r"[0-9a-f]{16}")

Check = Callable[[Any], bool]


def count(low: int = 0) -> Check:
    """A check for an integer low..2^53-1 (JSON's exact integers)."""

    def check(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= MAX_NUMBER

    check.__doc__ = f"an integer {low}..2^53-1"
    return check


_COUNT = count()


def _described(doc: str, check: Check) -> Check:
    check.__doc__ = doc
    return check


_text = _described("a string", lambda v: isinstance(v, str))
_flag = _described("true or false", lambda v: isinstance(v, bool))
_uci = _described(
    "a move such as e2e4", lambda v: isinstance(v, str) and _UCI.fullmatch(v) is not None
)
_state_clock = _described(
    "an object of white_ms and black_ms (integers 0..2^53-1), running (white, black or"
    " null) and time_control (a string)",
    lambda v: (
        isinstance(v, dict)
        and count()(v.get("white_ms"))
        and count()(v.get("black_ms"))
        and v.get("running") in ("white", "black", None)
        and isinstance(v.get("time_control"), str)
    ),
)
_squares = _described(
    "a list of squares",
    lambda v: isinstance(v, list) and all(isinstance(s, str) and s in SQUARE_NAMES for s in v),
)
_ucis = _described(
    "a list of moves such as e2e4",
    lambda v: isinstance(v, list) and all(isinstance(u, str) and _UCI.fullmatch(u) for u in v),
)
_texts = _described(
    "a list of strings", lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v)
)
_pair = _described(
    "null or two squares",
    lambda v: (
        v is None
        or (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(s, str) and s in SQUARE_NAMES for s in v)
        )
    ),
)
_result = _described(f"one of {', '.join(RESULTS)}", lambda v: v in RESULTS)
_maybe_result = _described(
    f"null or one of {', '.join(RESULTS)}", lambda v: v is None or v in RESULTS
)
_maybe_text = _described("null or a string", lambda v: v is None or isinstance(v, str))
_maybe_uci = _described("null or a move such as e2e4", lambda v: v is None or _uci(v))
_maybe_id = _described("null or an integer 0..2^53-1", lambda v: v is None or count()(v))
_digest = _described(
    "8 hexadecimal digits", lambda v: isinstance(v, str) and _HEX8.fullmatch(v) is not None
)
_occupancy = _described(
    "16 hexadecimal digits", lambda v: isinstance(v, str) and _HEX16.fullmatch(v) is not None
)


def _fen_ok(value: Any, chess960: bool) -> bool:
    if not isinstance(value, str):
        return False
    try:
        Position.from_fen(value, chess960=chess960)
    except InvalidInputError:
        return False
    return True


# The FEN fields are checked against the message's own `chess960` flag (see _fens).
_FEN = "a FEN of a legal position"

# (check, required) for each field a message type has; fields not named here pass.
Fields = dict[str, tuple[Check, bool]]
_MESSAGES: dict[str, Fields] = {
    "hello": {
        "protocol": (count(), False),  # the handshake says what a missing one means
        "session": (_text, True),
        "firmware": (_text, False),
        "board": (_text, False),
        "variant": (_text, False),
        "mode": (_text, False),
        "game": (count(), False),
        "id": (_maybe_id, False),
    },
    # An effect's event is checked by the link's event codec, from the events' types.
    "effect": {"event": (_text, True), "game": (count(), True)},
    "state": {
        "id": (_maybe_id, False),
        "game": (count(), False),
        "variant": (_text, False),
        "chess960": (_flag, True),
        "start_fen": (_text, True),
        "fen": (_text, False),
        "moves": (_ucis, True),
        "san": (_texts, False),
        "mode": (_text, False),
        "occupancy": (_occupancy, False),
        "lifted": (_squares, False),
        "missing": (_squares, False),
        "extra": (_squares, False),
        "hint": (_pair, False),
        "last_move": (_pair, False),
        "marked": (_squares, False),
        "marked_blink": (_squares, False),
        "result": (_maybe_result, False),
        "reason": (_maybe_text, False),
        "resync": (_flag, False),
        "clock": (_state_clock, False),
    },
    "moves": {
        "id": (_maybe_id, False),
        "game": (count(), False),
        "from": (count(), True),
        "moves": (_ucis, True),
        "plies": (count(), True),
        "digest": (_digest, True),
        "start_fen": (_text, False),
        "chess960": (_flag, False),
        "result": (_maybe_result, False),
        "reason": (_maybe_text, False),
        "clock": (_state_clock, False),
    },
    "ack": {
        "id": (_maybe_id, False),
        "fen": (_text, False),
        "mode": (_text, False),
        "uci": (_maybe_uci, False),
        "piece": (_text, False),
        "result": (_result, False),
        "reason": (_text, False),
        "settle_ms": (count(), False),
        "castle_wait_ms": (count(), False),
        "knock_wait_ms": (count(), False),
        "percent": (count(), False),
        "squares": (_squares, False),
        "blink": (_squares, False),
        "text": (_text, False),
        "tournament": (_flag, False),
        "clock": (_state_clock, False),
    },
    "error": {
        "id": (_maybe_id, False),
        "code": (_text, False),
        "message": (_text, False),
        "command": (_maybe_text, False),
        "field": (_maybe_text, False),
    },
    "alive": {},
}
# The positions a host builds games from: each must be one the rules can set up.
_FENS = {"state": "start_fen", "moves": "start_fen"}


def board_message_problem(message: Mapping[str, Any]) -> str | None:
    """What is wrong with a decoded board message, in a few words naming the message and
    the field; None when it may be acted on. Unknown types and events pass (the protocol
    adds them), with their `seq` checked; an effect's event is the event codec's to check."""
    kind = message.get("type")
    if not isinstance(kind, str):
        return "a message without a type"
    name = kind if kind != "effect" else f"{message.get('event')!s:.20} effect"
    if not _COUNT(message.get("seq")):
        return f"{name:.40}: seq must be {_COUNT.__doc__}, not {shown(message.get('seq'))}"
    for field, (check, required) in _MESSAGES.get(kind, {}).items():
        if field not in message:
            if required:
                return f"{name}: {field} is missing"
            continue
        if not check(message[field]):
            return f"{name}: {field} must be {check.__doc__}, not {shown(message[field])}"
    fen_field = _FENS.get(kind)
    chess960 = bool(message.get("chess960"))
    if fen_field is not None and fen_field in message and not _fen_ok(message[fen_field], chess960):
        return f"{name}: {fen_field} must be {_FEN}, not {shown(message[fen_field])}"
    return None


def shown(value: Any) -> str:
    text = "null" if value is None else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."
