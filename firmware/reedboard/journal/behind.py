"""Is the journal behind the board? A journal that lost its last plies (a card that dropped
its last writes when the power went) resumes an earlier position than the one on the
board, and the start-up self-test would then blame the wiring for every square the lost
plies changed.

What can be told from the sensors alone: whether the squares occupied on the board are
those of the journal's position after a few more legal plies. Only that is said, and only
when such plies are found within a small search (the fewest of them, up to `MOST_PLIES`);
anything else is left to the self-test. The sensors cannot say which plies: several
games can leave the same squares occupied."""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard

MOST_PLIES = 4
# Positions looked at, at most: half a second here, a few seconds on a Pi at start, and
# only when a resumed game does not match the board.
BUDGET = 4_000


def plies_ahead(
    position: Position, occupancy: Bitboard, *, most: int = MOST_PLIES, budget: int = BUDGET
) -> int | None:
    """The fewest legal plies from `position` after which exactly `occupancy` is occupied
    (1 to `most`); None when none was found within `budget` positions."""
    if position.occupied == occupancy or occupancy.bit_count() > position.occupied.bit_count():
        return None  # no move puts a piece on the board: a switch that reads one is a fault
    spent = [0]
    for plies in range(1, most + 1):
        if _reaches(position, occupancy, plies, spent, budget):
            return plies
        if spent[0] >= budget:
            return None
    return None


def _reaches(
    position: Position, target: Bitboard, plies: int, spent: list[int], budget: int
) -> bool:
    if plies == 0:
        return position.occupied == target
    if _fewest_plies(position.occupied, target) > plies:
        return False
    for move in position.legal_moves():
        spent[0] += 1
        if spent[0] >= budget:
            return False
        if _reaches(position.play(move), target, plies - 1, spent, budget):
            return True
    return False


def _fewest_plies(occupied: Bitboard, target: Bitboard) -> int:
    """A lower bound on the plies that turn `occupied` into `target`: a ply fills at most
    two squares and empties at most two (castling; en passant empties two)."""
    filled = (target & ~occupied).bit_count()
    emptied = (occupied & ~target).bit_count()
    return (max(filled, emptied) + 1) // 2


def behind_line(plies: int, journaled: int) -> str:
    """The one log line that says so, and what to do."""
    more = "one more ply" if plies == 1 else f"{plies} more plies"
    return (
        f"the board shows the journal's game ({journaled} plies) with {more} played on it: "
        "the journal may be behind (its last writes lost when the power went), not the "
        f"wiring; the game resumes at ply {journaled}: put the pieces back as the lights "
        "show and play the lost moves again"
    )
