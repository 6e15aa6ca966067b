"""A fake `Speaker` that keeps what it was asked to say: for tests, `reedboard run --fake`
and the simulator (whose page speaks with the browser's own voice)."""

from __future__ import annotations

from reedboard.hal.speech import Utterance


class RecordingSpeaker:
    def __init__(self) -> None:
        self.said: list[Utterance] = []
        self.closed = False

    def say(self, text: str, *, fleeting: bool = False) -> None:
        self.said.append(Utterance(text, fleeting))

    @property
    def texts(self) -> list[str]:
        return [u.text for u in self.said]

    def close(self) -> None:
        self.closed = True


__all__ = ["RecordingSpeaker"]
