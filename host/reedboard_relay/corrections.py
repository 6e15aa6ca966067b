"""What the arbiter decided about a board's game, and the game as the broadcast shows it
then. Pure.

- A result set by the arbiter (`1-0`, `0-1`, `1/2-1/2`) stands over the board's own until
  undone (`*`); the PGN says `[Termination "adjudication"]` and the arbiter's reason.
- Each decision is about one game on the board (game_on_board.py), never the board's next.
- Players fixed by the arbiter stand over the pairings, field by field, for one game: the
  one on the board when they were fixed (or, fixed before the board had any, its first),
  that game ever after; the board's next game starts with what the pairings say.
- A FIDE 7.5.1 correction: an illegal move found later, at ply N. The position before it
  is reinstated: the board is told to take back to ply N - 1, and the broadcast shows one
  mainline, the moves up to N - 1 and then those played after the correction, with a
  comment saying what was cancelled; never a variation. Until the board has taken the
  moves back (its `ack`), the broadcast already shows the game cut at N - 1.
- A correction the board has not carried out (it refused, or has not answered) can be
  withdrawn: the broadcast shows the board's game again, as if it had never been made.
  One the board carries out after all (it was offline and the broker kept the command)
  is done: the board's game is what the broadcast follows.
- Time added to a player's clock (FIDE 7.5.5, 6.10/6.11) is an arbiter's comment at the
  ply the game stood at (unless the board refused it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from reedboard.rules.game import Game
from reedboard_host.mirror import MirroredGame

from reedboard_relay.added_time import AddedTime
from reedboard_relay.game_on_board import NOT_STARTED, GameOnBoard
from reedboard_relay.pairings import Pairing

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
PLAYER_FIELDS = ("white", "black", "white_elo", "black_elo", "white_title", "black_title")
TITLES = ("", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
CorrectionState = Literal["sent", "done", "refused", "withdrawn"]


@dataclass(frozen=True)
class ArbiterResult:
    game: GameOnBoard
    result: str
    reason: str = ""


@dataclass(frozen=True)
class Correction:
    number: int  # the relay's own, in the order the arbiter made them
    game: GameOnBoard
    to_ply: int  # the position reinstated: after this many plies
    cancelled: tuple[str, ...]  # the moves taken out of the record, in SAN
    note: str = ""
    state: CorrectionState = "sent"
    answer: str = ""  # the board's refusal, in its words

    def comment(self, start: Game) -> str:
        """What the PGN says at the reinstated position."""
        first = _move_number(start, self.to_ply + 1)
        what = f"the illegal move {first} {self.cancelled[0]}" if self.cancelled else "a move"
        after = len(self.cancelled) - 1
        later = f" and {after} later {'ply' if after == 1 else 'plies'}" if after > 0 else ""
        note = f" ({self.note})" if self.note else ""
        return (
            f"Arbiter: {what}{later} cancelled (FIDE 7.5.1); the position before it "
            f"reinstated{note}"
        )


@dataclass(frozen=True)
class PlayerFix:
    game: GameOnBoard
    field: str  # one of PLAYER_FIELDS
    value: str


@dataclass(frozen=True)
class Decisions:
    """Everything the arbiter decided about one board."""

    results: tuple[ArbiterResult, ...] = ()
    players: tuple[PlayerFix, ...] = ()  # over the pairing, each for its game
    corrections: tuple[Correction, ...] = ()
    added_times: tuple[AddedTime, ...] = ()  # time added to a clock (added_time.py)

    def result_for(self, game: GameOnBoard) -> ArbiterResult | None:
        found = [r for r in self.results if r.game == game]
        return found[-1] if found else None

    def players_for(self, game: GameOnBoard) -> dict[str, str]:
        """The fields the arbiter fixed for the game: those fixed before the board had a
        game (its first one), and over them those fixed while it was on the board."""
        before = (game[0], NOT_STARTED)
        fixes = [f for f in self.players if f.game == before]
        fixes += [f for f in self.players if f.game == game and game != before]
        return {f.field: f.value for f in fixes if f.field in PLAYER_FIELDS}


def shown_game(
    game: MirroredGame | None, decisions: Decisions, on: GameOnBoard
) -> MirroredGame | None:
    """The board's game (`on` the board: game_on_board.py) as the broadcast shows it, the
    arbiter's decisions about it applied."""
    if game is None:
        return None
    mine = [c for c in decisions.corrections if c.game == on and c.state != "withdrawn"]
    ruled = decisions.result_for(on)
    added = [a for a in decisions.added_times if a.game == on and a.state != "refused"]
    if not mine and ruled is None and not added:
        return game
    shown = _copy(game)
    for correction in mine:
        if correction.state != "done":
            _cut(shown, correction.to_ply)  # the board has not taken them back yet
        if correction.to_ply <= len(shown.game):
            said = correction.comment(shown.game)
            ply = correction.to_ply
            have = shown.comments.get(ply)
            shown.comments[ply] = f"{have}; {said}" if have else said
    for time in added:  # at the ply it was added at (or the game's end, cut back since)
        _comment(shown, min(time.ply, len(shown.game)), time.comment())
    if ruled is not None and ruled.result != "*":
        shown.result, shown.reason = ruled.result, "adjudication"
        said = f"Arbiter: {ruled.result}" + (f", {ruled.reason}" if ruled.reason else "")
        ply = len(shown.game)
        have = shown.comments.get(ply)
        shown.comments[ply] = f"{have}; {said}" if have else said
    return shown


def shown_pairing(pairing: Pairing, decisions: Decisions, game: GameOnBoard) -> Pairing:
    fixed = decisions.players_for(game)
    return replace(pairing, **fixed) if fixed else pairing


def cancelled_moves(game: Game, ply: int) -> tuple[str, ...]:
    """The moves from ply `ply` (1-based) on, in SAN: what a correction there cancels."""
    return tuple(game.san_moves()[ply - 1 :])


def _move_number(game: Game, ply: int) -> str:
    before = game.positions[ply - 1] if ply - 1 < len(game.positions) else game.position
    return f"{before.fullmove_number}." if before.turn else f"{before.fullmove_number}..."


def _copy(game: MirroredGame) -> MirroredGame:
    copy = Game(game.game.start)
    for move in game.game.moves:
        copy.push(move)
    return replace(game, game=copy, comments=dict(game.comments), clocks=dict(game.clocks))


def _cut(game: MirroredGame, ply: int) -> None:
    while len(game.game) > ply:
        game.game.pop()
    for later in [p for p in (*game.comments, *game.clocks) if p > ply]:
        game.comments.pop(later, None)
        game.clocks.pop(later, None)
    game.result = game.reason = None


def _comment(game: MirroredGame, ply: int, said: str) -> None:
    have = game.comments.get(ply)
    game.comments[ply] = f"{have}; {said}" if have else said
