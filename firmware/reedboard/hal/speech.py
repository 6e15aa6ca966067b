"""The voice's port: a `Speaker` says sentences without ever holding up its caller, and
the rule for a sentence that comes while another is being said (`SpeechQueue`).

A person telling a game does not talk over themselves, and does not finish a sentence
that has just become false. So each sentence is *lasting* (a move, a result, an answer:
it must be heard, and a later one waits for it) or *fleeting* (what is wrong on the board
now, a touch: the next sentence, whatever it is, makes it stale). A new sentence cuts a
fleeting one being said and drops fleeting ones still waiting; lasting ones are never cut
or dropped, and the new sentence waits its turn behind them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@runtime_checkable
class Speaker(Protocol):
    """Says sentences, one at a time, off the caller's thread."""

    def say(self, text: str, *, fleeting: bool = False) -> None:
        """Queue `text` and return at once; see the module's rule for `fleeting`."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Utterance:
    text: str
    fleeting: bool = False


class SpeechQueue:
    """The waiting sentences and the one being said. Pure; the adapter holds the lock."""

    def __init__(self) -> None:
        self.waiting: deque[Utterance] = deque()
        self.current: Utterance | None = None

    def add(self, utterance: Utterance) -> bool:
        """Queue `utterance`; True when the sentence being said must be cut."""
        self.waiting = deque(u for u in self.waiting if not u.fleeting)
        self.waiting.append(utterance)
        return self.current is not None and self.current.fleeting

    def take(self) -> Utterance | None:
        """The next sentence to say, which becomes the current one (None: silence)."""
        self.current = self.waiting.popleft() if self.waiting else None
        return self.current

    def finished(self) -> None:
        self.current = None
