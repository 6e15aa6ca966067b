"""The board's game as the link reports it: the whole `state`, a page of its moves, a
timed game's clocks, and an effect with what the host needs to know of it
(docs/protocol.md). Pure: what the board's game holds comes in as
values, the messages go out; `board_game.py` knows when to ask.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.time_control import TimeControl
from reedboard.events import Effect, NewGame, SensorFault
from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.link.board_messages import EffectMessage, MovesPage, StateClock, StateMessage
from reedboard.link.messages import Color
from reedboard.link.moves_digest import moves_digest
from reedboard.reader.mode import Mode
from reedboard.reader.view import BoardView
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.pieces import WHITE
from reedboard.rules.san import san
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, square_names_of
from reedboard.sensing.selftest import switch_place

MOVES_PAGE = 4  # moves per `moves` reply: with its other fields, about 150 bytes


def variant_of(game: Game) -> str:
    if game.chess960:
        return "chess960"
    return "standard" if game.start.fen() == STARTING_FEN else "fen"


def game_result(game: Game) -> tuple[str, str] | None:
    """The ended game's result and reason; None while it goes on."""
    outcome = game.outcome()
    return None if outcome is None else (outcome.result, outcome.reason)


@dataclass(frozen=True, slots=True)
class Addressed:
    """What makes a report (`state`, `moves`) a reply, known where it is made: the id of
    the command it answers, the journal's game it speaks of, and whether it answers a
    `resend` the history could not serve (`resync`, a `state`'s only)."""

    reply_to: int | None = None
    game: int | None = None
    resync: bool = False


UNADDRESSED = Addressed()


def moves_page(
    game: Game, start: int, clock: StateClock | None, to: Addressed = UNADDRESSED
) -> MovesPage:
    """A few of the game's moves from ply `start` (0-based), with what a host needs to
    piece the game together: each page is one short frame, so that it gets through a
    line too noisy for a whole `state` of a long game."""
    ucis = [before.uci(move) for before, move in zip(game.positions, game.moves, strict=False)]
    first = start == 0
    result = game_result(game)
    return MovesPage(
        start,
        tuple(ucis[start : start + MOVES_PAGE]),
        len(ucis),
        moves_digest(ucis),
        start_fen=game.start.fen() if first else None,
        chess960=game.chess960 if first else None,
        result=None if result is None else result[0],
        reason=None if result is None else result[1],
        game=to.game,
        id=to.reply_to,
        clock=clock,
    )


def state_message(
    game: Game,
    view: BoardView,
    *,
    mode: Mode,
    occupancy: Bitboard,
    clock: StateClock | None,
    to: Addressed = UNADDRESSED,
) -> StateMessage:
    """The whole state: the game, what the arbiter shows of the board (`view`), the
    debounced `occupancy`, and a timed game's `clock`."""
    sans, ucis = [], []
    for before, move in zip(game.positions, game.moves, strict=False):
        sans.append(san(before, move))
        ucis.append(before.uci(move))
    result = game_result(game)
    return StateMessage(
        variant=variant_of(game),
        chess960=game.chess960,
        start_fen=game.start.fen(),
        fen=game.position.fen(),
        moves=tuple(ucis),
        san=tuple(sans),
        mode=mode,
        occupancy=f"{occupancy:016x}",
        lifted=tuple(square_names_of(view.lifted)),
        missing=tuple(square_names_of(view.missing)),
        extra=tuple(square_names_of(view.extra)),
        hint=_squares(view.hint),
        marked=tuple(square_names_of(view.marked)),
        marked_blink=tuple(square_names_of(view.marked_blink)),
        last_move=_squares(view.last_move),
        result=result[0] if result else None,
        reason=result[1] if result else None,
        game=to.game,
        resync=to.resync,
        clock=clock,
        id=to.reply_to,
    )


def state_clock(timer: GameTimer, now_ms: int) -> StateClock:
    """A timed game's clocks as they stand at `now_ms`."""
    white_ms, black_ms = timer.left(now_ms)
    running = timer.clocks.running
    side: Color | None = None if running is None else ("white" if running == WHITE else "black")
    return StateClock(white_ms, black_ms, side, timer.control.text())


def effect_message(
    effect: Effect,
    game_id: int,
    game: Game,
    control: TimeControl | None,
    wiring: MatrixWiring | None,
) -> EffectMessage:
    """`effect` of the journal's game `game_id` as the host is told it: a new game with its
    variant and time `control`, a faulty switch with its place on the matrix (when the
    board knows its `wiring`)."""
    if isinstance(effect, NewGame):
        effect = replace(
            effect,
            chess960=game.chess960,
            variant=variant_of(game),
            time_control=None if control is None else control.text(),
        )
    elif isinstance(effect, SensorFault) and wiring is not None:
        effect = replace(effect, place=switch_place(effect.square, wiring))
    return EffectMessage(effect, game_id)


def _squares(pair: tuple[int, int] | None) -> tuple[str, str] | None:
    return None if pair is None else (SQUARE_NAMES[pair[0]], SQUARE_NAMES[pair[1]])
