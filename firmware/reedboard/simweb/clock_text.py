"""A chess clock's time as players read it on a screen, in the simulator's words and on
both pages (board.js's `clockText` says it the same way; a test holds both to one table):
whole seconds, tenths only in the last ten seconds, hours from an hour up, each figure
rounded down, so 0:00.0 only once the time is gone.

The page is sent the clocks to the precision it shows (`shown_ms`): a running clock then
changes the page's state once a second, ten times a second in its last ten, not at every
push."""

from __future__ import annotations

TENTHS_BELOW_MS = 10_000  # below it a clock shows tenths of a second (as on Lichess)


def clock_text(ms: int) -> str:
    """ "4:58", "0:09.7" in the last ten seconds, "1:30:00" from an hour up."""
    left = max(0, ms)
    if left < TENTHS_BELOW_MS:
        return f"0:{left // 1000:02d}.{left % 1000 // 100}"
    hours, rest = divmod(left // 1000, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def shown_ms(ms: int) -> int:
    """`ms` rounded down to what the clock shows of it (a tenth in the last ten seconds,
    a second before): the same text, `clock_text(shown_ms(ms)) == clock_text(ms)`."""
    left = max(0, ms)
    step = 100 if left < TENTHS_BELOW_MS else 1000
    return left - left % step
