"""Nothing a DGT or ChessLink client sends stops the board: random bytes, and random runs
of the commands each protocol knows with random arguments, through the running board's
own loop with its emulated endpoint."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reedboard.link.emulation import Emulated

from tests.link.emulated import FakeLink, chesslink_message, emulated_app
from tests.support.examples import examples

SCRIPT = "@start standard\n100 lift e2\n400 place e4\n"

dgt_bytes = st.lists(
    st.one_of(
        st.binary(max_size=8),
        st.sampled_from([0x40, 0x42, 0x43, 0x44, 0x45, 0x4B, 0x4D, 0x4E, 0x60]).map(
            lambda b: bytes([b])
        ),
    ),
    max_size=12,
).map(b"".join)
chesslink_text = st.text(alphabet="VSXLTWRIsvwlx0123456789ABCDEF", max_size=30)
chesslink_bytes = st.one_of(
    st.binary(max_size=40),
    chesslink_text.map(lambda t: chesslink_message(t)),
    st.lists(chesslink_text.map(chesslink_message), max_size=5).map(b"".join),
)


def _feed(protocol: Emulated, data: bytes) -> None:
    link = FakeLink(b"")
    app = emulated_app(protocol, SCRIPT, link)
    app.start()
    # A turn each 50 ms (the script's moments fall on them): the same game as at the
    # board's 200 scans a second, and each random input a fifth of the turns to cost.
    for now in range(0, 1500, 50):
        app.step(now, data if now == 500 else b"")  # raises if anything in the loop does
    assert app.board_game is not None and len(app.board_game.game) == 1  # the game went on


@settings(max_examples=examples(150), deadline=None)
@given(data=dgt_bytes)
def test_random_dgt_input_never_stops_the_board(data: bytes) -> None:
    _feed("dgt", data)


@settings(max_examples=examples(150), deadline=None)
@given(data=chesslink_bytes)
def test_random_chesslink_input_never_stops_the_board(data: bytes) -> None:
    _feed("chesslink", data)
