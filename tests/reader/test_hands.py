"""The hypotheses about which piece is where: kept distances stay exact, and the cap keeps
exactly the hypotheses a plain recount and full sort would keep."""

from __future__ import annotations

import operator
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from reedboard.reader.hands import MAX_HYPOTHESES, UNKNOWN, Hands, State
from reedboard.reader.move_reader import hands_for
from reedboard.reader.table import EMPTY, placement_of
from reedboard.rules.position import Position
from reedboard.rules.squares import squares_of


class Recounted:
    """The plain model: every state's distance counted over all 64 squares, and the cap
    a full sort by (distance, state)."""

    def __init__(self, hands: Hands) -> None:
        self.start = hands.start
        self.states: set[State] = set(hands.states)

    def distance(self, state: State) -> int:
        placement, held = state
        assert len(placement) == len(self.start)
        # Every square compared, in C (operator.ne mapped over the two strings, twice as
        # fast as a generator of pairs; str.__ne__ is slower than both): the cap ranks
        # thousands of states a step, and the generator was most of this test's time.
        differing: int = sum(map(operator.ne, placement, self.start))
        return differing + len(held)

    def lift(self, sq: int) -> None:
        states = set()
        for placement, held in self.states:
            piece = placement[sq]
            if piece == EMPTY:
                continue
            lifted = placement[:sq] + EMPTY + placement[sq + 1 :]
            states.add((lifted, "".join(sorted(held + piece))))
            if piece != UNKNOWN:
                for index, there in enumerate(lifted):
                    if there == UNKNOWN:
                        states.add((lifted[:index] + piece + lifted[index + 1 :], held))
        if not states:
            placement, held = min(self.states)
            states = {(placement[:sq] + EMPTY + placement[sq + 1 :], held)}
        self.states = states
        self.cap()

    def place(self, sq: int) -> None:
        states = set()
        for placement, held in self.states:
            if placement[sq] != EMPTY:
                continue
            before, after = placement[:sq], placement[sq + 1 :]
            if not held:
                states.add((before + UNKNOWN + after, ""))
            for index, piece in enumerate(held):
                states.add((before + piece + after, held[:index] + held[index + 1 :]))
        if not states:
            placement, held = min(self.states)
            states = {(placement[:sq] + UNKNOWN + placement[sq + 1 :], held)}
        self.states = states
        self.cap()

    def cap(self) -> None:
        if len(self.states) > MAX_HYPOTHESES:
            ranked = sorted(self.states, key=lambda s: (self.distance(s), s))
            self.states = set(ranked[:MAX_HYPOTHESES])


def follow(seed: int, steps: int, start_sensors: int | None = None) -> None:
    """Random lifts and places (as the sensors allow) through both, compared at each step."""
    rng = random.Random(seed)
    position = Position.standard()
    sensors = position.occupied if start_sensors is None else start_sensors
    hands = hands_for(position, sensors)
    model = Recounted(hands)
    assert placement_of(position) == hands.start
    for _ in range(steps):
        occupied = list(squares_of(sensors))
        empty = [sq for sq in range(64) if not sensors >> sq & 1]
        lift = bool(occupied) and (not empty or rng.random() < 0.5)
        sq = rng.choice(occupied if lift else empty)
        sensors ^= 1 << sq
        if lift:
            hands.lift(sq)
            model.lift(sq)
        else:
            hands.place(sq)
            model.place(sq)
        assert set(hands.states) == model.states
        for state, distance in hands.states.items():
            assert distance == hands.distance(state)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_random_hands_keep_exact_distances_and_the_same_hypotheses(seed: int, steps: int) -> None:
    follow(seed, steps)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_unknown_pieces_at_the_start_keep_exact_distances(seed: int) -> None:
    """Sensors that do not show the position (pieces missing, unknown ones extra) start
    the hypotheses with pieces in the hands and unknowns on the board."""
    rng = random.Random(seed)
    sensors = 0
    for sq in range(64):
        if rng.random() < 0.4:
            sensors |= 1 << sq
    follow(seed, 40, sensors)


def test_the_whole_set_in_the_hands_and_put_back_keeps_the_cap() -> None:
    position = Position.standard()
    hands = hands_for(position, position.occupied)
    model = Recounted(hands)
    squares = list(squares_of(position.occupied))
    for sq in squares:
        hands.lift(sq)
        model.lift(sq)
    random.Random(3).shuffle(squares)
    for sq in squares:
        hands.place(sq)
        model.place(sq)
        assert len(hands.states) <= MAX_HYPOTHESES
        assert set(hands.states) == model.states
    assert (placement_of(position), "") in hands.states
