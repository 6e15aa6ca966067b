"""Argument types that refuse what the board would refuse: a finite number in a range, a
whole number in a range. Usable without argparse (`reedboard run`'s plain command line is
read without it, see `plain_arguments`); argparse is loaded only to say what is wrong."""

from __future__ import annotations

import math
from collections.abc import Callable


def _refused(message: str) -> Exception:
    """argparse's error for a value its type refuses: its message is the one line shown."""
    import argparse

    return argparse.ArgumentTypeError(message)


def number_in(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high` (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise _refused(f"{text!r} is not a number from {low:g} to {high:g}")
        return value

    return parse


def whole_number_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        stripped = text.strip()
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not digits.isdigit() or not low <= int(stripped) <= high:
            raise _refused(f"{text!r} is not a whole number {low}..{high}")
        return int(stripped)

    return parse
