"""What the idea modules of the reader see of it: its state and the few actions they
ask of it. They take a `Reader` and never import the reader itself, so the package's
imports point one way: the facade (move_reader.py) over the idea modules over the pure
values (table, hands, episode, waiting...)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from reedboard.events import Effect, Illegal, Violation
from reedboard.reader.episode import Episode
from reedboard.reader.gestures import GestureTracker
from reedboard.reader.marks import HostMarks
from reedboard.reader.mode import Mode
from reedboard.reader.setup import GestureWatch, SetupGuide
from reedboard.reader.table import MoveShape, MoveTable
from reedboard.reader.touch_move import TouchRecord
from reedboard.reader.waiting import Waiting
from reedboard.rules.game import Game
from reedboard.rules.pieces import PieceType
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import SquareChange


@dataclass
class Following:
    """The other reading of a doubted capture, followed alongside (see fork.fork): a copy
    of the reader reading it, the game's length when it forked, what the copy has made
    since, until when it may still be taken (waits.OTHER_READING_MS after the fork), and a
    placement both readings explain: until when its lift may still come, the square,
    and the position it would move in. `released`: what the board makes meanwhile goes
    out as made (the host has the capture already), and taking the other reading takes
    it back first."""

    reader: Reader
    forked: int
    out: list[Effect]
    until: int
    arrival: tuple[int, Square, Position] | None = None
    released: bool = False


class Reader(Protocol):
    """The reader as its parts use it (see move_reader.Reader for each field)."""

    game: Game
    mode: Mode
    settle_ms: int
    castle_wait_ms: int
    knock_wait_ms: int
    sensors: Bitboard
    last_change_ms: int
    mismatch: Illegal | None
    violation: Violation | None
    touches: TouchRecord
    marks: HostMarks
    gestures: GestureTracker
    setup: SetupGuide | None
    rng: random.Random
    episode: Episode
    waiting: Waiting | None
    moved: tuple[int, tuple[Square, ...]] | None
    result_sensors: Bitboard | None
    chess960_watch: GestureWatch
    exchange_square: Square | None
    choice_lift: tuple[Square, PieceType] | None
    following: Following | None
    held: list[Effect]

    @property
    def table(self) -> MoveTable: ...
    @property
    def position(self) -> Position: ...
    @property
    def promotion_choice(self) -> PieceType | None: ...

    def feed(self, change: SquareChange, now_ms: int | None = None) -> list[Effect]: ...
    def tick(self, now_ms: int) -> list[Effect]: ...
    def next_deadline(self) -> int | None: ...
    def read(self, change: SquareChange, now: int, effects: list[Effect], report: bool) -> None:
        """`change` read into the episode, deciding what the reader waited for."""

    def follow(self, change: SquareChange, now: int, effects: list[Effect], report: bool) -> None:
        """`change` read into the episode, the readings it decides already settled."""

    def commit(self, shape: MoveShape, now: int, effects: list[Effect]) -> None: ...
    def restore(self, now: int, effects: list[Effect]) -> None: ...
    def new_episode(self) -> None: ...
    def forget_position(self) -> None: ...
    def show_mismatch(self, now_ms: int) -> list[Effect]: ...
    def start_game(self, game: Game, now_ms: int) -> list[Effect]: ...
    def start_setup(self, number: int, now_ms: int) -> list[Effect]: ...
    def resign(self, white: bool, now_ms: int) -> list[Effect]: ...
    def agree_draw(self, now_ms: int) -> list[Effect]: ...
