"""Replaying an event script through the debouncer and the arbiter that run on the board,
with the script's times as the clock. Pure: no clock, no I/O."""

from __future__ import annotations

from reedboard.arbiter.arbiter import DEFAULT_SETTLE_MS, Arbiter, Mode
from reedboard.arbiter.effects import Effect
from reedboard.replay.script import Script
from reedboard.rules.game import Game
from reedboard.rules.pieces import piece_type_from_symbol
from reedboard.sensing.debounce import DEFAULT_HOLD_MS, Debouncer

TAIL_MS = 10_000  # after the last line the clock runs on, so what is pending is decided


class Replay:
    """A debouncer and an arbiter driven by timed raw sensor changes."""

    def __init__(
        self,
        game: Game,
        *,
        mode: Mode = "casual",
        settle_ms: int = DEFAULT_SETTLE_MS,
        hold_ms: int = DEFAULT_HOLD_MS,
    ) -> None:
        self.arbiter = Arbiter(game, mode=mode, settle_ms=settle_ms)
        self.debouncer = Debouncer(game.position.occupied, hold_ms=hold_ms)
        self.effects: list[Effect] = []

    def advance(self, t_ms: int) -> None:
        """Let time run to `t_ms`, deciding everything that falls due on the way."""
        while True:
            due = self.debouncer.next_deadline()
            if not self.debouncer.busy:
                arbiter_due = self.arbiter.next_deadline()
                if arbiter_due is not None and (due is None or arbiter_due < due):
                    due = arbiter_due
            if due is None or due > t_ms:
                return
            for change in self.debouncer.tick(due):
                self.effects += self.arbiter.feed(change, due)
            if not self.debouncer.busy:
                before = len(self.effects)
                self.effects += self.arbiter.tick(due)
                if len(self.effects) == before and self.arbiter.next_deadline() == due:
                    return  # nothing more falls due at this time

    def sensor(self, square: int, occupied: bool, t_ms: int) -> None:
        self.advance(t_ms)
        for change in self.debouncer.feed_change(square, occupied, t_ms):
            self.effects += self.arbiter.feed(change, t_ms)

    def choose(self, letter: str, t_ms: int) -> None:
        self.advance(t_ms)
        self.effects += self.arbiter.choose_promotion(piece_type_from_symbol(letter), t_ms)

    def finish(self, t_ms: int) -> None:
        self.advance(t_ms + TAIL_MS)


def replay_script(
    script: Script, *, mode: Mode | None = None, settle_ms: int | None = None
) -> list[Effect]:
    chosen: Mode = mode or ("strict" if script.mode == "strict" else "casual")
    run = Replay(
        Game(script.start),
        mode=chosen,
        settle_ms=DEFAULT_SETTLE_MS if settle_ms is None else settle_ms,
    )
    for line in script.lines:
        if line.action == "choose":
            run.choose(line.piece, line.t_ms)
        else:
            run.sensor(line.square, line.action == "place", line.t_ms)
    run.finish(script.end_ms)
    return run.effects
