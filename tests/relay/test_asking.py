"""A relay behind its backlog does not ask the same boards again every second."""

from __future__ import annotations

from reedboard_relay.asking import AskPacer


def test_a_question_is_asked_at_once_and_not_again_within_a_second() -> None:
    pacer = AskPacer(first_s=1.0, longest_s=8.0)
    assert pacer.ask("b1", "resend s", 100.0)
    assert not pacer.ask("b1", "resend s", 100.5)
    assert pacer.ask("b2", "resend s", 100.5)  # another board is asked on its own


def test_a_question_still_unanswered_waits_twice_as_long_each_time_up_to_a_limit() -> None:
    pacer = AskPacer(first_s=1.0, longest_s=8.0)
    now = 0.0
    asked = []
    while now < 40.0:
        if pacer.ask("b1", "resend s", now):
            asked.append(now)
        now += 0.25
    assert asked == [0.0, 1.0, 3.0, 7.0, 15.0, 23.0, 31.0, 39.0]


def test_another_question_or_a_board_that_wanted_nothing_is_asked_at_once() -> None:
    pacer = AskPacer(first_s=1.0, longest_s=8.0)
    for now in (0.0, 1.0, 3.0):
        assert pacer.ask("b1", "resend s", now)
    assert pacer.ask("b1", "state s", 3.5)  # a new question
    assert not pacer.ask("b1", "state s", 4.0)
    pacer.settled("b1")  # its stream caught up
    assert pacer.ask("b1", "state s", 4.0)
    assert not pacer.ask("b1", "state s", 4.5)
