"""Every board the relay knows: its place in its stream, its games, whether it is online.
Pure apart from the store it writes through: a message in, what to ask the board out.

Each board's stream is received as a host on a serial line receives it (`StreamReceiver`):
in order, each message once, gaps asked for with a `resend` that says `resync: hello`.
Over a broker, asking costs more: a relay that fell behind its broker waits for every
answer behind its own backlog, and each question asked again is answered again, in full,
into that backlog. So one question at a time per board, asked again only when its answer
has not come, after a second and twice as long each time up to `LONGEST_MS`."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import islice

from reedboard.link.board_messages import (
    BoardHello,
    BoardMessage,
    EffectMessage,
    OtherMessage,
    StateMessage,
)
from reedboard.link.messages import WireCommand
from reedboard.link.receiver import Pacing, StreamReceiver
from reedboard_host.mirror import GameMirror

from reedboard_relay.evidence import Evidence, of_effect
from reedboard_relay.game_on_board import game_on
from reedboard_relay.snapshots import read as snapshots_read
from reedboard_relay.snapshots import written as snapshot_text
from reedboard_relay.store import RelayStore
from reedboard_relay.venues import bare_id, venue_of

RETRY_MS = 1000  # a question not answered within this is asked again
# A board publishes its state unasked right after its hello (the board's BrokerTee): for
# this long after a hello the relay waits for it instead of asking. A turn of reading
# that ended between the two asked a third of a thousand boards for a state already on
# its way, and each answer was a second state to read.
STATE_UNASKED_MS = RETRY_MS
LONGEST_MS = 8000  # never waiting longer than this between two askings
# The messages a relay keeps: those a restarted relay rebuilds the games from.
KEPT_TYPES = (BoardHello, EffectMessage, StateMessage)


def broker_pacing() -> Pacing:
    """How the relay asks a board over a broker: one question at a time, backing off; a
    board's `alive` (QoS 0) may overtake the frames it counts (QoS 1)."""
    return Pacing(retry_ms=RETRY_MS, longest_ms=LONGEST_MS, alive_overtakes=True)


@dataclass
class Board:
    id: str
    receiver: StreamReceiver = field(default_factory=lambda: StreamReceiver(broker_pacing()))
    # A state never rewrites a game here: anyone on an open broker can send one.
    mirror: GameMirror = field(default_factory=lambda: GameMirror(keep_games=True))
    online: bool = False
    version: int = 0  # grows with every change a spectator would see
    # The sessions this board had before its current one, latest last: a board starts a
    # new session at every start and never goes back to one, so a session that comes
    # back is a second board publishing under the same id.
    sessions: deque[str] = field(default_factory=lambda: deque(maxlen=SESSIONS_KEPT))
    twins: bool = False  # two boards with this id were seen (the console flags it)
    stored: int = 0  # the number of its last message in the store
    snapshot: int = 0  # the number of the last message its kept snapshot holds
    cut: bool = False  # its venue's bridge to the relay's broker is down (venues.py)
    hello_at: int | None = None  # when its own last `hello` was heard (the relay's ms)

    @property
    def reachable(self) -> bool:
        """Online as far as the relay can tell: its own status, and its venue's bridge."""
        return self.online and not self.cut

    def said_hello(self, hello: BoardHello) -> bool:
        """Notes the session a `hello` names; True when it finds the board has a twin
        (first time only)."""
        session, current = hello.session, self.receiver.session
        if current is None or session == current:
            return False
        back = session in self.sessions
        if current not in self.sessions:
            self.sessions.append(current)
        if back and not self.twins:
            self.twins = True
            self.version += 1
            return True
        return False

    def deliver(self, message: BoardMessage) -> bool:
        return self.mirror.apply(message)

    def evidence(
        self,
        kind: str,
        at: float,
        data: dict[str, object] | None = None,
        board_ms: int | None = None,
    ) -> Evidence:
        """Evidence about the board's current game (or the one it will start)."""
        current = self.mirror.current
        ply = 0 if current is None else len(current.game)
        return Evidence(at, game_on(self.mirror), ply, kind, data or {}, board_ms)

    def deliver_noting(self, message: BoardMessage, at: float) -> tuple[bool, Evidence | None]:
        """`deliver`, and the evidence the message is, if any (evidence.py)."""
        if not isinstance(message, EffectMessage):
            return self.deliver(message), None
        current = self.mirror.current
        white_to_move = None if current is None else bool(current.game.position.turn)
        changed = self.deliver(message)
        found = of_effect(message.effect, white_to_move)
        if found is None:
            return changed, None
        kind, data = found
        return changed, self.evidence(kind, at, data, message.effect.t_ms)

    def wants(self, now_ms: int) -> WireCommand | None:
        """What to ask the board now, if anything (asked: the receiver paces it). Its
        state is not asked for while the one it sends after its hello may be coming."""
        coming = self.hello_at is not None and now_ms - self.hello_at < STATE_UNASKED_MS
        return self.receiver.request(now_ms, needs_state=self.mirror.needs_state and not coming)


SESSIONS_KEPT = 8  # a board's earlier sessions remembered, to find a twin
MAX_BOARDS = 2000  # boards one relay keeps (`--max-boards`): a broker's any topic is not one


class Boards:
    def __init__(self, store: RelayStore, *, max_boards: int = MAX_BOARDS) -> None:
        self.store = store
        self.max_boards = max_boards
        self.twins_found: list[str] = []  # boards found to have a twin, for the log
        self.cut_venues: set[str] = set()  # venues whose bridge is down
        self.boards: dict[str, Board] = {}
        snapshots = store.snapshots()
        numbers = store.last_numbers()
        for board_id, session, last, online in store.boards():
            stored, snapshot = numbers.get(board_id, 0), snapshots.get(board_id, (0, ""))
            self.boards[board_id] = self._loaded(board_id, session, last, online, stored, snapshot)

    def _loaded(
        self,
        board_id: str,
        session: str | None,
        last: int,
        online: bool,
        stored: int,
        snapshot: tuple[int, str],
    ) -> Board:
        """A board as its store holds it: its snapshot, and the messages after it."""
        board = Board(board_id, StreamReceiver(broker_pacing(), session, last), online=online)
        board.stored = stored
        after = 0
        number, text = snapshot
        mirror = snapshots_read(text) if text and number <= board.stored else None
        if mirror is not None:
            board.mirror = mirror
            board.snapshot = after = number
        for message in self.store.messages(board_id, after):
            board.deliver(message)
        return board

    def reload(self, board_ids: set[str]) -> None:
        """These boards as the store holds them again: what a failed commit took from the
        store is taken from the relay's games too, so the broker's second sending of
        those messages is news, not a repeat."""
        for board_id in board_ids:
            known = self.boards.pop(board_id, None)
            kept = self.store.board(board_id)
            if known is None or kept is None:
                continue  # a board the store never had
            board = self._loaded(board_id, *kept)
            board.version, board.cut = known.version + 1, known.cut
            board.sessions, board.twins = known.sessions, known.twins
            self.boards[board_id] = board

    def keep_snapshots(self, most: int | None = None) -> int:
        """A snapshot of each board whose store grew since its last (at `most` that many):
        how many were kept. (Under the relay's lock: a board's mirror holds exactly its
        stored messages.)"""
        # Stopping at `most`: taken fifty at a time, a thousand boards were each looked
        # at twenty times over.
        due = list(islice((b for b in self.boards.values() if b.stored > b.snapshot), most))
        self.store.keep_snapshots([(b.id, b.stored, snapshot_text(b.mirror)) for b in due])
        for board in due:
            board.snapshot = board.stored
        return len(due)

    def board(self, board_id: str) -> Board:
        board = self.boards.get(board_id)
        if board is None:
            board = self.boards[board_id] = Board(board_id)
            board.cut = venue_of(board_id) in self.cut_venues
        return board

    def bridge(self, venue: str, up: bool) -> list[str]:
        """A venue's bridge came up or went down: the boards whose state changed."""
        if up:
            self.cut_venues.discard(venue)
        else:
            self.cut_venues.add(venue)
        changed = []
        for board in self.boards.values():
            if venue_of(board.id) == venue and board.cut == up:
                board.cut = not up
                board.version += 1
                changed.append(board.id)
                kind, why = ("online", "bridge back") if up else ("offline", "bridge down")
                noted = board.evidence(kind, self.store.clock(), {"why": f"its venue's {why}"})
                self.store.evidence(board.id, [noted])
        return changed

    def refusal(self, board_id: str, message: BoardMessage | None) -> str | None:
        """Why a message on board `board_id`'s stream (None: its status) is none of its
        board's, or None: it names another board, or a number its board cannot have
        reached; or the board would be one more than the relay keeps."""
        board = self.boards.get(board_id)
        if board is None and len(self.boards) >= self.max_boards:
            return f"a board beyond the {self.max_boards} this relay keeps (--max-boards)"
        named = _named_board(message)
        if named is not None and named != bare_id(board_id):  # a venue's board: its own id
            return f"a frame naming board {named!r}"
        if board is None or message is None:
            return None
        return board.receiver.implausible(message)

    def heard(
        self,
        board_id: str,
        message: BoardMessage,
        now_ms: int,
        *,
        ask: bool = True,
        mark: int = 0,
    ) -> tuple[bool, WireCommand | None]:
        """A message from the board's stream, at `now_ms` (the relay's monotonic clock):
        whether its games changed, and what to ask the board now (`ask`; else nothing is
        asked, and the caller asks `wants` later). `mark`: the relay's first mark sent
        after it (`StreamReceiver.take`). One that `refusal` refuses changes nothing,
        and is not kept."""
        if self.refusal(board_id, message) is not None:
            known = self.boards.get(board_id)
            return False, None if known is None or not ask else known.wants(now_ms)
        board = self.board(board_id)
        at = self.store.clock()
        evidence = []
        if isinstance(message, BoardHello):
            # Only a board's own hello is followed by its state; one answering the
            # relay's question is not, and the state is asked for at once.
            board.hello_at = None if message.answers or message.resync else now_ms
            if board.receiver.session not in (None, message.session):
                evidence.append(board.evidence("session", at))
            if board.said_hello(message):
                self.twins_found.append(board_id)
                evidence.append(board.evidence("twins", at))
        receiver = board.receiver
        before = receiver.last_seq, receiver.session
        delivered = receiver.take(message, now_ms, mark=mark)
        changed = False
        for each in delivered:
            moved, noted = board.deliver_noting(each, at)
            changed = moved or changed
            evidence += [noted] if noted is not None else []
        if delivered or evidence or (receiver.last_seq, receiver.session) != before:
            kept = [m for m in delivered if isinstance(m, KEPT_TYPES)]
            number = self.store.delivered(
                board_id, receiver.session, receiver.last_seq, kept, evidence
            )
            board.stored = board.stored if number is None else number
        if changed:
            board.version += 1
        return changed, board.wants(now_ms) if ask else None

    def marked(self, mark: int) -> tuple[list[str], int]:
        """The relay read back its mark `mark` (everything its broker held for it before
        is read): the boards found to miss a tail their `alive` named, and the latest
        mark one still waits for (0: none)."""
        found, waited = [], 0
        for board in self.boards.values():
            receiver = board.receiver
            if receiver.awaited_mark:
                receiver.marked(mark)
                if receiver.in_gap or receiver.session is None:
                    found.append(board.id)
                waited = max(waited, receiver.awaited_mark)
        return found, waited

    def status(self, board_id: str, online: bool) -> bool:
        if self.refusal(board_id, None) is not None:
            return False
        board = self.board(board_id)
        if board.online == online:
            return False
        board.online = online
        board.version += 1
        noted = board.evidence("online" if online else "offline", self.store.clock())
        self.store.set_online(board_id, online, [noted])
        return True


def _named_board(message: BoardMessage | None) -> object:
    """The board a message names, if any: a `hello`'s, or a field `board` of a message of
    a type the relay does not know."""
    if isinstance(message, BoardHello):
        return message.board
    if isinstance(message, OtherMessage):
        return message.fields.get("board")
    return None
