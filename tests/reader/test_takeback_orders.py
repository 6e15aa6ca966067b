"""A capture taken back in any order of its two pieces: the capturer home first, or the
captured piece put back first on the square the capturer has just left (the board then
reads the position again for a moment). Casual mode takes the move back; strict mode
knows no takeback and treats both orders alike."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay, steps

OPENING = "lift e2, place e4; lift d7, place d5"
EXD5 = OPENING + "; lift e4, lift d5, place d5"
NXD5 = OPENING + "; lift b1, place c3; lift g8, place f6; lift c3, lift d5, place d5"
QXD5 = EXD5 + "; lift d8, lift d5, place d5"

# name -> (the game so far, the takeback, the move it undoes, the next move played)
TAKEBACKS = {
    "pawn, capturer home first": (EXD5, "lift d5, place e4, place d5", "e4d5", ("g1", "f3")),
    "pawn, victim first": (EXD5, "lift d5, place d5, place e4", "e4d5", ("g1", "f3")),
    "pawn, victim first, fast": (EXD5, "lift d5, +40 place d5, +60 place e4", "e4d5", ("g1", "f3")),
    "pawn, victim first, a pause": (
        EXD5,
        "lift d5, place d5, +1500 place e4",
        "e4d5",
        ("g1", "f3"),
    ),
    "knight, victim first": (NXD5, "lift d5, place d5, place c3", "c3d5", ("e4", "e5")),
    "black queen, victim first": (QXD5, "lift d5, place d5, place d8", "d8d5", ("g8", "f6")),
}


@pytest.mark.parametrize("name", TAKEBACKS)
def test_casual_takes_a_capture_back_in_any_order(name: str) -> None:
    game, takeback, undone, (origin, target) = TAKEBACKS[name]
    played = moves(replay(steps(game)))
    effects = replay(steps(f"{game}; {takeback}; lift {origin}, place {target}"))
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == [undone]
    assert moves(effects) == [*played, origin + target]
    # Nothing is left lit: any mismatch shown while a piece was in the hand is put right.
    shown = [kind for kind in kinds(effects) if kind in ("illegal", "restored")]
    assert not shown or shown[-1] == "restored"


@pytest.mark.parametrize("order", ["lift d5, place e4, place d5", "lift d5, place d5, place e4"])
def test_strict_mode_takes_nothing_back_in_either_order(order: str) -> None:
    effects = replay(steps(f"{EXD5}; {order}"), mode="strict")
    assert moves(effects) == ["e2e4", "d7d5", "e4d5"]
    assert "takeback" not in kinds(effects)
    last = [e for e in effects if e["event"] == "illegal"][-1]
    assert (last["missing"], last["extra"]) == ([], ["e4"])


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_the_capturer_lifted_and_put_back_is_no_takeback(mode: str) -> None:
    # After exd5 White straightens the pawn on d5; Black then takes it with the queen.
    effects = replay(steps(f"{EXD5}; lift d5, place d5; lift d8, lift d5, place d5"), mode=mode)
    assert moves(effects) == ["e2e4", "d7d5", "e4d5", "d8d5"]
    assert "takeback" not in kinds(effects)
    assert "illegal" not in kinds(effects)
