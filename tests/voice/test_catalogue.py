"""docs/voice.md is what the phrase files give, and lists every sentence."""

from __future__ import annotations

from pathlib import Path

from reedboard.voice.catalogue import catalogue
from reedboard.voice.languages import LANGUAGES
from reedboard.voice.phrasebook import template_fields

PAGE = Path(__file__).resolve().parents[2] / "docs" / "voice.md"


def test_the_page_is_current() -> None:
    """Regenerate with `python -m reedboard.voice.catalogue > docs/voice.md`."""
    assert PAGE.read_text(encoding="utf-8") == catalogue()


def test_every_template_of_every_language_is_listed() -> None:
    page = catalogue()
    for book in LANGUAGES.values():
        for name, _when in template_fields():
            value = getattr(book, name)
            texts = value.values() if isinstance(value, dict) else [value]
            for text in texts:
                assert f"`{text}`" in page, (book.code, name, text)
