"""An emulated board protocol (DGT or ChessLink) in the place of the native endpoint.

The App talks to its endpoint as to `link/board.py`'s (`send`, `reply`, `alive`,
`receive_data`, `data_to_send`); an emulation has no use for the native messages, so it
only notes which effects mean "the game changed" and the clocks they carry, and
otherwise listens to `observe`, which the App calls once a turn with the game's position
and the sensors. A position other than the last turn's also means the game changed,
whether or not its effect has come yet. On the PC (`reedboard-host emulate`) the board's
facts come from its link instead, in its order: each `state` is an `observe`, a `touch`
effect a `lifted` (a piece gone from the sensors at once, between two states), a `move`
effect a `moved` (the game's new position at once). The tracker turns those into square
changes, the codec into bytes. What the client asks of the LEDs becomes native commands:
squares that make a legal move become `show` (the lights show the move as one to carry
out, the better display), any other squares `mark` (lit as the client lights them), and
ChessLink's brightness register `brightness`.

Pure: time and the board's facts come in as arguments.
"""

from __future__ import annotations

from typing import Literal

from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    MoveMade,
    NewGame,
    PromotionChosen,
    Restored,
    TakenBack,
    TimeAdded,
)
from reedboard.link.board_messages import EffectMessage, Outgoing, Reply
from reedboard.link.chesslink import Brightness, ChessLinkBoard, LedPattern, square_corners
from reedboard.link.dgt import DgtBoard, LedCommand
from reedboard.link.dgt_clock import ClockReading, Side
from reedboard.link.messages import Command, Mark, SetBrightness, ShowMove
from reedboard.link.tracking import PieceTracker
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, parse_square, square_names_of

Emulated = Literal["dgt", "chesslink"]

# Effects after which the client's board must become the game's (as the board makes them,
# and as a host reads them from the link).
_SYNCING = (MoveMade, NewGame, TakenBack, Restored)
# Effects after which the board has dropped the client's hint and marks: the client's next
# wish is new to the board even when it repeats the last one.
_CLEARING = (MoveMade, NewGame, TakenBack)

Marks = tuple[Bitboard, Bitboard]  # steady, blinking


class EmulatedEndpoint:
    def __init__(self, protocol: Emulated, session: str, *, parity_bit: bool = False) -> None:
        self.session = session
        self.seq = 0
        self.codec: DgtBoard | ChessLinkBoard = (
            DgtBoard() if protocol == "dgt" else ChessLinkBoard(parity_bit=parity_bit)
        )
        self.tracker: PieceTracker | None = None
        self._position: Position | None = None
        self._sync = False
        # What the board was last told to light, so that a client repeating its pattern
        # (some send it every turn) does not repeat the command.
        self._hint: str | None = None
        self._marks: Marks = (0, 0)
        self._now_ms = 0  # the latest time the board's facts came with
        self._promotion = "q"  # the piece the next promotion makes, as the host chose it
        # Squares the board reported lifted that no state had shown occupied since the
        # last: a piece landed and taken again between two states, in a hand now.
        self._gone: Bitboard = 0

    # ----- the App's endpoint interface -----

    def send(self, message: Outgoing) -> int:
        if isinstance(message, EffectMessage):
            self.effect(message.effect)
        return 0

    def effect(self, effect: Effect) -> None:
        """What the board did (on the PC: the same event, read from the link); the client
        hears of it through `observe`."""
        if isinstance(effect, _SYNCING):
            self._sync = True
        if isinstance(effect, _CLEARING):
            self._hint, self._marks = None, (0, 0)
        self._promotion_from(effect)
        self._clock_from(effect)

    def _promotion_from(self, effect: Effect) -> None:
        """The host's choice of the next promotion's piece, shown on the pawn set down on
        its last rank; a committed promotion spends it, a new game forgets it."""
        if isinstance(effect, PromotionChosen) and effect.piece:
            self._promotion = effect.piece.lower()
        elif _spends_the_choice(effect):
            self._promotion = "q"
        if self.tracker is not None:
            self.tracker.promotion = self._promotion

    def _clock_from(self, effect: Effect) -> None:
        """The clocks an effect carries: after a move the side to move runs (with clock
        buttons the mover's runs until they press: a `state` says so on the PC); after
        a press, the side to move; time added changes no one's turn."""
        codec = self.codec
        if not isinstance(codec, DgtBoard):
            return  # ChessLink has no clock
        now, before = self._now_ms, codec.clock
        if isinstance(effect, MoveMade) and effect.clock is not None:
            white, black = effect.clock
            codec.clock_changed(ClockReading(white, black, _to_move(effect.fen, before), now))
        elif isinstance(effect, ClockPressed | TimeAdded):
            running = _turn(self._position) if before is None else before.running
            if isinstance(effect, ClockPressed):
                running = _turn(self._position)
            codec.clock_changed(ClockReading(effect.white_ms, effect.black_ms, running, now))
        elif isinstance(effect, GameOver) and before is not None:
            white, black = before.left_now(now)
            codec.clock_changed(ClockReading(white, black, None, now))
        elif isinstance(effect, NewGame):
            codec.clock_changed(None)  # a timed game's first move brings its clocks

    def clock_read(self, white_ms: int, black_ms: int, running: Side | None) -> None:
        """The clocks as the board's `state` gives them (on the PC)."""
        if isinstance(self.codec, DgtBoard):
            self.codec.clock_changed(ClockReading(white_ms, black_ms, running, self._now_ms))

    def untimed(self) -> None:
        """The board's `state` has no clocks: the game is not timed."""
        if isinstance(self.codec, DgtBoard) and self.codec.clock is not None:
            self.codec.clock_changed(None)

    def tick(self, now_ms: int) -> None:
        """Time passes: the codecs' reports that follow time (ChessLink's scans, DGT's
        clock)."""
        self._now_ms = max(self._now_ms, now_ms)
        self.codec.tick(self._now_ms)

    def reply(self, command: Command, message: Reply) -> int:
        return 0  # the commands are the emulation's own (`show`): nobody waits for a reply

    def alive(self) -> None:
        """Neither protocol has a keep-alive."""

    def data_to_send(self) -> bytes:
        return self.codec.data_to_send()

    def receive_data(self, data: bytes) -> list[Command]:
        commands: list[Command] = []
        for wish in self.codec.receive_data(data):
            if isinstance(wish, Brightness):
                commands.append(SetBrightness(wish.percent))
                continue
            uci = self._move_to_show(wish)
            marks = (0, 0) if uci is not None else _marks(wish)
            if uci != self._hint:
                self._hint = uci
                commands.append(ShowMove(uci))
            if marks != self._marks:
                self._marks = marks
                steady, blinking = (square_names_of(bb) for bb in marks)
                commands.append(Mark(tuple(steady), tuple(blinking)))
        return commands

    # ----- the board's facts -----

    def observe(self, position: Position, sensors: Bitboard, now_ms: int) -> None:
        """Once a turn: the game's position and the debounced sensors."""
        self._now_ms = max(self._now_ms, now_ms)
        if self.tracker is None:
            self.tracker = PieceTracker(position, sensors)
            self.tracker.promotion = self._promotion
            self.codec.squares_changed(self.tracker.shown, [])
        else:
            # The hands acted on the position before this turn: a move this turn's
            # placement completed is already in `position`.
            before = self._position or position
            changed = self.tracker.sensed(before, sensors)
            if self._sync or _game_changed(before, position):
                changed += self.tracker.sync(position, sensors)
            if changed:
                self.codec.squares_changed(self.tracker.shown, changed)
        self._position = position
        self._sync = False
        self._gone = 0
        self.tick(now_ms)

    def lifted(self, sq: Square) -> None:
        """The board reports a piece lifted from `sq` (its `touch`): the client sees the
        square empty now, and the piece goes into the hand, not at the next `observe`."""
        tracker, position = self.tracker, self._position
        if tracker is None or position is None:
            return
        if not tracker.sensors >> sq & 1:
            self._gone |= 1 << sq  # its landing was never seen
            return
        changed = tracker.sensed(position, tracker.sensors & ~(1 << sq))
        if changed:
            self.codec.squares_changed(tracker.shown, changed)

    def moved(self, position: Position) -> None:
        """The board committed a move, `position` is the game's now (its `move` effect):
        the client's board becomes the game's at once. The squares the move filled are
        occupied whether or not a `state` has shown their placement yet, unless the
        board has reported their piece lifted since."""
        tracker, before = self.tracker, self._position
        if tracker is None or before is None:
            return
        filled = 0
        for sq in range(64):
            piece = position.piece_at(sq)
            if piece is not None and piece != before.piece_at(sq):
                filled |= 1 << sq
        changed = tracker.sync(position, tracker.sensors | filled & ~self._gone)
        if changed:
            self.codec.squares_changed(tracker.shown, changed)
        self._position = position
        self._sync = False

    def _move_to_show(self, wish: LedCommand | LedPattern) -> str | None:
        """The legal move whose squares the client lights, or None (lights off, or they
        show no move the board can point at). ChessLink lights corners: a move matches
        when the corners of its squares are exactly the lit ones."""
        position = self._position
        if position is None:
            return None
        if isinstance(wish, LedCommand):
            if wish.from_to is None:
                return None
            lit = _corners(set(wish.from_to))
        else:
            lit = wish.lit_corners()
        if not lit:
            return None
        for move in position.legal_moves():
            uci = position.uci(move)
            if _corners({parse_square(uci[:2]), parse_square(uci[2:4])}) == lit:
                return uci
            if position.is_castling(move) and _corners(set(position.castling_squares(move))) == lit:
                return uci  # the king's and the rook's squares
        return None


def _game_changed(before: Position, now: Position) -> bool:
    """Whether the game's position is another than at the last turn: a move, a takeback
    or a new game. The client's board is made the game's then, whatever the effects said
    and when they came: on the PC the effects and the polled `state` are separate
    messages, and a state the board produced before a commit can arrive after (or in the
    same read as) the commit's effect, which must not use the correction up on it."""
    return now is not before and now.fen() != before.fen()


def _spends_the_choice(effect: Effect) -> bool:
    """A committed promotion, or a new game."""
    promoted = isinstance(effect, MoveMade) and len(effect.uci) == 5
    return promoted or isinstance(effect, NewGame)


def _turn(position: Position | None) -> Side | None:
    if position is None:
        return None
    return "white" if position.turn else "black"


def _to_move(fen: str | None, before: ClockReading | None) -> Side | None:
    """Whose clock runs after a move: the side to move in its FEN, else the one that did
    not run before it."""
    if fen is not None and len(fen.split()) > 1:
        return "white" if fen.split()[1] == "w" else "black"
    if before is None or before.running is None:
        return None
    return "black" if before.running == "white" else "white"


def _marks(wish: LedCommand | LedPattern) -> Marks:
    """The squares the client lights, when they are not a move: DGT's from and to (one
    square when they are the same) shine steady; ChessLink's as its patterns say."""
    if isinstance(wish, LedPattern):
        return wish.marked_squares()
    if wish.from_to is None:
        return (0, 0)
    origin, target = wish.from_to
    return (1 << origin | 1 << target, 0)


def _corners(squares: set[Square]) -> frozenset[int]:
    corners: frozenset[int] = frozenset()
    for sq in squares:
        corners |= square_corners(sq)
    return corners
