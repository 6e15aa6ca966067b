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
loop touches the board. What to do about each is decided by the synchroniser
(`lichess_sync.py`), which does no I/O: this module carries out its actions.

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
import logging
import os
import queue
import sys
from collections.abc import Callable
from typing import Any, TextIO, assert_never

from reedboard.errors import LinkError, ReedboardError

from reedboard_host.connection import HostError
from reedboard_host.follow import Follower
from reedboard_host.lichess_actions import (
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
from reedboard_host.lichess_api import DEFAULT_SERVER, LichessApi, RateLimited
from reedboard_host.lichess_feeds import LichessFeeds
from reedboard_host.lichess_game import challenge_form, parse_clock, seek_form
from reedboard_host.lichess_settings import BadSetting, read_token
from reedboard_host.lichess_sync import LichessSync

POLL_S = 0.05
EVENTS_OPEN_S = 15.0  # to wait for the event stream before seeking or challenging

logger = logging.getLogger(__name__)


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


class LichessBridge:
    def __init__(
        self,
        api: LichessApi,
        follower: Follower,
        *,
        stop: Callable[[], bool],
        accept: list[str] | None = None,
        commands: TextIO | None = None,
    ) -> None:
        self.api = api
        self.commands = sys.stdin if commands is None else commands  # the typed commands
        self.follower = follower
        self.stop = stop
        self.feeds = LichessFeeds(api, stop)
        self.sync = LichessSync(follower.mirror, accept=accept)
        follower.on_message_hook = self.sync.board_message

    # ----- the loop -----

    def run(
        self, *, seek: dict[str, Any] | None, challenge: tuple[str, dict[str, Any]] | None
    ) -> int:
        account = self._account()
        if account is None:
            return 0  # stopped while Lichess asked for a pause
        me = self.sync.me = str(account.get("id") or account.get("username") or "").lower()
        logger.info("signed in to %s as %s", self.api.server, account.get("username", me))
        self.follower.connect()
        # The event stream first: a seek or challenge answered at once must not be missed.
        self.feeds.follow_events()
        self.feeds.read_stdin(self.commands)
        if (seek or challenge) and not self.feeds.events_open.wait(EVENTS_OPEN_S):
            logger.warning("the event stream has not opened yet: a game may start unnoticed")
        if seek is not None:
            self.feeds.hold_open("/api/board/seek", seek)
            logger.info("seeking a %s+%s game", seek["time"], seek["increment"])
        if challenge is not None:
            user, form = challenge
            self.feeds.hold_open(f"/api/challenge/{quote(user)}", form)
            clock = f"{form['clock.limit'] / 60:g}+{form['clock.increment']}"
            logger.info("challenging %s to %s %s", user, form.get("variant", "standard"), clock)
        while not self.stop():
            try:
                self._turn()
            except LinkError as error:
                self.follower.lost(error)
            except (HostError, ReedboardError) as error:
                logger.warning("%s", error)
        return 0

    def _account(self) -> dict[str, Any] | None:
        """The account; a bad token fails here, in one line."""
        while not self.stop():
            try:
                return self.api.get("/api/account")
            except RateLimited as error:
                logger.warning("%s", error)
                self.api.wait_turn(self.stop)
        return None

    def _turn(self) -> None:
        if not self.follower.keep_up(POLL_S):
            return  # Lichess's news waits in the inbox until the board is back
        while True:
            try:
                kind, item = self.feeds.inbox.get_nowait()
            except queue.Empty:
                break
            try:
                self._carry_out(self.sync.item(kind, item))
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                # Lichess (or a stand-in) sent something of another shape: skip it.
                logger.warning(
                    "ignored an odd %s message: %s: %s", kind, type(error).__name__, error
                )
        self._carry_out(self.sync.step())

    def _carry_out(self, steps: Steps) -> None:
        """Drive the synchroniser: carry out each action it yields and send it the answer,
        or throw in the error met; an error it does not catch goes on to the loop."""
        answer: Any = None
        error: BaseException | None = None
        while True:
            self.sync.game_followed = self.feeds.game_followed  # a 404 may have left it
            try:
                action = steps.send(answer) if error is None else steps.throw(error)
            except StopIteration:
                return
            answer, error = None, None
            try:
                answer = self._do(action)
            except (HostError, LinkError) as met:
                error = met

    def _do(self, action: Action) -> Any:
        match action:
            case AskBoard(command):
                return self.follower.connection.request(command)
            case SyncBoard():
                self.follower.sync()
            case PostNow(path):
                return self.api.post(path)
            case PostLater(path, form):
                self.feeds.post_later(path, form)
            case FollowGame(game_id):
                self.feeds.follow_game(game_id)
            case PausedFor():
                return self.api.paused_for()
            case Tell(text):
                logger.info("%s", text)
            case _:
                assert_never(action)
        return None


def lichess(args: argparse.Namespace, *, stop: Callable[[], bool]) -> int:
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
    follower = Follower(args.port)
    bridge = LichessBridge(api, follower, stop=stop, accept=args.accept)
    try:
        return bridge.run(seek=seek, challenge=challenge)
    finally:
        follower.connection.close()
