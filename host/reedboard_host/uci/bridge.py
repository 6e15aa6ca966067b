"""The board as a UCI engine, the decisions alone: the GUI's commands and the board's game
(the host's mirror of it) come in; lines for the GUI, words for the person and requests
to the board go out, as `Action`s the shell carries out in order. Pure: it never waits,
reads a clock or touches the link.

A request's outcome can decide what comes next (a takeback the board refuses gives way to
a new game): such a request carries `then`, which the shell calls with the outcome
("done", "refused" or "failed") for the actions that follow, at once, in the same turn.

What it does with the board, and why, is told in `board_engine`'s introduction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from reedboard.link.messages import (
    ChoosePromotion,
    ShowMove,
    StartGame,
    TakeBack,
    WireCommand,
    promotion_piece,
)
from reedboard.rules.chess960 import start_number_of
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from reedboard_host.board_text import clock_text
from reedboard_host.mirror import MirroredGame
from reedboard_host.uci.protocol import (
    IDENTITY,
    NO_MOVE,
    Go,
    GuiCommand,
    Ignored,
    IsReady,
    PonderHit,
    Quit,
    SetOption,
    SetPosition,
    Stop,
    Uci,
    UciNewGame,
    bestmove,
    info_string,
)

Asked = Literal["done", "refused", "failed"]


@dataclass(frozen=True)
class SendToGui:
    line: str


@dataclass(frozen=True)
class Tell:
    """Words for the person at the board (the GUI shows them in its engine log)."""

    text: str


@dataclass(frozen=True)
class AskBoard:
    command: WireCommand
    then: Callable[[Asked], list[Action]] | None = None  # what follows from the outcome


Action = SendToGui | Tell | AskBoard


@dataclass
class _Search:
    gui: Game  # the GUI's game at `go`; its last position is the one the person moves from
    infinite: bool  # `go infinite` / `go ponder`: the answer waits for `stop`
    gui_clock: bool = False  # the GUI sent its own clock (`wtime`, `btime`) with `go`
    found: str | None = None  # the person's move, in the GUI's notation
    shown: str | None = None  # the GUI's move lit on the board (board notation)
    shown_after: int = -1  # the count of the board's changes when it was lit
    new_game_for: str | None = None  # the position a new game was last asked for
    new_game_after: int = -1  # the count of the board's changes after that request
    refused_after: int = -1  # the count of the board's changes when it refused a takeback
    keys: list[str] = field(init=False)  # `_key` of each of the GUI's positions
    _moves_to_target: dict[str, str | None] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        # Once: the board is compared with them on every turn of the loop.
        self.keys = [_key(position) for position in self.gui.positions]

    def move_to_target(self, position: Position) -> str | None:
        """The legal move from `position` to the GUI's position, if one gets there: a GUI
        that sends only its position (`position fen` for every move) leaves its last move
        to be found, and the board keeps one game instead of starting a new one."""
        key = _key(position)
        if key not in self._moves_to_target:
            self._moves_to_target[key] = next(
                (
                    position.uci(move)
                    for move in position.legal_moves()
                    if _key(position.play(move)) == self.keys[-1]
                ),
                None,
            )
        return self._moves_to_target[key]

    def ply_of(self, key: str) -> int | None:
        """The latest of the GUI's positions before its last that is `key`, if any."""
        for ply in range(len(self.keys) - 2, -1, -1):
            if self.keys[ply] == key:
                return ply
        return None


BOARD_KEYS_KEPT = 8  # a turn asks for three positions' keys; a move adds one


def _key(position: Position) -> str:
    # Placement, side to move, castling and en passant: the move counters do not decide
    # which moves follow, and a GUI may count them differently from the board.
    return " ".join(position.fen().split()[:4])


class UciBridge:
    def __init__(self) -> None:
        self.chess960 = False
        self.gui: Game | None = Game()  # None after a `position` that could not be read
        self.search: _Search | None = None
        # Every change to the board's games (a move, a takeback, a new game) and every
        # reconnection puts out the move the board was lighting: it is lit again if it is
        # still wanted.
        self.board_changes = 0
        # The keys of the board's latest positions (`_board_key`), each held with its
        # position so that its id is not reused.
        self._board_keys: dict[int, tuple[Position, str]] = {}

    def board_changed(self) -> None:
        """The board's games changed, or the board connected (again)."""
        self.board_changes += 1

    # ----- the GUI's side -----

    def gui_command(self, command: GuiCommand) -> list[Action]:
        """What one GUI command calls for (`Quit` is the shell's: it ends the program)."""
        match command:
            case Uci():
                return [SendToGui(line) for line in IDENTITY]
            case IsReady():
                return [SendToGui("readyok")]
            case SetOption(name, value):
                if name.lower() == "uci_chess960":
                    self.chess960 = value.lower() == "true"
                return []
            case UciNewGame():
                actions = self._finish(None)
                self.gui = Game()
                return actions
            case SetPosition(game, problem):
                self.gui = game
                return [] if game is not None else [Tell(problem)]
            case Go(infinite, gui_clock):
                return self._go(infinite, gui_clock)
            case Stop():
                if self.search is None:
                    return []
                return self._finish(self.search.found or NO_MOVE)
            case PonderHit():
                if self.search is None:
                    return []
                # The GUI now waits for the move: one already played is the answer at once.
                self.search.infinite = False
                return [] if self.search.found is None else self._finish(self.search.found)
            case Quit() | Ignored():
                return []

    def _go(self, infinite: bool, gui_clock: bool = False) -> list[Action]:
        actions: list[Action] = []
        if self.search is not None:
            # A GUI that did not stop the last search.
            actions += self._finish(self.search.found or NO_MOVE)
        if self.gui is None:
            return [*actions, Tell("no position to play from"), SendToGui(bestmove(NO_MOVE))]
        if self.gui.is_game_over():
            return [*actions, SendToGui(bestmove(NO_MOVE))]
        self.search = _Search(self.gui.copy(), infinite, gui_clock)
        return [*actions, SendToGui(info_string("make your move on the board"))]

    def _finish(self, answer: str | None) -> list[Action]:
        """End the search; `answer` None ends it without a `bestmove` (a new game)."""
        search, self.search = self.search, None
        if search is None:
            return []
        actions: list[Action] = []
        if search.shown is not None:
            actions.append(AskBoard(ShowMove(None)))  # the lit move is no longer wanted
            if search.shown[4:] not in ("", "q"):
                actions.append(AskBoard(ChoosePromotion("q")))  # nor its piece
        if answer is not None:
            actions.append(SendToGui(bestmove(answer)))
        return actions

    # ----- the board's side -----

    def _board_key(self, position: Position) -> str:
        """`_key(position)`, written once: every turn asks for that of the board's latest
        positions, which change only with a move, and a FEN is most of a turn's CPU."""
        held = self._board_keys.get(id(position))
        if held is not None and held[0] is position:
            return held[1]
        if len(self._board_keys) >= BOARD_KEYS_KEPT:
            del self._board_keys[next(iter(self._board_keys))]  # the oldest
        key = _key(position)
        self._board_keys[id(position)] = (position, key)
        return key

    def board_turn(self, current: MirroredGame | None) -> list[Action]:
        """One step of bringing the board to the GUI's position and waiting for the
        person's move, given the board's game (None while it is not known): each turn
        looks at the board afresh, so a person who takes back, sets up again or starts
        over on the board is followed."""
        search = self.search
        if search is None or search.found is not None or current is None:
            return []
        board, gui = current.game, search.gui
        target = search.keys[-1]
        same_rules = board.chess960 == gui.chess960
        if same_rules and self._board_key(board.position) == target:
            if current.result is not None:
                over = f"the game on the board is over ({current.result}, {current.reason})"
                return [Tell(over), *self._finish(NO_MOVE)]
            return []  # the person is thinking
        # The person's move from the GUI's position (made before or after the `go`): the
        # board's last, or the one before it when a move for the GUI was made early too
        # (both may reach us at once). That early move is the next search's to judge: it
        # stands if it is the GUI's, else it is taken back then and the GUI's lit.
        for back in (1, 2):
            if (
                same_rules
                and len(board) >= back
                and self._board_key(board.positions[-1 - back]) == target
            ):
                return self._found(search, current, back)
        if same_rules:
            caught_up = self._catch_up(search, board, over=current.result is not None)
            if caught_up is not None:
                return caught_up
        return self._new_game(search)

    def _found(self, search: _Search, current: MirroredGame, back: int) -> list[Action]:
        board = current.game
        before = board.positions[-1 - back]
        played = before.uci(board.moves[-back])
        gui = search.gui
        search.found = gui.position.uci(gui.position.parse_uci(played))
        actions: list[Action] = [Tell(f"the board plays {search.found}")]
        times = current.clocks.get(len(board) - back + 1)
        if times is not None and not search.gui_clock:
            # A GUI that keeps no clock of its own is told the board's.
            actions.append(SendToGui(info_string(f"clock {clock_text(*times)}")))
        if not search.infinite:
            actions += self._finish(search.found)
        return actions

    def _catch_up(self, search: _Search, board: Game, *, over: bool) -> list[Action] | None:
        """The board's game is behind the GUI's (its position is one the GUI's game went
        through, or one move from the GUI's): light the GUI's next move, or, when the
        board's last move left the GUI's game, take that back, even if it ended the game
        (`over`): a mate or stalemate is taken back like any move. None when the board's
        game is elsewhere, or over in a way no takeback undoes."""
        position = board.position
        if len(board) and search.ply_of(_key(position)) is None:
            before = board.positions[-2]
            wanted = self._wanted_from(search, before)
            if wanted is not None:
                return self._take_back(search, before, board, wanted)
        if over:
            return None  # a resignation, an agreement or a claim: nothing more is played
        wanted = self._wanted_from(search, position)
        if wanted is None:
            return None
        wanted = position.uci(position.parse_uci(wanted))  # in the board's notation
        if (search.shown, search.shown_after) == (wanted, self.board_changes):
            return []  # lit, and nothing on the board has put it out since
        changes = self.board_changes

        def lit(outcome: Asked) -> list[Action]:
            if outcome != "done":
                return []
            told: list[Action] = []
            if search.shown != wanted:
                told.append(Tell(f"carry out {wanted} on the board"))
            search.shown, search.shown_after = wanted, changes
            return told

        return self._light(wanted, lit)

    def _take_back(
        self, search: _Search, before: Position, board: Game, wanted: str
    ) -> list[Action] | None:
        """The board's last move left the GUI's game (the lit move carried out otherwise,
        or a move made for the GUI before it moved): have the board take it back. When
        the board refuses (a game ended by resignation, agreement or claim, which must
        stand), a new game from the GUI's position instead; None when it refused before
        and nothing has changed since."""
        if search.refused_after == self.board_changes:
            return None  # refused, and nothing on the board has changed since
        # Named before asking: the takeback changes the board's game under us.
        told = f"{before.uci(board.moves[-1])} is not {before.uci(before.parse_uci(wanted))}"

        def taken(outcome: Asked) -> list[Action]:
            if outcome == "refused":  # the board gave its reason already
                search.refused_after = self.board_changes
                return self._new_game(search)
            if outcome == "done":
                search.shown = None
                return [Tell(f"{told}: take it back")]
            return []  # asked again on the next turn

        return [AskBoard(TakeBack(), then=taken)]

    @staticmethod
    def _wanted_from(search: _Search, position: Position) -> str | None:
        """The GUI's move from `position` (GUI notation), if the GUI's game went through
        it or is one move from it."""
        at = search.ply_of(_key(position))
        if at is not None:
            gui = search.gui
            return gui.positions[at].uci(gui.moves[at])
        return search.move_to_target(position)

    @staticmethod
    def _light(uci: str, then: Callable[[Asked], list[Action]]) -> list[Action]:
        """Light `uci` for the person. The person moves a promoting pawn as lit and the
        board takes a queen unless told otherwise: another piece is chosen on the board."""
        show = AskBoard(ShowMove(uci), then)
        piece = uci[4:]
        if piece in ("", "q"):
            return [show]
        return [
            AskBoard(
                ChoosePromotion(promotion_piece(piece)),
                lambda chosen: [show] if chosen == "done" else [],
            )
        ]

    def _new_game(self, search: _Search) -> list[Action]:
        """A new game on the board from the GUI's position. A Chess960 game
        from a start position begins with the board's guided setup of that start (a
        sensor cannot tell a knight from a bishop on the back rank); the GUI's moves are
        then lit one by one."""
        gui = search.gui
        number = start_number_of(gui.start) if gui.chess960 else None
        new_game: StartGame
        if number is not None:
            new_game = StartGame("chess960", number)
            key = search.keys[0]
        else:
            key = search.keys[-1]
            fen = None
            if gui.chess960 or key != _key(Position.standard()):
                fen = gui.position.fen(shredder=gui.chess960)
            new_game = StartGame("chess960" if gui.chess960 else "standard", fen=fen)
        if (search.new_game_for, search.new_game_after) == (key, self.board_changes):
            return []  # asked, and the board has done nothing else since: it is being set up
        search.shown = None

        def asked(outcome: Asked) -> list[Action]:
            # Counted after the request, which brought the new game itself. Asked again
            # only if the board goes elsewhere after it (pieces put back to the start,
            # say, start a game of the board's own).
            search.new_game_for, search.new_game_after = key, self.board_changes
            if outcome != "done":
                return []
            return [Tell("a new game on the board from the GUI's position: set it up as lit")]

        return [AskBoard(new_game, asked)]
