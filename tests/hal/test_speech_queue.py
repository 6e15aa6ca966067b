"""Who waits and who is cut when sentences come while one is being said."""

from __future__ import annotations

from reedboard.hal.speech import SpeechQueue, Utterance


def test_lasting_sentences_wait_their_turn() -> None:
    queue = SpeechQueue()
    assert queue.add(Utterance("Pion e2 e4.")) is False
    assert queue.take() == Utterance("Pion e2 e4.")
    assert queue.add(Utterance("Pion e7 e5.")) is False  # the first is not cut
    queue.finished()
    assert queue.take() == Utterance("Pion e7 e5.")


def test_a_new_sentence_cuts_a_fleeting_one() -> None:
    queue = SpeechQueue()
    queue.add(Utterance("Illégal : remettez le cavalier en g1.", fleeting=True))
    queue.take()
    assert queue.add(Utterance("Position rétablie.", fleeting=True)) is True


def test_fleeting_sentences_still_waiting_are_dropped() -> None:
    queue = SpeechQueue()
    queue.add(Utterance("Pion e2 e4."))
    queue.take()
    queue.add(Utterance("Illégal : remettez le pion en e2.", fleeting=True))
    queue.add(Utterance("Pion e7 e5."))
    queue.finished()
    assert [queue.take(), queue.take()] == [Utterance("Pion e7 e5."), None]
