"""A fake `Speaker` that keeps what it was asked to say: for tests, `reedboard run --fake`
and the simulator (whose page speaks with the browser's own voice)."""

from __future__ import annotations

from collections import deque

from reedboard.hal.speech import Utterance


class RecordingSpeaker:
    def __init__(self, keep: int | None = None) -> None:
        """`keep`: how many of the latest sentences to keep (all by default)."""
        self.said: deque[Utterance] = deque(maxlen=keep)
        self.count = 0  # sentences said in all, kept or not
        self.closed = False

    def say(self, text: str, *, fleeting: bool = False) -> None:
        self.said.append(Utterance(text, fleeting))
        self.count += 1

    @property
    def texts(self) -> list[str]:
        return [u.text for u in self.said]

    def close(self) -> None:
        self.closed = True


__all__ = ["RecordingSpeaker"]
