"""Reading the fields of a host command with a check each: the first wrong one raises a
`ProtocolError` naming the command and the field, so a client's author sees at once what
to fix. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from reedboard.errors import InvalidInputError
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

# Every number a host sends fits JSON's exact integers; anything larger is noise or an
# attack, and would only make the board compute with it.
MAX_ID = 2**53 - 1
MAX_PLY = 2**31 - 1

T = TypeVar("T")
C = TypeVar("C", bound=str)


class ProtocolError(InvalidInputError):
    """A message that is well framed but cannot be acted on. `code` names the fault for
    the `error` reply (`unknown_type`, `bad_argument`); `command` and `field` name the
    command and the field that are wrong."""

    def __init__(
        self, code: str, message: str, *, command: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.command = command
        self.field = field


class _Missing:
    """The mark of a field that has no default: absent, it is an error."""


REQUIRED = _Missing()


class WireFields:
    """The fields of one command as the host sent them, read with a check each."""

    def __init__(self, message: Mapping[str, Any], kind: str) -> None:
        self.message = message
        self.kind = kind

    def bad(self, name: str, text: str) -> ProtocolError:
        return ProtocolError(
            "bad_argument", f"{self.kind}: {name} {text}", command=self.kind, field=name
        )

    def _given(self, name: str, *, null_is_absent: bool) -> tuple[bool, Any]:
        """Whether the field is there to be checked, and its value."""
        value = self.message.get(name, REQUIRED)
        absent = value is REQUIRED or (null_is_absent and value is None)
        return (not absent, value)

    def integer(self, name: str, low: int, high: int, default: T | _Missing = REQUIRED) -> int | T:
        """An integer low..high; absent: the default. Null is not a number: refused."""
        given, value = self._given(name, null_is_absent=False)
        if not given:
            if isinstance(default, _Missing):
                raise self.bad(name, f"is missing: an integer {low}..{high}")
            return default
        # bool is an int to Python, and a float (1.0, NaN, Infinity) is not a count.
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.bad(name, f"must be an integer {low}..{high}, not {shown(value)}")
        return value

    # In the text, choice and list fields null stands for absent: a host sends
    # `"uci": null` to clear a lit move and `"color": null` for the side to move.

    def text(self, name: str, default: T | _Missing = REQUIRED, *, limit: int = 200) -> str | T:
        given, value = self._given(name, null_is_absent=not isinstance(default, _Missing))
        if not given:
            if isinstance(default, _Missing):
                raise self.bad(name, "is missing: a string")
            return default
        if not isinstance(value, str) or len(value) > limit:
            raise self.bad(name, f"must be a string of at most {limit} characters")
        return value

    def choice(self, name: str, choices: tuple[C, ...], default: C | _Missing = REQUIRED) -> C:
        chosen = self.optional_choice(name, choices, required=isinstance(default, _Missing))
        if chosen is None:
            assert not isinstance(default, _Missing)
            return default
        return chosen

    def optional_choice(
        self, name: str, choices: tuple[C, ...], *, required: bool = False
    ) -> C | None:
        """One of `choices`, or None when absent (null included) and not `required`."""
        given, value = self._given(name, null_is_absent=not required)
        if not given:
            if required:
                raise self.bad(name, f"is missing: one of {', '.join(choices)}")
            return None
        for choice in choices:
            if isinstance(value, str) and value == choice:
                return choice
        raise self.bad(name, f"must be one of {', '.join(choices)}, not {shown(value)}")

    def boolean(self, name: str, default: bool) -> bool:
        value = self.message.get(name, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.bad(name, f"must be true or false, not {shown(value)}")
        return value

    def squares(self, name: str) -> tuple[str, ...]:
        value = self.message.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or len(value) > 64:
            raise self.bad(name, "must be a list of squares such as e4")
        for item in value:
            if not isinstance(item, str) or item not in SQUARE_NAMES:
                raise self.bad(name, f"must be a list of squares such as e4, not {shown(item)}")
        return tuple(dict.fromkeys(value))

    def uci(self, name: str) -> str | None:
        """A move in UCI notation (its legality is the game's to judge), or None."""
        value = self.message.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or not is_uci(value):
            raise self.bad(name, f"must be a move such as e2e4 or e7e8q, not {shown(value)}")
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


def is_uci(text: str) -> bool:
    if len(text) not in (4, 5) or text[:2] not in SQUARE_NAMES or text[2:4] not in SQUARE_NAMES:
        return False
    return len(text) == 4 or text[4] in "qrbn"


def shown(value: object) -> str:
    """A wrong value as an error message shows it: short, whatever was sent."""
    text = "null" if value is None else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."
