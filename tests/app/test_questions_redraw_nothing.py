"""A host's question (`state`, `moves`, `hello`; a page asks the state after each effect)
changes nothing the LEDs show, so the loop makes no new scene for it; a command that may
change what is lit (a move to show, the tournament switch) is drawn at once. The strip
shows the same pixels, at the same times, whether the host asks questions or not."""

from __future__ import annotations

from reedboard.app import App
from reedboard.app_ports import HostLink, Lights, RecordingLights, Sensing
from reedboard.commands.run_board import board_lights
from reedboard.config import LedConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.palette import RGB
from reedboard.link.frame import encode_frame
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board

from tests.app.wire_link import WireLink

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n3000 lift g8\n"
QUESTIONS: tuple[dict[str, object], ...] = (
    {"type": "state"},
    {"type": "moves", "start": 0},
    {"type": "hello", "protocol": 1},
)


def asked(message: dict[str, object], number: int) -> bytes:
    return b"\n" + encode_frame({**message, "id": number})


def played(lights: Lights, host: dict[int, bytes]) -> App:
    """The script played, a turn every 5 ms, with `host`'s bytes read at their times."""
    board = scripted_board(parse_script(SCRIPT))
    app = App(
        Sensing(board, source=board), VirtualClock(), link=HostLink(WireLink()), lights=lights
    )
    for now in range(0, 5000, 5):
        app.step(now, host.get(now, b""))
    return app


def every_question(since_ms: int = 0) -> dict[int, bytes]:
    """A question every 50 ms, in turn each of QUESTIONS."""
    times = range(since_ms + 50, 5000, 50)
    return {t: asked(QUESTIONS[n % len(QUESTIONS)], n + 1) for n, t in enumerate(times)}


def test_questions_make_no_new_scene() -> None:
    quiet, asking = RecordingLights(), RecordingLights()
    played(quiet, {})
    played(asking, every_question())
    assert len(every_question()) > 90
    assert [t for t, _view in asking.views] == [t for t, _view in quiet.views]


def test_a_move_the_host_shows_is_drawn_in_the_turn_it_is_read() -> None:
    lights = RecordingLights()
    played(lights, {2000: asked({"type": "show", "uci": "d7d5"}, 1)})
    shown = [t for t, view in lights.views if view.hint is not None]
    assert shown[0] == 2000


def strip_of(host: dict[int, bytes], *, tournament: bool = False) -> list[tuple[RGB, ...]]:
    strip = RecordingStrip(64)
    played(board_lights(LedConfig(), strip, tournament=tournament), host)
    return list(strip.frames)


def test_the_strip_shows_the_same_pixels_with_questions_or_without() -> None:
    assert strip_of(every_question()) == strip_of({})


def test_the_tournament_switch_among_questions_darkens_the_help() -> None:
    # The lifted pawn's targets are lit; the switch turns them off, and the questions
    # after it leave them off, as on a board switched on from the start.
    switched = {**every_question(), 1200: asked({"type": "settings", "tournament": True}, 999)}
    frames = strip_of(switched)
    help_lit = strip_of({})
    fair = strip_of(every_question(), tournament=True)
    assert frames != help_lit
    assert frames[-1] == fair[-1]
