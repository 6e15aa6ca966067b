"""When `run(until_done=True)` stops: a board nobody listens to, or heard through its
endpoint alone (a broker's), stops as soon as its script is over and nothing is pending;
one with a host link or in-process clients gives them `TAIL_MS` more to catch up; a
player's taps still waiting for their answer keep any board turning."""

from __future__ import annotations

from reedboard.app import TAIL_MS, App
from reedboard.app_ports import HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.link.board import BoardEndpoint
from reedboard.link.clients import Clients
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.speaking import BoardVoice
from reedboard.voice.languages import phrasebook
from reedboard.voice.taps import GAP_MAX_MS

from tests.app.games import script_setup
from tests.app.wire_link import WireLink

MOVE = "@start standard\n1000 lift e2\n1400 place e4\n"
LAST_LINE_MS = 1400
# Two taps on d5 after 1. e4: the last move is asked once the player stops tapping.
TAPS = MOVE + "3000 place d5\n3150 lift d5\n3400 place d5\n3550 lift d5\n"
LAST_TAP_MS = 3550


def ended_at(text: str, link: HostLink | None = None, *, voice: bool = False) -> tuple[int, App]:
    """Run the script's board until done; the board time it stopped at."""
    script = parse_script(text)
    scanned = scripted_board(script)
    clock = VirtualClock()
    speaker = BoardVoice(RecordingSpeaker(), phrasebook("en")) if voice else None
    app = App(
        Sensing(scanned, source=scanned),
        clock,
        link=link or HostLink(),
        voice=speaker,
        game=script_setup(script),
    )
    app.run(until_done=True)
    return clock.now_ms(), app


def test_a_board_nobody_listens_to_stops_once_all_is_decided() -> None:
    stopped, app = ended_at(MOVE)
    assert app.board_game is not None
    assert [m.uci() for m in app.board_game.game.moves] == ["e2e4"]
    # The move settles a few hundred ms after the last line; no 10 s tail after that.
    assert LAST_LINE_MS < stopped < LAST_LINE_MS + TAIL_MS // 2


def test_a_board_with_a_host_link_waits_for_the_host_to_catch_up() -> None:
    stopped, _app = ended_at(MOVE, HostLink(WireLink()))
    assert stopped >= LAST_LINE_MS + TAIL_MS


def test_taps_waiting_for_their_answer_keep_the_board_turning() -> None:
    stopped, app = ended_at(TAPS, voice=True)
    assert isinstance(app.voice, BoardVoice)
    assert stopped > LAST_TAP_MS + GAP_MAX_MS
    said = app.voice.speaker
    assert isinstance(said, RecordingSpeaker)
    assert said.texts[-1].startswith("Last move")


def test_a_board_heard_through_its_endpoint_alone_stops_once_all_is_decided() -> None:
    # An endpoint of its own and no port (a broadcasting board: the broker is handed what
    # it has not taken yet as the board closes), no client, no watcher: no tail.
    def broadcast(session: str) -> BoardEndpoint:
        return BoardEndpoint(session)

    stopped, app = ended_at(MOVE, HostLink(endpoint=broadcast))
    assert app.board_game is not None
    assert [m.uci() for m in app.board_game.game.moves] == ["e2e4"]
    assert LAST_LINE_MS < stopped < LAST_LINE_MS + TAIL_MS // 2


def test_a_board_with_in_process_clients_waits_for_them_to_catch_up() -> None:
    stopped, _app = ended_at(MOVE, HostLink(clients=Clients()))
    assert stopped >= LAST_LINE_MS + TAIL_MS
