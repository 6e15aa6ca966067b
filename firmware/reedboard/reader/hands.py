"""Which piece is where: the hypotheses a presence-only board keeps about its pieces.

A lift takes the piece on a square into the hands; a place puts one of the pieces in the
hands down, and the sensors cannot say which. So every place branches into one hypothesis
per kind of piece in the hands. A hypothesis is the placement (64 FEN letters or '.',
a1 first) and the hands (sorted FEN letters). A piece that comes from off the board (a
captured piece put back, a promoted piece) is '?' until something tells what it is.

Hypotheses that lead to the same state merge, and the set is capped, keeping the ones
closest to the start: real hands rarely juggle more than two pieces at once. Each
hypothesis carries its distance from the start (squares that differ, plus pieces in the
hands), updated from its parent's in a few steps rather than recounted over 64 squares:
with the whole set in the hands, a place branches 64 hypotheses twelve ways, and the cap
keeps the 64 nearest by a partial selection, not a full sort.
"""

from __future__ import annotations

from heapq import nsmallest

from reedboard.reader.table import placement_of
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, squares_of

UNKNOWN = "?"
EMPTY = "."
MAX_HYPOTHESES = 64

State = tuple[str, str]  # (placement, hands)


class Hands:
    """The set of hypotheses since a known placement."""

    __slots__ = ("start", "states")

    def __init__(self, placement: str, hands: str = "", *, start: str | None = None) -> None:
        """`start` is the placement distances are counted from (by default `placement`)."""
        self.start = placement if start is None else start
        state = (placement, "".join(sorted(hands)))
        # Every hypothesis, with its distance from the start.
        self.states: dict[State, int] = {state: self.distance(state)}

    def copy(self) -> Hands:
        other = Hands.__new__(Hands)
        other.start = self.start
        other.states = dict(self.states)
        return other

    def lift(self, sq: Square) -> None:
        start = self.start
        emptied_differs = start[sq] != EMPTY  # sq empty differs from the start
        states: dict[State, int] = {}
        for (placement, hands), distance in self.states.items():
            piece = placement[sq]
            if piece == EMPTY:
                continue  # this hypothesis disagrees with the sensors: drop it
            lifted = placement[:sq] + EMPTY + placement[sq + 1 :]
            off = distance - (piece != start[sq]) + emptied_differs  # sq emptied, hands not yet
            states[(lifted, "".join(sorted(hands + piece)))] = off + 1
            if piece != UNKNOWN:
                # A piece may be seen arriving before it is seen leaving: a slide whose
                # magnet closes the next switch before the last one opens, or a piece put
                # down first and its square cleared after. So the lifted piece may be the
                # one already standing where something unknown was placed.
                index = lifted.find(UNKNOWN)
                while index >= 0:
                    # An unknown piece always differs from the start; the piece may not.
                    states[(lifted[:index] + piece + lifted[index + 1 :], hands)] = (
                        off - 1 + (piece != start[index])
                    )
                    index = lifted.find(UNKNOWN, index + 1)
        if not states:  # the sensors disagree with every hypothesis: follow the sensors
            placement, hands = min(self.states)
            state = (placement[:sq] + EMPTY + placement[sq + 1 :], hands)
            states = {state: self.distance(state)}
        self.states = states
        self._cap()

    def place(self, sq: Square) -> None:
        here = self.start[sq]
        empty_differed = here != EMPTY  # sq empty differed from the start
        limit = self._place_limit(sq, here, empty_differed)
        states, cut = self._placed(sq, limit)
        if cut and len(states) < MAX_HYPOTHESES:
            # Branches of different hypotheses that met in one state were counted apart,
            # so the limit cut too soon: build them all and let the cap choose.
            states, _cut = self._placed(sq, 1 << 30)
        if not states:
            placement, hands = min(self.states)
            state = (placement[:sq] + UNKNOWN + placement[sq + 1 :], hands)
            states = {state: self.distance(state)}
        self.states = states
        self._cap()

    def _placed(self, sq: Square, limit: int) -> tuple[dict[State, int], bool]:
        """Every hypothesis's branches for a piece put down on `sq` no further than
        `limit` from the start, and whether any was left out for being further."""
        here = self.start[sq]
        empty_differed = here != EMPTY
        states: dict[State, int] = {}
        cut = False
        for (placement, hands), distance in self.states.items():
            if placement[sq] != EMPTY:
                continue
            base = distance - empty_differed  # sq no longer empty
            if base - 1 > limit:
                cut = True
                continue  # none of its branches is near enough to be kept
            before, after = placement[:sq], placement[sq + 1 :]
            if not hands:
                states[(before + UNKNOWN + after, "")] = base + 1
                continue
            previous = ""
            for index, piece in enumerate(hands):
                if piece == previous:
                    continue  # the same kind of piece twice: one branch is enough
                previous = piece
                branch = base + (piece != here) - 1
                if branch <= limit:
                    states[(before + piece + after, hands[:index] + hands[index + 1 :])] = branch
                else:
                    cut = True
        return states, cut

    def _place_limit(self, sq: Square, here: str, empty_differed: bool) -> int:
        """The greatest distance a branch of a place on `sq` can have and still be kept,
        counted before any branch is built. Each hypothesis branches once per kind of
        piece in its hands, the right piece for the square one nearer than the others,
        and no two branches are the same state, so counting them by distance tells where
        the cap will cut."""
        counts: dict[int, int] = {}
        total = 0
        for (placement, hands), distance in self.states.items():
            if placement[sq] != EMPTY:
                continue
            base = distance - empty_differed
            if not hands:
                counts[base + 1] = counts.get(base + 1, 0) + 1
                total += 1
                continue
            kinds = len(set(hands))
            if here in hands:  # '.' never is
                counts[base - 1] = counts.get(base - 1, 0) + 1
                kinds -= 1
            if kinds:
                counts[base] = counts.get(base, 0) + kinds
            total += kinds + (here in hands)
        if total <= MAX_HYPOTHESES:
            return 1 << 30  # everything is kept
        seen = 0
        for distance in sorted(counts):
            seen += counts[distance]
            if seen >= MAX_HYPOTHESES:
                return distance
        return 1 << 30

    def keep_where(self, sq: Square, piece: str) -> None:
        """Drop the hypotheses that do not have `piece` on `sq`, when some do: what has
        since become certain about that square."""
        kept = {state: d for state, d in self.states.items() if state[0][sq] == piece}
        if kept:
            self.states = kept

    def piece_at(self, sq: Square) -> str:
        """What stands on `sq` in most hypotheses ('.' if nothing, '?' if unknown)."""
        counts: dict[str, int] = {}
        for placement, _hands in self.states:
            counts[placement[sq]] = counts.get(placement[sq], 0) + 1
        if not counts:
            return self.start[sq]
        best = max(counts.values())
        choices = sorted(piece for piece, count in counts.items() if count == best)
        return self.start[sq] if self.start[sq] in choices else choices[0]

    def distance(self, state: State) -> int:
        """How far `state` is from the start, counted in full (what the kept distances
        are updated to match)."""
        placement, hands = state
        if placement == self.start:
            # Every new episode after a move starts here: 64 squares compared in C, not
            # one by one (a fifth of the work of starting an episode).
            return len(hands)
        return sum(1 for a, b in zip(placement, self.start, strict=True) if a != b) + len(hands)

    def _cap(self) -> None:
        """Keep the MAX_HYPOTHESES nearest, ties by the state itself: exactly the first
        ones of the full sort, found without sorting everything."""
        if len(self.states) > MAX_HYPOTHESES:
            kept = nsmallest(MAX_HYPOTHESES, [(d, s) for s, d in self.states.items()])
            self.states = {state: distance for distance, state in kept}


def hands_for(position: Position, sensors: Bitboard) -> Hands:
    """Hypotheses that start from the position as the sensors show it: a piece missing
    from its square is in the hands, an unexpected one is unknown."""
    placement = placement_of(position)
    changed = sensors ^ position.occupied
    if not changed:  # (every new episode after a move: only the squares that differ count)
        return Hands(placement, start=placement)
    cells = list(placement)
    in_hands = ""
    for sq in squares_of(changed):
        if cells[sq] != EMPTY:
            in_hands += cells[sq]
            cells[sq] = EMPTY
        else:
            cells[sq] = UNKNOWN
    return Hands("".join(cells), in_hands, start=placement)
