"""The engine opponent stops the engine's search once the game leaves its position, and
never plays what that stopped search answers, even when the game comes back there."""

from __future__ import annotations

from reedboard.events import Effect, MoveMade, NewGame, TakenBack
from reedboard.link.board_messages import EffectMessage
from reedboard.link.messages import ShowMove
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.engine_side import EngineOpponent
from reedboard.opponents.thinker import Answer, Question, Thinker
from reedboard.opponents.uci_engine import Thought
from reedboard.rules.position import Position

START = Position.standard().fen()
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


class HeldThinker(Thinker):
    """An engine whose answers come when the test gives them, in the order asked (as the
    engine's thread answers), and that counts the stops it is told."""

    def __init__(self) -> None:
        self.asked: list[Question] = []
        self.stops = 0
        self._given: list[Answer] = []
        self._next = 0

    def ask(self, question: Question) -> None:
        self.asked.append(question)

    def give(self, best: str) -> None:
        """The next question asked is answered with `best`."""
        self._given.append(Answer(self.asked[self._next].key, Thought(best)))
        self._next += 1

    def answers(self) -> list[Answer]:
        found, self._given = self._given, []
        return found

    def stop(self) -> None:
        self.stops += 1

    def close(self) -> None:
        pass


def _effect(effect: Effect) -> EffectMessage:
    return EffectMessage(effect, game=1)


def _e2e4() -> EffectMessage:
    return _effect(MoveMade(0, "e2e4", "e4", AFTER_E4, ply=1))


def test_a_takeback_stops_the_search_and_its_answer_is_never_played() -> None:
    thinker = HeldThinker()
    opponent = EngineOpponent(EngineSettings(level=20, side="black"), thinker)
    opponent.hear(_effect(NewGame(0, START)))
    opponent.hear(_e2e4())
    opponent.due(10)
    assert [q.moves for q in thinker.asked] == [("e2e4",)]
    # A move made for the engine meanwhile is taken back: the search goes on.
    opponent.hear(_effect(MoveMade(20, "e7e5", "e5", START, ply=2)))
    assert opponent.due(20) and thinker.stops == 0
    opponent.hear(_effect(TakenBack(30, "e7e5", AFTER_E4)))
    assert thinker.stops == 0
    # The person takes e2e4 back: the game left the position, the search is stopped.
    opponent.hear(_effect(TakenBack(40, "e2e4", START)))
    assert thinker.stops == 1
    # ... and makes it again before the stopped search answered: asked anew.
    opponent.hear(_e2e4())
    opponent.due(50)
    assert len(thinker.asked) == 2 and thinker.asked[0].key == thinker.asked[1].key
    thinker.give("a7a6")  # the stopped search's move, found in a moment
    assert ShowMove("a7a6") not in opponent.due(60)
    thinker.give("c7c5")
    assert opponent.due(70) == [ShowMove("c7c5")]


def test_a_new_game_stops_the_search() -> None:
    thinker = HeldThinker()
    opponent = EngineOpponent(EngineSettings(level=20, side="black"), thinker)
    opponent.hear(_effect(NewGame(0, START)))
    opponent.hear(_e2e4())
    opponent.due(10)
    opponent.hear(_effect(NewGame(20, START)))
    assert thinker.stops == 1
    thinker.give("e7e5")
    assert opponent.due(30) == []  # White's move in the new game: nothing lit
