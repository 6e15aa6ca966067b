"""`[voice]` in the board's TOML file: read, and refused naming the key."""

from __future__ import annotations

import pytest
from reedboard.config import VoiceConfig, parse_config
from reedboard.errors import ConfigError


def test_the_voice_is_off_by_default() -> None:
    assert parse_config("").voice == VoiceConfig(enabled=False, language="fr")


def test_values_are_read() -> None:
    config = parse_config(
        '[voice]\nenabled = true\nlanguage = "en"\nvoice = "en-us"\nrate = 200\n'
        'volume = 150\ndevice = "plughw:1,0"\n'
    )
    assert config.voice == VoiceConfig(True, "en", "en-us", 200, 150, "plughw:1,0")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("enabled = 1", "voice.enabled: expected true or false, got 1"),
        ('language = "de"', "voice.language: 'de' is not one of 'en', 'fr'"),
        ("rate = 10", "voice.rate: 10 is outside 80..450"),
        ("volume = 300", "voice.volume: 300 is outside 0..200"),
        ("volume = 1.5", "voice.volume: expected an integer, got 1.5"),
        ("device = 3", "voice.device: expected a string, got 3"),
        ("voice = false", "voice.voice: expected a string, got False"),
        ("speed = 2", "voice.speed: unknown key"),
    ],
)
def test_a_bad_value_is_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(f"[voice]\n{text}\n")
    assert str(error.value) == message
