"""The codes of the languages the board speaks, without their phrases: a command line
lists them in its help and refuses others before it loads a phrasebook (and the rules the
phrasebooks name pieces with). `languages.LANGUAGES` holds a phrasebook for each."""

from __future__ import annotations

LANGUAGE_CODES: tuple[str, ...] = ("en", "fr")
