"""The page's client of the board (`link.clients`), on the page server's asyncio loop.

It is told the board's effects as the host is; after each batch it asks the board's
`state` (one ask at a time: a burst of effects costs one state) and hands the page's
picture of it (`page_view`) to every open page. A page's command goes to the board with a
number of the feed's own, and the board's answer comes back to the page that asked.
Nothing here waits on the board's loop: the client is woken by it through the asyncio
loop's `call_soon_threadsafe`. The board wakes every client after each batch it hands
over, and says whether it was stirred since the latest state the feed had (`Client.news`):
an effect, or a command of the host's or of another client's carried out, which may
change what the board shows without an effect (a move the host or the engine lit, the
mode). Stirred, the feed asks the state, so what the board shows is on the page at once.
With pages open the state is also asked every REFRESH_S, for what changes with no news of
the board (the opponents' own words; the frames the broker has not taken yet); a piece
lifted or put back stirs the clients itself, at most every 100 ms (`ClientTee.stir`). A change of the board's link to its broker (`BrokerLink.watch`)
draws the picture again at once."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from reedboard.events import Effect, MoveMade
from reedboard.link.board_messages import (
    CentralMessage,
    EffectMessage,
    ErrorReply,
    Outgoing,
    Reply,
    StateMessage,
)
from reedboard.link.broker_status import BrokerStatus, Spoken
from reedboard.link.central_words import central_words
from reedboard.link.clients import Clients
from reedboard.link.messages import AskState, Command
from reedboard.web.opponents import PERSON, Opponents
from reedboard.web.page_view import page_view

ANSWER_S = 10.0  # a command the board has not answered by then is told as lost
EFFECTS_KEPT = 32
# With pages open, the state is asked at least this often: what changes with no news of the
# board (a lifted piece put back, the opponent's words) reaches them within it.
REFRESH_S = 1.0
log = logging.getLogger("reedboard.web")


class BrokerLink(Protocol):
    """The board's link to its MQTT broker, as the page reads it (`BoardBroker`)."""

    def status(self) -> BrokerStatus: ...

    def watch(self, watcher: Callable[[BrokerStatus, Spoken | None], None]) -> None: ...


class Feed:
    def __init__(
        self,
        clients: Clients,
        opponents: Opponents | None = None,
        commit_wall_ms: Callable[[int], float] | None = None,
        broker: BrokerLink | None = None,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        self.client = clients.attach("page", wake=self._wake)
        self.opponents = opponents
        self.commit_wall_ms = commit_wall_ms
        self.effects: deque[Effect] = deque(maxlen=EFFECTS_KEPT)
        self.state: StateMessage | None = None
        self.central: CentralMessage | None = None  # the phone in control, if any
        self.shown = ""  # the latest picture, as JSON
        self.listeners: set[Callable[[str], None]] = set()
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Reply]] = {}
        self._asking = False
        self._moved_at: float | None = None
        self.changed = asyncio.Event()  # set each time a new picture is made
        self.broker = broker
        if broker is not None:
            broker.watch(self._broker_changed)

    def _wake(self) -> None:
        # Called on the board's loop: hand over to the page's, never wait.
        with contextlib.suppress(RuntimeError):  # the page's loop has closed
            self.loop.call_soon_threadsafe(self._woken.set)

    def _broker_changed(self, _status: BrokerStatus, _spoken: Spoken | None) -> None:
        # Called on paho's thread: the picture is drawn again on the page's loop.
        with contextlib.suppress(RuntimeError):  # the page's loop has closed
            self.loop.call_soon_threadsafe(self._redraw)

    def _redraw(self) -> None:
        if self.state is not None:
            self._show(self.state)

    async def run(self) -> None:
        try:
            while True:
                try:
                    await asyncio.wait_for(self._woken.wait(), REFRESH_S)
                except TimeoutError:
                    if self.listeners:
                        self._ask_state()  # what changed with no news (a piece put back)
                    continue
                self._woken.clear()
                told, stirred = self.client.news()
                for message in told:
                    self._heard(message)
                if stirred:
                    # Changed since the latest state the page had: an effect, or a command
                    # (the host's lit move, the engine's) that changes what the board shows
                    # without one. The page shows it now, not a refresh later.
                    self._ask_state()
        finally:
            self.client.close()

    def _heard(self, message: Outgoing) -> None:
        if isinstance(message, EffectMessage):
            self.effects.append(message.effect)
            if isinstance(message.effect, MoveMade) and self.commit_wall_ms is not None:
                self._moved_at = self.commit_wall_ms(message.effect.t_ms)
            return  # told to all: the board is stirred, and its state asked after them
        if isinstance(message, CentralMessage):
            self.central = message
            if self.state is not None:
                self._show(self.state)
            return
        number = getattr(message, "id", None)
        waiting = None if number is None else self._waiting.pop(number, None)
        if waiting is not None and not waiting.done():
            waiting.set_result(message)  # type: ignore[arg-type]
        if isinstance(message, StateMessage):
            if message.id is None:
                self._asking = False
            self._show(replace(message, id=None))

    def _ask_state(self) -> None:
        if not self._asking:
            self._asking = self.client.ask(AskState())

    def refresh(self) -> None:
        """A new picture soon (the opponent changed, say)."""
        self._ask_state()

    def _show(self, state: StateMessage) -> None:
        self.state = state
        opponent = PERSON if self.opponents is None else self.opponents.current()
        broker = None if self.broker is None else self.broker.status()
        view = page_view(state, list(self.effects), opponent, central_words(self.central), broker)
        view["moved_at_ms"] = self._moved_at
        text = json.dumps(view)
        if text == self.shown:
            return
        self.shown = text
        self.changed.set()
        self.changed = asyncio.Event()
        for listener in list(self.listeners):
            listener(text)

    async def command(self, command: Command) -> Reply:
        """Carry out `command` on the board: its answer (an `error` when the board is
        busy or did not answer in time)."""
        number = next(self._ids)
        asked = replace(command, id=number)
        answer: asyncio.Future[Reply] = self.loop.create_future()
        self._waiting[number] = answer
        if not self.client.ask(asked):
            del self._waiting[number]
            return ErrorReply("busy", "the board has too many requests waiting: try again")
        try:
            return await asyncio.wait_for(answer, ANSWER_S)
        except TimeoutError:
            self._waiting.pop(number, None)
            return ErrorReply("lost", "the board did not answer")
        finally:
            self.refresh()  # a mode or a setting changes the board without an effect
