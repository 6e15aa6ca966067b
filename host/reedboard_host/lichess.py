"""`reedboard-host lichess`: the board plays on Lichess through the Board API.

Lichess is the truth about the game; the board is where the person plays it. The
opponent's moves are lit on the board (`show`) for the person to carry out, and the
person's own moves are sent to Lichess. A board that disagrees with Lichess (the
opponent's piece moved elsewhere than shown, a move Lichess refused) takes its last move
back and is shown the right one. A move Lichess turns away for its rate limit (429) is
not refused: it waits on the board through Lichess's minute and goes then.

Two streams run in threads (`lichess_feeds.py`): the account's events (a game starts, a
challenge arrives) and the game in progress. Their objects, and the lines typed on stdin
(`COMMANDS`), reach the one loop that talks to the board through a queue, so only that
loop touches the board.

A takeback is Lichess's to make: the board takes its moves back once Lichess's game is
shorter. A move the person takes back by hand on the board is a takeback proposed (or the
opponent's proposal accepted); while it waits for an answer the board is left as it is,
and a declined one lights the move again for the person to replay.

Lichess writes castling as king takes rook (`e1h1`) in its games' moves; the board writes
it so in Chess960 and as the king's two steps (`e1g1`) in standard chess. Lichess's moves
are read in either notation and kept in the board's, so the two games compare move by
move, and the board's moves go to Lichess in the board's notation, which Lichess takes."""

from __future__ import annotations

import argparse
import os
import queue
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeGuard

from reedboard.errors import LinkError, ReedboardError
from reedboard.link.board_events import NewGameEvent
from reedboard.link.board_messages import BoardMessage, EventMessage
from reedboard.link.messages import (
    Color,
    Draw,
    Resign,
    ShowMove,
    StartGame,
    TakeBack,
    Variant,
)
from reedboard.rules.chess960 import start_number_of
from reedboard.rules.position import Position

from reedboard_host.board_text import clock_text
from reedboard_host.connection import HostError, choose_port
from reedboard_host.follow import Follower
from reedboard_host.lichess_api import DEFAULT_SERVER, LichessApi, LichessError, RateLimited
from reedboard_host.lichess_feeds import LichessFeeds, quote
from reedboard_host.lichess_game import (
    PLAYABLE,
    LichessMoves,
    challenge_form,
    common_prefix,
    initial_position,
    parse_clock,
    player_name,
    plies_to_undo,
    seek_form,
)
from reedboard_host.lichess_offers import Offers
from reedboard_host.lichess_settings import BadSetting, read_token
from reedboard_host.mirror import MirroredGame

POLL_S = 0.05
EVENTS_OPEN_S = 15.0  # to wait for the event stream before seeking or challenging
OVER = {"aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat",
        "noStart", "unknownFinish", "insufficientMaterialClaim", "variantEnd"}  # fmt: skip
# Endings the board reaches by itself once the last move stands on it.
ON_THE_BOARD = {"mate", "stalemate"}
NO_RESULT = {"aborted", "noStart"}
COMMANDS = ("resign", "draw", "takeback", "no", "abort", "claim", "claim-draw")
PROPOSE_TAKEBACK = "/takeback/yes"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--token-file", metavar="F", help="the API token (else LICHESS_TOKEN)")
    p.add_argument("--server", default=DEFAULT_SERVER, metavar="URL", help="the Lichess server")
    p.add_argument("--seek", type=parse_clock, metavar="MIN+INC",
                   help="seek an opponent (rapid or classical, as the Board API allows)")  # fmt: skip
    p.add_argument("--challenge", metavar="USER", help="challenge this player")
    p.add_argument("--clock", type=parse_clock, default=(3.0, 2), metavar="MIN+INC",
                   help="the challenge's clock (default 3+2)")  # fmt: skip
    p.add_argument("--rated", action="store_true", help="a rated seek or challenge")
    p.add_argument("--variant", choices=("standard", "chess960"), default="standard",
                   help="the seek's or challenge's variant (default standard)")  # fmt: skip
    p.add_argument("--accept", action="append", nargs="?", const="", metavar="USER",
                   help="accept challenges the board can play (from USER only; repeat for "
                        "more players) and decline those of other variants")  # fmt: skip


@dataclass
class _Game:
    id: str
    we_white: bool
    lichess: LichessMoves
    start_ply: int = 0  # Lichess's plies before the board's game starts
    board: MirroredGame | None = None  # the board's game for this one, once it started
    new_games_asked: int | None = None  # the board's new games when one was asked for
    shown: tuple[int, str] | None = None  # (board ply, uci) lit on the board
    posted: int = 0  # board plies sent to Lichess (or found there)
    status: str = "started"
    board_ended: bool = False  # the board's own end of the game was handled
    offers: Offers = field(default_factory=Offers)
    board_draw: bool = False  # the draw was agreed on the board, Lichess not yet
    # Lichess took its game back: (board plies it kept, the board's moves it had before).
    undone: tuple[int, list[str]] | None = None
    plies_seen: int | None = None  # the board's plies at the last step
    waiting: tuple[int, str] | None = None  # (board ply, uci) kept through a 429's pause

    @property
    def over(self) -> bool:
        return self.status in OVER


class LichessBridge:
    def __init__(
        self,
        api: LichessApi,
        follower: Follower,
        *,
        stop: Callable[[], bool],
        log: Callable[[str], None],
        accept: list[str] | None = None,
        commands: TextIO | None = None,
    ) -> None:
        self.api = api
        self.commands = sys.stdin if commands is None else commands  # the typed commands
        self.follower = follower
        self.stop = stop
        self.log = log
        # None: incoming challenges are only reported; an empty set: accepted from anyone.
        self.accept = None if accept is None else {u.lower() for u in accept if u}
        self.feeds = LichessFeeds(api, stop)
        self.me = ""
        self.game: _Game | None = None
        self._new_games = 0  # `new_game` effects the board sent
        follower.on_message_hook = self._board_message

    def _board_message(self, message: BoardMessage) -> None:
        if isinstance(message, EventMessage) and isinstance(message.event, NewGameEvent):
            self._new_games += 1

    # ----- the loop -----

    def run(
        self, *, seek: dict[str, Any] | None, challenge: tuple[str, dict[str, Any]] | None
    ) -> int:
        account = self._account()
        if account is None:
            return 0  # stopped while Lichess asked for a pause
        self.me = str(account.get("id") or account.get("username") or "").lower()
        self.log(f"signed in to {self.api.server} as {account.get('username', self.me)}")
        self.follower.connect()
        # The event stream first: a seek or challenge answered at once must not be missed.
        self.feeds.follow_events()
        self.feeds.read_stdin(self.commands)
        if (seek or challenge) and not self.feeds.events_open.wait(EVENTS_OPEN_S):
            self.log("the event stream has not opened yet: a game may start unnoticed")
        if seek is not None:
            self.feeds.hold_open("/api/board/seek", seek)
            self.log(f"seeking a {seek['time']}+{seek['increment']} game")
        if challenge is not None:
            user, form = challenge
            self.feeds.hold_open(f"/api/challenge/{quote(user)}", form)
            clock = f"{form['clock.limit'] / 60:g}+{form['clock.increment']}"
            self.log(f"challenging {user} to {form.get('variant', 'standard')} {clock}")
        while not self.stop():
            try:
                self._turn()
            except LinkError as error:
                self.log(f"lost the board: {error}; reconnecting")
                self.follower.connection.close()
                self.follower.connected = False
                self.follower.run(lambda: self.follower.connected or self.stop())
            except (HostError, ReedboardError) as error:
                self.log(str(error))
        return 0

    def _account(self) -> dict[str, Any] | None:
        """The account; a bad token fails here, in one line."""
        while not self.stop():
            try:
                return self.api.get("/api/account")
            except RateLimited as error:
                self.log(str(error))
                self.api.wait_turn(self.stop)
        return None

    def _turn(self) -> None:
        self.follower.connection.poll(POLL_S)
        if self.follower.mirror.needs_state:
            self.follower.sync()
        while True:
            try:
                kind, item = self.feeds.inbox.get_nowait()
            except queue.Empty:
                break
            try:
                if kind == "event":
                    self._event(item)
                elif kind == "game":
                    self._game_item(*item)
                elif kind == "command":
                    self._command(item)
                elif kind == "refused":
                    self._refused(*item)
                elif kind == "posted":
                    self._posted(item)
                elif kind == "log":
                    self.log(item)
                elif kind == "gone":
                    self._gone(item)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                # Lichess (or a stand-in) sent something of another shape: skip it.
                self.log(f"ignored an odd {kind} message: {type(error).__name__}: {error}")
        self._step()

    # ----- Lichess's events -----

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "gameStart":
            self._game_start(event["game"])
        elif kind == "gameFinish":
            info = event["game"]
            self.log(f"game {info.get('gameId') or info.get('id')} finished")
        elif kind == "challenge":
            # `compat` (can the Board API play it) sits beside the challenge or in it.
            self._challenge(event["challenge"], event.get("compat"))
        elif kind == "challengeDeclined":
            c = event["challenge"]
            who = (c.get("destUser") or {}).get("name") or "your opponent"
            reason = c.get("declineReason") or c.get("declineReasonKey") or "no reason given"
            self.log(f"{who} declined your challenge: {reason}")
        elif kind == "challengeCanceled":
            self.log(f"challenge {event['challenge']['id']} was cancelled")

    def _game_start(self, info: dict[str, Any]) -> None:
        game_id = str(info.get("gameId") or info["id"])
        variant = (info.get("variant") or {}).get("key", "standard")
        if variant not in PLAYABLE:
            self.log(f"game {game_id} is {variant}: the board cannot play it")
            return
        if self.game is not None and not self.game.over and self.game.id != game_id:
            self.log(f"game {game_id} started, but {self.game.id} is on the board")
            return
        self.feeds.follow_game(game_id)

    def _challenge(self, c: dict[str, Any], compat: Any = None) -> None:
        challenger = c.get("challenger") or {}
        if c.get("direction") == "out" or str(challenger.get("id", "")).lower() == self.me:
            return  # our own challenge: its answer comes as a game or a decline
        variant = c.get("variant") or {}
        control = c.get("timeControl") or {}
        what = (
            f"{challenger.get('name') or challenger.get('id')} ({challenger.get('rating', '?')}) "
            f"challenges you to {'a rated' if c.get('rated') else 'a casual'} "
            f"{variant.get('name') or variant.get('key', 'standard')} game"
            + (f", {control['show']}" if control.get("show") else "")
        )
        base = f"/api/challenge/{quote(str(c['id']))}"
        if self.accept is None:
            self.log(f"{what}: accept it on Lichess to play on the board")
        elif variant.get("key", "standard") not in PLAYABLE:
            self.log(f"{what}: declined, the board plays standard chess and Chess960")
            self.feeds.post_later(f"{base}/decline", {"reason": "variant"})
        elif (compat or c.get("compat") or {}).get("board") is False:
            self.log(f"{what}: declined, too fast for the Board API")
            self.feeds.post_later(f"{base}/decline", {"reason": "tooFast"})
        elif self.game is not None and not self.game.over:
            self.log(f"{what}: declined for now, a game is on the board")
            self.feeds.post_later(f"{base}/decline", {"reason": "later"})
        elif self.accept and str(challenger.get("id", "")).lower() not in self.accept:
            self.log(f"{what}: not from a player you accept; answer it on Lichess")
        else:
            self.log(f"{what}: accepted")
            self.feeds.post_later(f"{base}/accept")

    # ----- the game stream -----

    def _gone(self, game_id: str) -> None:
        """Lichess answers 404 for the game: it is no more (or never was ours). The
        bridge leaves it, the board's game as it stands, and waits for the next."""
        self.log(f"game {game_id} is gone from Lichess (404): no longer following it")
        game = self.game
        if game is None or game.id != game_id:
            return
        self.game = None
        if game.shown is not None:
            self.follower.connection.request(ShowMove(None))

    def _game_item(self, game_id: str, item: dict[str, Any]) -> None:
        if game_id != self.feeds.game_followed:
            return  # a stream that was left
        kind = item.get("type")
        if kind == "gameFull":
            self._game_full(game_id, item)
        elif kind == "gameState":
            self._game_state(item)
        elif kind == "chatLine":
            self.log(f"chat {item.get('username')}: {item.get('text')}")
        elif kind == "opponentGone":
            self._opponent_gone(item)

    def _opponent_gone(self, item: dict[str, Any]) -> None:
        seconds = item.get("claimWinInSeconds")
        claim = "type `claim` for the win, or `claim-draw` for a draw"
        if not item.get("gone"):
            self.log("the opponent is back")
        elif isinstance(seconds, int) and seconds > 0:
            self.log(
                f"the opponent has left the game: you may claim the win on Lichess in {seconds} s ({claim})"
            )
        elif seconds is not None:
            self.log(f"the opponent has left the game: {claim}")
        else:
            self.log("the opponent has left the game")

    def _game_full(self, game_id: str, full: dict[str, Any]) -> None:
        game = self.game
        if game is not None and game.id == game_id:
            self._game_state(full["state"])  # the stream was opened again: the game goes on
            return
        variant = (full.get("variant") or {}).get("key", "standard")
        if variant not in PLAYABLE:
            self.log(f"game {game_id} is {variant}: the board cannot play it")
            self.feeds.follow_game(None)
            return
        white = str((full.get("white") or {}).get("id", "")).lower()
        black = str((full.get("black") or {}).get("id", "")).lower()
        status = str(full["state"].get("status", "started"))
        if self.me not in (white, black) or status in OVER:
            self.log(f"game {game_id} is not yours to play" if status not in OVER
                     else f"game {game_id} is already over: {status}")  # fmt: skip
            self.feeds.follow_game(None)
            return
        moves = LichessMoves(initial_position(full.get("initialFen"), variant))
        moves.update(str(full["state"].get("moves", "")).split())
        game = _Game(game_id, white == self.me, moves)
        self.game = game
        opponent = player_name(full.get("black" if game.we_white else "white") or {})
        clock = full.get("clock") or {}
        pace = (
            f"{clock['initial'] / 60000:g}+{clock['increment'] // 1000}"
            if "initial" in clock and "increment" in clock
            else full.get("speed", "")
        )
        self.log(
            f"game {game_id} against {opponent}, {variant} {pace}: "
            f"you play {'white' if game.we_white else 'black'}"
        )
        self._start_board_game(game)
        self._game_state(full["state"])

    def _start_board_game(self, game: _Game, *, set_up: bool = True) -> None:
        """A new game on the board at Lichess's position: from the start, with the lights
        guiding a Chess960 set-up, or from the position reached so far (joining a game in
        progress, or going on after a draw on the board that Lichess did not take)."""
        moves = game.lichess
        game.start_ply = len(moves.ucis)
        game.board, game.shown, game.posted, game.board_ended = None, None, 0, False
        game.undone, game.plies_seen = None, None
        game.new_games_asked = self._new_games
        position = moves.game.position
        number = start_number_of(position) if not moves.ucis else None
        conn = self.follower.connection
        if not moves.ucis and position.fen() == Position.standard().fen():
            conn.request(StartGame("standard"))
        elif number is not None and position.chess960:
            conn.request(StartGame("chess960", number))
            self.log(f"set up Chess960 position {number} as the lights show")
        else:
            variant: Variant = "chess960" if position.chess960 else "standard"
            conn.request(StartGame(variant, fen=position.fen()))
            if set_up:
                self.log("set up the game's position as the lights show")

    def _game_state(self, state: dict[str, Any]) -> None:
        game = self.game
        if game is None:
            return
        before = list(game.lichess.ucis)
        game.lichess.update(str(state.get("moves", "")).split())
        status = str(state.get("status", "started"))
        kept = common_prefix(before, game.lichess.ucis)
        if kept < len(before):
            self._lichess_took_back(game, kept, before)
        white_ms, black_ms = state.get("wtime"), state.get("btime")
        if (
            len(game.lichess.ucis) > len(before)
            and _milliseconds(white_ms)
            and _milliseconds(black_ms)
        ):
            # Lichess keeps the game's clocks: shown as its state gives them, each move.
            self.log(f"clocks on Lichess: {clock_text(white_ms, black_ms)}")
        news = game.offers.read(
            state, game.we_white, playing=status not in OVER, taken=kept < len(before)
        )
        for item in news:
            self._offer_news(game, item)
        if status in OVER and not game.over:
            game.status = status
            self._lichess_ended(game, status, state.get("winner"))

    def _lichess_took_back(self, game: _Game, kept: int, before: list[str]) -> None:
        self.log(f"taken back on Lichess: {' '.join(before[kept:])}")
        if kept < game.start_ply:
            # Back before the board's game began: the board starts again at Lichess's
            # position, and the lights show where the pieces go.
            self._start_board_game(game)
            return
        game.undone = (kept - game.start_ply, before[game.start_ply :])
        game.posted = min(game.posted, kept - game.start_ply)

    def _offer_news(self, game: _Game, news: str) -> None:
        if news == "takeback proposed":
            self.log(
                "your opponent proposes a takeback: type `takeback` to accept, `no` to decline"
            )
        elif news == "takeback declined":
            self.log("your opponent declined the takeback: the game goes on")
        elif news == "draw offered":
            self.log("your opponent offers a draw: type `draw` to accept, `no` to decline")
        elif news == "draw declined":
            self.log("your opponent did not take the draw: the game goes on")
            if game.board_draw:
                game.board_draw = False
                self._start_board_game(game, set_up=False)  # the pieces stand there

    def _lichess_ended(self, game: _Game, status: str, winner: Any) -> None:
        self.log(
            f"game {game.id} is over on Lichess: {status}" + (f", {winner} wins" if winner else "")
        )
        self.feeds.follow_game(None)
        current = self._board_game(game)
        if status in ON_THE_BOARD or current is None or current.result is not None:
            return  # a mate the board sees once its last move stands; or the board's end
        game.board_ended = True  # the board's end below is Lichess's, not the person's
        conn = self.follower.connection
        try:
            conn.request(ShowMove(None))
            game.shown = None
            if winner in ("white", "black"):
                # A resignation is the board's one way to give the game to one side.
                conn.request(Resign("black" if winner == "white" else "white"))
            elif status not in NO_RESULT:
                conn.request(Draw(agreed=True))
        except HostError as error:
            self.log(str(error))

    # ----- typed commands -----

    def _command(self, line: str) -> None:
        game = self.game
        if line not in COMMANDS:
            if line:
                self.log(f"unknown command {line!r}: one of {', '.join(COMMANDS)}")
            return
        if game is None or game.over:
            self.log(f"{line}: no game in progress")
            return
        base = f"/api/board/game/{quote(game.id)}"
        if line == "resign":
            try:
                # The board ends its game; `_step` sees that and tells Lichess.
                colour: Color = "white" if game.we_white else "black"
                self.follower.connection.request(Resign(colour))
            except HostError:
                self.feeds.post_later(f"{base}/resign")
        elif line == "draw":
            self.log("accepting the draw" if game.offers.their_draw else "offering a draw")
            self.feeds.post_later(f"{base}/draw/yes")
        elif line == "takeback":
            accepting = game.offers.their_takeback
            self._propose_takeback(
                game, "accepting the takeback" if accepting else "proposing a takeback"
            )
        elif line == "no":
            self._say_no(game, base)
        elif line == "abort":
            self.feeds.post_later(f"{base}/abort")
        elif line == "claim":
            self.log("claiming the win: your opponent has left the game")
            self.feeds.post_later(f"{base}/claim-victory")
        elif line == "claim-draw":
            self.log("claiming a draw: your opponent has left the game")
            self.feeds.post_later(f"{base}/claim-draw")

    def _propose_takeback(self, game: _Game, what: str) -> None:
        """Propose a takeback on Lichess, or accept the opponent's: one call for both."""
        self.log(what)
        game.offers.propose_takeback()
        self.feeds.post_later(f"/api/board/game/{quote(game.id)}{PROPOSE_TAKEBACK}")

    def _say_no(self, game: _Game, base: str) -> None:
        declining = game.offers.their_takeback or game.offers.their_draw
        calls = game.offers.say_no()
        for call in calls:
            what = call.partition("/")[0]
            self.log(f"declining the {what}" if declining else "withdrawing your takeback")
            self.feeds.post_later(f"{base}/{call}")
        if not calls:
            self.log("no: there is nothing to decline")

    def _posted(self, path: str) -> None:
        game = self.game
        if game is not None and path.endswith(PROPOSE_TAKEBACK):
            game.offers.takeback_call_taken()

    def _refused(self, path: str, text: str) -> None:
        self.log(text)
        game = self.game
        if game is not None and path.endswith(PROPOSE_TAKEBACK):
            # No proposal stands: a move taken back by hand is lit again to be replayed.
            game.offers.takeback_call_refused()

    # ----- the board's side -----

    def _board_game(self, game: _Game) -> MirroredGame | None:
        """The board's game for `game`: the one the board started when asked (adopted
        once it starts, after a guided set-up), or None while there is none."""
        mirror = self.follower.mirror
        current = mirror.current
        if current is None or mirror.needs_state:
            return None
        if game.board is None:
            if game.new_games_asked is None or self._new_games <= game.new_games_asked:
                return None
            game.board, game.new_games_asked = current, None
        same = current is game.board or (
            current.id == game.board.id and current.game.start.fen() == game.board.game.start.fen()
        )
        if not same:
            return None
        game.board = current  # the mirror may have read the same game again
        return current

    def _step(self) -> None:
        game = self.game
        current = None if game is None else self._board_game(game)
        if game is None or current is None:
            return
        board = current.game
        played = [b.uci(m) for b, m in zip(board.positions, board.moves, strict=False)]
        lichess = game.lichess.ucis[game.start_ply :]
        self._seen_taken_back(game, played, lichess)
        if game.undone is not None and self._undo(game, played):
            return
        common = common_prefix(played, lichess)
        if common < len(played):
            ours = board.positions[common].turn == game.we_white
            if not game.over and common == len(lichess) == len(played) - 1 and ours:
                if game.posted < len(played):
                    # Before the board's end below: a mating move must reach Lichess.
                    self._post_move(game, played[-1], len(played))
            elif current.result is None and not game.offers.takeback_pending:
                # The board went another way than Lichess: its last move is taken back,
                # and the move Lichess wants is lit again once the board is back. (Not
                # while a takeback waits: if it is taken, the move may be the new one.)
                self.log(f"{played[-1]} is not the game's move on Lichess: take it back")
                self._take_back(game)
                return
        behind = common == len(played) < len(lichess)
        if current.result is not None:
            self._board_ended(game, current.result, current.reason)
        elif behind and not game.offers.takeback_pending:
            self._show(game, len(played), lichess[len(played)], board.position.turn)
        elif not behind and game.shown is not None:
            if game.shown[0] == len(played):
                # Lichess took the lit move back before it was carried out.
                self.follower.connection.request(ShowMove(None))
            game.shown = None

    def _seen_taken_back(self, game: _Game, played: list[str], lichess: list[str]) -> None:
        """A move of Lichess's taken back by hand on the board (the bridge's own takebacks
        forget the count): propose the takeback on Lichess, or accept the opponent's."""
        seen, game.plies_seen = game.plies_seen, len(played)
        if seen is None or len(played) >= seen or game.over:
            return
        if len(played) >= len(lichess) or played != lichess[: len(played)]:
            return  # a move Lichess never had: nothing to take back there
        uci = lichess[len(played)]
        if game.shown is not None:
            # The move lit for the person was for the position before: not to be played now.
            self.follower.connection.request(ShowMove(None))
            game.shown = None
        if game.offers.their_takeback:
            self._propose_takeback(game, f"{uci} taken back on the board: accepting the takeback")
        elif not game.offers.takeback_pending:
            self._propose_takeback(
                game,
                f"{uci} taken back on the board: proposing a takeback on Lichess "
                "(type `no` to withdraw it)",
            )

    def _undo(self, game: _Game, played: list[str]) -> bool:
        """Take back, one at a time, the board's moves that Lichess took back."""
        assert game.undone is not None
        kept, before = game.undone
        if not plies_to_undo(played, before, kept):
            game.undone = None
            return False
        try:
            self._take_back(game)
        except HostError as error:
            self.log(str(error))
            game.undone = None
        return True

    def _show(self, game: _Game, ply: int, uci: str, white_to_move: bool) -> None:
        """Light the move Lichess has next for the person to carry out."""
        if game.shown == (ply, uci):
            return
        self.follower.connection.request(ShowMove(uci))
        game.shown = (ply, uci)
        who = "your opponent plays" if white_to_move != game.we_white else "Lichess has"
        self.log(f"{who} {uci}: carry it out on the board")

    def _take_back(self, game: _Game) -> None:
        game.plies_seen = None  # not the person's takeback
        self.follower.connection.request(TakeBack())
        game.shown = None
        self.follower.sync()

    def _post_move(self, game: _Game, uci: str, ply: int) -> None:
        paused = self.api.paused_for()
        if paused > 0:
            # Lichess asked for a minute without calls: the move waits on the board.
            if game.waiting != (ply, uci):
                game.waiting = (ply, uci)
                self.log(
                    f"{uci} goes to Lichess in {paused:.0f} s: Lichess asked for a minute's "
                    "pause (429 Too Many Requests); leave it on the board"
                )
            return
        game.posted = ply
        try:
            self.api.post(f"/api/board/game/{quote(game.id)}/move/{quote(uci)}")
        except RateLimited as error:
            game.posted, game.waiting = ply - 1, (ply, uci)
            self.log(f"{error}: {uci} stays on the board and goes to Lichess then")
            return
        except LichessError as error:
            self.log(f"Lichess did not take {uci} ({error}): take it back and play another move")
            game.posted = ply - 1
            self._take_back(game)
        else:
            if game.waiting is not None:
                self.log(f"{uci} went to Lichess after the pause")
            game.waiting = None

    def _board_ended(self, game: _Game, result: str, reason: str | None) -> None:
        if game.board_ended:
            return
        game.board_ended = True
        if game.over:
            return
        base = f"/api/board/game/{quote(game.id)}"
        if reason == "resignation":
            loser_white = result == "0-1"
            if loser_white == game.we_white:
                self.log("you resigned on the board: resigning on Lichess")
                self.feeds.post_later(f"{base}/resign")
            else:
                self.log("the board ended the game for your opponent: Lichess plays on")
        elif reason == "agreement":
            self.log("draw agreed on the board: offering it on Lichess")
            game.board_draw = True
            self.feeds.post_later(f"{base}/draw/yes")
        else:
            # Mate, stalemate and the like: Lichess sees it in the moves themselves.
            self.log(f"the board ends the game: {result} ({reason})")


def lichess(
    args: argparse.Namespace, *, stop: Callable[[], bool], log: Callable[[str], None]
) -> int:
    try:
        token = read_token(args.token_file, os.environ)
        api = LichessApi(args.server, token)
        if args.challenge and args.seek:
            raise BadSetting("give --seek or --challenge, not both")
        seek = None if args.seek is None else seek_form(args.seek, args.rated, args.variant)
        challenge = None
        if args.challenge:
            challenge = (args.challenge, challenge_form(args.clock, args.rated, args.variant))
    except BadSetting as error:
        # A bad argument, in one line: exit status 2, as for the ones the parser refuses.
        print(f"reedboard-host lichess: {error}", file=sys.stderr)
        return 2
    follower = Follower(choose_port(args.port), log=log)
    bridge = LichessBridge(api, follower, stop=stop, log=log, accept=args.accept)
    try:
        return bridge.run(seek=seek, challenge=challenge)
    finally:
        follower.connection.close()


def _milliseconds(value: object) -> TypeGuard[int]:
    """A time as Lichess's game state gives it: whole milliseconds, not negative."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
