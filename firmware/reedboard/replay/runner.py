"""Replaying an event script through the board's own game (`BoardGame`: the debouncer and
the arbiter that run on the board), with the script's times as the clock. A thin loop:
each line is fed the way the board feeds a sensor change or a host's promotion choice.
Pure: no clock, no I/O."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from reedboard.board_game import BoardGame, Settings, players_command
from reedboard.chess_clock.time_control import TimeControl
from reedboard.events import Effect
from reedboard.hal.sensor_line import ArbiterAddition, PromotionChoice, players_action
from reedboard.lights.scenes import scene_for
from reedboard.reader.mode import Mode
from reedboard.reader.move_reader import DEFAULT_KNOCK_WAIT_MS, DEFAULT_SETTLE_MS, MoveReader
from reedboard.replay.script import Script
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import DEFAULT_HOLD_MS, Debouncer

TAIL_MS = 10_000  # after the last line the clock runs on, so what is pending is decided
# The Chess960 position a board's own gesture draws: fixed, so a replay is the same every
# time (the arbiter's own default).
REPLAY_SEED = 0


@dataclass(frozen=True, slots=True)
class LightsChange:
    """What the LEDs show changed at `t_ms`, after the first `after` effects: `lit` maps
    each lit square's name to its role (`replay --lights`)."""

    after: int
    t_ms: int
    lit: dict[str, str]
    kind: str = "lights"

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"lit": self.lit}


class Replay:
    """The board's game driven by timed raw sensor changes."""

    def __init__(
        self,
        game: Game,
        *,
        mode: Mode = "casual",
        settle_ms: int = DEFAULT_SETTLE_MS,
        knock_wait_ms: int = DEFAULT_KNOCK_WAIT_MS,
        hold_ms: int = DEFAULT_HOLD_MS,
        lights: bool = False,
        sensors: Bitboard | None = None,
        clock: TimeControl | None = None,
        clock_buttons: bool = False,
    ) -> None:
        """`sensors`: what the sensors read at the start (default: the start position);
        `clock`: a timed game's control, its time stopped by presses with `clock_buttons`."""
        settings = Settings(
            mode=mode,
            settle_ms=settle_ms,
            knock_wait_ms=knock_wait_ms,
            hold_ms=hold_ms,
            time_control=clock,
            clock_buttons=clock_buttons,
        )
        occupancy = game.position.occupied if sensors is None else sensors
        self.board_game = BoardGame(game, occupancy, settings, rng=random.Random(REPLAY_SEED))
        self.effects: list[Effect] = []
        # With lights on: each change of what the LEDs show, and how many effects came
        # before it, so that the two can be printed interleaved in time order.
        self.lights: list[LightsChange] | None = None
        self._lit: dict[str, str] = {}
        # The effect each change of the lights came after (None: those already out), for
        # a clock press may yet be told ahead of effects decided after it.
        self._anchors: list[Effect | None] = []
        if lights:
            self.lights = []
            self._observe([], 0)
            self.board_game.on_step = lambda effects, t_ms: self._observe(effects, t_ms)

    @property
    def arbiter(self) -> MoveReader:
        return self.board_game.arbiter

    @property
    def debouncer(self) -> Debouncer:
        return self.board_game.debouncer

    def _observe(self, pending: list[Effect], t_ms: int) -> None:
        """The arbiter may show something new: note it if the lit squares changed.
        `pending`: effects of the call under way, not yet in `effects`."""
        assert self.lights is not None
        low = self.board_game.low_time(t_ms)
        lit = scene_for(self.arbiter.view(), low_time=low).lit_roles()
        if lit != self._lit:
            self._lit = lit
            self.lights.append(LightsChange(len(self.effects) + len(pending), t_ms, lit))
            self._anchors.append(pending[-1] if pending else None)

    def lights_in_place(self) -> list[LightsChange]:
        """The changes of the lights, each after the effect it followed."""
        where = {id(effect): index for index, effect in enumerate(self.effects)}
        placed = []
        for change, anchor in zip(self.lights or [], self._anchors, strict=True):
            index = None if anchor is None else where.get(id(anchor))
            placed.append(change if index is None else replace(change, after=index + 1))
        return placed

    def advance(self, t_ms: int) -> None:
        """Let time run to `t_ms`, deciding everything that falls due on the way."""
        self._low_time_by(t_ms)
        self.effects += self.board_game.advance(t_ms)

    def _low_time_by(self, t_ms: int) -> None:
        """With lights on: a running clock that falls under ten seconds by `t_ms` lights
        its player's back rank at that moment, as the board shows it within a scan. Time
        runs to each such moment first (the board's loop passes through it too)."""
        while self.lights is not None:
            when = self.board_game.low_time_from()
            if when is None or when > t_ms or when <= (self.board_game.reached or 0):
                return  # none runs low by then, or it already did
            self.effects += self.board_game.advance(when)  # the time reached: at most once
            self._observe([], when)

    def sensor(self, square: Square, occupied: bool, t_ms: int) -> None:
        self._low_time_by(t_ms)
        self.effects += self.board_game.sense(square, occupied, t_ms)

    def choose(self, letter: str, t_ms: int) -> None:
        """The host picks the piece for the next promotion, as its command would."""
        self._low_time_by(t_ms)
        answer = self.board_game.carry_out(players_command(PromotionChoice(letter)), t_ms)
        self.effects += answer.effects
        if self.lights is not None:
            self._observe([], t_ms)

    def add_time(self, added: ArbiterAddition, t_ms: int) -> None:
        """The arbiter adds time to a player's clock, as its command would."""
        self._low_time_by(t_ms)
        self.effects += self.board_game.carry_out(players_command(added), t_ms).effects

    def press(self, white: bool, t_ms: int) -> None:
        """A player presses their side of the clock."""
        self._low_time_by(t_ms)
        self.effects += self.board_game.press(white, t_ms)

    def finish(self, t_ms: int) -> None:
        self.advance(t_ms + TAIL_MS)


def replay_script(
    script: Script,
    *,
    mode: Mode | None = None,
    settle_ms: int | None = None,
    knock_wait_ms: int | None = None,
) -> list[Effect]:
    return _run(script, mode, settle_ms, knock_wait_ms, lights=False).effects


def replay_with_lights(
    script: Script,
    *,
    mode: Mode | None = None,
    settle_ms: int | None = None,
    knock_wait_ms: int | None = None,
) -> list[Effect | LightsChange]:
    """The effects, and after each batch of them every change of what the LEDs show."""
    run = _run(script, mode, settle_ms, knock_wait_ms, lights=True)
    out: list[Effect | LightsChange] = []
    changes = run.lights_in_place()
    next_change = 0
    for index, effect in enumerate(run.effects):
        while next_change < len(changes) and changes[next_change].after <= index:
            out.append(changes[next_change])
            next_change += 1
        out.append(effect)
    out += changes[next_change:]
    return out


def _run(
    script: Script,
    mode: Mode | None,
    settle_ms: int | None,
    knock_wait_ms: int | None,
    *,
    lights: bool,
) -> Replay:
    chosen: Mode = mode or ("strict" if script.mode == "strict" else "casual")
    run = Replay(
        Game(script.start),
        mode=chosen,
        settle_ms=DEFAULT_SETTLE_MS if settle_ms is None else settle_ms,
        knock_wait_ms=DEFAULT_KNOCK_WAIT_MS if knock_wait_ms is None else knock_wait_ms,
        lights=lights,
        sensors=script.sensors,
        clock=script.clock,
        clock_buttons=script.clock_buttons,
    )
    for line in script.lines:
        if line.action == "choose":
            run.choose(line.what, line.t_ms)
        elif line.action == "press":
            run.press(line.what == "white", line.t_ms)
        elif isinstance(added := players_action(line), ArbiterAddition):
            run.add_time(added, line.t_ms)
        else:
            run.sensor(line.square, line.action == "place", line.t_ms)
    run.finish(script.end_ms)
    return run
