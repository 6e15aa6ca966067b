"""The board `reedboard run` assembles (`run_board.assemble`), as a whole: its parts
(`Assembled`), its page on a thread of its own (`board_page`, started by the loop's first
question, `page_starts`), and everything it opened closed again (`close_board`). A test
that runs the command's own board in its process uses these, as the command does."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reedboard.app import App
from reedboard.commands.run_options import DEFAULT_JOURNAL
from reedboard.hal.ports import SwitchMatrix
from reedboard.journal.store import Journal
from reedboard.web.running import PageParts, PageThread

if TYPE_CHECKING:
    from reedboard.ble.phone import PhoneClient
    from reedboard.link.broker_status import BrokerStatus, Spoken
    from reedboard.link.mqtt_client import BoardBroker
    from reedboard.opponents.chosen import Opponents
    from reedboard.speaking import BoardVoice


@dataclass
class Assembled:
    """The running board's parts: the loop, what must be closed after it, and where its
    page is served."""

    app: App
    journal: Journal | None
    scanner: SwitchMatrix
    voice: BoardVoice | None = None
    broker: BoardBroker | None = None
    page_at: tuple[str, int] | None = None  # where the page is served (None: no page)
    phone: PhoneClient | None = None
    opponents: Opponents | None = None


def broker_voice(voice: BoardVoice) -> Callable[[BrokerStatus, Spoken | None], None]:
    """What the voice says of the broker's link: once when it is down, once when it is
    back (`broker_status.LinkTracker`), in the voice's language; nothing in a tournament
    (the voice's own switch)."""
    from reedboard.voice.sentences import broadcast_words

    def said(_status: BrokerStatus, spoken: Spoken | None) -> None:
        if spoken is not None:
            voice.say(broadcast_words(voice.book, back=spoken == "back"))

    return said


def journal_path(args: argparse.Namespace) -> str | None:
    """The journal's file: `--journal`, else the board's own (a fake board: none)."""
    journal: str | None = args.journal or (None if args.fake else DEFAULT_JOURNAL)
    return journal


def board_page(args: argparse.Namespace, board: Assembled) -> PageThread | None:
    """The board's page on its own thread (`web`), to start: it prints its URL when it
    listens; past games from the journal, paired devices kept beside it (None: no page)."""
    address, tee = board.page_at, board.app.tee
    if address is None or tee is None:
        return None
    journal = journal_path(args)
    clock, speed = board.app.clock, args.speed

    def commit_wall_ms(t_ms: int) -> float:
        return time.time() * 1000 - (clock.now_ms() - t_ms) / float(speed)

    parts = PageParts(
        tee.clients,
        journal=journal,
        data_dir=None if journal is None else os.path.dirname(os.path.abspath(journal)),
        board=board.app.identity.board,
        voice=board.voice,
        opponents=board.opponents,
        commit_wall_ms=commit_wall_ms,
        broker=board.broker,
    )
    return PageThread(address, parts)


def page_starts(stop: Callable[[], bool], page: PageThread | None) -> Callable[[], bool]:
    """`stop`, which also starts the page the first time the loop asks it: once the board
    has started, so the page's imports (asyncio, aiohttp) never delay its first scan."""
    if page is None:
        return stop

    def asked() -> bool:
        if not page.started:
            page.start()
        return stop()

    return asked


def close_board(board: Assembled, page: PageThread | None) -> int:
    """Everything the board opened, closed; how many moves the broker never had."""
    if page is not None:
        page.stop()
    board.app.close()  # the journal's writes done, and what waited for them told
    if board.voice is not None:
        board.voice.close()
    if board.journal is not None:
        board.journal.close()
    undelivered = 0
    if board.broker is not None:
        from reedboard.link.mqtt_client import KEPT_BY_JOURNAL, NO_JOURNAL  # loaded already

        # What the broker never had: the board's line says whether its journal keeps it.
        undelivered = board.broker.close(
            kept=NO_JOURNAL if board.journal is None else KEPT_BY_JOURNAL
        )
    if board.phone is not None:
        board.phone.close()
    if board.opponents is not None:
        board.opponents.close()
    close = getattr(board.scanner, "close", None)
    if close is not None:
        close()
    return undelivered
