"""A plain TOML file read without tomllib: importing tomllib (its regular expressions,
`datetime`) and parsing a board's file cost the board's first scan about 0.1 s at a Pi
Zero 2 W's speed (bench/startup.py), for a file of a few tables of plain keys.

A file is plain when each line is blank, a comment, a table `[name]` or `key = value`
(bare names, each once, every key in a table), with an optional comment after it; a
value is a string in double quotes without escapes, a decimal integer, a decimal number
with a fraction and no exponent, `true`, `false`, or an array of such numbers on one
line. Then the data are tomllib's (tests/test_plain_toml.py checks it); for any other
file `plain_toml` gives None and tomllib reads it, with its messages.
"""

from __future__ import annotations

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DIGITS = frozenset("0123456789")
_MAX_DIGITS = 18  # TOML's integers are 64-bit: longer ones are tomllib's to judge
_NOT_PLAIN = object()  # a value this reader leaves to tomllib


def plain_toml(text: str) -> dict[str, dict[str, object]] | None:
    """The tables of a plain TOML `text` (see the module's doc), or None if it is not."""
    if "\r" in text:
        return None
    data: dict[str, dict[str, object]] = {}
    table: dict[str, object] | None = None
    for line in text.split("\n"):
        if any((c < " " and c != "\t") or c == "\x7f" for c in line):
            return None
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            name, closed, rest = stripped[1:].partition("]")
            if not closed or not _bare(name) or name in data or not _ends(rest):
                return None
            table = data[name] = {}
            continue
        key, equals, value_text = stripped.partition("=")
        key = key.strip(" \t")
        if table is None or not equals or not _bare(key) or key in table:
            return None
        value = _value(value_text.strip(" \t"))
        if value is _NOT_PLAIN:
            return None
        table[key] = value
    return data


def _bare(name: str) -> bool:
    return bool(name) and _BARE.issuperset(name)


def _ends(rest: str) -> bool:
    """Whether what follows a value or a table's name is nothing or a comment."""
    rest = rest.lstrip(" \t")
    return not rest or rest.startswith("#")


def _value(text: str) -> object:
    if text.startswith('"'):
        inside, closed, rest = text[1:].partition('"')
        return inside if closed and "\\" not in inside and _ends(rest) else _NOT_PLAIN
    if text.startswith("["):
        inside, closed, rest = text[1:].partition("]")
        if not closed or not _ends(rest):
            return _NOT_PLAIN
        items = [item.strip(" \t") for item in inside.split(",")]
        if items[-1] == "":  # a trailing comma, or an empty array
            items.pop()
        values = [_number(item) for item in items]
        return _NOT_PLAIN if _NOT_PLAIN in values else values
    word, _, rest = text.partition("#")
    word = word.rstrip(" \t")
    if rest and not text[len(word) :].startswith((" ", "\t")):
        return _NOT_PLAIN  # `1#x`: tomllib's to judge
    if word in ("true", "false"):
        return word == "true"
    return _number(word)


def _number(word: str) -> object:
    """A decimal integer, or a decimal number with a fraction (no exponent, no `_`)."""
    whole, point, fraction = word.lstrip("+-").partition(".")
    if len(word) - len(word.lstrip("+-")) > 1 or not _integer(whole):
        return _NOT_PLAIN
    if not point:
        return int(word)
    if fraction and _DIGITS.issuperset(fraction):
        return float(word)
    return _NOT_PLAIN


def _integer(digits: str) -> bool:
    """Digits TOML takes as a decimal integer: no leading zero, not too long."""
    if not digits or not _DIGITS.issuperset(digits) or len(digits) > _MAX_DIGITS:
        return False
    return digits == "0" or not digits.startswith("0")
