"""Replaying an event script through the debouncer and the arbiter that run on the board,
with the script's times as the clock. Pure: no clock, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reedboard.arbiter.arbiter import DEFAULT_KNOCK_WAIT_MS, DEFAULT_SETTLE_MS, Arbiter
from reedboard.arbiter.effects import Effect
from reedboard.arbiter.faults import follow_stuck_switch, sensor_faults
from reedboard.arbiter.mode import Mode
from reedboard.lights.scenes import scene_for
from reedboard.replay.script import Script
from reedboard.rules.game import Game
from reedboard.rules.pieces import piece_type_from_symbol
from reedboard.sensing.debounce import DEFAULT_HOLD_MS, Debouncer

TAIL_MS = 10_000  # after the last line the clock runs on, so what is pending is decided


@dataclass(frozen=True, slots=True)
class LightsChange:
    """What the LEDs show changed at `t_ms`, after the first `after` effects: `lit` maps
    each lit square's name to its role (`replay --lights`)."""

    after: int
    t_ms: int
    lit: dict[str, str]
    kind: str = "lights"

    def to_json(self) -> dict[str, Any]:
        return {"lit": self.lit}


class Replay:
    """A debouncer and an arbiter driven by timed raw sensor changes."""

    def __init__(
        self,
        game: Game,
        *,
        mode: Mode = "casual",
        settle_ms: int = DEFAULT_SETTLE_MS,
        knock_wait_ms: int = DEFAULT_KNOCK_WAIT_MS,
        hold_ms: int = DEFAULT_HOLD_MS,
        lights: bool = False,
    ) -> None:
        self.arbiter = Arbiter(game, mode=mode, settle_ms=settle_ms, knock_wait_ms=knock_wait_ms)
        self.debouncer = Debouncer(game.position.occupied, hold_ms=hold_ms)
        self.effects: list[Effect] = []
        # With lights on: each change of what the LEDs show, and how many effects came
        # before it, so that the two can be printed interleaved in time order.
        self.lights: list[LightsChange] | None = None
        self._lit: dict[str, str] = {}
        if lights:
            self.lights = []
            self._observe(0)

    def _observe(self, t_ms: int) -> None:
        """The arbiter may show something new: note it if the lit squares changed."""
        if self.lights is None:
            return
        lit = scene_for(self.arbiter.view()).lit_roles()
        if lit != self._lit:
            self._lit = lit
            self.lights.append(LightsChange(len(self.effects), t_ms, lit))

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
            changes = self.debouncer.tick(due)
            self.effects += sensor_faults(self.debouncer, self.arbiter)
            for change in changes:
                self.effects += self.arbiter.feed(change, due)
                self._observe(due)
            if not self.debouncer.busy:
                before = len(self.effects)
                self.effects += self.arbiter.tick(due)
                self.effects += follow_stuck_switch(self.debouncer, self.arbiter, due)
                self._observe(due)
                if len(self.effects) == before and self.arbiter.next_deadline() == due:
                    return  # nothing more falls due at this time

    def sensor(self, square: int, occupied: bool, t_ms: int) -> None:
        self.advance(t_ms)
        changes = self.debouncer.feed_change(square, occupied, t_ms)
        self.effects += sensor_faults(self.debouncer, self.arbiter)
        for change in changes:
            self.effects += self.arbiter.feed(change, t_ms)
            self._observe(t_ms)

    def choose(self, letter: str, t_ms: int) -> None:
        self.advance(t_ms)
        self.effects += self.arbiter.choose_promotion(piece_type_from_symbol(letter), t_ms)
        self._observe(t_ms)

    def finish(self, t_ms: int) -> None:
        self.advance(t_ms + TAIL_MS)


def replay_script(
    script: Script, *, mode: Mode | None = None, settle_ms: int | None = None
) -> list[Effect]:
    return _run(script, mode, settle_ms, lights=False).effects


def replay_with_lights(
    script: Script, *, mode: Mode | None = None, settle_ms: int | None = None
) -> list[Effect | LightsChange]:
    """The effects, and after each batch of them every change of what the LEDs show."""
    run = _run(script, mode, settle_ms, lights=True)
    out: list[Effect | LightsChange] = []
    changes = run.lights or []
    next_change = 0
    for index, effect in enumerate(run.effects):
        while next_change < len(changes) and changes[next_change].after <= index:
            out.append(changes[next_change])
            next_change += 1
        out.append(effect)
    out += changes[next_change:]
    return out


def _run(script: Script, mode: Mode | None, settle_ms: int | None, *, lights: bool) -> Replay:
    chosen: Mode = mode or ("strict" if script.mode == "strict" else "casual")
    run = Replay(
        Game(script.start),
        mode=chosen,
        settle_ms=DEFAULT_SETTLE_MS if settle_ms is None else settle_ms,
        lights=lights,
    )
    for line in script.lines:
        if line.action == "choose":
            run.choose(line.piece, line.t_ms)
        else:
            run.sensor(line.square, line.action == "place", line.t_ms)
    run.finish(script.end_ms)
    return run
