"""The account's events (a game starts or ends, a challenge comes or is answered) and the
opponent's coming and going, read into what the bridge does and says. Pure."""

from __future__ import annotations

from reedboard.lichess.actions import FollowGame, PostLater, Steps, Tell, quote
from reedboard.lichess.game import PLAYABLE
from reedboard.lichess.shapes import (
    AccountEvent,
    Challenge,
    Compat,
    GameEventInfo,
    OpponentGone,
)


def account_event(
    event: AccountEvent, *, me: str, accept: set[str] | None, playing: str | None
) -> Steps:
    """One event of the account's stream. `me`: our id; `accept`: whose challenges to
    accept (None: none, only reported; empty: anyone's); `playing`: the game on the board,
    while it is not over."""
    kind = event.get("type")
    if kind == "gameStart":
        yield from _game_start(event["game"], playing)
    elif kind == "gameFinish":
        info = event["game"]
        yield Tell(f"game {info.get('gameId') or info.get('id')} finished")
    elif kind == "challenge":
        # `compat` (can the Board API play it) sits beside the challenge or in it.
        yield from _challenge(
            event["challenge"], event.get("compat"), me=me, accept=accept, playing=playing
        )
    elif kind == "challengeDeclined":
        c = event["challenge"]
        who = (c.get("destUser") or {}).get("name") or "your opponent"
        reason = c.get("declineReason") or c.get("declineReasonKey") or "no reason given"
        yield Tell(f"{who} declined your challenge: {reason}")
    elif kind == "challengeCanceled":
        yield Tell(f"challenge {event['challenge']['id']} was cancelled")


def _game_start(info: GameEventInfo, playing: str | None) -> Steps:
    game_id = str(info.get("gameId") or info["id"])
    variant = (info.get("variant") or {}).get("key", "standard")
    if variant not in PLAYABLE:
        yield Tell(f"game {game_id} is {variant}: the board cannot play it")
        return
    if playing is not None and playing != game_id:
        yield Tell(f"game {game_id} started, but {playing} is on the board")
        return
    yield FollowGame(game_id)


def _challenge(
    c: Challenge, compat: Compat | None, *, me: str, accept: set[str] | None, playing: str | None
) -> Steps:
    challenger = c.get("challenger") or {}
    if c.get("direction") == "out" or str(challenger.get("id", "")).lower() == me:
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
    if accept is None:
        yield Tell(f"{what}: accept it on Lichess to play on the board")
    elif variant.get("key", "standard") not in PLAYABLE:
        yield Tell(f"{what}: declined, the board plays standard chess and Chess960")
        yield PostLater(f"{base}/decline", {"reason": "variant"})
    elif (compat or c.get("compat") or {}).get("board") is False:
        yield Tell(f"{what}: declined, too fast for the Board API")
        yield PostLater(f"{base}/decline", {"reason": "tooFast"})
    elif playing is not None:
        yield Tell(f"{what}: declined for now, a game is on the board")
        yield PostLater(f"{base}/decline", {"reason": "later"})
    elif accept and str(challenger.get("id", "")).lower() not in accept:
        yield Tell(f"{what}: not from a player you accept; answer it on Lichess")
    else:
        yield Tell(f"{what}: accepted")
        yield PostLater(f"{base}/accept")


def opponent_gone_news(item: OpponentGone) -> str:
    """What the person hears of an `opponentGone` item of the game stream."""
    seconds = item.get("claimWinInSeconds")
    claim = "type `claim` for the win, or `claim-draw` for a draw"
    if not item.get("gone"):
        return "the opponent is back"
    elif isinstance(seconds, int) and seconds > 0:
        return f"the opponent has left the game: you may claim the win on Lichess in {seconds} s ({claim})"
    elif seconds is not None:
        return f"the opponent has left the game: {claim}"
    else:
        return "the opponent has left the game"
