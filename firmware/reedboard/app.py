"""The running board: the one imperative loop that wires everything together.

Each turn of the loop scans the switches, feeds the debouncer and the arbiter (through
`BoardGame`), hands committed moves to the journal, and sends the effects to the host
only once the journal has them on disk, so the host never knows of a move that a power
cut could take back. Then it carries out the host's commands and lights the LEDs.

Everything the loop touches comes in through the constructor, as a few parts
(`app_ports`):
- `sensing`: a `Sensing`: the switch matrix (a `SwitchMatrix`: the GPIO matrix, or a
  fake), its rate and pin map, the clock's buttons, what was read ahead of the loop, a
  script of changes (a `FakeBoard`, the simulator) and the lock held through each turn;
- `clock`: a `Clock` (`now_ms`, `real_seconds_until`, `sleep_until`);
- `link`: a `HostLink`: the port to the host (or how to open it), the protocol endpoint
  (`BoardEndpoint`, an emulation), the identity, the in-process clients (`link.clients`),
  and who else hears each effect or watches the board each turn;
- `journal`: a `Journal`, written in the loop's thread, or a `JournalWriter` writing on a
  thread of its own (stopped by `close`), or None; what the host is told waits for the
  writes (`app_outbox`), so the loop never waits on the disk;
- `lights`: the `Lights` (the scenes when the arbiter's view may have changed, their
  animation on the other turns, dimming, the LED test, low time, fair play);
- `voice`: the `Voice`, or None; `game`: a `GameSetup` (settings, first game, chance).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from functools import partial

from reedboard.app_outbox import Outbox, told
from reedboard.app_ports import GameSetup, HostLink, Lights, NoLights, Sensing, Voice
from reedboard.app_self_test import start_self_test
from reedboard.board_game import Answer, BoardGame, GameCommand, Settings, players_command
from reedboard.chess_clock.game_timer import GameTimer
from reedboard.events import Effect, SensorFault
from reedboard.game_record import GameRecord
from reedboard.game_report import Addressed, effect_message, variant_of
from reedboard.hal.clock import Clock
from reedboard.hal.scan_ahead import Backlog, first_scan
from reedboard.hal.sensor_line import ClockPress
from reedboard.journal.store import Journal, JournalError
from reedboard.journal.writer import InlineWriter, JournalWriter
from reedboard.kept_link import KeptLink
from reedboard.link.acks import Ack, BrightnessSet, Said
from reedboard.link.board_messages import BoardHello, ErrorReply
from reedboard.link.clients import ClientTee
from reedboard.link.messages import (
    PROTOCOL_VERSION,
    AddTime,
    AskMoves,
    AskState,
    ChangeSettings,
    ChoosePromotion,
    Command,
    Hello,
    LedTest,
    Resend,
    Resync,
    Say,
    SetBrightness,
    SetMode,
    TakeBack,
    command_type,
)
from reedboard.reader.move_reader import shown_move
from reedboard.reader.table import MoveTable
from reedboard.rules.game import Game
from reedboard.rules.pieces import Color
from reedboard.rules.squares import Bitboard
from reedboard.wiring import matrix_wiring

NO_LIGHTS = NoLights()  # a board without LEDs
# After a script's last line, time for a host to catch up (ask again for what it missed,
# send a last command) before the board stops. Only a host on a port, an in-process client
# or a watcher waits for it: a board with none of them stops as soon as nothing is
# pending, also one heard through its endpoint alone (a broker, whom the board's close
# hands what it has not taken yet).
TAIL_MS = 10_000
ALIVE_MS = 1000
QUESTIONS = (Hello, Resync, AskState, AskMoves, Resend, Say)  # they change nothing lit

logger = logging.getLogger(__name__)


class App:
    def __init__(
        self,
        sensing: Sensing,
        clock: Clock,
        *,
        link: HostLink = HostLink(),  # noqa: B008 - frozen: one shared value is safe
        journal: Journal | JournalWriter | None = None,
        lights: Lights = NO_LIGHTS,
        voice: Voice | None = None,
        game: GameSetup = GameSetup(),  # noqa: B008 - frozen: one shared value is safe
    ) -> None:
        self.scanner = sensing.scanner
        self.clock = clock
        self.link = KeptLink(link.port, link.reopen, clock)
        self.lights = lights
        self.voice = voice
        matrix = sensing.matrix  # the pin map, for the self-test (None: no self-test)
        self.wiring = None if matrix is None else matrix_wiring(matrix)  # and a fault's place
        self.source = sensing.source
        self.buttons = sensing.buttons  # the players' clock buttons, if the board has them
        self._low_shown: Color | None = None
        self.identity = link.identity
        self.period_ms = max(1, round(1000 / sensing.scan_hz))
        self.on_effect = link.on_effect
        self.endpoint, self.tee = ClientTee.around(link.endpoint(link.session_id), link.clients)
        self.watch = link.watch
        # Nobody to catch up with the board once its script is over (`_script_done`).
        listeners = (link.port, link.reopen, link.clients, link.watch)
        self._unheard = all(listener is None for listener in listeners)
        # Held through each turn of `run`: another thread (the simulator's page) takes it
        # to act on the board between turns, never in the middle of one.
        self.guard: AbstractContextManager[object] = sensing.guard or nullcontext()
        self.writer: InlineWriter | JournalWriter | None = None
        if isinstance(journal, JournalWriter):
            self.writer = journal  # off the loop: an SD card's flush stalls no scan
        elif journal is not None:
            self.writer = InlineWriter(journal)
        self.journal = None if self.writer is None else self.writer.journal
        self.outbox = Outbox(self.writer)
        self.record = GameRecord(self.journal, self.writer, self._journal_failed)
        self._settings = game.settings or Settings()
        self._start = game.start
        self._rng = game.rng
        self._next_alive = ALIVE_MS
        self._rendered_occupancy: int | None = None
        self._published = 0  # effects told so far: a question that decided some is drawn
        self._last_step_ms = -1  # the board time of the latest turn: it never goes back
        self.board_game: BoardGame | None = None
        self.ahead = sensing.ahead
        self._backlog: Backlog | None = None  # what `ahead` read, fed to the game first

    # ----- start -----

    def start(self) -> BoardGame:
        """Read the board and resume the journal's game in progress, if any; with `ahead`,
        from its first reading, at its time (`catch_up` feeds it what was read since)."""
        backlog, self.ahead = (None if self.ahead is None else self.ahead.stop()), None
        now = self.clock.now_ms() if backlog is None else backlog.first_ms
        if self.source is not None:
            # Only what stands at time 0: later lines are applied each at its own time.
            self.source.advance(min(now, 0))
        self._backlog = backlog
        first = [first_scan(self.scanner)] if backlog is None else backlog.first
        occupancy = first[0]
        game, settings = self.record.resume(self._settings)
        if game is None:
            game = self._start if self._start is not None else Game()  # an empty Game is falsy
        # The power may have gone while a move waited to settle: the board then shows the
        # position plus that move, which the self-test must not call stuck switches.
        table = MoveTable(game.position, legal=not game.is_game_over())
        self._self_test(first, game, shown=shown_move(table, occupancy) is not None)
        self.board_game = BoardGame(
            game, occupancy, settings, rng=self._rng, configured=self._settings
        )
        kept = self.record.resumed_clocks
        if kept is not None and not game.is_game_over():
            # A power cut: the running player's time goes on from what the journal kept.
            self.board_game.timer = GameTimer.resumed(kept, now, buttons=settings.clock_buttons)
        if self.record.resumed:
            self.record.go_on(occupancy, now)
        else:
            self.record.begin(game, settings.mode, occupancy, now)
        self.record.note_clocks(self.board_game, now)
        self._watch(self.board_game, now)
        hello = self._hello()
        told("started: told the host", hello, self.endpoint.send(hello))
        self._publish(self.board_game.commit_shown(now), now)
        self._render(now, force=True)
        self._flush()
        return self.board_game

    def _self_test(self, first: list[Bitboard], game: Game, *, shown: bool) -> None:
        """The start-up self-test (`app_self_test`); its faults are told to the voice."""
        if self.wiring is None:
            return
        scan, resumed = self.scanner.scan, self.resumed
        report = start_self_test(first, game, self.wiring, shown=shown, resumed=resumed, scan=scan)
        if report is not None and self.voice is not None:
            self.voice.self_test(report)

    # ----- the loop -----

    def run(self, stop: Callable[[], bool] = lambda: False, *, until_done: bool = False) -> None:
        """Turn the loop until `stop()` says so (or, with `until_done`, until the source's
        script has ended and everything pending was decided)."""
        with self.guard:
            board_game = self.board_game or self.start()
        next_scan = self.clock.now_ms()
        while not stop():
            with self.guard:
                if until_done and self._script_done(board_game):
                    break
                wake = next_scan
                for due in (board_game.next_deadline(), self._source_due(), self._next_alive):
                    if due is not None and due < wake:
                        wake = max(due, self.clock.now_ms())
            data = self.link.read(self.clock.real_seconds_until(wake))
            if not data:
                self.clock.sleep_until(wake)
            with self.guard:
                now = self.clock.now_ms()
                self.catch_up(now)
                if now >= next_scan:
                    next_scan += self.period_ms * max(1, (now - next_scan) // self.period_ms + 1)
                self.step(now, data)
        with self.guard:
            self.settle()

    def settle(self) -> None:
        """Every write handed to the journal done, then what waited for it told: at
        shutdown (`close` then stops the writer), or before reading the journal."""
        if self.writer is not None:
            self.writer.drain()
        self._flush()

    def close(self) -> None:
        self.settle()
        if self.writer is not None:
            self.writer.close()

    def catch_up(self, now: int) -> None:
        """A loop that fell behind its clock (a busy CPU, a slow disk, a sped-up clock)
        must not apply a script's changes in a lump: lifts and places merged into one scan
        are an order no hands could make, and a capture would read as a piece vanishing.
        Every script line (and what `ahead` read), and every decision that falls due
        between them, is taken at its own board time, as a scanner that kept up would
        have seen it. The live switches are read as they are. `run` calls it before each
        turn; a caller turning the loop with `step` itself does the same."""
        if self.source is None and self._backlog is None:
            return
        board_game = self.board_game or self.start()
        # Deadlines already behind the last turn (a decision overdue after a new game, say)
        # are taken by the next turn; time never runs backwards for the debouncer.
        last = self._last_step_ms
        while True:
            read = None if self._backlog is None else self._backlog.next_change_ms()
            # A line scheduled for the very time of the last turn, after it ran (a page's
            # click in the same millisecond), is applied on its own at that time: taken
            # with the next line, a capture's lift and placement would merge.
            source = self._source_due()
            lines = [] if source is None or source >= now else [max(source, last)]
            due = lines + [
                t for t in (read, board_game.next_deadline()) if t is not None and last < t < now
            ]
            if not due:
                break
            last = min(due)
            self.step(last)
        self._backlog = None  # read to its end: the matrix is scanned live from now on

    def step(self, now: int, data: bytes = b"") -> None:
        """One turn: the script's changes, a scan, the host's commands, the lights."""
        now = max(now, self._last_step_ms)
        self._last_step_ms = now
        board_game = self.board_game or self.start()
        changed = False
        if self.source is not None:
            for action in self.source.advance(now):
                if isinstance(action, ClockPress):
                    changed = self._pressed(action.white, now) or changed
                    continue
                answer = self._carry_out(players_command(action), now)
                changed = changed or bool(answer.effects)
        if self.buttons is not None:
            for white, when in self.buttons.presses(now):
                changed = self._pressed(white, when) or changed
        before = board_game.debouncer.raw
        occupancy = self.scanner.scan() if self._backlog is None else self._backlog.reading_at(now)
        self.record.sensed(before, occupancy, now)
        effects = board_game.scan(occupancy, now)
        if effects or occupancy != before:
            # A still board deciding nothing has nothing to journal or tell: an idle
            # board's every turn.
            self._publish(effects, now)
        changed = changed or bool(effects)
        if self.tee is not None:
            # A piece lifted or put back is no effect, yet a page shows it (`stir`).
            moved = board_game.debouncer.occupancy != self._rendered_occupancy
            self.tee.stir(now, changed=moved and not effects)
        # Asked every turn, also without bytes: an endpoint may have commands from
        # elsewhere (a broker's requests).
        published = self._published
        for command in self.endpoint.receive_data(data):
            self._command(command, now)
            # A question (a page asks the state after each effect) changes nothing lit,
            # unless its answer decided what fell due (counted in `published`).
            changed = changed or not isinstance(command, QUESTIONS)
        changed = changed or self._published != published
        if now >= self._next_alive:
            self.endpoint.alive()
            self._next_alive = now + ALIVE_MS
        self._watch(board_game, now)
        self._render(now, force=changed)
        self._flush()

    def _script_done(self, board_game: BoardGame) -> bool:
        source = self.source
        if source is None or not source.done:
            return False
        if board_game.next_deadline() is not None or (
            self.voice is not None and self.voice.pending()
        ):
            return False
        tail = 0 if self._unheard else TAIL_MS
        return self.clock.now_ms() >= source.end_ms + tail

    def _source_due(self) -> int | None:
        return None if self.source is None else self.source.next_change_ms()

    # ----- effects: journal first, then the host -----

    def _pressed(self, white: bool, when: int) -> bool:
        """A player pressed their side of the clock at `when`: whether anything came of
        it."""
        board_game = self._board_game()
        self.record.pressed(white, when)
        effects = board_game.press(white, when)
        self._publish(effects, when)
        return bool(effects)

    def _publish(self, effects: list[Effect], now: int) -> None:
        board_game = self._board_game()
        games = self.record.record(effects, board_game, now)
        self._published += len(effects)
        control = board_game.settings.time_control
        for effect, game_id in zip(effects, games, strict=True):
            message = effect_message(effect, game_id, board_game.game, control, self.wiring)
            if isinstance(fault := message.effect, SensorFault) and fault.place is not None:
                logger.warning("switch fault: %s %s", fault.place.where, fault.fault)
            told("told the host", message, self.endpoint.send(message))
            if self.on_effect is not None:
                self.outbox.put(partial(self.on_effect, message))
            if self.voice is not None:
                self.outbox.put(partial(self.voice.effect, message))

    def _watch(self, board_game: BoardGame, now: int) -> None:
        """Each turn: the board as it stands, for whoever reports or speaks of it."""
        if self.watch is not None:
            self.watch(board_game, now)
        if self.voice is not None:
            self.voice.watch(board_game, now)

    def _journal_failed(self, error: JournalError) -> None:
        # The game goes on without a record rather than stopping the board; the host
        # hears of it.
        logger.error("%s", error)
        failed = ErrorReply("journal", str(error))
        told("told the host", failed, self.endpoint.send(failed))

    # ----- the host -----

    def local_command(self, command: Command, now: int) -> Answer:
        """A command from the board's own side of the link (the simulator's controls, say):
        carried out exactly as the host's would be, so its effects are journaled and the
        host hears of them, and the lights are redrawn at once; the answer goes to the
        caller instead of over the link."""
        answer = self._carry_out(command, now)
        self._render(now, force=True)
        self._flush()
        return answer

    def _command(self, command: Command, now: int) -> None:
        """A command from the link: carried out, then answered over the link."""
        reply = self._carry_out(command, now).reply
        seq = self.endpoint.reply(command, reply)
        told(f"answered the host's {command_type(command)} (id {command.id})", reply, seq)

    def _carry_out(self, command: Command, now: int) -> Answer:
        """One command, whoever sent it: its effects journaled first, then sent to the
        host; the reply made once, with the command's id."""
        match command:
            case Hello() | Resync(answer="hello"):
                return Answer(self._hello(command))
            case AskState() | AskMoves() | Resync():
                return self._report(command, now)
            case LedTest():
                return self._led_test(command, now)
            case SetBrightness(percent=percent):
                return self._set_brightness(command, percent, now)
            case Say(what=what):
                return self._say(command, what)
            case Resend():
                # The endpoint answers it, or turns it into a Resync.
                return Answer(ErrorReply("unsupported", "resend is the link's", id=command.id))
            case TakeBack(game=game) | AddTime(game=game) if (
                game is not None and game != self.game_id
            ):
                # An arbiter's correction meant for a game that is no longer on the board.
                said = f"game {game} is not in progress (game {self.game_id} is)"
                return Answer(ErrorReply("refused", said, id=command.id))
            case _:
                return self._game_command(command, now)

    def _report(self, command: AskState | AskMoves | Resync, now: int) -> Answer:
        """The state, or a page of moves, made once what fell due is journaled and sent:
        the journal's game it speaks of is known then (a new game's number)."""
        board_game = self._board_game()
        self._publish(board_game.settle(now), now)
        to = Addressed(command.id, self.game_id, resync=isinstance(command, Resync))
        if isinstance(command, AskMoves):
            return Answer(board_game.moves_page(command.start, now, to))
        return Answer(board_game.state(now, to))

    def _led_test(self, command: LedTest, now: int) -> Answer:
        self.lights.led_test(now)
        return Answer(Ack(id=command.id))

    def _set_brightness(self, command: SetBrightness, percent: int, now: int) -> Answer:
        # The lights', not the game's: a board without LEDs acknowledges and carries on.
        self.lights.dim(percent / 100, now)
        return Answer(Ack(BrightnessSet(percent), command.id))

    def _say(self, command: Say, what: str) -> Answer:
        if self.voice is None:
            return Answer(ErrorReply("unsupported", "the board's voice is off", id=command.id))
        return Answer(Ack(Said(self.voice.ask(what)), command.id))

    def _game_command(self, command: GameCommand, now: int) -> Answer:
        """A command about the game, carried out by the board's game; what it acknowledged
        is journaled (a promotion piece, the mode) and fair play follows the tournament
        switch."""
        answer = self._board_game().carry_out(command, now)
        done = isinstance(answer.reply, Ack)
        if isinstance(command, ChoosePromotion) and done:
            self.record.chose(command.piece, now)
        if isinstance(command, AddTime) and done:
            self.record.added(command.color == "white", command.ms, now)
        self._publish(list(answer.effects), now)
        if isinstance(command, SetMode) and done:
            self.record.set_mode(command.mode)
        switch = command.tournament if isinstance(command, ChangeSettings) else None
        if done and switch is not None:
            self.lights.fair_play(switch)
        return answer

    def _hello(self, answering: Hello | Resync | None = None) -> BoardHello:
        """The board's handshake: sent when it starts, or `answering` a host's `hello` (or a
        `resend` the history could not serve, with `resync`)."""
        board_game = self._board_game()
        return BoardHello(
            protocol=PROTOCOL_VERSION,
            firmware=self.identity.firmware,
            board=self.identity.board,
            session=self.endpoint.session,
            variant=variant_of(board_game.game),
            mode=board_game.settings.mode,
            game=self.game_id,
            resync=isinstance(answering, Resync),
            id=None if answering is None else answering.id,
            answers=answering is not None,
        )

    @property
    def game_id(self) -> int:
        """The journal's number for the game in progress (0 without a journal)."""
        return self.record.game_id

    @property
    def resumed(self) -> bool:
        return self.record.resumed

    def _board_game(self) -> BoardGame:
        assert self.board_game is not None, "start() comes first"
        return self.board_game

    # ----- the link -----

    def _flush(self) -> None:
        """What the endpoint has for the host goes out once the journal has what it tells
        of (`Outbox`); a write that failed is told first."""
        if self.writer is not None:
            for error in self.writer.failures():
                self._journal_failed(error)
        self.outbox.release()
        data = self.endpoint.data_to_send()
        self.outbox.put(partial(self.link.write, data), droppable=not data)
        if self.tee is not None and (batch := self.tee.batch()) is not None:
            self.outbox.put(batch)  # the clients, like the host, once the journal has it

    # ----- the lights -----

    def _render(self, now: int, *, force: bool) -> None:
        board_game = self._board_game()
        occupancy = board_game.debouncer.occupancy
        low = board_game.low_time(now)
        if low != self._low_shown:
            self._low_shown = low
            self.lights.show_low_time(low, now)
        if force or occupancy != self._rendered_occupancy:
            self._rendered_occupancy = occupancy
            self.lights.render(board_game.arbiter.view(), now)
        else:
            self.lights.animate(now)  # blinking and pulsing squares move on with the clock
