"""What `reedboard-host lichess` is told before it calls anyone: the API token (from a file
or LICHESS_TOKEN) and the server's URL, each checked so that a bad one is one line and exit
status 2, and the token is never in that line. Pure but for reading the token file."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

from reedboard.errors import InvalidInputError

TOKEN_PREFIXES = ("lip_", "lio_")  # Lichess's personal and OAuth tokens begin so


class BadSetting(InvalidInputError):
    """A bad command-line value or token: the command's arguments, exit status 2."""


def read_token(path: str | None, environ: Mapping[str, str]) -> str:
    """The API token from a file (its first line) or from LICHESS_TOKEN."""
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                token = f.readline().strip()
        except UnicodeDecodeError:
            raise BadSetting(f"the token file {path} is not text") from None
        except OSError as error:
            if path.startswith(TOKEN_PREFIXES):
                # The token itself given as the file's name: not to be repeated back.
                raise BadSetting(
                    "--token-file names no file: give the file that holds the token, not the token"
                ) from None
            raise BadSetting(
                f"cannot read the token file {path}: {error.strerror or type(error).__name__}"
            ) from None
        return check_token(token, f"the first line of the token file {path}")
    if "LICHESS_TOKEN" not in environ:
        raise BadSetting("no Lichess token: give --token-file FILE or set LICHESS_TOKEN")
    return check_token(environ["LICHESS_TOKEN"].strip(), "LICHESS_TOKEN")


def check_token(token: str, where: str) -> str:
    """`token` if it can be one (a word of printable ASCII): anything else would go into
    an HTTP header, where a line break is refused with the token in the error's text."""
    if not token:
        raise BadSetting(f"{where} is empty: it should hold a Lichess API token")
    if not all("!" <= c <= "~" for c in token):
        raise BadSetting(
            f"{where} is not a Lichess API token: it holds a space, a line break, a control "
            "character or a letter outside ASCII"
        )
    return token


def server_url(text: str, option: str = "--server") -> str:
    """The server's base URL, `http(s)://HOST[:PORT][/PATH]`, without a trailing slash
    (`option`: where it was given, for the message)."""
    wrong = f"{option} {text!r} is not a server's URL: give https://HOST[:PORT]"
    if not text.isascii() or not text.isprintable() or " " in text:
        raise BadSetting(wrong)
    parts = urllib.parse.urlsplit(text)
    try:
        parts.port  # noqa: B018 - read for its check: a port that is not a number raises
    except ValueError:
        raise BadSetting(wrong) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadSetting(wrong)
    if parts.username is not None or parts.password is not None:
        # Not repeated back: a password (or a token) may be in it.
        raise BadSetting(f"{option} must not hold a user name or password")
    if parts.query or parts.fragment:
        raise BadSetting(wrong)
    return text.rstrip("/")
