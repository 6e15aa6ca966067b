"""What a DGT or ChessLink client asks of the LEDs reaches the board's lights: a legal move
as the move to carry out (`show`), other squares as the client lights them (`mark`,
steady or blinking), ChessLink's brightness register as `brightness`; from the codecs
through the endpoint to a running App."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, RecordingLights, Sensing
from reedboard.board_game import BoardGame
from reedboard.events import MoveMade, Touched
from reedboard.hal.clock import VirtualClock
from reedboard.lights.scenes import scene_for
from reedboard.link.board_messages import EffectMessage
from reedboard.link.chesslink import DARK, Brightness, ChessLinkBoard
from reedboard.link.dgt import DgtBoard, LedCommand
from reedboard.link.emulation import EmulatedEndpoint
from reedboard.link.messages import Mark, SetBrightness, ShowMove
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

from tests.link.emulated import FakeLink, chesslink_lights, chesslink_message, dgt_index


def _bb(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def _show(uci: str | None) -> ShowMove:
    return ShowMove(uci)


def _mark(squares: list[str], blink: list[str] | None = None) -> Mark:
    return Mark(tuple(squares), tuple(blink or ()))


# ----- the codecs -----


def test_chesslink_squares_are_those_with_four_lit_corners_read_as_few_as_possible() -> None:
    board = ChessLinkBoard()

    def marked(pattern: dict[str, int]) -> tuple[int, int]:
        (wish,) = board.receive_data(chesslink_lights(pattern))
        assert not isinstance(wish, Brightness)
        return wish.marked_squares()

    # e2 and e4 light e3's corners too: the client lit two squares, not three.
    assert marked({"e2": 0xFF, "e4": 0xFF}) == (_bb("e2", "e4"), 0)
    # Neighbours share corners and each still owns two of its own.
    assert marked({"d4": 0xFF, "e4": 0xFF}) == (_bb("d4", "e4"), 0)
    assert marked({"d4": 0xFF, "e5": 0xFF}) == (_bb("d4", "e5"), 0)
    # Three in a row look like the outer two: the corners cannot tell them apart.
    assert marked({"d4": 0xFF, "e4": 0xFF, "f4": 0xFF}) == (_bb("d4", "f4"), 0)
    # 0xFF shines steady; any other pattern blinks.
    assert marked({"a1": 0xF0, "h8": 0xFF}) == (_bb("h8"), _bb("a1"))
    assert marked({"c3": 0x0F}) == (0, _bb("c3"))
    # Three corners of a square are not the square.
    (partial,) = board.receive_data(
        chesslink_message("L20" + "FF" * 3 + "00" * 78)  # h1's corners: LEDs 0, 1, 9, 10
    )
    assert not isinstance(partial, Brightness)
    assert partial.marked_squares() == (0, 0)


def test_chesslink_brightness_register_and_reset() -> None:
    board = ChessLinkBoard()
    assert board.receive_data(chesslink_message("W0400")) == [Brightness(0)]
    assert board.receive_data(chesslink_message("W0414")) == [Brightness(0x14)]
    assert board.receive_data(chesslink_message("W0101")) == []  # another register
    assert [Brightness(v).percent for v in (0, 5, 15, 16, 255)] == [25, 50, 100, 100, 100]
    assert board.receive_data(chesslink_message("T")) == [DARK, Brightness(15)]


def test_dgt_leds_one_square_two_squares_and_off() -> None:
    board = DgtBoard()
    d4 = dgt_index("d4")
    assert board.receive_data(bytes((0x60, 0x04, 0x01, d4, d4, 0x00))) == [
        LedCommand((parse_square("d4"),) * 2)
    ]
    assert board.receive_data(bytes((0x60, 0x02, 0x00, 0x00))) == [LedCommand(None)]


# ----- the endpoint: wishes become native commands -----


def test_dgt_wishes_become_a_move_to_show_or_marked_squares() -> None:
    position = Position.standard()
    dgt = EmulatedEndpoint("dgt", "s")
    dgt.observe(position, position.occupied, 0)
    e2, e4, e5, d4 = (dgt_index(n) for n in ("e2", "e4", "e5", "d4"))
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, e2, e4, 0x00))) == [_show("e2e4")]
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, e2, e4, 0x00))) == []  # no change
    # Not a legal move: the two squares as the client lights them, the hint gone.
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, e2, e5, 0x00))) == [
        _show(None),
        _mark(["e2", "e5"]),
    ]
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, d4, d4, 0x00))) == [_mark(["d4"])]
    assert dgt.receive_data(bytes((0x60, 0x02, 0x00, 0x00))) == [_mark([])]
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, d4, d4, 0x00))) == [_mark(["d4"])]
    # A legal move again: shown as the move, the marks cleared.
    assert dgt.receive_data(bytes((0x60, 0x04, 0x01, e2, e4, 0x00))) == [
        _show("e2e4"),
        _mark([]),
    ]


def test_chesslink_wishes_become_show_mark_and_brightness() -> None:
    position = Position.standard()
    link = EmulatedEndpoint("chesslink", "s")
    link.observe(position, position.occupied, 0)
    assert link.receive_data(chesslink_lights({"g1": 0xFF, "f3": 0xFF})) == [_show("g1f3")]
    assert link.receive_data(chesslink_lights({"a1": 0xFF, "h8": 0x55})) == [
        _show(None),
        _mark(["a1"], ["h8"]),
    ]
    assert link.receive_data(chesslink_message("X")) == [_mark([])]
    assert link.receive_data(chesslink_message("W0400")) == [SetBrightness(25)]


_START = Position.standard()
MOVE_MADE = MoveMade(0, "e2e4", "e4", _START.play(_START.parse_uci("e2e4")).fen(), 1)


@pytest.mark.parametrize(
    "told",
    [
        # On the board: the arbiter's effect, as the app sends it to its endpoint.
        lambda link: link.send(EffectMessage(MOVE_MADE, 1)),
        # On the PC: the event as the host read it off the link.
        lambda link: link.effect(MoveMade(0, "e2e4", "", "", 1)),
    ],
    ids=["board", "pc"],
)
def test_a_committed_move_clears_and_the_same_wish_is_sent_again(
    told: Callable[[EmulatedEndpoint], object],
) -> None:
    """The board drops the marks with the position they were about; a client that lights
    the same squares again must see them lit again."""
    position = Position.standard()
    link = EmulatedEndpoint("chesslink", "s")
    link.observe(position, position.occupied, 0)
    pattern = chesslink_lights({"d5": 0xFF})
    assert link.receive_data(pattern) == [_mark(["d5"])]
    assert link.receive_data(pattern) == []
    link.send(EffectMessage(Touched(0, parse_square("e2"), "P"), 1))  # not a change of game
    assert link.receive_data(pattern) == []
    told(link)
    assert link.receive_data(pattern) == [_mark(["d5"])]


# ----- the running board -----


def test_a_clients_pattern_lights_the_board_until_the_next_move() -> None:
    """An App on a scripted board, a ChessLink client on its link: the pattern's squares
    are lit as marked squares (blinking where the client blinks), its brightness reaches
    the lights, and the move that follows clears the marks."""
    script = parse_script("@start standard\n3000 lift e2\n3300 place e4\n")
    source = scripted_board(script)
    emulation = EmulatedEndpoint("chesslink", "test")
    client = chesslink_message("W0405") + chesslink_lights({"c6": 0xFF, "f6": 0x0F})
    lights = RecordingLights()

    def watch(board_game: BoardGame, now: int) -> None:
        emulation.observe(board_game.game.position, board_game.debouncer.occupancy, now)

    app = App(
        Sensing(source, source=source),
        VirtualClock(),
        link=HostLink(FakeLink(client), endpoint=lambda _id: emulation, watch=watch),
        lights=lights,
        game=GameSetup(start=Game(script.start)),
    )
    app.run(until_done=True)
    assert lights.shares == [0.5]
    before = [view for t, view in lights.views if t < 3000]
    assert before[-1].marked == _bb("c6") and before[-1].marked_blink == _bb("f6")
    assert scene_for(before[-1]).lit_roles() == {"c6": "marked", "f6": "marked_blink"}
    final = lights.views[-1][1]
    assert final.marked == final.marked_blink == 0
    assert "c6" not in scene_for(final).lit_roles()
