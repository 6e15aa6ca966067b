"""What the page is shown of the board's clocks and of its voice, read off the running
board for each snapshot."""

from __future__ import annotations

from reedboard.board_game import BoardGame
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.link.messages import Color
from reedboard.simweb.clock_text import shown_ms
from reedboard.simweb.page_state import ClockShown, Spoken


def spoken_shown(speaker: RecordingSpeaker) -> list[Spoken]:
    """The latest sentences, numbered from 1 for the first ever said (see `Spoken`): the
    page says each new one once."""
    said = list(speaker.said)
    first = speaker.count - len(said) + 1
    return [{"n": first + i, "text": u.text, "fleeting": u.fleeting} for i, u in enumerate(said)]


def clock_shown(board_game: BoardGame, now: int) -> ClockShown | None:
    """A timed game's clocks for the page: both times left now, as the page shows them
    (`shown_ms`), and whose runs."""
    timer = board_game.timer
    if timer is None:
        return None
    white, black = timer.left(now)
    running = timer.clocks.running
    side: Color | None = None if running is None else ("white" if running else "black")
    # To what the page shows: a running clock changes the state only when its text does.
    return {"white_ms": shown_ms(white), "black_ms": shown_ms(black), "running": side}
