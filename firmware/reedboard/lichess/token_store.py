"""The board's Lichess token, kept in its state directory (beside the journal): entered
once on the page, checked with Lichess before it is kept, written with mode 0600, never
shown again and never logged. A token Lichess refuses is not kept."""

from __future__ import annotations

import asyncio
import contextlib
import os

from reedboard.lichess.api import LichessApi, LichessError
from reedboard.lichess.settings import BadSetting, check_token

TOKEN_FILE = "lichess.token"


def read_kept(data_dir: str | None) -> str | None:
    """The token kept, if any (one that cannot be read counts as none)."""
    if data_dir is None:
        return None
    try:
        with open(os.path.join(data_dir, TOKEN_FILE), encoding="utf-8") as file:
            token = file.readline().strip()
        return check_token(token, "the kept token")
    except (OSError, UnicodeDecodeError, BadSetting):
        return None


def keep(data_dir: str, token: str) -> None:
    """Write the token, readable by the board's user alone, in place of any other."""
    path = os.path.join(data_dir, TOKEN_FILE)
    new = path + ".new"
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file left by an earlier try keeps its mode otherwise
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(new, path)


def forget(data_dir: str | None) -> None:
    if data_dir is not None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(data_dir, TOKEN_FILE))


def account_of(server: str, token: str) -> str:
    """The account the token signs in to (its user name), asked of Lichess; BadSetting
    for a token that cannot be one, LichessError for one Lichess refuses or cannot be
    asked about. Blocks: called from the page's worker thread."""
    check_token(token, "the token")
    return asyncio.run(_account(server, token))


async def _account(server: str, token: str) -> str:
    api = LichessApi(server, token)
    try:
        account = await api.get("/api/account")
    finally:
        await api.close()
    name = account.get("username") or account.get("id")
    if not isinstance(name, str) or not name:
        raise LichessError("Lichess answered without the account's name")
    return name
