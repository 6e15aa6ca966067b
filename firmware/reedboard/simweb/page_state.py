"""What the simulator's page is sent whenever the board changes: the whole board as one
JSON object (`"type": "state"`), typed field by field so the page, the server and the
tests read the same names."""

from __future__ import annotations

from typing import Literal, TypedDict

from reedboard.link.messages import Color
from reedboard.reader.mode import Mode
from reedboard.simweb.world import WorldShown


class ClockShown(TypedDict):
    """A timed game's clocks: both times left now, rounded down to what the page shows
    (`clock_text.shown_ms`), and whose runs (None: neither)."""

    white_ms: int
    black_ms: int
    running: Color | None


class Spoken(TypedDict):
    """One sentence of the voice. `n` counts the sentences said since the simulator
    started, the first being 1: a page that has seen none keeps 0 as the last one said,
    so every sentence is new to it, the very first too. The page says each new one once."""

    n: int
    text: str
    fleeting: bool


class PageState(WorldShown):
    """The world's pieces (the fields of `WorldShown`), then what the board makes of them."""

    type: Literal["state"]
    leds: list[str]  # each LED's colour as #rrggbb
    roles: dict[str, str]  # {square: role} of the lit squares
    targets: list[str]  # the squares the lifted piece may go to
    fen: str
    san: list[str]
    moves: list[str]  # in UCI
    result: str | None
    reason: str | None
    clock: ClockShown | None
    mode: Mode
    settle_ms: int
    turn: Color
    effects: list[dict[str, object]]  # the latest, as the link writes them (`shown_json`)
    effect_words: list[str]  # the same, in words, in the same order
    script: int  # the scheduled lines still to come
    status: str
    result_text: str | None
    notice: str | None  # what the players must put right, in words
    pty: str
    language: str
    spoken: list[Spoken]
    log: list[str]
