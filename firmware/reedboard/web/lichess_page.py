"""The page's Lichess requests (docs/page.md): the API token, entered once, and a word
for the game on Lichess (resign, draw, takeback, no, abort, claim). The token is checked
with Lichess before it is kept; it is never sent back, never logged, and a refused one
is said and not kept."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from reedboard.errors import ReedboardError
from reedboard.web.control import BadRequest
from reedboard.web.opponents import LichessOpponents, Opponents
from reedboard.web.page_messages import PageAck

MAX_TOKEN = 200  # Lichess's tokens are far shorter; a longer text is no token


async def lichess_request(
    opponents: Opponents | None, op: str, message: Mapping[str, object]
) -> tuple[str, PageAck]:
    """Carry out a page's `lichess_token` or `lichess` request: what was done, in words
    for the other pages, and the answer (never the token)."""
    if not isinstance(opponents, LichessOpponents):
        raise BadRequest("this board does not play Lichess")
    if op == "lichess_token":
        token = message.get("token")
        if not isinstance(token, str) or not token.strip() or len(token) > MAX_TOKEN:
            raise BadRequest("a Lichess token is a short text (lip_...)")
        try:
            account = await asyncio.to_thread(opponents.lichess_token, token.strip())
        except ReedboardError as error:
            raise BadRequest(str(error)) from None
        said = f"signed in to Lichess as {account}: the token is kept"
        return "a Lichess token was entered", PageAck(
            type="reply", kind="ack", lichess=account, message=said
        )
    line = message.get("command")
    if not isinstance(line, str) or len(line) > 20:
        raise BadRequest("a Lichess command is one word: resign, draw, takeback, no, abort, claim")
    refused = opponents.lichess_command(line)
    if refused is not None:
        raise BadRequest(refused)
    return f"Lichess: {line}", PageAck(type="reply", kind="ack", lichess=line)
