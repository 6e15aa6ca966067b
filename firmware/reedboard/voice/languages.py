"""The languages the board speaks: adding one is one more phrase file and one line here."""

from __future__ import annotations

from reedboard.errors import InvalidInputError
from reedboard.voice import english, french
from reedboard.voice.phrasebook import Phrasebook

LANGUAGES: dict[str, Phrasebook] = {book.code: book for book in (french.PHRASES, english.PHRASES)}


def phrasebook(code: str) -> Phrasebook:
    try:
        return LANGUAGES[code]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise InvalidInputError(f"the voice speaks no {code!r}: choose one of {known}") from None
