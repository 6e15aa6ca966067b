"""The simulated board: the real firmware loop on a live fake matrix, with the physical
pieces it cannot see, in one object the web server drives.

The board's own loop (`App.run`) turns in a thread on a real clock, exactly as on the
board: scan, decide, journal, tell the host on the pty, light the (fake) strip. The
simulator has no loop of its own: its switches are a `FakeBoard`, the loop's event
source, whose scheduled lines (a played script, a guided setup, the second half of a
capture) the world of pieces follows at their board times, and whose scripted promotion
choices reach the game as a host's would. The page's gestures change the world, whose
occupancy closes and opens the fake switches; the page's
commands are the app's local commands, carried out like a host's (their effects reach the
host too) and answered to the page. One lock, held by the loop through each turn, keeps a
gesture, a command or a snapshot from landing in the middle of one.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import deque
from collections.abc import Mapping
from functools import partial

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import Answer, BoardGame, Settings
from reedboard.config import BoardConfig
from reedboard.errors import InvalidInputError
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.hal.sensor_line import PlayersAction, SensorLine
from reedboard.lights.output import LightsOutput, LightsRenderer
from reedboard.link.acks import GameStarted
from reedboard.link.board_messages import Ack, EffectMessage, ErrorReply, reply_fields, shown_json
from reedboard.link.messages import (
    ChoosePromotion,
    Hello,
    LedTest,
    Resend,
    StartGame,
    Variant,
    WireCommand,
    parse_command,
    promotion_piece,
)
from reedboard.reader.view import BoardView
from reedboard.replay.script import Script
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.pgn import write_pgn
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Square, parse_square, square_names_of
from reedboard.sensing.held import Held, likeliest
from reedboard.simweb.effect_words import effect_words
from reedboard.simweb.guided_setup import setup_lines
from reedboard.simweb.page_lights import PageLights
from reedboard.simweb.page_log import PageLog
from reedboard.simweb.page_state import PageState
from reedboard.simweb.pty_link import PtyLink
from reedboard.simweb.shown import clock_shown, spoken_shown
from reedboard.simweb.typed import STEP_MS, Step, hand_steps, typed_move
from reedboard.simweb.typed_lines import typed_lines
from reedboard.simweb.words import notice, piece_words, result_words, setup_words
from reedboard.simweb.world import World
from reedboard.speaking import BoardVoice
from reedboard.voice.languages import phrasebook
from reedboard.wiring import matrix_wiring, strip_layout

EFFECTS_KEPT = 200
LOG_KEPT = 20  # the board's log lines the page shows
EFFECTS_SHOWN = 40  # the latest, on the page
SPOKEN_KEPT = 10  # sentences the page is sent: more than can come between two pushes
# From taking the captured piece off to putting the capturing one down: as quick as the
# board can see the square empty in between (its debouncer's hold over two scans), so
# the simulator's hands add next to nothing to a capture's time.
CAPTURE_SCANS = 2

logger = logging.getLogger(__name__)


def _by_origin(hand: list[Held], _square: Square, *, origin: Square) -> int:
    """The held piece lifted from `origin` (the last one taken if none was)."""
    found = [i for i, held in enumerate(hand) if held.origin == origin]
    return found[-1] if found else len(hand) - 1


class SimBoard:
    def __init__(
        self,
        config: BoardConfig | None = None,
        *,
        settings: Settings | None = None,
        language: str = "en",
    ):
        self.config = config or BoardConfig()
        self.world = World("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        wiring = matrix_wiring(self.config.matrix)
        self.switches = FakeBoard(
            self.world.occupancy,
            rows=wiring.rows,
            columns=wiring.columns,
            layout=wiring.layout,
            follow=self._follow,
        )
        self.strip = RecordingStrip(self.config.leds.count, keep=4)
        self.lights = LightsRenderer(LightsOutput(strip_layout(self.config.leds), self.strip))
        self.link = PtyLink()
        self.clock = MonotonicClock()
        self.effects: deque[EffectMessage] = deque(maxlen=EFFECTS_KEPT)
        self.view: BoardView | None = None
        self.lock = threading.RLock()
        self.log = PageLog(keep=LOG_KEPT)
        # The board's voice: the page says its sentences with the browser's own speech
        # and shows them in a live region for screen readers.
        self.speaker = RecordingSpeaker(keep=SPOKEN_KEPT)
        self.voice = BoardVoice(self.speaker, phrasebook(language))
        self.app = App(
            Sensing(
                self.switches, scan_hz=self.config.matrix.scan_hz, source=self, guard=self.lock
            ),
            self.clock,
            link=HostLink(self.link, on_effect=self._effect),
            lights=PageLights(self._render, self.lights),
            voice=self.voice,
            game=GameSetup(settings=settings or Settings()),
        )
        # The piece a scheduled placement puts down, when it is not the world's guess: the
        # capturing piece of a capture, a piece out of the box in a guided setup.
        self._promised: dict[Square, Held | str] = {}
        # A typed move's placements: the piece lifted from this origin goes on the square.
        self._from_origin: dict[Square, Square] = {}
        # A typed move's lifts whose piece goes beside the board at once (a victim, or a
        # pawn making way for its promotion piece).
        self._trayed: set[Square] = set()
        self._script_ends_ms = 0  # board time of a played script's last line
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=partial(self.app.run, self._stopping.is_set), name="reedboard-loop", daemon=True
        )

    # ----- the board's loop, and the simulator as its event source -----

    def start(self) -> None:
        self.log.attach()
        with self.lock:
            self.app.start()
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(2)
        self.link.close()
        self.switches.close()
        self.log.detach()

    def advance(self, t_ms: int) -> list[PlayersAction]:
        """The lines due by `t_ms` (the loop calls it, holding the lock, before it
        scans), which the world follows; the promotion pieces a played script chose
        among them."""
        chosen = self.switches.advance(t_ms)
        if self.switches.occupancy != self.world.occupancy:  # a line the world refused
            self.switches.set_occupancy(self.world.occupancy)
        return chosen

    def _follow(self, line: SensorLine) -> None:
        """The world follows a lift or a placement as the board applies it."""
        world = self.world
        try:
            if line.action == "lift":
                world.lift(line.what)
                if line.square in self._trayed:
                    self._trayed.discard(line.square)
                    world.to_tray()
                return
            promised = self._promised.pop(line.square, None)
            origin = self._from_origin.pop(line.square, None)
            if isinstance(promised, Held):
                world.put_down(promised, line.what)
            elif promised is not None:
                world.squares[line.square] = promised
            elif origin is not None:
                world.place(line.what, partial(_by_origin, origin=origin))
            else:
                position = self.board_game().game.position
                world.place(line.what, partial(likeliest, position=position))
        except InvalidInputError as error:
            logger.warning("script: %s", error)

    def next_change_ms(self) -> int | None:
        return self.switches.next_change_ms()

    @property
    def done(self) -> bool:
        return self.switches.pending == 0

    @property
    def end_ms(self) -> int:
        return self._script_ends_ms

    def _render(self, view: BoardView, t_ms: int) -> None:
        self.view = view
        self.lights.render(view, t_ms)

    def _effect(self, message: EffectMessage) -> None:
        self.effects.append(message)

    # ----- the voice, and play from the keyboard -----

    def type_move(self, text: str) -> str:
        """Carry out a typed move (`e2e4`, `Nf3`) on the board as hands would, from now;
        its UCI is returned. InvalidInputError when it is not a legal move, or while the
        hands are busy with another."""
        with self.lock:
            if self.switches.pending:
                raise InvalidInputError("the hands are still busy: wait for the last move")
            if self.world.hand:
                raise InvalidInputError("put down the pieces in hand first")
            position = self.board_game().game.position
            move = typed_move(position, text)
            now = self.clock.now_ms()
            for index, line in enumerate(self._typed_lines(hand_steps(position, move)), 1):
                self.switches.insert(line.at(now + index * STEP_MS))
            return position.uci(move)

    def _typed_lines(self, steps: list[Step]) -> list[SensorLine]:
        """The sensor lines of a typed move's steps; what the hands do beside the board
        becomes what the world does when it follows those lines."""
        typed = typed_lines(steps)
        self._trayed |= typed.trayed
        self._promised.update(typed.promised)
        self._from_origin.update(typed.from_origin)
        return typed.lines

    def ask(self, question: str) -> str:
        """What a player asks the voice: "position", "last", "clock" or a square."""
        with self.lock:
            return self.voice.ask(question)

    def set_language(self, code: str) -> None:
        with self.lock:
            self.voice.book = phrasebook(code)
            self.voice.narrator = None  # follows the game afresh in the new language

    # ----- the page's gestures and commands -----

    def gesture(self, op: str, message: Mapping[str, object]) -> None:
        """A hand on the board: `lift`, `place` or `touch` (either) a square; `select` a held piece; put the
        last one taken `to_tray`, or take one `from_tray`. `InvalidInputError` if the
        world does not allow it."""
        with self.lock:
            world = self.world
            if op == "touch":
                op = self._touched(message.get("square"))
            if op == "lift":
                world.lift(message.get("square"))
            elif op == "place":
                self._place_or_capture(message.get("square"))
            elif op == "select":
                index = message.get("index")
                if not isinstance(index, int) or isinstance(index, bool):
                    raise InvalidInputError("select needs the index of a held piece")
                world.select(index)
            elif op == "to_tray":
                world.to_tray()
            elif op == "from_tray":
                piece = message.get("piece")
                if not isinstance(piece, str):
                    raise InvalidInputError("from_tray needs a piece letter")
                world.from_tray(piece)
                self._promotion_piece(piece)
            elif op == "arrange":
                world.set_up(self.board_game().game.position.fen())
            else:
                raise InvalidInputError(f"unknown gesture {op!r}")
            self.switches.set_occupancy(world.occupancy)

    def _touched(self, name: object) -> str:
        """What a click on a square does, as the world stands (not as the page last drew
        it): with a piece in hand, an empty square is where it goes, and so is an
        opponent's piece when the piece in hand is the mover's (a capture at once);
        otherwise the piece there is lifted too: a second one of one's own, as in
        castling, or the capturer after its victim was taken off first."""
        world = self.world
        if not world.hand:
            return "lift"
        there = world.piece_on(name)
        if there is None:
            return "place"
        held_white = world.hand[-1].piece.isupper()
        mover = held_white == self.board_game().game.position.turn
        return "place" if mover and there.isupper() != held_white else "lift"

    def _place_or_capture(self, name: object) -> None:
        """Put the held piece down on `name`; on an opponent's piece, capture it as a hand
        does: the victim is lifted and put beside the board, and a moment later the
        capturing piece is set down where it stood. Both are sensor lines the loop applies
        at their own times, so the board sees the square empty in between however late
        the loop turns (a lift made at once and a placement due soon after could fall in
        one scan, and the capture would go unseen)."""
        world = self.world
        victim = world.piece_on(name)
        if victim is None or not world.hand:
            world.place(name)  # an empty square, or the world's own refusal
            return
        mover = world.hand[-1]
        if victim.isupper() == mover.piece.isupper():
            raise InvalidInputError(
                f"{name} holds a {piece_words(victim)}: put the {piece_words(mover.piece, False)}"
                " down elsewhere"
            )
        square = parse_square(str(name))  # the world has checked the name
        self._trayed.add(square)
        self._promised[square] = mover
        now = self.clock.now_ms()
        self.switches.insert(SensorLine(now, "lift", SQUARE_NAMES[square]))
        self.switches.insert(
            SensorLine(now + self.capture_step_ms(), "place", SQUARE_NAMES[square])
        )

    def capture_step_ms(self) -> int:
        """How long a capture leaves its square empty (see `CAPTURE_SCANS`)."""
        scan_ms = math.ceil(1000 / self.config.matrix.scan_hz)
        return self.board_game().settings.hold_ms + CAPTURE_SCANS * scan_ms

    def _drop_scheduled(self) -> None:
        self.switches.clear()
        self._promised.clear()
        self._from_origin.clear()
        self._trayed.clear()
        self._script_ends_ms = 0

    def _promotion_piece(self, piece: str) -> None:
        """A queen, rook, bishop or knight fetched from beside the board while a pawn of
        the side to move is off its seventh rank is the promotion's new piece. The
        sensors cannot tell which piece it is, so the simulator says it as a host would,
        before the move is decided."""
        board_game = self.board_game()
        position = board_game.game.position
        white = piece.isupper()
        if piece.lower() not in "qrbn" or white != position.turn:
            return
        seventh = 6 if white else 1
        lifted = board_game.arbiter.view().lifted
        pawn = "P" if white else "p"
        for sq in range(8 * seventh, 8 * seventh + 8):
            found = position.piece_at(sq)
            if lifted >> sq & 1 and found is not None and found.symbol() == pawn:
                self._command(ChoosePromotion(promotion_piece(piece.lower())))
                return

    def command(self, message: Mapping[str, object]) -> dict[str, object]:
        """A host command from the page, checked like one from the serial link; a new
        game also sets the pieces up, as the players would."""
        command = parse_command(message)
        if isinstance(command, StartGame):
            new_game = command
            if new_game.variant == "chess960" and new_game.fen is None:
                with self.lock:
                    answer = self._command(new_game)
                    if isinstance(answer.reply, Ack) and isinstance(answer.reply.done, GameStarted):
                        self._guided_setup(answer.reply.done.fen)
            else:
                fen = new_game.fen or STARTING_FEN
                Position.from_fen(fen, chess960=new_game.variant == "chess960")  # checked first
                answer = self._start_on(fen, new_game)
        else:
            with self.lock:
                answer = self._command(command)
        # The page reads the reply's fields as the link writes them, named by `kind`.
        kind, fields = reply_fields(answer.reply)
        return {"kind": kind} | fields

    def _start_on(self, fen: str, new_game: StartGame) -> Answer:
        """Start the new game and set its pieces up as players would, at once: in one
        hold of the lock, so the board never weighs the new game against the last
        one's pieces (it would tell the players to put them back)."""
        with self.lock:
            answer = self._command(new_game)
            if not isinstance(answer.reply, Ack):
                return answer
            self._drop_scheduled()
            self.world.set_up(fen)
            self.switches.set_occupancy(self.world.occupancy)
            self.board_game().take_board_as_start(self.world.occupancy)
        return answer

    def _command(self, command: WireCommand) -> Answer:
        if isinstance(command, Hello | Resend | LedTest):
            raise InvalidInputError(f"{command.TYPE} is for the serial link")
        return self.app.local_command(command, self.clock.now_ms())

    def _guided_setup(self, fen: str) -> None:
        """A Chess960 start set up as the board guides it: every piece off, then the
        lines that put them down type by type."""
        lines, pieces = setup_lines(fen)
        self.world.set_up("8/8/8/8/8/8/8/8 w - - 0 1")
        self.switches.set_occupancy(0)
        self._drop_scheduled()
        self._promised.update(pieces)
        self.switches.schedule(lines, start_ms=self.clock.now_ms())

    def play_script(self, script: Script) -> None:
        """Play an event script on the world, visibly, from now: the pieces are set up as
        the script starts and each line happens at its time."""
        fen = script.start.fen()
        variant: Variant = "chess960" if script.start.chess960 else "standard"
        clock = None if script.clock is None else script.clock.text()
        new_game = StartGame(variant, fen=fen, clock=clock)
        answer = self._start_on(fen, new_game)
        if isinstance(answer.reply, ErrorReply):
            raise InvalidInputError(str(answer.reply.message))
        with self.lock:
            if script.mode:
                self._command(parse_command({"type": "mode", "mode": script.mode}))
            base = self.clock.now_ms()
            self._drop_scheduled()
            self._script_ends_ms = self.switches.schedule(script.lines, start_ms=base)

    # ----- what the page shows -----

    def _status(self, view: BoardView | None, result: str | None, now: int) -> str:
        """What is happening on the board, in words."""
        if view is not None and view.setup is not None:
            return setup_words(self.board_game().arbiter.setup_number, view.setup)
        if result is not None:
            return result
        turn = "White" if self.board_game().game.position.turn else "Black"
        playing = " · playing a script" if now < self._script_ends_ms else ""
        return f"{turn} to move{playing}"

    def board_game(self) -> BoardGame:
        assert self.app.board_game is not None, "start() comes first"
        return self.app.board_game

    def pgn(self) -> str:
        with self.lock:
            return write_pgn(self.board_game().game, {"Event": "reedboard sim"})

    def snapshot(self) -> PageState:
        with self.lock:
            board_game = self.board_game()
            now = self.clock.now_ms()
            frame = self.lights.frame
            view = self.view
            colours = frame.at(now) if frame is not None else ((0, 0, 0),) * 64
            roles = frame.lit_roles() if frame is not None else {}
            targets: list[str] = []
            if view is not None:
                for t in view.targets:
                    bb = t.quiet | t.captures | t.en_passant | t.castling | t.promotions
                    targets += square_names_of(bb)
            state = board_game.state()
            position = board_game.game.position
            result = None if state.result is None else result_words(state.result, state.reason)
            effects = list(self.effects)[-EFFECTS_SHOWN:]
            return {
                "type": "state",
                **self.world.snapshot(),
                "leds": ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in colours],
                "roles": roles,
                "targets": targets,
                "fen": position.fen(),
                "san": list(state.san or ()),
                "moves": list(state.moves),
                "result": state.result,
                "reason": state.reason,
                "clock": clock_shown(board_game, now),
                "mode": board_game.settings.mode,
                "settle_ms": board_game.settings.settle_ms,
                "turn": "white" if board_game.game.position.turn else "black",
                "effects": [shown_json(m) for m in effects],  # the link's JSON, as such
                "effect_words": [effect_words(m.effect) for m in effects],
                "script": self.switches.pending,
                "status": self._status(view, result, now),
                "result_text": result,
                "notice": notice((m.effect for m in self.effects), position),
                "pty": self.link.path,
                "language": self.voice.book.code,
                "spoken": spoken_shown(self.speaker),
                "log": list(self.log.lines),
            }
