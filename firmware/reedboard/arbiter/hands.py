"""Which piece is where: the hypotheses a presence-only board keeps about its pieces.

A lift takes the piece on a square into the hands; a place puts one of the pieces in the
hands down, and the sensors cannot say which. So every place branches into one hypothesis
per kind of piece in the hands. A hypothesis is the placement (64 FEN letters or '.',
a1 first) and the hands (sorted FEN letters). A piece that comes from off the board (a
captured piece put back, a promoted piece) is '?' until something tells what it is.

Hypotheses that lead to the same state merge, and the set is capped, keeping the ones
closest to the start: real hands rarely juggle more than two pieces at once.
"""

from __future__ import annotations

from reedboard.rules.squares import Square

UNKNOWN = "?"
MAX_HYPOTHESES = 64

State = tuple[str, str]  # (placement, hands)


class Hands:
    """The set of hypotheses since a known placement."""

    __slots__ = ("start", "states")

    def __init__(self, placement: str, hands: str = "") -> None:
        self.start = placement
        self.states: set[State] = {(placement, "".join(sorted(hands)))}

    def lift(self, sq: Square) -> None:
        states = set()
        for placement, hands in self.states:
            piece = placement[sq]
            if piece == ".":
                continue  # this hypothesis disagrees with the sensors: drop it
            lifted = placement[:sq] + "." + placement[sq + 1 :]
            states.add((lifted, "".join(sorted(hands + piece))))
            if piece != UNKNOWN:
                # A piece may be seen arriving before it is seen leaving: a slide whose
                # magnet closes the next switch before the last one opens, or a piece put
                # down first and its square cleared after. So the lifted piece may be the
                # one already standing where something unknown was placed.
                for index, there in enumerate(lifted):
                    if there == UNKNOWN:
                        states.add((lifted[:index] + piece + lifted[index + 1 :], hands))
        if not states:  # the sensors disagree with every hypothesis: follow the sensors
            placement, hands = min(self.states)
            states = {(placement[:sq] + "." + placement[sq + 1 :], hands)}
        self.states = states
        self._cap()

    def place(self, sq: Square) -> None:
        states = set()
        for placement, hands in self.states:
            if placement[sq] != ".":
                continue
            before, after = placement[:sq], placement[sq + 1 :]
            if not hands:
                states.add((before + UNKNOWN + after, ""))
                continue
            for index, piece in enumerate(hands):
                if index and hands[index - 1] == piece:
                    continue  # the same kind of piece twice: one branch is enough
                states.add((before + piece + after, hands[:index] + hands[index + 1 :]))
        if not states:
            placement, hands = min(self.states)
            states = {(placement[:sq] + UNKNOWN + placement[sq + 1 :], hands)}
        self.states = states
        self._cap()

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

    def _distance(self, state: State) -> int:
        placement, hands = state
        return sum(1 for a, b in zip(placement, self.start, strict=True) if a != b) + len(hands)

    def _cap(self) -> None:
        if len(self.states) > MAX_HYPOTHESES:
            ranked = sorted(self.states, key=lambda s: (self._distance(s), s))
            self.states = set(ranked[:MAX_HYPOTHESES])
