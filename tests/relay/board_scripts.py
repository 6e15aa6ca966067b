"""Event scripts for fake boards that end a game each way the Laws and the sensors allow
(mate, the kings' resignation and draw, a flag), then have the pieces swept off in any
order, and maybe set up again. Each script is written out whole: a sensor change per
line, the grammar of docs/reference.md's "Command line"."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FILES = "abcdefgh"
START_SQUARES = [f"{f}{r}" for r in (1, 2, 7, 8) for f in FILES]
# The start position's pieces, pawns first and kings last, as people set up a board.
SET_UP_ORDER = (
    [f"{f}{r}" for r in (2, 7) for f in FILES]
    + [f"{f}{r}" for r in (1, 8) for f in "abcdfgh"]
    + ["e1", "e8"]
)


@dataclass
class Script:
    headers: list[str] = field(default_factory=lambda: ["@start standard"])
    lines: list[str] = field(default_factory=list)
    occupied: set[str] = field(default_factory=lambda: set(START_SQUARES))
    t_ms: int = 0

    def lift(self, square: str, *, after_ms: int = 0, note: str = "") -> None:
        assert square in self.occupied, square
        self.occupied.discard(square)
        self._line("lift", square, after_ms, note)

    def place(self, square: str, *, after_ms: int = 0, note: str = "") -> None:
        assert square not in self.occupied, square
        self.occupied.add(square)
        self._line("place", square, after_ms, note)

    def move(self, uci: str, *, after_ms: int = 900) -> None:
        """A clean move: the piece lifted, then set down (a capture's victim first)."""
        start, target = uci[:2], uci[2:4]
        if target in self.occupied:
            self.lift(target, after_ms=after_ms)
            after_ms = 300
        self.lift(start, after_ms=after_ms)
        self.place(target, after_ms=400)

    def kings_to(self, white_on: str, black_on: str, kings: tuple[str, str]) -> None:
        """The result told with the kings: both lifted together, set on the centre, left
        there past the 3 s the board waits before the result stands."""
        self.lift(kings[0], after_ms=1000, note="both kings in the hands")
        self.lift(kings[1], after_ms=60)
        self.place(white_on, after_ms=500)
        self.place(black_on, after_ms=300)
        self.t_ms += 4000  # the result stands after 3 s

    def sweep(self, seed: int) -> None:
        """Every piece off the board, as hands clear it: one by one, two or three lifted
        in the same instant, some slid along the board first (their waypoints set down,
        which may be squares a piece could legally move to) and then off."""
        rng = random.Random(seed)
        squares = sorted(self.occupied)
        rng.shuffle(squares)
        self.t_ms += 1500
        while squares:
            kind = rng.random()
            if kind < 0.3 and len(squares) >= 2:
                together = [squares.pop() for _ in range(min(len(squares), rng.randint(2, 3)))]
                for number, square in enumerate(together):
                    self.lift(square, after_ms=0 if number else rng.randint(80, 250))
            elif kind < 0.55:
                self._slide_off(squares.pop(), rng)
            else:
                self.lift(squares.pop(), after_ms=rng.randint(60, 400))

    def drag(self, uci: str, *, rest_ms: int = 700) -> None:
        """A piece taken to where it could legally move and left there past the settle
        time (as a hand clearing the board pushes pieces about), then off the board."""
        self.lift(uci[:2], after_ms=300)
        self.place(uci[2:4], after_ms=200, note="a move's target, after the result")
        self.lift(uci[2:4], after_ms=rest_ms)

    def set_up(self) -> None:
        for number, square in enumerate(SET_UP_ORDER):
            self.place(square, after_ms=2500 if number == 0 else 180)
        self.t_ms += 2000

    def text(self) -> str:
        return "\n".join([*self.headers, *self.lines]) + "\n"

    def _slide_off(self, square: str, rng: random.Random) -> None:
        """Lifted, set down on a neighbouring empty square or two on the way, then off."""
        self.lift(square, after_ms=rng.randint(80, 300))
        at = square
        for _ in range(rng.randint(1, 2)):
            nxt = _neighbour(at, rng, self.occupied)
            if nxt is None:
                break
            self.place(nxt, after_ms=rng.randint(40, 150), note="slid")
            self.lift(nxt, after_ms=rng.randint(20, 120))
            at = nxt

    def _line(self, kind: str, square: str, after_ms: int, note: str) -> None:
        self.t_ms += after_ms
        comment = f"  # {note}" if note else ""
        self.lines.append(f"{self.t_ms} {kind} {square}{comment}")


def _neighbour(square: str, rng: random.Random, occupied: set[str]) -> str | None:
    f, r = FILES.index(square[0]), int(square[1])
    steps = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
    rng.shuffle(steps)
    for df, dr in steps:
        if 0 <= f + df < 8 and 1 <= r + dr <= 8:
            target = f"{FILES[f + df]}{r + dr}"
            if target not in occupied:
                return target
    return None


def fools_mate() -> Script:
    script = Script()
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        script.move(uci)
    return script


def quiet_opening() -> Script:
    """Four knight moves: the centre squares stay empty for the kings."""
    script = Script()
    for uci in ("g1f3", "g8f6", "b1c3", "b8c6"):
        script.move(uci)
    return script


def resignation() -> Script:
    script = quiet_opening()
    script.kings_to("e4", "d5", ("e1", "e8"))  # both on light squares: 1-0
    return script


def draw() -> Script:
    script = quiet_opening()
    script.kings_to("d4", "d5", ("e1", "e8"))  # one light, one dark: a draw
    return script


def flag() -> Script:
    """A timed game, 0.1+0 (six seconds each): Black thinks too long."""
    script = Script(headers=["@start standard", "@clock 0.1+0"])
    for uci in ("e2e4", "e7e5", "g1f3"):
        script.move(uci)
    script.t_ms += 8000  # Black's six seconds run out
    return script
