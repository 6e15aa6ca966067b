"""The chess clock of a timed game: time controls, the clocks as a pure value, the
timing of a whole game (moves, presses, takebacks, the flag) and whether a side still
has mating material when the other's flag falls.

Not the board's time source: that is `reedboard.hal.clock`. This package never reads a
clock; every time comes in as an argument, in the board's milliseconds.
"""
