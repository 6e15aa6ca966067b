"""The one receiver of a board's stream, as the relay paces it over a broker: each message
once, in order, gaps asked for once while in flight, a session never heard begin found
from the board's own answer."""

from __future__ import annotations

from reedboard.link.board_messages import (
    Alive,
    BoardHello,
    BoardMessage,
    StateMessage,
    read_board_message,
)
from reedboard.link.messages import AskState, Resend
from reedboard.link.receiver import Pacing, StreamReceiver

BROKER = Pacing(retry_ms=1000, longest_ms=8000, alive_overtakes=True)
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def hello(seq: int, session: str = "s1", *, resync: bool = False) -> BoardHello:
    return BoardHello(session, protocol=1, resync=resync, seq=seq)


def effect(seq: int) -> BoardMessage:
    wire = {"type": "effect", "seq": seq, "event": "touch", "square": "e2", "piece": "P",
            "t_ms": 0, "game": 0}  # fmt: skip
    message, problem = read_board_message(wire)
    assert message is not None and problem is None
    return message


def state(seq: int, command_id: int | None) -> StateMessage:
    wire = {"type": "state", "seq": seq, "id": command_id, "game": 0, "variant": "standard",
            "chess960": False, "start_fen": START, "fen": START, "moves": [], "san": [],
            "result": None, "reason": None}  # fmt: skip
    message, problem = read_board_message(wire)
    assert isinstance(message, StateMessage), problem
    return message


def seqs(messages: list[BoardMessage]) -> list[int]:
    return [m.seq for m in messages]


def test_an_unknown_session_is_asked_to_say_who_it_is_and_nothing_is_taken() -> None:
    receiver = StreamReceiver(BROKER)
    assert receiver.take(effect(5), 0) == []
    assert receiver.request(0) == Resend(0, "", resync="hello")


def test_messages_are_delivered_in_order_each_once() -> None:
    receiver = StreamReceiver(BROKER)
    assert seqs(receiver.take(hello(1), 0)) == [1]
    assert seqs(receiver.take(effect(2), 0)) == [2]
    assert receiver.take(effect(2), 0) == []  # QoS 1 delivers at least once
    assert receiver.take(hello(1), 0) == []  # a repeat of the session's hello
    assert receiver.last_seq == 2


def test_a_gap_is_asked_for_once_while_in_flight_then_again_later_and_later() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    for seq in (4, 5):
        assert receiver.take(effect(seq), 0) == []
    assert receiver.request(0) == Resend(1, "s1", 4, resync="hello")
    assert receiver.take(effect(6), 10) == []
    asked = [now for now in range(0, 20_000, 100) if receiver.request(now) is not None]
    assert asked == [1000, 3000, 7000, 15000]  # unanswered: twice as long each time, to 8 s
    assert receiver.take(effect(3), 20_000) == []
    assert seqs(receiver.take(effect(2), 20_000)) == [2, 3, 4, 5, 6]
    assert receiver.request(20_000) is None and receiver.request(30_000) is None


def test_a_gap_whose_answer_is_coming_is_not_asked_for_again() -> None:
    """The numbering moves on (the answer arrives, slowly, behind a backlog): the rest of
    it is not asked for until a whole `retry_ms` passes with nothing coming."""
    receiver = StreamReceiver(BROKER, "s1", 1)
    receiver.take(effect(9), 0)
    assert receiver.request(0) is not None
    for seq in range(2, 8):
        receiver.take(effect(seq), 600 * seq)
        assert receiver.request(600 * seq) is None
    assert receiver.request(600 * 7 + 999) is None
    assert receiver.request(600 * 7 + 1000) == Resend(7, "s1", 9, resync="hello")


def test_a_lost_tail_is_asked_for_once_two_alives_a_second_apart_show_it() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    receiver.take(Alive(3), 0)
    assert receiver.request(0) is None  # the frames it counts may be on their way
    receiver.take(Alive(3), 1000)
    assert receiver.request(1000) == Resend(1, "s1", 4, resync="hello")


def test_a_lost_tail_is_found_from_alives_quicker_than_half_a_second() -> None:
    """A board on a fast clock (`--speed 4`) says `alive` every 250 ms: the first of them
    since the last frame counts, not only the one just before."""
    receiver = StreamReceiver(BROKER, "s1", 1)
    for at_ms in range(0, 751, 250):
        receiver.take(Alive(3), at_ms)
    assert receiver.request(750) == Resend(1, "s1", 4, resync="hello")


def test_alives_read_back_to_back_after_a_stall_ask_for_nothing() -> None:
    """A relay held up for seconds reads the `alive`s it missed at once, ahead of the
    frames its broker still holds for it: they prove nothing lost."""
    receiver = StreamReceiver(BROKER, "s1", 1)
    for number, seq in enumerate((5, 8, 12)):
        receiver.take(Alive(seq), 5000 + number)
        assert receiver.request(5000 + number) is None
    for seq in range(2, 13):
        receiver.take(effect(seq), 5010)
    receiver.take(Alive(12), 6000)
    assert receiver.request(6000) is None and receiver.asked == 0


def test_a_tail_arriving_between_alives_is_not_asked_for() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    receiver.take(Alive(3), 0)
    receiver.take(effect(2), 500)
    receiver.take(Alive(4), 1000)
    assert receiver.request(1000) is None


def test_a_state_that_answers_a_question_stands_for_everything_before_it() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    receiver.take(effect(5), 0)  # held behind a gap
    asked = receiver.request(0, needs_state=True)
    assert isinstance(asked, AskState) and asked.id is not None
    assert seqs(receiver.take(state(7, asked.id), 10)) == [7]
    assert receiver.held == 0 and receiver.last_seq == 7
    assert receiver.take(effect(6), 20) == []  # older than the state: already in it


def test_a_state_that_does_not_do_is_asked_for_again_later_and_later() -> None:
    """The application still wants the whole game after the state came (it could not
    take it): the same question, not asked again at once each time it is answered."""
    receiver = StreamReceiver(BROKER, "s1", 1)
    asked = []
    for now in range(0, 8000, 100):
        request = receiver.request(now, needs_state=True)
        if isinstance(request, AskState):
            asked.append(now)
            assert request.id is not None
            receiver.take(state(receiver.last_seq + 1, request.id), now + 50)
    assert asked == [0, 1000, 3000, 7000]


def test_a_state_nobody_asked_for_waits_its_turn() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    assert receiver.take(state(3, None), 0) == []
    assert seqs(receiver.take(effect(2), 0)) == [2, 3]


def test_a_new_session_starts_the_numbering_again() -> None:
    receiver = StreamReceiver(BROKER, "s1", 1)
    receiver.take(effect(2), 0)
    assert seqs(receiver.take(hello(1, "s2"), 0)) == [1]
    assert (receiver.session, receiver.last_seq) == ("s2", 1)
    assert seqs(receiver.take(effect(2), 0)) == [2]


def test_a_session_never_heard_begin_ahead_of_the_numbers_is_found_by_asking() -> None:
    """A stale store (or a broker that lost the reader's session): the board's new
    session is already past the old numbers. Its frames wait behind a gap that the old
    session's `resend` cannot fill; the board answers that `resend` with its `hello`."""
    receiver = StreamReceiver(BROKER, "old", 8)
    for seq in (61, 62):
        assert receiver.take(effect(seq), 0) == []
    asked = receiver.request(0)
    assert asked == Resend(8, "old", 61, resync="hello")
    delivered = receiver.take(hello(63, "new", resync=True), 100)
    assert seqs(delivered) == [63] and receiver.session == "new"
    assert receiver.held == 0 and not receiver.in_gap


def test_a_board_that_restarted_unheard_behind_the_numbers_is_asked() -> None:
    """The board's new session lost on the way (its hello, its first frames): its `alive`
    falls behind what the receiver holds, so it asks, and takes the board's answer."""
    receiver = StreamReceiver(BROKER, "s1", 30)
    receiver.take(Alive(12), 0)
    assert receiver.request(0) == Resend(30, "s1", resync="hello")
    assert receiver.take(effect(13), 10) == []  # the new session's: nothing tells so
    assert seqs(receiver.take(hello(14, "s2", resync=True), 20)) == [14]
    assert receiver.request(5000) is None
    assert seqs(receiver.take(effect(15), 5000)) == [15]


def test_a_number_put_in_the_stream_is_undone_by_the_boards_own_word() -> None:
    """A forged resync `hello` far ahead restarts the numbering there; the board's `alive`
    behind it puts the receiver in doubt, and the board's resync `hello` behind it too
    brings the numbering back. Without the doubt, a resync behind is ignored."""
    receiver = StreamReceiver(BROKER, "s1", 5)
    assert receiver.take(hello(4, resync=True), 0) == []  # behind, no doubt: a late copy
    receiver.take(hello(10**9, resync=True), 0)
    receiver.take(Alive(5), 10)
    assert receiver.request(10) == Resend(10**9, "s1", resync="hello")
    assert seqs(receiver.take(hello(6, resync=True), 20)) == [6]
    assert seqs(receiver.take(effect(7), 20)) == [7]


def test_a_hello_of_the_known_session_keeps_its_place_in_the_numbering() -> None:
    """The board answered a reconnection's `hello`: a frame of the session followed,
    no news, but the frames after it must not wait for it."""
    receiver = StreamReceiver(BROKER, "s1", 1)
    assert receiver.take(effect(3), 0) == []
    assert seqs(receiver.take(hello(2), 0)) == [3]
    assert receiver.last_seq == 3 and receiver.held == 0


def test_a_late_answer_older_than_what_was_delivered_is_dropped() -> None:
    receiver = StreamReceiver(BROKER, "s1", 8)
    assert receiver.take(state(5, 1), 0) == []
    assert receiver.last_seq == 8


def test_a_number_beyond_a_boards_history_is_implausible() -> None:
    receiver = StreamReceiver(BROKER, "s1", 8)
    assert receiver.implausible(effect(8 + 4096)) is None
    assert receiver.implausible(effect(8 + 4097)) is not None
    assert receiver.implausible(hello(10**9, "s2")) is None  # a new numbering
    assert receiver.implausible(Alive(10**9)) is None
