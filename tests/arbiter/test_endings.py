"""Ending a game and choosing a promotion from the board alone, and from the host."""

from __future__ import annotations

import pytest
from reedboard.arbiter.arbiter import Arbiter
from reedboard.errors import IllegalMoveError
from reedboard.lights.scenes import scene_roles
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange

from tests.arbiter.support import kinds, moves, replay, steps

AFTER_E4 = "1000 lift e2\n1400 place e4\n"


def over(effects: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["result"], e["reason"]) for e in effects if e["event"] == "game_over"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_resignation_king_held_off_then_put_back_and_tapped(mode: str) -> None:
    body = AFTER_E4 + "2000 lift e8\n5200 place e8\n6000 lift e8\n6300 place e8\n"
    effects = replay(body, mode=mode)
    assert over(effects) == [("1-0", "resignation")]
    offers = [(e["offer"], e["state"]) for e in effects if e["event"] == "offer"]
    assert offers == [("resign", "made"), ("resign", "armed")]
    assert "illegal" not in kinds(effects)


def test_resignation_needs_the_confirming_tap() -> None:
    # Held long, put back, then nothing: the offer lapses; the game goes on.
    body = AFTER_E4 + "2000 lift e8\n5200 place e8\n12000 lift e7\n12400 place e5\n"
    effects = replay(body)
    assert over(effects) == []
    assert moves(effects) == ["e2e4", "e7e5"]
    # A king held for less than the hold time and put back is only a touch.
    effects = replay(AFTER_E4 + "2000 lift e8\n3500 place e8\n3800 lift e8\n4000 place e8\n")
    assert over(effects) == [] and "offer" not in kinds(effects)


def test_draw_by_agreement_both_kings_off_together() -> None:
    body = AFTER_E4 + "2000 lift e8\n2050 lift e1\n5500 place e1\n5600 place e8\n"
    effects = replay(body)
    assert over(effects) == [("1/2-1/2", "agreement")]
    assert "illegal" not in kinds(effects)


def test_draw_claim_gesture_when_threefold_repetition_can_be_claimed() -> None:
    shuffle = "lift g1, place f3; lift g8, place f6; lift f3, place g1; lift f6, place g8; "
    body = (
        steps(shuffle + shuffle)
        + "\n40000 lift e1\n43200 place e1\n44000 lift e1\n44300 place e1\n"
    )
    effects = replay(body)
    assert len(moves(effects)) == 8
    assert over(effects) == [("1/2-1/2", "threefold_repetition")]


def test_moves_after_a_resignation_are_mismatches() -> None:
    body = (
        AFTER_E4
        + "2000 lift e8\n5200 place e8\n6000 lift e8\n6300 place e8\n8000 lift e7\n8300 place e5\n"
    )
    effects = replay(body)
    assert moves(effects) == ["e2e4"]
    assert kinds(effects)[-1] == "illegal"


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
    arbiter = Arbiter(Game())
    assert [(e.result, e.reason) for e in arbiter.resign(True, 100)] == [("0-1", "resignation")]  # type: ignore[union-attr]
    arbiter = Arbiter(Game())
    with pytest.raises(IllegalMoveError):
        arbiter.claim_draw(100)
    assert arbiter.game.outcome() is None
    assert [(e.result, e.reason) for e in arbiter.agree_draw(200)] == [("1/2-1/2", "agreement")]  # type: ignore[union-attr]


def test_the_lights_offer_the_on_board_promotion_choice() -> None:
    arbiter = Arbiter(Game.from_fen("8/4P1k1/8/8/8/8/6K1/1N4R1 w - - 0 1"))
    arbiter.feed(SquareChange(parse_square("e7"), False, 1000))
    arbiter.feed(SquareChange(parse_square("e8"), True, 1400))
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
    # White resigns after 1.e4 e5; then the e5 pawn goes back to e7: the game stays over.
    body = steps("lift e2, place e4; lift e7, place e5", start_ms=0)
    body += "\n8000 lift e1\n11200 place e1\n12000 lift e1\n12300 place e1\n"
    body += "14000 lift e5\n14400 place e7\n"
    effects = replay(body)
    assert over(effects) == [("0-1", "resignation")]
    assert "takeback" not in kinds(effects)
    assert kinds(effects)[-1] == "illegal"


def test_a_move_taken_back_by_hand_puts_out_what_the_host_lit() -> None:
    arbiter = Arbiter(Game(), mode="casual")
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
