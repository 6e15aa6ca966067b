"""In-process clients of the board: parts of `reedboard run` that live beside the scan
loop (the board's page, an engine opponent, a Bluetooth central) and talk to the board as
a host does, in the same typed messages, without a wire.

    clients = Clients()                    # handed to the loop in `HostLink.clients`
    client = clients.attach("page", wake)  # any thread, any time; `wake` may be None
    client.ask(StartGame(clock="5+3"))     # False: its queue is full, nothing was asked
    for message in client.take():          # or `client.wait(timeout_s)` on a thread
        ...                                # EffectMessage, BoardHello, StateMessage, ...
    told, stirred = client.news()          # as take, and whether to ask the state again
    client.close()

Each client is told every message the board sends on its own (`hello`, effects, a
journal's error), as the host is, and the answer to each command it asked, to it alone
(a command's `id` is the client's own business; the host's commands are answered to the
host). What a client is told waits, as the host's bytes do, for the journal to have the
moves it tells of (`App._flush` hands `ClientTee.batch` to its outbox).

A command carried out for another client, or for the host, may change what the board
shows without an effect (a move or squares lit, the mode), and so may a piece lifted or
put back (`ClientTee.stir`): nothing of it is told to this client, but it is woken, and
`news` says the board was stirred since the latest state it was answered, so a client
that shows the board (the page) asks the state then.

The scan loop never waits on a client: `ask` and `take` hold a lock only to move a list,
`wake` is called after a batch is queued (it must not block: an asyncio loop's
`call_soon_threadsafe`, a `threading.Event.set`), and each client's queue is bounded. A
client too slow to take what it is told loses its queue and is marked as needing a state:
the loop then asks a `state` on its behalf (as it does for a client just attached), so it
learns the board as it is now rather than holding the scan loop back. `lost` counts the
messages it lost that way.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from reedboard.link.board_messages import Ack, Alive, Outgoing, Reply, StateMessage
from reedboard.link.messages import AskState, Command
from reedboard.link.mqtt_endpoint import Endpoint

logger = logging.getLogger(__name__)
TOLD_LIMIT = 512  # messages waiting for one client; beyond, it needs a state instead
ASK_LIMIT = 32  # commands waiting from one client for the loop's next turn
STIR_MS = 100  # the clients stirred for changes told nothing of at most this often


class Client:
    """One client's end. Every method may be called from any thread."""

    def __init__(self, hub: Clients, name: str, wake: Callable[[], None] | None) -> None:
        self.name = name
        self._hub = hub
        self._wake = wake
        self._told: deque[Outgoing] = deque()
        self._asked: deque[Command] = deque()
        self._arrived = threading.Condition(hub.lock)
        self.needs_state = True  # a client attached learns the board as it stands
        self._stirred = False  # something changed the board since the latest state it had
        self.lost = 0
        self.closed = False

    def ask(self, command: Command) -> bool:
        """Queue `command` for the board's next turn; False (nothing asked) when this
        client already has ASK_LIMIT commands waiting, or is closed."""
        with self._hub.lock:
            if self.closed or len(self._asked) >= ASK_LIMIT:
                return False
            self._asked.append(command)
            return True

    def take(self) -> list[Outgoing]:
        """What the board told this client since the last call, oldest first."""
        return self.news()[0]

    def news(self) -> tuple[list[Outgoing], bool]:
        """As `take`; and whether, since the last call, the board was stirred after the
        latest state told to this client: a message for all, or a command of another
        client's or of the host's carried out (which may change the board without an
        effect)."""
        with self._hub.lock:
            told = list(self._told)
            self._told.clear()
            stirred, self._stirred = self._stirred, False
            return told, stirred

    def wait(self, timeout_s: float) -> list[Outgoing]:
        """As `take`, waiting up to `timeout_s` for something to be told."""
        with self._arrived:
            if not self._told and not self.closed:
                self._arrived.wait(timeout_s)
        return self.take()

    def close(self) -> None:
        """Detach: nothing more is told, nothing more asked."""
        with self._hub.lock:
            if self.closed:
                return
            self.closed = True
            self._asked.clear()
            self._hub.members.remove(self)
            self._arrived.notify_all()

    # ----- the loop's side (the hub's lock held) -----

    def _tell(self, message: Outgoing, *, own: bool) -> None:
        if own:
            self._told.append(message)  # an answer it waits for (at most ASK_LIMIT a turn)
            if isinstance(message, StateMessage):
                self._stirred = False  # the board as it is now: what came before is in it
            return
        self._stirred = True
        if self.needs_state:
            return  # its next news is the state it will be sent
        if len(self._told) >= TOLD_LIMIT:
            self.lost += len(self._told)
            self._told.clear()
            self.needs_state = True
            return
        self._told.append(message)


class Clients:
    """The board's clients: attached and closed from any thread, served by the loop
    through a `ClientTee`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.members: list[Client] = []

    def attach(self, name: str, wake: Callable[[], None] | None = None) -> Client:
        client = Client(self, name, wake)
        with self.lock:
            self.members.append(client)
        return client

    def __len__(self) -> int:
        with self.lock:
            return len(self.members)

    def asked(self) -> list[tuple[Client, Command]]:
        """The commands every client asked since the last call, and an `AskState` for each
        client that needs the board's state."""
        taken: list[tuple[Client, Command]] = []
        with self.lock:
            for client in self.members:
                if client.needs_state:
                    client.needs_state = False
                    taken.append((client, AskState()))
                taken += [(client, command) for command in client._asked]
                client._asked.clear()
        return taken

    def tell(self, batch: list[tuple[Client | None, Outgoing]]) -> None:
        """Hand a batch over, in order: each message to its client, or to all (None); a
        command carried out for one client (or the host) stirs the others."""
        with self.lock:
            members = list(self.members)
            for to, message in batch:
                for client in members:
                    if client.closed:
                        continue
                    if to is None or client is to:
                        client._tell(message, own=to is not None)
                    elif isinstance(message, Ack):
                        client._stirred = True
            for client in members:
                client._arrived.notify_all()
        for client in members:
            if client._wake is not None and not client.closed:
                try:
                    client._wake()
                except Exception:
                    # A client's fault (its loop gone) must not stop the board's loop.
                    logger.exception("client %s could not be woken", client.name)


class ClientTee:
    """The loop's endpoint with the clients beside the link's: what the board sends goes
    to the link and to every client, a client's command comes in with the host's and is
    answered to that client alone. The link's own behaviour is unchanged."""

    def __init__(self, link: Endpoint, clients: Clients) -> None:
        self.link = link
        self.clients = clients
        self.session = link.session
        self._asked: list[tuple[Client, Command]] = []  # not yet answered
        self._batch: list[tuple[Client | None, Outgoing]] = []
        # The host in a batch: never attached, so told nothing; its acks stir the clients.
        self._host = Client(clients, "host", None)
        self._unstirred = False  # a change told nothing of, its stir not yet due
        self._next_stir_ms = 0

    @classmethod
    def around(cls, link: Endpoint, clients: Clients | None) -> tuple[Endpoint, ClientTee | None]:
        """The loop's endpoint: `link` in a tee when there are clients; and the tee."""
        if clients is None:
            return link, None
        tee = cls(link, clients)
        return tee, tee

    def send(self, message: Outgoing) -> int:
        if not isinstance(message, Alive):
            self._batch.append((None, message))
        return self.link.send(message)

    def reply(self, command: Command, message: Reply) -> int:
        for index, (client, asked) in enumerate(self._asked):
            if asked is command:
                del self._asked[index]
                self._batch.append((client, message))
                return 0  # not numbered: it goes over no wire
        if isinstance(message, Ack):
            # The host's command carried out (a move lit, say): the clients are woken
            # once the host has its answer, though they are told nothing of it.
            self._batch.append((self._host, message))
        return self.link.reply(command, message)

    def stir(self, now: int, *, changed: bool) -> None:
        """Called by the loop each turn: whether the board `changed` with nothing told of
        it (a piece lifted or put back). The clients are then woken and stirred, as by a
        host's command carried out, so a client that shows the board asks its state; at
        most once every STIR_MS, for a switch that keeps changing must not make a page ask
        a state a turn. A change within that is stirred once it is over: the latest is
        never left for the page's refresh."""
        self._unstirred = self._unstirred or changed
        if self._unstirred and now >= self._next_stir_ms:
            self._batch.append((self._host, Ack()))
            self._unstirred, self._next_stir_ms = False, now + STIR_MS

    def alive(self) -> None:
        self.link.alive()

    def data_to_send(self) -> bytes:
        return self.link.data_to_send()

    def receive_data(self, data: bytes) -> list[Command]:
        """The host's commands, then the clients' (the loop calls this every turn)."""
        # Every turn, also without bytes: the link may have commands from elsewhere (a
        # broker's requests, an opponent's moves).
        commands = self.link.receive_data(data)
        asked = self.clients.asked()
        self._asked += asked
        return commands + [command for _client, command in asked]

    def batch(self) -> Callable[[], None] | None:
        """What the clients were sent since the last call, to hand over once the journal
        has it (None: nothing)."""
        if not self._batch:
            return None
        batch, self._batch = self._batch, []
        return lambda: self.clients.tell(batch)
