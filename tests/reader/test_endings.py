"""Ending a game and choosing a promotion from the board alone, and from the host."""

from __future__ import annotations

import pytest
from reedboard.errors import IllegalMoveError
from reedboard.events import Effect
from reedboard.lights.scenes import scene_roles
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.waits import RELAND_MS
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange

from tests.reader.support import kinds, moves, replay, steps

AFTER_E4 = "1000 lift e2\n1400 place e4\n"


def over(effects: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["result"], e["reason"]) for e in effects if e["event"] == "game_over"]


# After 1.Nf3 Nf6 the centre is empty; both kings are lifted, then set down.
AFTER_NF3_NF6 = "1000 lift g1\n1400 place f3\n2500 lift g8\n2900 place f6\n"


def kings_to(white: str, black: str, t: int = 4000) -> str:
    return f"{t} lift e1\n{t + 300} lift e8\n{t + 900} place {white}\n{t + 1300} place {black}\n"


def offers(effects: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["offer"], e["state"]) for e in effects if e["event"] == "offer"]


KINGS_IN_THE_CENTRE = [
    # (white king, black king, result, reason): the DGT convention.
    ("d5", "e4", "1-0", "resignation"),
    ("e4", "d5", "1-0", "resignation"),
    ("d4", "e5", "0-1", "resignation"),
    ("e5", "d4", "0-1", "resignation"),
    ("d4", "d5", "1/2-1/2", "agreement"),
    ("e4", "e5", "1/2-1/2", "agreement"),
    ("d5", "d4", "1/2-1/2", "agreement"),
    ("e5", "e4", "1/2-1/2", "agreement"),
]


@pytest.mark.parametrize("mode", ["casual", "strict"])
@pytest.mark.parametrize(("white", "black", "result", "reason"), KINGS_IN_THE_CENTRE)
def test_the_kings_set_in_the_centre_tell_the_result(
    mode: str, white: str, black: str, result: str, reason: str
) -> None:
    effects = replay(AFTER_NF3_NF6 + kings_to(white, black) + "9000 place e1\n", mode=mode)
    assert offers(effects) == [(result, "made"), (result, "confirmed")]
    assert over(effects) == [(result, reason)]
    assert moves(effects) == ["g1f3", "g8f6"]
    made = next(e for e in effects if e["event"] == "offer")
    assert 5300 <= made["t_ms"] <= 5350  # as the second king is set down (and debounced)
    # The kings left in the centre after the result are no mismatch.
    assert "illegal" not in kinds(replay(AFTER_NF3_NF6 + kings_to(white, black), mode=mode))


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_pieces_in_the_centre_are_taken_off_first(mode: str) -> None:
    # After 1.e4 e5: both pawns off the board, then the kings on e4 (light) and e5 (dark).
    body = AFTER_E4 + "2000 lift e7\n2400 place e5\n"
    body += "4000 lift e4\n4300 lift e5\n5000 lift e1\n5200 lift e8\n5800 place e4\n6100 place e5\n"
    effects = replay(body, mode=mode)
    assert over(effects) == [("1/2-1/2", "agreement")]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_a_hesitating_player_never_ends_the_game(mode: str) -> None:
    # The king held 3.5 s while thinking, put back, lifted and put back again; then a
    # king move (strict mode: the touched king must move).
    body = AFTER_E4 + "2000 lift e7\n2400 place e5\n"
    body += (
        "4000 lift e1\n7500 place e1\n8000 lift e1\n8300 place e1\n9000 lift e1\n9400 place e2\n"
    )
    effects = replay(body, mode=mode)
    assert over(effects) == [] and offers(effects) == []
    assert moves(effects) == ["e2e4", "e7e5", "e1e2"]
    # Held for 10 s, put down: still only a touch.
    effects = replay(AFTER_E4 + "2000 lift e8\n12000 place e8\n13000 lift e7\n13400 place e5\n")
    assert over(effects) == [] and moves(effects) == ["e2e4", "e7e5"]


def test_one_king_stepping_next_to_the_other_is_no_result() -> None:
    # White's king stands on e4; Black sets his king beside it on d5 (an illegal move):
    # both kings were never held, so it is a mismatch, not 1-0.
    header = "@start fen 8/8/4k3/8/8/4K3/8/R7 w - - 0 1"
    body = "1000 lift e3\n1400 place e4\n3000 lift e6\n3400 place d5\n"
    effects = replay(body, header=header)
    assert moves(effects) == ["e3e4"]
    assert offers(effects) == [] and over(effects) == []
    assert kinds(effects)[-1] == "illegal"


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_putting_the_kings_back_cancels_the_offer(mode: str) -> None:
    body = AFTER_NF3_NF6 + kings_to("d5", "e4")
    body += (
        "6000 lift d5\n6100 lift e4\n6500 place e1\n6700 place e8\n8000 lift e2\n8400 place e4\n"
    )
    effects = replay(body, mode=mode)
    assert offers(effects) == [("1-0", "made"), ("1-0", "cancelled")]
    assert over(effects) == []
    assert moves(effects) == ["g1f3", "g8f6", "e2e4"]
    assert "illegal" not in kinds(effects)
    # A king moved on to another centre square changes the offer and starts the wait again.
    body = AFTER_NF3_NF6 + kings_to("d5", "e4") + "6000 lift d5\n6300 place d4\n"
    effects = replay(body, mode=mode)
    assert offers(effects)[-2:] == [("1/2-1/2", "made"), ("1/2-1/2", "confirmed")]
    assert over(effects) == [("1/2-1/2", "agreement")]
    assert next(e for e in effects if e["event"] == "game_over")["t_ms"] >= 9300


def test_the_draw_is_a_claim_when_one_is_valid() -> None:
    shuffle = "lift g1, place f3; lift g8, place f6; lift f3, place g1; lift f6, place g8; "
    body = steps(shuffle + shuffle) + "\n" + kings_to("e4", "e5", t=40000)
    effects = replay(body)
    assert len(moves(effects)) == 8
    assert over(effects) == [("1/2-1/2", "threefold_repetition")]


def test_moves_after_a_result_are_mismatches() -> None:
    body = AFTER_NF3_NF6 + kings_to("d4", "e5")
    body += (
        "9000 lift d4\n9100 lift e5\n9500 place e1\n9700 place e8\n11000 lift e2\n11300 place e4\n"
    )
    effects = replay(body)
    assert over(effects) == [("0-1", "resignation")]
    assert moves(effects) == ["g1f3", "g8f6"]
    assert kinds(effects)[-1] == "illegal"


def test_the_lights_pulse_the_kings_while_the_result_waits() -> None:
    arbiter = MoveReader(Game())
    e1, e8, d5, e4 = (parse_square(name) for name in ("e1", "e8", "d5", "e4"))
    t = 1000
    for square, occupied in ((e1, False), (e8, False), (e4, False), (d5, True), (e4, True)):
        arbiter.feed(SquareChange(square, occupied, t))
        t += 300
    # e4's pawn went off and came back: the hypotheses put the black king there.
    view = arbiter.view()
    assert view.offer == "1-0"
    assert view.offer_squares == (1 << d5) | (1 << e4)
    roles = scene_roles(view)
    assert roles == {d5: "offer", e4: "offer"}
    # The board wakes when it has something to decide (other readings may want a look at
    # the settle time first); nothing but the offer's confirmation comes of it, 3 s after
    # the kings stood.
    confirm_at = t - 300 + 3000
    ticked: list[Effect] = []
    while (due := arbiter.next_deadline()) is not None and due < confirm_at:
        ticked += arbiter.tick(due)
    assert ticked == []
    assert arbiter.view().offer == "1-0"
    assert arbiter.next_deadline() == confirm_at
    confirmed = arbiter.tick(confirm_at)
    assert [type(e).__name__ for e in confirmed][:2] == ["Offered", "GameOver"]


PROMOTION = "@start fen 8/4P1k1/8/8/8/8/6K1/1N4R1 w - - 0 1"


@pytest.mark.parametrize(("square", "uci"), [("b1", "e7e8n"), ("g1", "e7e8r")])
def test_under_promotion_on_the_board_touch_a_piece_of_the_kind(square: str, uci: str) -> None:
    body = f"1000 lift e7\n1400 place e8\n2000 lift {square}\n2300 place {square}\n4000 lift g7\n4300 place g6\n"
    effects = replay(body, header=PROMOTION)
    assert moves(effects) == ["e7e8q", uci, "g7g6"]
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == ["e7e8q"]
    assert "illegal" not in kinds(effects)


def test_the_promotion_choice_closes_when_the_opponent_moves() -> None:
    body = "1000 lift e7\n1400 place e8\n2000 lift g7\n2300 place h6\n3000 lift b1\n3300 place b1\n"
    effects = replay(body, header=PROMOTION)
    assert moves(effects) == ["e7e8q", "g7h6"]
    assert "takeback" not in kinds(effects)


def test_host_commands_end_the_game() -> None:
    arbiter = MoveReader(Game())
    assert [(e.result, e.reason) for e in arbiter.resign(True, 100)] == [("0-1", "resignation")]  # type: ignore[union-attr]
    arbiter = MoveReader(Game())
    with pytest.raises(IllegalMoveError):
        arbiter.claim_draw(100)
    assert arbiter.game.outcome() is None
    assert [(e.result, e.reason) for e in arbiter.agree_draw(200)] == [("1/2-1/2", "agreement")]  # type: ignore[union-attr]


def test_the_lights_offer_the_on_board_promotion_choice() -> None:
    arbiter = MoveReader(Game.from_fen("8/4P1k1/8/8/8/8/6K1/1N4R1 w - - 0 1"))
    arbiter.feed(SquareChange(parse_square("e7"), False, 1000))
    arbiter.feed(SquareChange(parse_square("e8"), True, 1400))
    arbiter.tick(1400 + RELAND_MS)  # the pawn has rested: the promotion is made
    view = arbiter.view()
    assert view.promotion == parse_square("e8")
    assert view.promotion_choices == (1 << parse_square("b1")) | (1 << parse_square("g1"))
    roles = scene_roles(view)
    assert roles[parse_square("b1")] == roles[parse_square("e8")] == "promotion"


FOOLS_MATE = "lift f2, place f3; lift e7, place e5; lift g2, place g4; lift d8, place h4"


def test_a_mate_taken_back_by_hand_in_casual_mode_plays_on() -> None:
    effects = replay(steps(FOOLS_MATE + "; lift h4, place d8; lift e5, place e4"))
    assert over(effects) == [("0-1", "checkmate")]
    takeback = [e["uci"] for e in effects if e["event"] == "takeback"]
    assert takeback == ["d8h4"]
    assert moves(effects)[-1] == "e5e4"  # the game went on with another move
    strict = replay(steps(FOOLS_MATE + "; lift h4, place d8"), mode="strict")
    assert "takeback" not in kinds(strict)


def test_a_resignation_is_not_taken_back_by_hand() -> None:
    # Black wins after 1.Nf3 Nf6; the kings go back, then the f6 knight back to g8.
    body = AFTER_NF3_NF6 + kings_to("d4", "e5")
    body += "9000 lift d4\n9100 lift e5\n9500 place e1\n9700 place e8\n"
    body += "14000 lift f6\n14400 place g8\n"
    effects = replay(body)
    assert over(effects) == [("0-1", "resignation")]
    assert "takeback" not in kinds(effects)
    assert kinds(effects)[-1] == "illegal"


def test_a_move_taken_back_by_hand_puts_out_what_the_host_lit() -> None:
    arbiter = MoveReader(Game(), mode="casual")
    e2, e4, e5 = (parse_square(name) for name in ("e2", "e4", "e5"))
    t = 1000
    for square, occupied in ((e2, False), (e4, True)):
        arbiter.feed(SquareChange(square, occupied, t))
        t += 400
    arbiter.tick(t + 1000)
    assert len(arbiter.game) == 1
    reply = arbiter.game.position.parse_uci("e7e5")
    arbiter.show_move(reply)
    arbiter.mark(1 << e5)
    for square, occupied in ((e4, False), (e2, True)):
        t += 400
        arbiter.feed(SquareChange(square, occupied, t))
    arbiter.tick(t + 1000)
    assert len(arbiter.game) == 0
    view = arbiter.view()
    assert view.hint is None and arbiter.marked == (0, 0)
