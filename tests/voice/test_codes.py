from __future__ import annotations

from reedboard.voice.codes import LANGUAGE_CODES
from reedboard.voice.languages import LANGUAGES


def test_the_codes_are_the_phrasebooks_languages() -> None:
    assert tuple(sorted(LANGUAGES)) == LANGUAGE_CODES
