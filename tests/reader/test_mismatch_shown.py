"""A mismatch shown on the board follows the board: when the pieces go wrong in a way the
lights do not show, they show the new state, even one that looks like the start of a move."""

from __future__ import annotations

from reedboard.events import Effect, Illegal
from reedboard.reader.move_reader import DEFAULT_SETTLE_MS, MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange


class Hands:
    def __init__(self) -> None:
        self.arbiter = MoveReader(Game())
        self.t = 1000

    def do(self, *changes: str) -> list[Effect]:
        """`"-e2"` lifts the piece on e2, `"+f5"` puts one on f5, 100 ms apart."""
        effects: list[Effect] = []
        for change in changes:
            self.t += 100
            square = parse_square(change[1:])
            effects += self.arbiter.feed(SquareChange(square, change[0] == "+", self.t))
        return effects

    def wait(self, ms: int = 3000) -> list[Effect]:
        effects: list[Effect] = []
        for _ in range(ms // 100):
            self.t += 100
            effects += self.arbiter.tick(self.t)
        return effects

    def lit(self) -> tuple[int, int]:
        view = self.arbiter.view()
        return view.missing, view.extra


def kinds(effects: list[Effect]) -> list[str]:
    return [e.kind for e in effects if e.kind != "touch"]


def bb(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def test_a_piece_put_where_a_move_could_go_is_shown_as_extra() -> None:
    hands = Hands()
    hands.do("-e2", "+f5")
    assert kinds(hands.wait()) == ["illegal"]
    assert hands.lit() == (bb("e2"), bb("f5"))
    # The pawn is moved on to e3 (the move e2-e3 would stand so), then a second pawn is
    # put on e2 before the board decides: no move, and nothing of it where the lights
    # still show e2 and f5. They show the piece too many on e3 instead.
    hands.do("-f5", "+e3", "+e2")
    effects = hands.wait()
    assert kinds(effects) == ["illegal"]
    assert isinstance(effects[0], Illegal) and (effects[0].missing, effects[0].extra) == (
        0,
        bb("e3"),
    )
    assert hands.lit() == (0, bb("e3"))
    assert kinds(hands.do("-e3")) == ["restored"]


def test_part_of_the_shown_mismatch_put_right_keeps_the_lights() -> None:
    # As in docs/examples/illegal-and-restore.events: the knight lifted off the wrong square
    # is on its way back.
    hands = Hands()
    hands.do("-g1", "+g3")
    assert kinds(hands.wait()) == ["illegal"]
    hands.do("-g3")
    assert hands.wait() == []
    assert hands.lit() == (bb("g1"), bb("g3"))
    assert kinds(hands.do("+g1")) == ["restored"]


def _after(*sans: str) -> Game:
    game = Game()
    for san in sans:
        game.push_san(san)
    return game


def test_a_victim_set_down_on_the_capturers_path_is_shown_within_settle_ms() -> None:
    # 1.e4 b6 2.d4 Ba6 3.c4: Black's a6 bishop can take on c4. White's c4 pawn lifted
    # (a capture in progress, the lights show it) and set down on b5, on the bishop's
    # path: the bishop still stands on a6, so the piece on b5 can only be the pawn,
    # which no move puts there.
    hands = Hands()
    hands.arbiter = MoveReader(_after("e4", "b6", "d4", "Ba6", "c4"))
    hands.do("-c4", "+b5")
    placed = hands.t
    effects = hands.wait(DEFAULT_SETTLE_MS + 100)
    assert kinds(effects) == ["illegal"]
    assert effects[0].t_ms <= placed + DEFAULT_SETTLE_MS + 100
    assert hands.lit() == (bb("c4"), bb("b5"))


def test_a_piece_just_moved_set_down_on_a_reply_capture_s_path_is_shown() -> None:
    # 1.g3 b6 2.Bg2 e6 3.d3: Black's bishop c8-b7 (it may go on to a6: it waits), then
    # lifted from b7 at once and set down on d5, on the path of White's Bg2xb7: a reply
    # in progress only if White's bishop were off g2. It stands: the piece on d5 is
    # Black's bishop where no move puts it.
    hands = Hands()
    hands.arbiter = MoveReader(_after("g3", "b6", "Bg2", "e6", "d3"))
    hands.do("-c8", "+b7", "-b7", "+d5")
    placed = hands.t
    effects = hands.wait(DEFAULT_SETTLE_MS + 100)
    assert kinds(effects) == ["illegal"]
    assert effects[0].t_ms <= placed + DEFAULT_SETTLE_MS + 100
