"""Both clocks in a line, as a player reads them. Pure."""

from __future__ import annotations


def clock_text(white_ms: int, black_ms: int) -> str:
    """Both clocks as a player reads them: `White 4:58.2  Black 5:00.0`."""
    return f"White {_clock(white_ms)}  Black {_clock(black_ms)}"


def _clock(ms: int) -> str:
    tenths = ms // 100
    hours, rest = divmod(tenths, 36_000)
    minutes, tenths = divmod(rest, 600)
    shown = f"{minutes}:{tenths // 10:02d}.{tenths % 10}"
    return f"{hours}:{minutes:02d}:{tenths // 10:02d}" if hours else shown
