"""Every board the relay knows: its place in its stream, its games, whether it is online.
Pure apart from the store it writes through: a message in, what to ask the board out."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from reedboard.link.board_messages import Alive, read_board_message
from reedboard.link.frame import Wire
from reedboard_host.mirror import GameMirror

from reedboard_relay.feed import BoardFeed
from reedboard_relay.store import RelayStore


@dataclass
class Board:
    id: str
    feed: BoardFeed = field(default_factory=BoardFeed)
    # A state never rewrites a game here: anyone on an open broker can send one.
    mirror: GameMirror = field(default_factory=lambda: GameMirror(keep_games=True))
    online: bool = False
    # The number the board said it had sent one `alive` ago, when nothing of its stream
    # came in since: that tail is lost. The latest `alive` alone proves nothing: sent at
    # QoS 0, it overtakes the QoS 1 messages the broker holds for a busy relay, and
    # taken at its word it made a storm of `resend`s, each making the relay busier.
    board_seq: int | None = None
    alive_seq: int | None = None  # the number in the latest `alive`
    alive_last: int | None = None  # the latest number delivered when it came
    version: int = 0  # grows with every change a spectator would see
    # The sessions this board had before its current one, latest last: a board starts a
    # new session at every start and never goes back to one, so a session that comes
    # back is a second board publishing under the same id.
    sessions: deque[str] = field(default_factory=lambda: deque(maxlen=SESSIONS_KEPT))
    twins: bool = False  # two boards with this id were seen (the console flags it)

    def said_hello(self, wire: Wire) -> bool:
        """Notes the session a `hello` names; True when it finds the board has a twin
        (first time only)."""
        session, current = str(wire.get("session")), self.feed.session
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

    def deliver(self, wire: Wire) -> bool:
        message, _problem = read_board_message(wire)
        if message is None:
            return False
        return self.mirror.apply(message)

    def wants(self) -> Wire | None:
        return self.feed.request(self.board_seq, needs_state=self.mirror.needs_state)


SESSIONS_KEPT = 8  # a board's earlier sessions remembered, to find a twin
MAX_BOARDS = 2000  # boards one relay keeps (`--max-boards`): a broker's any topic is not one


class Boards:
    def __init__(self, store: RelayStore, *, max_boards: int = MAX_BOARDS) -> None:
        self.store = store
        self.max_boards = max_boards
        self.twins_found: list[str] = []  # boards found to have a twin, for the log
        self.boards: dict[str, Board] = {}
        for board_id, session, last, online in store.boards():
            board = Board(board_id, BoardFeed(session, last), online=online)
            for wire in store.messages(board_id):
                board.deliver(wire)
            self.boards[board_id] = board

    def board(self, board_id: str) -> Board:
        board = self.boards.get(board_id)
        if board is None:
            board = self.boards[board_id] = Board(board_id)
        return board

    def refusal(self, board_id: str, wire: Wire | None) -> str | None:
        """Why a frame on board `board_id`'s stream (None: its status) is none of its
        board's, or None: it names another board, or a number its board cannot have
        reached; or the board would be one more than the relay keeps."""
        board = self.boards.get(board_id)
        if board is None and len(self.boards) >= self.max_boards:
            return f"a board beyond the {self.max_boards} this relay keeps (--max-boards)"
        named = None if wire is None else wire.get("board")
        if named is not None and named != board_id:
            return f"a frame naming board {named!r}"
        return None if board is None or wire is None else board.feed.implausible(wire)

    def heard(self, board_id: str, wire: Wire) -> tuple[bool, Wire | None]:
        """A frame from the board's stream: (whether its games changed, what to ask it).
        One that `refusal` refuses changes nothing, and is not kept."""
        if self.refusal(board_id, wire) is not None:
            known = self.boards.get(board_id)
            return False, None if known is None else known.wants()
        board = self.board(board_id)
        if wire.get("type") == "hello" and board.said_hello(wire):
            self.twins_found.append(board_id)
        if wire.get("type") == "alive":
            message, _ = read_board_message(wire)
            if isinstance(message, Alive):
                board.feed.alive(message.seq)  # a number behind ours: another session
                stalled = board.alive_last == board.feed.last
                board.board_seq = board.alive_seq if stalled else None
                board.alive_seq, board.alive_last = message.seq, board.feed.last
            return False, board.wants()
        before = board.feed.last, board.feed.session
        delivered = board.feed.take(wire)
        changed = False
        for wire_message in delivered:
            changed = board.deliver(wire_message) or changed
        if delivered or (board.feed.last, board.feed.session) != before:
            kept = [m for m in delivered if m.get("type") in ("hello", "effect", "state")]
            self.store.delivered(board_id, board.feed.session, board.feed.last, kept)
        if changed:
            board.version += 1
        return changed, board.wants()

    def status(self, board_id: str, online: bool) -> bool:
        if self.refusal(board_id, None) is not None:
            return False
        board = self.board(board_id)
        if board.online == online:
            return False
        board.online = online
        board.version += 1
        self.store.set_online(board_id, online)
        return True
