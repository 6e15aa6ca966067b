"""What the board's page is sent, as JSON (docs/page.md), typed field by field so that the
server, the page's script and the tests read the same names, and mypy checks each object
against the one shape the page expects. The page's protocol is its own: the link's
messages (docs/protocol.md) reach it only through the board's reply to its command, whose
fields it is shown as the link writes them (`CommandAnswer`)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict

from reedboard.link.messages import Color


class VoiceShown(TypedDict):
    """The board's voice as the page's settings show it."""

    enabled: bool
    language: str
    languages: tuple[str, ...]  # the codes the board speaks, a list in JSON


class PageHello(TypedDict):
    """The first message on a page's WebSocket: whether the device is paired, whether the
    board has opponents to choose from, and its voice (None: off in its configuration)."""

    type: Literal["hello"]
    paired: bool
    opponents: bool
    voice: VoiceShown | None


class Told(TypedDict):
    """What another paired device did, in words."""

    type: Literal["told"]
    text: str


class PageError(TypedDict):
    """A page's request refused, or one that failed: what is wrong, in words."""

    type: Literal["error"]
    message: str


class PageAck(TypedDict):
    """A page's own request carried out (`op` other than `command`): what it changed."""

    type: Literal["reply"]
    kind: Literal["ack"]
    opponent: NotRequired[str]  # the opponent now, in words
    hint: NotRequired[Literal["lit"]]
    lichess: NotRequired[str]  # the account signed in to, or the word sent to Lichess
    message: NotRequired[str]
    voice: NotRequired[VoiceShown | None]


# The board's reply to a page's `command`: `type` "reply" (or "error" when the board
# refused), `kind` the reply's type on the link, then the reply's own fields as the link
# writes them (`board_messages.reply_fields`). Only shown: nothing reads a field of it
# without checking it first.
CommandAnswer: TypeAlias = dict[str, object]
# What a page's request is answered with.
PageAnswer: TypeAlias = PageAck | PageError | CommandAnswer


class ClockView(TypedDict):
    """A timed game's clocks as the board's `state` has them."""

    white_ms: int
    black_ms: int
    running: Color | None
    time_control: str


class BrokerShown(TypedDict):
    """The board's link to its MQTT broker (the broadcast), for anyone watching: never the
    broker's address, its user or password, nor an error's own text (`broker_status`)."""

    link: str  # connecting, connected, lost, unreachable, refused
    since_ms: int  # since when, in ms since the epoch (the board's wall clock)
    reason: str | None  # why it is down: network, tls, password, client_id, ...
    unsent: int  # frames the broker has not taken yet (kept on the board)
    dropped: int  # frames dropped from a full queue (the relay asks for them again)
    words: str  # the state in words, without the count (a screen reader's line)


class BoardPicture(TypedDict):
    """The page's picture of the board (`page_view`), sent whenever it changes."""

    type: Literal["state"]
    pieces: dict[str, str]  # {square: piece letter}, as in a FEN
    leds: list[str]  # each square's colour as #rrggbb, a1 first
    roles: dict[str, str]  # {square: role} of the squares shown marked
    fen: str
    san: list[str]
    moves: list[str]  # in UCI
    result: str | None
    reason: str | None
    result_text: str | None
    clock: ClockView | None
    mode: str | None
    turn: Color
    game: int | None
    waiting: str  # what the board waits for, in words
    effect_words: list[str]  # the latest effects, in words
    opponent: str
    central: str  # the phone in control over Bluetooth, in words ("": none)
    broker: BrokerShown | None  # the link to the broadcast's broker (None: no broker)
    # The wall time in ms at which the board committed its latest move, when it tells it
    # (the feed adds it: bench/page.py times the move's paint from it).
    moved_at_ms: NotRequired[float | None]


class ListedGame(TypedDict):
    """One of the journal's games, as `GET /games` lists it."""

    number: int
    started: str  # "2026-03-01 14:05 UTC"
    result: str  # "*" while unfinished
    reason: str | None
    plies: int
