"""Keeping the board's game and Lichess's in step: the decisions of `reedboard-host
lichess`, without its I/O. What comes in: Lichess's events and game states, the typed
commands, the answers to calls made for later, and the board's game (a copy of it kept
from its messages: the host's mirror, or the board's own). What goes out: requests to
the board, calls to Lichess, the game stream to follow, and words for the person, as
`Action`s.

Each entry point is a generator (the sans-I/O style): it yields one action at a time,
and the shell that drives it carries the action out and sends back its answer (a board's
reply, a Lichess answer, the seconds a 429's pause has left), or throws the error it met
into the generator at that point, where the decisions catch what they expect. So the
order of the decisions and their effects is exactly as if the calls were made in place,
and the synchroniser never waits, reads a clock or touches a line.

What it does, and why, is told in the introduction of `reedboard-host lichess`'s
bridge (host) and of `player` (the board itself)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, cast

from reedboard.chess_clock.clock_text import clock_text
from reedboard.errors import BoardRequestError, LinkError
from reedboard.events import NewGame, TakenBack
from reedboard.lichess.actions import (
    Action,
    AskBoard,
    FollowGame,
    PausedFor,
    PostLater,
    PostNow,
    Steps,
    SyncBoard,
    Tell,
    quote,
)
from reedboard.lichess.api import JsonObject, LichessError, RateLimited
from reedboard.lichess.board_view import BoardGame, BoardView
from reedboard.lichess.events import account_event, opponent_gone_news
from reedboard.lichess.game import (
    NO_RESULT,
    ON_THE_BOARD,
    OVER,
    PLAYABLE,
    BridgedGame,
    LichessMoves,
    common_prefix,
    initial_position,
    milliseconds,
    player_name,
    plies_to_undo,
)
from reedboard.lichess.shapes import ChatLine, GameFull, GameState, OpponentGone
from reedboard.link.board_messages import BoardHello, BoardMessage, EffectMessage
from reedboard.link.messages import Color, Draw, Resign, ShowMove, StartGame, TakeBack, Variant
from reedboard.rules.chess960 import start_number_of
from reedboard.rules.position import Position

COMMANDS = ("resign", "draw", "takeback", "no", "abort", "claim", "claim-draw")
PROPOSE_TAKEBACK = "/takeback/yes"


class LichessSync:
    def __init__(self, mirror: BoardView, *, me: str = "", accept: list[str] | None = None) -> None:
        self.mirror = mirror  # the board's game, as a copy kept from its messages
        self.me = me  # our account's id, lower case
        # None: incoming challenges are only reported; an empty set: accepted from anyone.
        self.accept = None if accept is None else {u.lower() for u in accept if u}
        self.game: BridgedGame | None = None
        self.game_followed: str | None = None  # the game whose stream is followed
        self._new_games = 0  # `new_game` effects the board sent
        self._takebacks = 0  # `takeback` effects the board sent

    def board_message(self, message: BoardMessage) -> None:
        """A message from the board, as it comes."""
        event = message.effect if isinstance(message, EffectMessage) else None
        self._new_games += isinstance(event, NewGame)
        self._takebacks += isinstance(event, TakenBack)
        if isinstance(message, BoardHello) and self.game is not None:
            self.game.taken_back.forget()  # the board started afresh: events may be lost

    def item(self, kind: str, item: Any) -> Steps:
        """One thing from outside: a Lichess event or game item, a typed command, the
        answer to a call made for later, a game gone from Lichess."""
        if kind == "event":
            yield from account_event(item, me=self.me, accept=self.accept, playing=self._playing())
        elif kind == "game":
            yield from self._game_item(*item)
        elif kind == "command":
            yield from self._command(item)
        elif kind == "refused":
            yield from self._refused(*item)
        elif kind == "posted":
            self._posted(item)
        elif kind == "log":
            yield Tell(item)
        elif kind == "gone":
            yield from self._gone(item)

    def _playing(self) -> str | None:
        """The id of the game on the board, while it is not over."""
        return None if self.game is None or self.game.over else self.game.id

    def step(self) -> Steps:
        """Compare the board's game with Lichess's and act on the difference."""
        yield from self._step()

    # ----- the game stream -----

    def _gone(self, game_id: str) -> Steps:
        """Lichess answers 404 for the game: it is no more (or never was ours). The
        bridge leaves it, the board's game as it stands, and waits for the next."""
        yield Tell(f"game {game_id} is gone from Lichess (404): no longer following it")
        game = self.game
        if game is None or game.id != game_id:
            return
        self.game = None
        if game.shown is not None:
            yield AskBoard(ShowMove(None))

    def _game_item(self, game_id: str, item: JsonObject) -> Steps:
        """A line of the game's stream, read as the shape its `type` names."""
        if game_id != self.game_followed:
            return  # a stream that was left
        kind = item.get("type")
        if kind == "gameFull":
            yield from self._game_full(game_id, cast(GameFull, item))
        elif kind == "gameState":
            yield from self._game_state(cast(GameState, item))
        elif kind == "chatLine":
            chat = cast(ChatLine, item)
            yield Tell(f"chat {chat.get('username')}: {chat.get('text')}")
        elif kind == "opponentGone":
            yield Tell(opponent_gone_news(cast(OpponentGone, item)))

    def _game_full(self, game_id: str, full: GameFull) -> Steps:
        game = self.game
        if game is not None and game.id == game_id:
            # The stream was opened again: the game goes on.
            yield from self._game_state(full["state"])
            return
        variant = (full.get("variant") or {}).get("key", "standard")
        if variant not in PLAYABLE:
            yield Tell(f"game {game_id} is {variant}: the board cannot play it")
            yield FollowGame(None)
            return
        white = str((full.get("white") or {}).get("id", "")).lower()
        black = str((full.get("black") or {}).get("id", "")).lower()
        status = str(full["state"].get("status", "started"))
        if self.me not in (white, black) or status in OVER:
            yield Tell(f"game {game_id} is not yours to play" if status not in OVER
                     else f"game {game_id} is already over: {status}")  # fmt: skip
            yield FollowGame(None)
            return
        moves = LichessMoves(initial_position(full.get("initialFen"), variant))
        moves.update(str(full["state"].get("moves", "")).split())
        game = BridgedGame(game_id, white == self.me, moves)
        self.game = game
        opponent = player_name((full.get("black") if game.we_white else full.get("white")) or {})
        clock = full.get("clock") or {}
        pace = (
            f"{clock['initial'] / 60000:g}+{clock['increment'] // 1000}"
            if "initial" in clock and "increment" in clock
            else full.get("speed", "")
        )
        yield Tell(
            f"game {game_id} against {opponent}, {variant} {pace}: "
            f"you play {'white' if game.we_white else 'black'}"
        )
        if game.lichess.ucis or not (yield from self._begun_on_the_board(game)):
            yield from self._start_board_game(game)
        yield from self._game_state(full["state"])

    def _begun_on_the_board(self, game: BridgedGame) -> Generator[Action, Any, bool]:
        """Whether the board's game is this one, begun already (`adopt_begun`)."""
        yield SyncBoard()  # a move made a moment ago is heard first, not lost
        return not self.mirror.needs_state and game.adopt_begun(self.mirror.current)

    def _start_board_game(self, game: BridgedGame, *, set_up: bool = True) -> Steps:
        """A new game on the board at Lichess's position: from the start, with the lights
        guiding a Chess960 set-up, or from the position reached so far (joining a game in
        progress, or going on after a draw on the board that Lichess did not take)."""
        moves = game.lichess
        game.start_ply = len(moves.ucis)
        game.board, game.shown, game.posted, game.board_ended = None, None, 0, False
        game.undone = None
        game.taken_back.forget()
        game.new_games_asked = self._new_games
        position = moves.game.position
        number = start_number_of(position) if not moves.ucis else None
        if not moves.ucis and position.fen() == Position.standard().fen():
            yield AskBoard(StartGame("standard"))
        elif number is not None and position.chess960:
            yield AskBoard(StartGame("chess960", number))
            yield Tell(f"set up Chess960 position {number} as the lights show")
        else:
            variant: Variant = "chess960" if position.chess960 else "standard"
            yield AskBoard(StartGame(variant, fen=position.fen()))
            if set_up:
                yield Tell("set up the game's position as the lights show")

    def _game_state(self, state: GameState) -> Steps:
        game = self.game
        if game is None:
            return
        before = list(game.lichess.ucis)
        game.lichess.update(str(state.get("moves", "")).split())
        status = str(state.get("status", "started"))
        kept = common_prefix(before, game.lichess.ucis)
        if kept < len(before):
            yield from self._lichess_took_back(game, kept, before)
        white_ms, black_ms = state.get("wtime"), state.get("btime")
        moved = len(game.lichess.ucis) > len(before)
        if moved and milliseconds(white_ms) and milliseconds(black_ms):
            # Lichess keeps the game's clocks: shown as its state gives them, each move.
            yield Tell(f"clocks on Lichess: {clock_text(white_ms, black_ms)}")
        news = game.offers.read(
            state, game.we_white, playing=status not in OVER, taken=kept < len(before)
        )
        for item in news:
            yield from self._offer_news(game, item)
        if status in OVER and not game.over:
            game.status = status
            yield from self._lichess_ended(game, status, state.get("winner"))

    def _lichess_took_back(self, game: BridgedGame, kept: int, before: list[str]) -> Steps:
        yield Tell(f"taken back on Lichess: {' '.join(before[kept:])}")
        if kept < game.start_ply:
            # Back before the board's game began: the board starts again at Lichess's
            # position, and the lights show where the pieces go.
            yield from self._start_board_game(game)
            return
        game.undone = (kept - game.start_ply, before[game.start_ply :])
        game.posted = min(game.posted, kept - game.start_ply)

    def _offer_news(self, game: BridgedGame, news: str) -> Steps:
        if news == "takeback proposed":
            yield Tell(
                "your opponent proposes a takeback: type `takeback` to accept, `no` to decline"
            )
        elif news == "takeback declined":
            yield Tell("your opponent declined the takeback: the game goes on")
        elif news == "draw offered":
            yield Tell("your opponent offers a draw: type `draw` to accept, `no` to decline")
        elif news == "draw declined":
            yield Tell("your opponent did not take the draw: the game goes on")
            if game.board_draw:
                game.board_draw = False
                yield from self._start_board_game(game, set_up=False)  # the pieces stand there

    def _lichess_ended(self, game: BridgedGame, status: str, winner: Any) -> Steps:
        yield Tell(
            f"game {game.id} is over on Lichess: {status}" + (f", {winner} wins" if winner else "")
        )
        yield FollowGame(None)
        current = self._board_game(game)
        if status in ON_THE_BOARD or current is None or current.result is not None:
            return  # a mate the board sees once its last move stands; or the board's end
        game.board_ended = True  # the board's end below is Lichess's, not the person's
        try:
            yield AskBoard(ShowMove(None))
            game.shown = None
            if winner in ("white", "black"):
                # A resignation is the board's one way to give the game to one side.
                yield AskBoard(Resign("black" if winner == "white" else "white"))
            elif status not in NO_RESULT:
                yield AskBoard(Draw(agreed=True))
        except BoardRequestError as error:
            yield Tell(str(error))

    # ----- typed commands -----

    def _command(self, line: str) -> Steps:
        game = self.game
        if line not in COMMANDS:
            if line:
                yield Tell(f"unknown command {line!r}: one of {', '.join(COMMANDS)}")
            return
        if game is None or game.over:
            yield Tell(f"{line}: no game in progress")
            return
        base = f"/api/board/game/{quote(game.id)}"
        if line == "resign":
            try:
                # The board ends its game; `_step` sees that and tells Lichess.
                colour: Color = "white" if game.we_white else "black"
                yield AskBoard(Resign(colour))
            except BoardRequestError:
                yield PostLater(f"{base}/resign")
        elif line == "draw":
            yield Tell("accepting the draw" if game.offers.their_draw else "offering a draw")
            yield PostLater(f"{base}/draw/yes")
        elif line == "takeback":
            accepting = game.offers.their_takeback
            yield from self._propose_takeback(
                game, "accepting the takeback" if accepting else "proposing a takeback"
            )
        elif line == "no":
            yield from self._say_no(game, base)
        elif line == "abort":
            yield PostLater(f"{base}/abort")
        elif line == "claim":
            yield Tell("claiming the win: your opponent has left the game")
            yield PostLater(f"{base}/claim-victory")
        elif line == "claim-draw":
            yield Tell("claiming a draw: your opponent has left the game")
            yield PostLater(f"{base}/claim-draw")

    def _propose_takeback(self, game: BridgedGame, what: str) -> Steps:
        """Propose a takeback on Lichess, or accept the opponent's: one call for both."""
        yield Tell(what)
        game.offers.propose_takeback()
        yield PostLater(f"/api/board/game/{quote(game.id)}{PROPOSE_TAKEBACK}")

    def _say_no(self, game: BridgedGame, base: str) -> Steps:
        declining = game.offers.their_takeback or game.offers.their_draw
        calls = game.offers.say_no()
        for call in calls:
            what = call.partition("/")[0]
            yield Tell(f"declining the {what}" if declining else "withdrawing your takeback")
            yield PostLater(f"{base}/{call}")
        if not calls:
            yield Tell("no: there is nothing to decline")

    def _posted(self, path: str) -> None:
        game = self.game
        if game is not None and path.endswith(PROPOSE_TAKEBACK):
            game.offers.takeback_call_taken()

    def _refused(self, path: str, text: str) -> Steps:
        yield Tell(text)
        game = self.game
        if game is not None and path.endswith(PROPOSE_TAKEBACK):
            # No proposal stands: a move taken back by hand is lit again to be replayed.
            game.offers.takeback_call_refused()

    # ----- the board's side -----

    def _board_game(self, game: BridgedGame) -> BoardGame | None:
        """The board's game for `game`: the one the board started when asked (adopted
        once it starts, after a guided set-up), or None while there is none."""
        mirror = self.mirror
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

    def _step(self) -> Steps:
        game = self.game
        current = None if game is None else self._board_game(game)
        if game is None or current is None:
            return
        board = current.game
        played = [b.uci(m) for b, m in zip(board.positions, board.moves, strict=False)]
        lichess = game.lichess.ucis[game.start_ply :]
        yield from self._seen_taken_back(game, played, lichess)
        if game.undone is not None and (yield from self._undo(game, played)):
            return
        common = common_prefix(played, lichess)
        if common < len(played):
            ours = board.positions[common].turn == game.we_white
            if not game.over and common == len(lichess) == len(played) - 1 and ours:
                if game.posted < len(played):
                    # Before the board's end below: a mating move must reach Lichess.
                    yield from self._post_move(game, played[-1], len(played))
            elif current.result is None and not game.offers.takeback_pending:
                # The board went another way than Lichess: its last move is taken back,
                # and the move Lichess wants is lit again once the board is back. (Not
                # while a takeback waits: if it is taken, the move may be the new one.)
                yield Tell(f"{played[-1]} is not the game's move on Lichess: take it back")
                yield from self._take_back(game)
                return
        behind = common == len(played) < len(lichess)
        if current.result is not None:
            yield from self._board_ended(game, current.result, current.reason)
        elif behind and not game.offers.takeback_pending:
            yield from self._show(game, len(played), lichess[len(played)], board.position.turn)
        elif not behind and game.shown is not None:
            if game.shown[0] == len(played):
                # Lichess took the lit move back before it was carried out.
                yield AskBoard(ShowMove(None))
            game.shown = None

    def _seen_taken_back(self, game: BridgedGame, played: list[str], lichess: list[str]) -> Steps:
        """A move of Lichess's taken back by hand on the board (seen in the board's
        takebacks, not in its plies): propose the takeback on Lichess, or accept theirs."""
        if not game.taken_back.since(self._takebacks) or game.over:
            return
        if len(played) >= len(lichess) or played != lichess[: len(played)]:
            return  # a move Lichess never had: nothing to take back there
        uci = lichess[len(played)]
        if game.shown is not None:
            # The move lit for the person was for the position before: not to be played now.
            yield AskBoard(ShowMove(None))
            game.shown = None
        if game.offers.their_takeback:
            yield from self._propose_takeback(
                game, f"{uci} taken back on the board: accepting the takeback"
            )
        elif not game.offers.takeback_pending:
            yield from self._propose_takeback(
                game,
                f"{uci} taken back on the board: proposing a takeback on Lichess "
                "(type `no` to withdraw it)",
            )

    def _undo(self, game: BridgedGame, played: list[str]) -> Generator[Action, Any, bool]:
        """Take back, one at a time, the board's moves that Lichess took back."""
        assert game.undone is not None
        kept, before = game.undone
        if not plies_to_undo(played, before, kept):
            game.undone = None
            return False
        try:
            yield from self._take_back(game)
        except BoardRequestError as error:
            yield Tell(str(error))
            game.undone = None
        return True

    def _show(self, game: BridgedGame, ply: int, uci: str, white_to_move: bool) -> Steps:
        """Light the move Lichess has next for the person to carry out."""
        if game.shown == (ply, uci):
            return
        yield AskBoard(ShowMove(uci))
        game.shown = (ply, uci)
        who = "your opponent plays" if white_to_move != game.we_white else "Lichess has"
        yield Tell(f"{who} {uci}: carry it out on the board")

    def _take_back(self, game: BridgedGame) -> Steps:
        try:
            yield AskBoard(TakeBack())
        except (BoardRequestError, LinkError):
            game.taken_back.forget()  # made or not, it is not the person's
            raise
        game.taken_back.own += 1  # not the person's takeback
        game.shown = None
        yield SyncBoard()

    def _post_move(self, game: BridgedGame, uci: str, ply: int) -> Steps:
        paused = yield PausedFor()
        if paused > 0:
            # Lichess asked for a minute without calls: the move waits on the board.
            if game.waiting != (ply, uci):
                game.waiting = (ply, uci)
                yield Tell(
                    f"{uci} goes to Lichess in {paused:.0f} s: Lichess asked for a minute's "
                    "pause (429 Too Many Requests); leave it on the board"
                )
            return
        game.posted = ply
        try:
            yield PostNow(f"/api/board/game/{quote(game.id)}/move/{quote(uci)}")
        except RateLimited as error:
            game.posted, game.waiting = ply - 1, (ply, uci)
            yield Tell(f"{error}: {uci} stays on the board and goes to Lichess then")
            return
        except LichessError as error:
            yield Tell(f"Lichess did not take {uci} ({error}): take it back and play another move")
            game.posted = ply - 1
            yield from self._take_back(game)
        else:
            if game.waiting is not None:
                yield Tell(f"{uci} went to Lichess after the pause")
            game.waiting = None

    def _board_ended(self, game: BridgedGame, result: str, reason: str | None) -> Steps:
        if game.board_ended:
            return
        game.board_ended = True
        if game.over:
            return
        base = f"/api/board/game/{quote(game.id)}"
        if reason == "resignation":
            loser_white = result == "0-1"
            if loser_white == game.we_white:
                yield Tell("you resigned on the board: resigning on Lichess")
                yield PostLater(f"{base}/resign")
            else:
                yield Tell("the board ended the game for your opponent: Lichess plays on")
        elif reason == "agreement":
            yield Tell("draw agreed on the board: offering it on Lichess")
            game.board_draw = True
            yield PostLater(f"{base}/draw/yes")
        else:
            # Mate, stalemate and the like: Lichess sees it in the moves themselves.
            yield Tell(f"the board ends the game: {result} ({reason})")
