"""One board's stream as the relay hears it, put in order. Pure.

A broker delivers each message at least once (QoS 1), and loses what was queued for the
relay when it restarts without its store: the relay delivers messages in `seq` order, each
once, holds those beyond a gap and asks the board for the gap (`resend`), as a serial host
does (docs/protocol.md). A relay that does not know the board's session (its first
start, or the board restarted) asks for a `hello` and then the whole `state`."""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.link.board import DEFAULT_HISTORY
from reedboard.link.frame import Wire

# A board keeps this many messages to send again: a number further ahead of what was
# delivered than that is none the board sent in this session (it would have said
# `resync` with a `hello`).
HISTORY = DEFAULT_HISTORY


@dataclass
class BoardFeed:
    session: str | None = None
    last: int = 0  # the latest seq delivered
    held: dict[int, Wire] = field(default_factory=dict)
    # The board said it has sent less than we hold: it runs another session, whose hello
    # never reached us (a broker restarted without our session drops what the board says
    # meanwhile). Its numbers mean nothing to us until it tells us who it is.
    unsure: bool = False
    _next_id: int = 0

    def alive(self, board_seq: int) -> None:
        """The board's keep-alive: the latest number it has sent. Nothing the board sends
        after it reaches us before it, so a number behind what we hold is not ours."""
        if self.session is not None and board_seq < self.last:
            self.unsure = True

    def implausible(self, wire: Wire) -> str | None:
        """Why `wire` cannot be the board's next words, or None: a number further ahead
        of the stream than a board's history, in the session the relay follows. (A
        `hello` that starts a session, or says the board starts the relay again, sets a
        new numbering: any number goes.)"""
        seq = wire.get("seq")
        if self.session is None or not isinstance(seq, int) or wire.get("type") == "alive":
            return None
        if wire.get("type") == "hello" and (
            str(wire.get("session")) != self.session or wire.get("resync")
        ):
            return None
        if seq > self.last + HISTORY:
            return f"seq {seq} is more than {HISTORY} ahead of {self.last}"
        return None

    def take(self, wire: Wire) -> list[Wire]:
        """The messages `wire` lets through, in order (none, itself, or itself and those it
        held behind a gap)."""
        kind = wire.get("type")
        seq = wire.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return []
        if kind == "alive":
            return []  # only tells what the board has sent: `request` looks at it
        if kind == "hello" and self._starts_numbering(wire, seq):
            return [wire]
        if self.session is None:
            return []
        if kind == "state" and wire.get("id") is not None and seq > self.last:
            # Our own question's answer: the whole game up to its number, ahead of a gap.
            # One no newer than what was delivered (a late repeat) would take moves back.
            self.last = seq
            delivered = [wire]
        elif seq <= self.last or seq > self.last + HISTORY:
            return []  # a repeat; or none of the board's (`implausible`): held, unbounded
        elif seq > self.last + 1:
            self.held[seq] = wire
            return []
        else:
            self.last = seq
            delivered = [wire]
        while self.last + 1 in self.held:
            self.last += 1
            delivered.append(self.held.pop(self.last))
        for number in [n for n in self.held if n <= self.last]:
            del self.held[number]
        return [m for m in delivered if m.get("type") != "hello"]  # ours, said again

    def _starts_numbering(self, hello: Wire, seq: int) -> bool:
        """Whether `hello` starts the stream's numbering again at `seq` (else it holds
        its place in the numbering, like any other message)."""
        session = str(hello.get("session"))
        behind = self.unsure and session == self.session and seq < self.last
        if session != self.session or hello.get("resync") or behind:
            # Another session, or the board could not resend and starts us again; or,
            # asked while in doubt, it names a number behind ours: the board's word on
            # where its stream stands beats a number someone else put in it.
            self.session = session
            self.last = seq
            self.held.clear()
            self.unsure = False
            return True
        # Ours already: a repeat, or the answer to our own hello. It says nothing new,
        # but it holds its place in the numbering, or the stream would stop at it.
        self.unsure = False
        return False

    def request(self, board_seq: int | None, *, needs_state: bool) -> Wire | None:
        """What to ask the board now: its `hello` when its session is unknown (or in doubt),
        the `state`
        when the game must be fetched whole, the frames of a gap, or nothing. `board_seq` is
        the latest number the board says it has sent (its `alive`), when known."""
        if self.session is None or self.unsure:
            return self._command("hello", protocol=1, client="reedboard-relay")
        if needs_state:
            return self._command("state")
        if self.held:
            until = min(self.held)
            return {"type": "resend", "after": self.last, "until": until, "session": self.session}
        if board_seq is not None and board_seq > self.last:
            return {"type": "resend", "after": self.last, "session": self.session}
        return None

    def _command(self, kind: str, **fields: object) -> Wire:
        self._next_id += 1
        return {"type": kind, "id": self._next_id, **fields}
