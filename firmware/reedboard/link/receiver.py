"""The board's sequenced stream, received: one pure state machine for every reader of it,
a host on a serial line (`HostEndpoint`) and the relay over a broker (one per board).

It hands out the board's messages in sequence order, each exactly once; messages that
arrive after a gap are held until the gap is filled, and `request` says what to ask the
board for, when (time comes in as arguments):

- a gap in the numbers, or a tail the board's `alive` names that never came, is asked
  for with a `resend` of the numbers after the last one delivered; one request per gap
  in flight, however many frames or `alive`s show it again, asked again only while it
  stays unanswered, on the timer of the `Pacing` given;
- every `resend` says `resync: hello`: a board that can no longer serve it (its history
  does not reach back, or it runs another session the reader never heard begin) answers
  with a short `hello` of its session, and numbering goes on from there (the
  application fetches the game instead of waiting for a backlog);
- a `hello` of another session starts the numbering afresh; a `state` that answers a
  question (it has an `id`) carries the whole game, so it stands for everything before
  it, gap or not;
- an `alive` behind the numbers delivered is the board's own word that they are not its
  own (another session, or a number someone else put in the stream): the reader is in
  doubt, asks, and takes the board's `hello` wherever its numbering stands.

A `hello` of the session already followed that is no resync (a reconnection's answer, a
repeat) holds its place in the numbering but is no news: it is not delivered.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.link.board import DEFAULT_HISTORY
from reedboard.link.board_messages import Alive, BoardHello, BoardMessage, StateMessage
from reedboard.link.messages import MAX_ID, AskState, Resend

MAX_HELD = 8192
# The ids of the `state` requests a reader makes, clear of those its other commands use.
STATE_IDS = 4_000_000_000


@dataclass(frozen=True, slots=True)
class Pacing:
    """When a reader asks, in milliseconds.

    `retry_ms`: an unanswered request is asked again after this, plus `frame_ms` for each
    frame its answer carries (up to `frames_per_answer`), doubled each time it is asked
    again without an answer, up to `longest_ms`. `poll_ms`: with no gap known, asked for
    what may follow every this long (None: never). `gap_at_once`: a gap asked for as soon
    as it shows, even just after another request (a line where asking is cheap); else
    one request at a time, the next no sooner than `retry_ms` after the last answer came.
    `alive_overtakes`: an `alive` may pass the frames it counts on the way (a broker
    sends it at QoS 0, ahead of the QoS 1 frames it holds for a busy reader): a tail it
    names is believed only once a second `alive`, read at least `alive_apart_ms` later,
    finds nothing delivered in between, and only once the reader has read what its
    broker held when the `alive` came (`take`'s `mark`, `marked`)."""

    retry_ms: int
    longest_ms: int
    poll_ms: int | None = None
    gap_at_once: bool = False
    frame_ms: int = 0
    frames_per_answer: int = 1
    alive_overtakes: bool = False
    alive_apart_ms: int = 500


@dataclass(frozen=True, slots=True)
class _AliveSeen:
    seq: int  # the number the board said it had sent
    last: int  # the number delivered when it came
    at_ms: int
    mark: int  # the reader's mark that shows everything sent before it was read


class StreamReceiver:
    def __init__(self, pacing: Pacing, session: str | None = None, last_seq: int = 0) -> None:
        """A reader that follows `session` up to `last_seq` (None: none yet)."""
        self.pacing = pacing
        self.session = session
        self.last_seq = last_seq
        self.highest_seen = last_seq
        self.asked = 0  # requests for a gap so far, for the curious
        self.polls = 0  # and requests for what may have followed
        self._held: dict[int, BoardMessage] = {}
        self._doubt = False  # the board's `alive` is behind the numbers delivered
        self._elsewhere: str | None = None  # another session an `alive` named
        self._alive: _AliveSeen | None = None
        self._asked_at: int | None = None  # when the board was last asked
        self._asked_after: int | None = None  # and the number the request went on from
        self._asked_cover = 0  # the last number the request's answer reaches, known then
        self._asked_state = False  # the last request asked for the whole state
        self._polled = False  # the last request asked for what may follow, with no gap known
        self._wait_ms = pacing.retry_ms
        self._moved_at = 0  # when the numbering last moved on
        self._marks_read = 0  # the reader's latest mark read back (`marked`)
        # Heard from a board whose `hello` it never read: a frame, or an `alive` read
        # before a mark came back (a reader over a broker asks only then: a board it
        # knows from its status alone is not asked, its `hello` may be on its way).
        self._unplaced = not pacing.alive_overtakes

    @property
    def in_gap(self) -> bool:
        return self.highest_seen > self.last_seq

    @property
    def held(self) -> int:
        return len(self._held)

    # ----- in -----

    def implausible(self, message: BoardMessage) -> str | None:
        """Why `message` cannot be the board's next words, or None: a number further ahead
        of the stream than a board's history, in the session followed (a `hello` that
        starts a session, or a resync, sets a new numbering: any number goes)."""
        if self.session is None or isinstance(message, Alive) or _starts(message, self.session):
            return None
        if message.seq > self.last_seq + DEFAULT_HISTORY:
            return f"seq {message.seq} is more than {DEFAULT_HISTORY} ahead of {self.last_seq}"
        return None

    def take(self, message: BoardMessage, now_ms: int, *, mark: int = 0) -> list[BoardMessage]:
        """The messages `message` lets through, in order: none, itself, or itself and
        those it held beyond a gap. `mark`: the first of the reader's marks (a message
        it sends itself through its broker, behind everything the broker holds for it)
        that is sent after this message was read: an `alive` is believed only once that
        mark is read back (`marked`); 0: a reader that marks nothing."""
        delivered: list[BoardMessage] = []
        seq = message.seq
        if isinstance(message, BoardHello) and self._restarts(message):
            self.session = message.session
            self._restart(message, now_ms, delivered)
        elif self.session is None:
            # Before a `hello` nothing can be placed in order. A frame says the `hello`
            # is lost (it came first); an `alive` may have overtaken it.
            if isinstance(message, Alive) and self.pacing.alive_overtakes:
                if self._alive is None:
                    self._alive = _AliveSeen(message.seq, 0, now_ms, mark)
            else:
                self._unplaced = True
        elif isinstance(message, Alive):
            self._heard_alive(message, now_ms, mark, delivered)
        elif self._elsewhere is not None:
            if len(self._held) < MAX_HELD:  # the other session's, until its `hello` comes
                self._held[seq] = message
        elif seq <= self.last_seq or self.implausible(message) is not None:
            pass  # a repeat, already delivered; or none the board can have sent
        elif seq == self.last_seq + 1 or _answers_with_state(message):
            self._deliver(message, now_ms, delivered)
        elif len(self._held) < MAX_HELD:
            self._held[seq] = message  # beyond a gap: one resend that fills it completes it
            self.highest_seen = max(self.highest_seen, seq)
        return delivered

    def _restarts(self, hello: BoardHello) -> bool:
        """Whether `hello` starts the numbering again at its number: another session (or
        the first), a resync that leads on, or any the board gives while in doubt."""
        if hello.session != self.session:
            if self.session is not None:
                self._held.clear()  # whatever came before belongs to another session
            return True
        return hello.resync and (hello.seq > self.last_seq or self._doubt)

    def _restart(self, hello: BoardHello, now_ms: int, delivered: list[BoardMessage]) -> None:
        self.last_seq = hello.seq
        self._held = {s: m for s, m in self._held.items() if s > hello.seq}
        self.highest_seen = max(hello.seq, max(self._held, default=hello.seq))
        self._doubt = False
        self._elsewhere = None
        self._alive = None
        self._moved(now_ms)
        delivered.append(hello)  # news the application must hear: fetch the game
        self._deliver_held(delivered)

    def _deliver(self, message: BoardMessage, now_ms: int, delivered: list[BoardMessage]) -> None:
        self.last_seq = message.seq
        self.highest_seen = max(self.highest_seen, self.last_seq)
        self._moved(now_ms)
        if not _no_news(message):
            delivered.append(message)
        self._deliver_held(delivered)

    def _deliver_held(self, delivered: list[BoardMessage]) -> None:
        for seq in [s for s in self._held if s <= self.last_seq]:
            del self._held[seq]  # a state covers everything before it
        while self.last_seq + 1 in self._held:
            self.last_seq += 1
            held = self._held.pop(self.last_seq)
            if not _no_news(held):
                delivered.append(held)

    def _moved(self, now_ms: int) -> None:
        self._moved_at = now_ms
        self._doubt = False

    def _heard_alive(
        self, alive: Alive, now_ms: int, mark: int, delivered: list[BoardMessage]
    ) -> None:
        """The board's keep-alive: the latest number it has sent, in its session."""
        if alive.session not in (None, self.session):
            # Another session than the one followed: its `hello` was lost (or the
            # reader's store is stale), and its numbers would be taken as this session's
            # continuation. They are held; the reader is in doubt, so it asks, and the
            # board answers a question naming another session with its `hello`.
            self._elsewhere = alive.session
            self._doubt = True
            return
        if self._elsewhere is not None and alive.session == self.session:
            self._elsewhere = None  # the followed session after all (an older `alive`)
            self._deliver_held(delivered)
        seq = alive.seq
        if seq < self.last_seq:
            self._doubt = True  # nothing the board sends after it reaches us before it
        if not self.pacing.alive_overtakes:
            self.highest_seen = max(self.highest_seen, seq)
            return
        first = self._alive
        if first is None or first.last != self.last_seq or first.seq <= self.last_seq:
            # The first `alive` since a frame was delivered (that names any frame not
            # delivered): kept, not replaced by later ones, so that a board whose
            # `alive`s come quicker than `alive_apart_ms` (a fast clock) still has its
            # lost tail found.
            self._alive = _AliveSeen(seq, self.last_seq, now_ms, mark)
        elif now_ms - first.at_ms >= self.pacing.alive_apart_ms and first.mark <= self._marks_read:
            # Read a while after the first with nothing delivered between, and after what
            # the broker held for the reader then: what the first named is lost. Read
            # back to back they say nothing: a reader that was held up reads the
            # `alive`s it missed all at once, ahead of the frames its broker still holds
            # for it; nor does time alone, while that backlog is still being read.
            self.highest_seen = max(self.highest_seen, first.seq)

    @property
    def awaited_mark(self) -> int:
        """The mark a tail an `alive` named waits for (0: none waits)."""
        first = self._alive
        if first is None or first.seq <= self.last_seq or first.mark <= self._marks_read:
            return 0
        return first.mark

    def marked(self, mark: int) -> None:
        """The reader read back its mark `mark`: every frame its broker held for it when
        it sent that mark was read. A tail an `alive` read before it named, still not
        delivered, is lost."""
        self._marks_read = max(self._marks_read, mark)
        first = self._alive
        if self.session is None and first is not None and first.mark <= mark:
            self._unplaced = True
        if first is not None and first.mark and first.mark <= mark and first.seq > self.last_seq:
            self.highest_seen = max(self.highest_seen, first.seq)

    # ----- out -----

    def request(self, now_ms: int, *, needs_state: bool = False) -> Resend | AskState | None:
        """What to ask the board now, or None (nothing is wanted, or what is wanted was
        asked for and the answer may still come). `needs_state`: the application wants
        the whole game."""
        if self.session is None and not self._unplaced:
            return None  # nothing heard of its stream yet, or its `hello` may be coming
        if not (self.session is None or self._doubt or needs_state or self.in_gap):
            if self.pacing.poll_ms is None:
                return None
            if self._asked_at is not None and now_ms - self._asked_at < self.pacing.poll_ms:
                return None
            self._note_asked(now_ms)
            self._asked_state = False
            self._polled = True
            self.polls += 1
            return self._resend(gap=False)
        state = self.session is not None and needs_state and not self._doubt
        # The game asked for whole once more: the state that came did not do (a game the
        # application cannot take): the same question, asked later and later.
        again = state and self._asked_state
        if not self._due(now_ms, again=again):
            return None
        self._note_asked(now_ms, again=again)
        self._polled = False
        self._asked_state = state
        if state:
            # Numbered by where the stream stands: a reader started again that asks at
            # the same number (the board answers an id it knows with its reply again)
            # gets that state again, which is no older than what it holds.
            return AskState(id=min(STATE_IDS + self.last_seq, MAX_ID))
        self.asked += 1
        return self._resend(gap=self.in_gap)

    def _due(self, now_ms: int, *, again: bool) -> bool:
        if self._asked_at is None:
            return True
        pacing = self.pacing
        if (self._asked_after != self.last_seq or self._polled) and not again:  # a new question
            if pacing.gap_at_once or self.last_seq >= self._asked_cover:
                return True  # what it asked for came: this is another question
            quiet_since = max(self._asked_at, self._moved_at)
            if now_ms - quiet_since < pacing.retry_ms:
                return False  # the answer may be coming still
            self._wait_ms = pacing.retry_ms
            return True
        if now_ms - self._asked_at < self._wait_ms + self._answer_ms():
            return False  # the request is in flight
        self._wait_ms = min(self._wait_ms * 2, pacing.longest_ms)
        return True

    def _answer_ms(self) -> int:
        """How long the answer to the gap takes to arrive on a slow line."""
        missing = min(self._held, default=self.highest_seen + 1) - self.last_seq - 1
        return self.pacing.frame_ms * min(missing, self.pacing.frames_per_answer)

    def _note_asked(self, now_ms: int, *, again: bool = False) -> None:
        if self._asked_after != self.last_seq and not again:
            self._wait_ms = self.pacing.retry_ms
        self._asked_at = now_ms
        self._asked_after = self.last_seq
        self._asked_cover = min(self._held, default=self.highest_seen + 1) - 1

    def _resend(self, *, gap: bool) -> Resend:
        until = min(self._held, default=self.highest_seen + 1) if gap else None
        return Resend(self.last_seq, self.session or "", until, resync="hello")


def _starts(message: BoardMessage, session: str) -> bool:
    """Whether `message` is a `hello` that sets a new numbering."""
    return isinstance(message, BoardHello) and (message.session != session or message.resync)


def _answers_with_state(message: BoardMessage) -> bool:
    """A `state` that answers a question: the whole game up to its number."""
    return isinstance(message, StateMessage) and message.id is not None


def _no_news(message: BoardMessage) -> bool:
    """A `hello` of the session followed that is no resync (it came in order): it holds
    its place in the numbering, nothing more (a reconnection's answer is a reply)."""
    return isinstance(message, BoardHello) and not message.resync
