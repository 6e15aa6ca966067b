"""What both Lichess players do around the one API client, besides the synchroniser's
actions (`carrying`): the host's bridge (`reedboard-host lichess`) and the board's own
player (`opponents.lichess_side`) sign in, ask for a game and take Lichess's news by these
same steps, with the same handling of a rate limit, a refused token and an odd message.
Only where words go and how long to keep trying differ: those come as arguments."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from reedboard.lichess.actions import Steps, quote
from reedboard.lichess.api import JsonObject, LichessApi, LichessError, RateLimited
from reedboard.lichess.streams import LichessStreams
from reedboard.lichess.sync import LichessSync

EVENTS_OPEN_S = 15.0  # to wait for the event stream before seeking or challenging
STEP_S = 0.05  # how often a wait looks whether it was asked to stop
SIGN_IN_AGAIN_S = 1.0

logger = logging.getLogger(__name__)


def _never() -> bool:
    return False


async def sign_in(
    api: LichessApi,
    tell: Callable[[str], None],
    *,
    patient: bool = False,
    stopped: Callable[[], bool] = _never,
) -> JsonObject | None:
    """The account the token opens (None: `stopped()` said to end first). A rate limit is
    told and waited out. A token Lichess refuses (401) raises its `LichessError`, and so
    does any other failure, unless `patient`: then it is told and tried again."""
    while not stopped():
        try:
            return await api.get("/api/account")
        except RateLimited as error:
            tell(str(error))
            await api.wait_turn()
        except LichessError as error:
            if not patient or error.status == 401:
                raise
            tell(f"{error}; trying again")
            await asyncio.sleep(SIGN_IN_AGAIN_S)
    return None


async def ask_for_game(
    streams: LichessStreams,
    tell: Callable[[str], None],
    *,
    seek: JsonObject | None = None,
    challenge: tuple[str, JsonObject] | None = None,
    stopped: Callable[[], bool] = _never,
) -> None:
    """The account's events followed, then the seek or challenge, if any, held open on
    Lichess. The event stream first, waited for (up to `EVENTS_OPEN_S`): a game that
    starts at once must not be missed."""
    streams.follow_events()
    if seek is None and challenge is None:
        return
    waited = 0.0
    while not streams.events_open.is_set():
        if stopped():
            return
        if waited >= EVENTS_OPEN_S:
            tell("the event stream has not opened yet: a game may start unnoticed")
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(streams.events_open.wait(), STEP_S)
        waited += STEP_S
    if seek is not None:
        streams.hold_open("/api/board/seek", seek)
        tell(f"seeking a {seek['time']}+{seek['increment']} game")
    if challenge is not None:
        user, form = challenge
        streams.hold_open(f"/api/challenge/{quote(user)}", form)
        clock = f"{form['clock.limit'] / 60:g}+{form['clock.increment']}"
        tell(f"challenging {user} to {form.get('variant', 'standard')} {clock}")


async def take_news(
    streams: LichessStreams,
    sync: LichessSync,
    carry_out: Callable[[Steps], Awaitable[None]],
) -> None:
    """One turn: each item Lichess sent (and each line typed) decided on and carried out,
    then the synchroniser's own step. An item of another shape than Lichess's is skipped
    and said in the log; an error of the board or of Lichess goes to the caller, and the
    items after it wait in the inbox for the next turn."""
    while True:
        try:
            kind, item = streams.inbox.get_nowait()
        except asyncio.QueueEmpty:
            break
        try:
            await carry_out(sync.item(kind, item))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            logger.warning("ignored an odd %s message: %s: %s", kind, type(error).__name__, error)
    await carry_out(sync.step())
