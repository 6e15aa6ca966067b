"""A plain command line read without argparse: on a Pi Zero 2 W, importing argparse and
building every command's parser takes about a fifth of a second, before the board's
first scan (bench/startup.py). The board's own command line (`reedboard run --config FILE
--journal FILE`, as its service starts it) is plain; anything else, a mistake included,
goes to argparse, which says what is wrong as ever.

Options are written as argparse's `add_argument(flag, **settings)` takes them, once, for
both readers. A command line is plain when each of its options is one of them, whole (no
abbreviation), given once, as `--flag VALUE` or `--flag=VALUE` (a value starting with
`-` is not plain) or a bare switch, and each value is one its type and choices take: then
the values are the ones argparse gives (tests/test_plain_arguments.py checks it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# add_argument's settings read here; an option with any other is never plain.
_UNDERSTOOD = {"type", "choices", "default", "metavar", "help", "action"}


def destination(flag: str) -> str:
    """The attribute argparse stores an option in: `--settle-ms` -> `settle_ms`."""
    return flag.lstrip("-").replace("-", "_")


def defaults(options: Mapping[str, Mapping[str, Any]]) -> dict[str, object]:
    """Each option's value when it is not given, as argparse sets it."""
    values: dict[str, object] = {}
    for flag, settings in options.items():
        default = settings.get("default", False if _is_switch(settings) else None)
        if isinstance(default, str) and "type" in settings:
            default = settings["type"](default)
        values[destination(flag)] = default
    return values


def plain_values(
    tokens: Sequence[str], options: Mapping[str, Mapping[str, Any]]
) -> dict[str, object] | None:
    """The values argparse would give `tokens` read with `options` (flag -> settings), or
    None if the command line is not plain (see the module's doc)."""
    values = defaults(options)
    seen: set[str] = set()
    rest = iter(tokens)
    for token in rest:
        flag, equals, text = token.partition("=")
        settings = options.get(flag)
        if settings is None or flag in seen or not _UNDERSTOOD.issuperset(settings):
            return None
        seen.add(flag)
        if _is_switch(settings):
            if equals:
                return None
            values[destination(flag)] = True
            continue
        if settings.get("action", "store") != "store":
            return None
        if not equals:
            text = next(rest, "-")  # none left: not plain
            if text.startswith("-"):
                return None
        found, value = _converted(text, settings)
        if not found:
            return None
        values[destination(flag)] = value
    return values


def _is_switch(settings: Mapping[str, Any]) -> bool:
    return settings.get("action") == "store_true"


def _converted(text: str, settings: Mapping[str, Any]) -> tuple[bool, object]:
    """(True, the value) if the option's type and choices take `text`; else (False, None)."""
    convert = settings.get("type")
    try:
        value = text if convert is None else convert(text)
    except Exception:  # whatever a type raises, argparse's message will say it
        return False, None
    if "choices" in settings and value not in settings["choices"]:
        return False, None
    return True, value
