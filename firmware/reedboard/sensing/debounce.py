"""The debouncer: raw sensor readings with times in, debounced square changes out.

A reed switch chatters for a few milliseconds when a magnet arrives or leaves, and a magnet
sliding past can flick a neighbour for a moment. A square's new state therefore counts only
once it has held, unchanged, for `hold_ms`. The change is then reported with the time it
*first* appeared (the start of the burst of chatter that led to it), so later timing
analysis sees when the hand really acted, not when the debouncer made up its mind.

Default `hold_ms` = 12:
- above the worst switch bounce (5 ms) with margin, so chatter never makes an event, even
  when bounce edges are a few ms apart;
- well below the shortest real state a player makes: in a fast capture the victim's square
  is empty for about 30 ms before the capturing piece lands. With up to 5 ms of chatter at
  each end, 20 ms or more of clean vacancy remain, and a scan every 5 ms (200 Hz) sees at
  least 15 ms of it, so the vacancy is always reported;
- short enough that the board reacts within about 20 ms.

Changes come out in order of their times: a change that is already decided waits while
another square's burst that began earlier is still undecided, so the arbiter sees lifts and
places in the order the hands made them.

A faulty switch must not blind the board. One that chatters faster than `hold_ms` never
settles, and while it is undecided every later change elsewhere would wait behind it. A
square whose burst has gone on for `CHATTER_MS` with `CHATTER_EDGES` edges (no hand makes
that: bounce is over in 5 ms) is isolated: it keeps its last settled state, its edges are
no longer waited for, and a `SensorNotice` says so (`take_notices`). When it has read the
same for `RECOVER_MS` it rejoins, with a change if it now reads otherwise. A switch stuck
open or closed makes no edges at all; only the game can tell (see `arbiter.faults`), and
`isolate` then leaves it out with the state the game says, until it reads so itself.

Two ways to feed it, which can be mixed:
- a scan loop: `feed(bitboard, t_ms)` with each full scan;
- an event source (a replayed script, a simulator): `feed_change(square, occupied, t_ms)` at
  each raw change, and `tick(t_ms)` whenever time passes without one.
Time only comes in as arguments; the debouncer never reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.errors import InvalidInputError
from reedboard.rules.squares import Bitboard, Square, square_name, squares_of

DEFAULT_HOLD_MS = 12
# A burst of at least this many edges lasting at least this long is a faulty switch: a
# hand's bounce is over within 5 ms, and a magnet sliding past flicks a square once.
CHATTER_EDGES = 8
CHATTER_MS = 60
# An isolated square that has read the same for this long is trusted again.
RECOVER_MS = 5000


@dataclass(frozen=True, slots=True)
class SquareChange:
    """Square `square` became occupied (or empty) at `t_ms`, after debouncing."""

    square: Square
    occupied: bool
    t_ms: int

    def __str__(self) -> str:
        return f"{square_name(self.square)} {'occupied' if self.occupied else 'empty'} at {self.t_ms} ms"


@dataclass(frozen=True, slots=True)
class SensorNotice:
    """Square `square`'s switch was isolated as faulty (`kind` "chattering"), or trusted
    again ("recovered"), at `t_ms`; `occupied` is the state the board keeps for it."""

    square: Square
    kind: str
    occupied: bool
    t_ms: int

    def __str__(self) -> str:
        return f"{square_name(self.square)} {self.kind} at {self.t_ms} ms"


@dataclass(slots=True)
class _Burst:
    """Raw changes on one square not yet decided: since when, the latest edge, how many."""

    start: int
    last_edge: int
    edges: int = 1


class Debouncer:
    """Turns raw occupancy readings into `SquareChange`s (see the module's docstring)."""

    def __init__(self, initial: Bitboard = 0, *, hold_ms: int = DEFAULT_HOLD_MS) -> None:
        """`initial` is the occupancy taken as settled at the start (the first scan, or the
        start position); `hold_ms` how long a new state must hold before it counts."""
        if hold_ms < 1:
            raise InvalidInputError(f"hold_ms must be at least 1, got {hold_ms}")
        self.hold_ms = hold_ms
        self._raw = initial
        self._stable = initial
        self._bursts: dict[Square, _Burst] = {}
        self._decided: list[SquareChange] = []
        self._now: int | None = None
        self._isolated: dict[Square, int] = {}  # faulty square -> its latest raw edge
        self._stuck: set[Square] = set()  # of those, the ones the game found stuck
        self._notices: list[SensorNotice] = []

    @property
    def occupancy(self) -> Bitboard:
        """The debounced occupancy: every change reported so far applied to `initial`
        (changes decided but still held back for ordering are included)."""
        return self._stable

    @property
    def raw(self) -> Bitboard:
        """The latest raw reading."""
        return self._raw

    @property
    def faulty(self) -> Bitboard:
        """The squares isolated as faulty now."""
        bits = 0
        for sq in self._isolated:
            bits |= 1 << sq
        return bits

    def take_notices(self) -> list[SensorNotice]:
        """The squares isolated or trusted again since the last call."""
        notices, self._notices = self._notices, []
        return notices

    @property
    def busy(self) -> bool:
        """Whether some square is still undecided or some change is held back."""
        return bool(self._bursts or self._decided)

    def next_deadline(self) -> int | None:
        """The earliest time at which `tick` can release something, or None when nothing
        is undecided: an event-driven caller sleeps until then."""
        due = [burst.last_edge + self.hold_ms for burst in self._bursts.values()]
        for sq, last_edge in self._isolated.items():
            rejoin = self._rejoin_time(sq, last_edge)
            if rejoin is not None:
                due.append(rejoin)
        return min(due, default=None)

    def feed(self, bitboard: Bitboard, t_ms: int) -> list[SquareChange]:
        """A full scan taken at `t_ms`. A square seen changed here is taken to have changed
        at `t_ms`; a new state counts once scans have seen it for `hold_ms`. Returns the
        changes decided, in order of time."""
        self._advance(t_ms)
        changed = bitboard ^ self._raw
        if not changed and not self._bursts and not self._decided and not self._isolated:
            return []  # the common case in a scan loop: nothing moves
        for sq in squares_of(changed):
            self._edge(sq, t_ms)
        self._raw = bitboard
        return self._release(t_ms)

    def feed_change(self, square: Square, occupied: bool, t_ms: int) -> list[SquareChange]:
        """One square's raw sensor changed at exactly `t_ms` (times never decrease). States
        are known exactly between calls, so a state that held `hold_ms` up to `t_ms` counts
        before this change is applied. Returns the changes decided, in order of time."""
        self._advance(t_ms)
        if not 0 <= square < 64:
            raise InvalidInputError(f"square number {square} is outside 0..63")
        released = self._release(t_ms)
        bit = 1 << square
        if bool(self._raw & bit) != occupied:
            self._edge(square, t_ms)
            self._raw ^= bit
        return released

    def tick(self, t_ms: int) -> list[SquareChange]:
        """Time has reached `t_ms` with no raw change since the last call: release every
        change that has now held for `hold_ms`. Returns them in order of time."""
        self._advance(t_ms)
        return self._release(t_ms)

    def flush(self, t_ms: int) -> list[SquareChange]:
        """Same as `tick`: a name that reads well at the end of a replay."""
        return self.tick(t_ms)

    def _advance(self, t_ms: int) -> None:
        if self._now is not None and t_ms < self._now:
            raise InvalidInputError(f"time went backwards: {t_ms} ms after {self._now} ms")
        self._now = t_ms

    def _edge(self, square: Square, t_ms: int) -> None:
        if square in self._isolated:
            self._isolated[square] = t_ms  # still faulty: it must be quiet to rejoin
            return
        burst = self._bursts.get(square)
        if burst is None:
            self._bursts[square] = _Burst(t_ms, t_ms)
            return
        burst.last_edge = t_ms
        burst.edges += 1
        if burst.edges >= CHATTER_EDGES and t_ms - burst.start >= CHATTER_MS:
            # No hand does this: stop waiting for it, keep what it last read settled.
            del self._bursts[square]
            self._isolated[square] = t_ms
            occupied = bool(self._stable >> square & 1)
            self._notices.append(SensorNotice(square, "chattering", occupied, t_ms))

    def isolate(self, square: Square, occupied: bool, t_ms: int) -> list[SquareChange]:
        """The game shows `square`'s switch stuck: leave it out, taking it to read
        `occupied`, until it reads so itself. Returns the change this makes to the
        debounced occupancy, if any."""
        self._advance(t_ms)
        self._bursts.pop(square, None)
        self._isolated[square] = t_ms
        self._stuck.add(square)
        self._notices.append(SensorNotice(square, "stuck", occupied, t_ms))
        bit = 1 << square
        if bool(self._stable & bit) == occupied:
            return []
        self._stable ^= bit
        return [SquareChange(square, occupied, t_ms)]

    def _rejoin_time(self, sq: Square, last_edge: int) -> int | None:
        """When an isolated square may be trusted again: a chattering one after a quiet
        spell; a stuck one once it has read the state kept for it for `hold_ms` (never,
        while it still reads otherwise)."""
        if sq not in self._stuck:
            return last_edge + RECOVER_MS
        if (self._raw ^ self._stable) >> sq & 1:
            return None
        return last_edge + self.hold_ms

    def _recover(self, t_ms: int) -> None:
        """Isolated squares rejoin when `_rejoin_time` says; one that now reads otherwise
        than the state kept for it reports the change now (when it happened is not
        known)."""
        for sq, last_edge in list(self._isolated.items()):
            rejoin = self._rejoin_time(sq, last_edge)
            if rejoin is None or t_ms < rejoin:
                continue
            del self._isolated[sq]
            self._stuck.discard(sq)
            bit = 1 << sq
            if (self._raw ^ self._stable) & bit:
                self._stable ^= bit
                self._decided.append(SquareChange(sq, bool(self._raw & bit), t_ms))
            occupied = bool(self._stable & bit)
            self._notices.append(SensorNotice(sq, "recovered", occupied, t_ms))

    def _release(self, t_ms: int) -> list[SquareChange]:
        if self._isolated:
            self._recover(t_ms)
        deadline = t_ms - self.hold_ms
        settled = [sq for sq, burst in self._bursts.items() if burst.last_edge <= deadline]
        for sq in settled:
            burst = self._bursts.pop(sq)
            bit = 1 << sq
            if (self._raw ^ self._stable) & bit:
                self._stable ^= bit
                self._decided.append(SquareChange(sq, bool(self._raw & bit), burst.start))
            # else: the burst ended where it began, so it was chatter: nothing happened.
        if not self._decided:
            return []
        # At the same millisecond a lift goes before a place: a hand can only put down a
        # piece it holds (a slide leaving one square as it reaches the next).
        self._decided.sort(key=lambda change: (change.t_ms, change.occupied, change.square))
        # Hold back what an undecided earlier burst could still precede.
        horizon = min((b.start for b in self._bursts.values()), default=None)
        if horizon is None:
            out, self._decided = self._decided, []
            return out
        cut = 0
        while cut < len(self._decided) and self._decided[cut].t_ms <= horizon:
            cut += 1
        out, self._decided = self._decided[:cut], self._decided[cut:]
        return out
