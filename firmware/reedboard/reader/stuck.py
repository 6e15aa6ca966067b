"""A switch stuck open or closed: a mismatch that one square alone keeps up, and nothing
the hands do changes it (see waits.STUCK_MS)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reedboard.reader import verdicts
from reedboard.reader.waits import STUCK_MS
from reedboard.rules.squares import Square

if TYPE_CHECKING:
    from reedboard.reader.protocol import Reader


def stuck_switch(reader: Reader, now_ms: int) -> tuple[Square, bool] | None:
    """A switch the game shows stuck, and the state it should read: a mismatch is on
    show, the board has been still for STUCK_MS since, and one square alone, read the
    other way, makes the board the position or one legal move (see STUCK_MS)."""
    since = stuck_since(reader)
    if since is None or now_ms - since < STUCK_MS:
        return None
    return stuck_candidate(reader)


def stuck_since(reader: Reader) -> int | None:
    if reader.mismatch is None or reader.setup is not None or not verdicts.mismatch_shown(reader):
        return None
    if stuck_candidate(reader) is None:
        return None
    return max(reader.mismatch.t_ms, reader.last_change_ms)


def stuck_candidate(reader: Reader) -> tuple[Square, bool] | None:
    table = reader.table
    found: set[tuple[Square, bool]] = set()
    for board in (table.occupancy, *(shape.occupancy for shape in table.shapes)):
        differ = reader.sensors ^ board
        if differ and not differ & (differ - 1):
            sq = differ.bit_length() - 1
            found.add((sq, bool(board >> sq & 1)))
    # A switch seen changing since the position stood was working then: of two
    # readings, the one that needs a square that never changed is the stuck one.
    changed = {event.square for event in reader.episode.events}
    quiet = {candidate for candidate in found if candidate[0] not in changed}
    if len(quiet) == 1:
        return quiet.pop()
    return found.pop() if len(found) == 1 and not quiet else None
