"""What the board writes to its journal: each game, its moves and result, and the raw
sensor changes of the game in progress (so that `reedboard journal export --events` gives
a script that `reedboard replay` turns back into the same game).

What happened at one moment goes to disk in one transaction: a mating move and its result,
and the sensor changes that led to them, are on disk whole or not at all, before the host
hears of any of it. The writes are handed to the journal's writer (`journal.writer`) as
one batch, values and all, and the loop goes on: what the host is told waits for that
batch (`app_outbox`). A journal that fails to write does not stop the board: the game goes
on without a record and the writer's failures say why.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from reedboard.board_game import BoardGame, Settings
from reedboard.chess_clock.clocks import Clocks
from reedboard.errors import InvalidInputError
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    MoveMade,
    NewGame,
    TakenBack,
    TimeAdded,
)
from reedboard.game_report import variant_of
from reedboard.hal.sensor_line import Action, SensorLine, add_line
from reedboard.journal.store import Journal, JournalError, KeptLines
from reedboard.journal.writer import InlineWriter, JournalWriter, Write
from reedboard.reader.mode import Mode
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard, square_name, squares_of

# A game resumed after the board was off: its sensor lines go on this long after the last
# one kept, so that the script's times never go backwards.
RESUME_GAP_MS = 1000
# Sensor lines are written with the effects they lead to, or on their own once this many
# wait (a switch chattering, pieces moved about with no move made).
LINES_HELD = 100
# The effects the journal records.
RECORDED = (MoveMade, TakenBack, NewGame, GameOver, ClockPressed, TimeAdded)

logger = logging.getLogger(__name__)


class GameRecord:
    """The journal's side of the board's loop: which game is in progress (`game_id`), how
    many plies it has, and the sensor lines taken since the last write."""

    def __init__(
        self,
        journal: Journal | None,
        writer: InlineWriter | JournalWriter | None,
        failed: Callable[[JournalError], None],
    ) -> None:
        """`journal` is read at the start (the game to resume); `writer` writes to it.
        `failed` is told of a read that failed."""
        self.journal = journal
        self.writer = writer
        self.failed = failed
        self.game_id = 0
        # The number the next game gets: known at once, not when the writer gets to it,
        # since the moves the loop sends before then carry it.
        self._next_game = 1
        if journal is not None:
            try:
                self._next_game = journal.last_game_id() + 1
            except JournalError as error:
                failed(error)
        self._batch: list[Write] | None = None  # the writes of the moment being recorded
        self.plies = 0
        self._over = False  # whether the game in progress has a result
        self.resumed = False
        self._origin_ms = 0  # the board time at which the game's sensor lines start
        self._keeping = False  # whether this game's sensor lines reach back to its start
        self._lines: list[SensorLine] = []  # taken, not yet written
        self._next_seq = 1  # the number of the next sensor line written
        # A resumed timed game's clocks as the journal kept them (the running player's
        # time counted from 0): the loop picks them up at the time it resumes.
        self.resumed_clocks: Clocks | None = None

    # ----- the game in progress -----

    def resume(self, settings: Settings) -> tuple[Game | None, Settings]:
        """The journal's game in progress, if any, with its mode."""
        if self.journal is None:
            return None, settings
        try:
            saved = self.journal.current()
            if saved is None:
                return None, settings
            game = saved.to_game()
        except (JournalError, InvalidInputError) as error:
            logger.warning("the journal's game in progress cannot be resumed: %s", error)
            return None, settings
        self.game_id = saved.id
        self.plies = len(saved.moves)
        self.resumed = True
        mode: Mode = "strict" if saved.mode == "strict" else "casual"
        try:
            self.resumed_clocks = self.journal.clocks(saved.id)
        except JournalError as error:
            logger.warning("the clocks of the game in progress cannot be resumed: %s", error)
        control = None if self.resumed_clocks is None else self.resumed_clocks.control
        return game, replace(settings, mode=mode, time_control=control)

    def go_on(self, sensors: Bitboard, now_ms: int) -> None:
        """Sensor lines for a game resumed at `now_ms` with the sensors reading `sensors`:
        after the kept ones, with what changed while the board was off."""
        if self.journal is None:
            return
        try:
            kept = self.journal.sensor_lines(self.game_id)
        except JournalError as error:
            self.failed(error)
            return
        self._keeping = kept.start_sensors is not None
        if not self._keeping:
            return
        self._next_seq = kept.next_seq
        t_ms = kept.last_ms + RESUME_GAP_MS
        self._origin_ms = now_ms - t_ms
        self._changes(_sensors_after(kept) ^ sensors, sensors, now_ms)

    def begin(self, game: Game, mode: str, sensors: Bitboard, now_ms: int) -> None:
        """A new game, the sensors reading `sensors` at its start (`now_ms`)."""
        if self.journal is None:
            return
        self._origin_ms = now_ms
        self._lines = []
        self._next_seq = 1
        self._keeping = True
        game_id = self.game_id = self._next_game
        self._next_game += 1
        fen, chess960, variant = game.start.fen(), game.chess960, variant_of(game)

        def write(journal: Journal) -> None:
            journal.start_game(fen, chess960=chess960, variant=variant, mode=mode, id=game_id)
            journal.keep_start_sensors(game_id, sensors)

        self._write(write)

    # ----- what happens -----

    def sensed(self, before: Bitboard, after: Bitboard, now_ms: int) -> None:
        """A scan at `now_ms` read `after` where the one before read `before`."""
        self._changes(before ^ after, after, now_ms)

    def _changes(self, changed: Bitboard, sensors: Bitboard, now_ms: int) -> None:
        if not self._keeping or not changed:
            return
        t_ms = self._since_origin(now_ms)
        for square in squares_of(changed):  # the order the board's game takes them
            action: Action = "place" if sensors >> square & 1 else "lift"
            self._lines.append(SensorLine(t_ms, action, square_name(square)))

    def chose(self, piece: str, now_ms: int) -> None:
        """The piece for the next promotion was chosen (by the host, or a script)."""
        if self._keeping:
            self._lines.append(SensorLine(self._since_origin(now_ms), "choose", piece))

    def pressed(self, white: bool, now_ms: int) -> None:
        """A player pressed their side of the clock (a button, or a script)."""
        if self._keeping:
            self._lines.append(
                SensorLine(self._since_origin(now_ms), "press", "white" if white else "black")
            )

    def added(self, white: bool, ms: int, now_ms: int) -> None:
        """The arbiter added `ms` to a player's clock (White's when `white`)."""
        if self._keeping:
            self._lines.append(add_line(self._since_origin(now_ms), white, ms))

    def _since_origin(self, now_ms: int) -> int:
        # A loop that caught up with a script (changes due before it started) takes them
        # at their own times: those before the game's start count as at its start.
        return max(0, now_ms - self._origin_ms)

    def record(self, effects: list[Effect], board_game: BoardGame, now_ms: int) -> list[int]:
        """Journal the sensor lines taken and the effects of one moment in one
        transaction. Returns the game each effect belongs to."""
        games: list[int] = []
        recorded = any(isinstance(e, RECORDED) for e in effects)
        batch: list[Write] = []
        self._batch = batch
        try:
            if recorded or len(self._lines) >= LINES_HELD:
                # The lines wait for what the journal records (a move, a takeback, a new
                # game, a result): what led to a move reaches the disk with it, and a touch
                # or a scan that decides nothing costs no write.
                self._write_lines()
            for effect in effects:
                self._record(effect, board_game, now_ms)
                games.append(self.game_id)
        finally:
            self._batch = None
        if batch and self.writer is not None:
            self.writer.submit(batch)
        return games

    def set_mode(self, mode: str) -> None:
        game_id = self.game_id
        self._write(lambda j: j.set_mode(game_id, mode))

    def _write_lines(self) -> None:
        lines, self._lines = self._lines, []
        if lines:
            first, self._next_seq = self._next_seq, self._next_seq + len(lines)
            game_id = self.game_id
            self._write(lambda j: j.append_sensor_lines(game_id, first, lines))

    def _record(self, effect: Effect, board_game: BoardGame, now_ms: int) -> None:
        # Every write takes its values now: the writer runs it later, on its own thread.
        game_id = self.game_id
        if isinstance(effect, MoveMade):
            self.plies = effect.ply
            self._write(lambda j: j.append_move(game_id, effect.ply, effect.uci, effect.t_ms))
        elif isinstance(effect, TakenBack):
            ply = self.plies
            self.plies -= 1
            self._over = False  # a takeback of the move that ended it: the game goes on
            self._write(lambda j: j.take_back(game_id, ply))
        elif isinstance(effect, NewGame):
            self._say_left(game_id)
            self.plies = 0
            self._over = False
            game, mode = board_game.game, board_game.settings.mode
            self.begin(game, mode, board_game.debouncer.raw, now_ms)
        elif isinstance(effect, GameOver):
            self._over = True
            self._write(lambda j: j.finish(game_id, effect.result, effect.reason))
        if isinstance(effect, RECORDED):
            self.note_clocks(board_game, now_ms)

    def _say_left(self, game_id: int) -> None:
        """A new game over one with moves and no result: the journal keeps that one as
        abandoned, and says so (nothing of it is lost, and it can be taken up again)."""
        if self.journal is not None and self.plies and not self._over:
            logger.warning(
                "game %d was left unfinished after %d plies for a new game: the journal "
                "keeps it as abandoned (*); to go on with it, stop the board and run "
                "`reedboard journal resume %s --game %d`",
                game_id, self.plies, self.journal.path, game_id,
            )  # fmt: skip

    def note_clocks(self, board_game: BoardGame, now_ms: int) -> None:
        """A timed game's clocks as they now stand, with what changed them: on resuming
        after a power cut the running player's time goes on from there."""
        timer = board_game.timer
        if timer is not None:
            clocks, ply, game_id = timer.clocks, self.plies, self.game_id
            self._write(lambda j: j.set_clocks(game_id, ply, clocks, now_ms))

    def _write(self, write: Write) -> None:
        """Part of the moment being recorded, or a batch of its own."""
        if self.writer is None:
            return
        if self._batch is not None:
            self._batch.append(write)
        else:
            self.writer.submit([write])


def _sensors_after(kept: KeptLines) -> Bitboard:
    """What the sensors read after the kept lines (from the start's sensors)."""
    assert kept.start_sensors is not None
    sensors = kept.start_sensors
    for line in kept.lines:
        if line.action in ("lift", "place"):
            bit = 1 << line.square
            sensors = sensors | bit if line.action == "place" else sensors & ~bit
    return sensors
