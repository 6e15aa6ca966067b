"""`reedboard run --fake --web 127.0.0.1:0 --mqtt URL` in the test's process: the very
board `reedboard run` assembles (its parser, `assemble`, its page), its loop on a thread,
its fake switches driven by the test, its voice heard by a recording speaker (espeak-ng's
place), publishing to the broker the test names (a real Mosquitto, or a port where
nothing listens). Everything started is stopped when the block ends, whatever happened.
And a Mosquitto that lets in one user with one password, as a club's does."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reedboard.cli import build_parser
from reedboard.commands import board_assembly, run_board
from reedboard.config import parse_config
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.rules.position import Position
from reedboard.web.running import PageThread

from tests.app.games import move_lines
from tests.relay.broker import Broker, broker_on_a_free_port

RETRY_MS = 100  # the board tries a lost broker again this often: the test waits less


@dataclass
class BrokerBoard:
    assembled: board_assembly.Assembled
    page: PageThread
    fake: FakeBoard
    speaker: RecordingSpeaker

    @property
    def url(self) -> str:
        url = self.page.url
        assert url is not None
        return url

    def said_of_the_broadcast(self) -> list[str]:
        """What the voice said of the broadcast (it also says the moves)."""
        return [text for text in self.speaker.texts if "broadcast" in text]

    def play_e4(self) -> None:
        """e2-e4 by a clean hand on the fake switches."""
        lines, _ = move_lines(Position.standard(), "e2e4", 0)
        self.fake.schedule(lines, start_ms=self.assembled.app.clock.now_ms() + 50)


@contextlib.contextmanager
def broker_board(tmp_path: Path, mqtt_url: str, mqtt: str = "") -> Iterator[BrokerBoard]:
    """The board publishing to `mqtt_url`; `mqtt`: more of its `[mqtt]` section's lines."""
    journal = str(tmp_path / "journal.sqlite")
    web = ["--fake", "--web", "127.0.0.1:0", "--settle-ms", "150", "--journal", journal]
    args = build_parser().parse_args(["run", *web, "--mqtt", mqtt_url, "--board-id", "b1"])
    config = parse_config(
        f'[voice]\nenabled = true\nlanguage = "en"\n[mqtt]\nretry_ms = {RETRY_MS}\n{mqtt}\n'
    )
    speaker = RecordingSpeaker()
    assembled = run_board.assemble(args, config, None, speaker=speaker)
    page = board_assembly.board_page(args, assembled)
    stop = threading.Event()
    loop = threading.Thread(target=assembled.app.run, args=(stop.is_set,), name="board")
    try:
        assert page is not None and isinstance(assembled.scanner, FakeBoard)
        loop.start()
        page.start()
        assert page.wait_ready() is not None
        yield BrokerBoard(assembled, page, assembled.scanner, speaker)
    finally:
        stop.set()
        if loop.is_alive():
            loop.join(30)
        board_assembly.close_board(assembled, page)


@contextlib.contextmanager
def guarded_broker(tmp_path: Path, user: str, password: str) -> Iterator[Broker]:
    """A Mosquitto that lets in only `user` with `password` (a password file)."""
    folder = tmp_path / "guarded"
    folder.mkdir()
    passwords = folder / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), user, password],
                   check=True, capture_output=True, timeout=30)  # fmt: skip
    passwords.chmod(0o600)

    def make(port: int) -> Broker:
        broker = Broker(folder, port)
        broker.config.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
            # Started as root, Mosquitto reads the file as its own user, which cannot
            # enter the test's folder; started as another user, it stays that user.
            "user root\n"
        )
        return broker

    with broker_on_a_free_port(make) as broker:
        yield broker
