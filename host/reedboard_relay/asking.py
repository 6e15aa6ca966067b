"""When to ask a board again for what the relay misses. Pure: the time is given.

A question not answered within a second is asked again; one still wanted after that is
asked again after twice as long each time, up to `LONGEST_S`. Why: an answer can be late
only because it waits behind the relay's own backlog at the broker (a relay that fell
behind), and then every question asked again is answered again, in full, into that same
backlog: with a thousand boards asked every second, the answers grew the backlog they
waited behind. A board that wants nothing any more starts again from a second."""

from __future__ import annotations

from dataclasses import dataclass, field

FIRST_S = 1.0  # a question not answered within this is asked again
LONGEST_S = 8.0  # never waiting longer than this between two askings


@dataclass
class _Asked:
    question: str
    when: float
    wait: float


@dataclass
class AskPacer:
    first_s: float = FIRST_S
    longest_s: float = LONGEST_S
    _asked: dict[str, _Asked] = field(default_factory=dict)

    def ask(self, board: str, question: str, now: float) -> bool:
        """Whether to send `question` (a request written the same way each time it means
        the same) to `board` now; True records it as sent."""
        last = self._asked.get(board)
        if last is None or last.question != question:
            self._asked[board] = _Asked(question, now, self.first_s)
            return True
        if now - last.when < last.wait:
            return False
        self._asked[board] = _Asked(question, now, min(last.wait * 2, self.longest_s))
        return True

    def settled(self, board: str) -> None:
        """The board wants nothing now: its next question is asked at once."""
        self._asked.pop(board, None)
