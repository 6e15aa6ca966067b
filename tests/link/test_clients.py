"""In-process clients of the board (`link.clients`): each is told what the host is told,
asks the same typed commands and is answered alone; the host's wire is unchanged by
them; a client too slow to take what it is told is sent the board's state instead of
holding the loop back; and a client on another thread is served while the loop runs."""

from __future__ import annotations

import threading

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.events import MoveMade, NewGame
from reedboard.hal.clock import VirtualClock
from reedboard.link import clients as clients_module
from reedboard.link.board_messages import (
    Ack,
    EffectMessage,
    ErrorReply,
    Outgoing,
    Reply,
    StateMessage,
)
from reedboard.link.clients import ASK_LIMIT, Client, Clients, ClientTee
from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.messages import AskState, Command, ShowMove, StartGame
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n3000 lift e7\n3400 place e5\n"


def board(clients: Clients | None) -> tuple[App, WireLink]:
    script = parse_script(SCRIPT)
    fake = scripted_board(script)
    link = WireLink()
    app = App(
        Sensing(fake, source=fake),
        VirtualClock(),
        link=HostLink(link, clients=clients),
        game=GameSetup(start=Game(script.start)),
    )
    return app, link


def turns(app: App, start: int, end: int) -> None:
    for now in range(start, end, 5):
        app.step(now)


def moves_of(told: list[Outgoing]) -> list[str]:
    return [
        m.effect.uci
        for m in told
        if isinstance(m, EffectMessage) and isinstance(m.effect, MoveMade)
    ]


def test_every_client_is_told_the_moves_after_the_board_as_it_stands() -> None:
    clients = Clients()
    first, second = clients.attach("page"), clients.attach("engine")
    app, _link = board(clients)
    turns(app, 0, 5000)
    for client in (first, second):
        told = client.take()
        assert isinstance(told[0], StateMessage)  # attached: the board as it stands
        assert told[0].moves == ()
        assert moves_of(told) == ["e2e4", "e7e5"]


def test_a_command_is_answered_to_its_client_alone_and_its_effects_told_to_all() -> None:
    clients = Clients()
    asker, other = clients.attach("page"), clients.attach("engine")
    app, link = board(clients)
    turns(app, 0, 2000)
    asker.take(), other.take()
    assert asker.ask(StartGame(id=7))
    turns(app, 2000, 2100)
    mine, theirs = asker.take(), other.take()
    assert next(m for m in mine if isinstance(m, Ack)).id == 7
    assert not [m for m in theirs if isinstance(m, Ack)]
    for told in (mine, theirs):
        assert any(isinstance(m, EffectMessage) and isinstance(m.effect, NewGame) for m in told)
    wire = FrameDecoder().feed(bytes(link.written))
    assert "effect" in {m["type"] for m in wire}
    assert not [m for m in wire if m["type"] == "ack"], "the client's answer went to the host"


def test_a_bad_command_is_an_error_to_its_client_and_the_game_goes_on() -> None:
    clients = Clients()
    client = clients.attach("page")
    app, _link = board(clients)
    turns(app, 0, 2000)
    client.take()
    client.ask(ShowMove(uci="e2e5", id=3))
    turns(app, 2000, 5000)
    told = client.take()
    errors = [m for m in told if isinstance(m, ErrorReply)]
    assert errors and errors[0].id == 3
    assert moves_of(told) == ["e7e5"]


def test_the_host_reads_the_same_wire_with_clients_beside_it() -> None:
    alone, alone_link = board(None)
    turns(alone, 0, 5000)
    clients = Clients()
    client = clients.attach("page")
    shared, shared_link = board(clients)
    for now in range(0, 5000, 5):
        if now % 500 == 0:
            client.ask(AskState())
        shared.step(now)

    def numbered(data: bytes) -> list[tuple[int, str]]:
        return [(m["seq"], m["type"]) for m in FrameDecoder().feed(data) if "seq" in m]

    assert numbered(bytes(shared_link.written)) == numbered(bytes(alone_link.written))
    assert len([m for m in client.take() if isinstance(m, StateMessage)]) == 10 + 1


def test_a_client_that_does_not_keep_up_gets_the_state_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clients_module, "TOLD_LIMIT", 2)
    clients = Clients()
    slow, quick = clients.attach("slow"), clients.attach("quick")
    app, _link = board(clients)
    seen: list[Outgoing] = []
    for now in range(0, 5000, 5):
        app.step(now)
        seen += quick.take()
    assert moves_of(seen) == ["e2e4", "e7e5"]
    assert slow.lost > 0
    app.step(5000)
    told = slow.take()
    # What it holds is the board's state then what followed it: the whole game still.
    last = max(i for i, m in enumerate(told) if isinstance(m, StateMessage))
    state = told[last]
    assert isinstance(state, StateMessage)
    assert [*state.moves, *moves_of(told[last:])] == ["e2e4", "e7e5"]


def test_a_client_asks_no_more_than_its_share_a_turn() -> None:
    client = Clients().attach("page")
    assert all(client.ask(AskState()) for _ in range(ASK_LIMIT))
    assert not client.ask(AskState())
    client.close()
    assert not client.ask(AskState())


def test_a_client_on_its_own_thread_is_answered_while_the_loop_runs() -> None:
    clients = Clients()
    woken = threading.Event()
    client = clients.attach("engine", wake=woken.set)
    app, _link = board(clients)
    answers: list[Outgoing] = []

    def engine(me: Client) -> None:
        me.ask(AskState(id=11))
        while not any(isinstance(m, StateMessage) and m.id == 11 for m in answers):
            answers.extend(me.wait(5.0))

    thread = threading.Thread(target=engine, args=(client,))
    thread.start()
    now = 0
    while thread.is_alive() and now < 100_000:
        app.step(now)
        now += 5
    thread.join(5.0)
    assert not thread.is_alive()
    assert woken.is_set()
    client.close()
    app.step(now)
    assert len(clients) == 0


def test_a_client_that_fails_to_wake_does_not_stop_the_board() -> None:
    clients = Clients()

    def gone() -> None:
        raise RuntimeError("Event loop is closed")

    broken, other = clients.attach("page", wake=gone), clients.attach("engine")
    app, _link = board(clients)
    turns(app, 0, 5000)  # raised out of the loop before clients.tell caught it
    assert moves_of(other.take()) == ["e2e4", "e7e5"]
    assert moves_of(broken.take()) == ["e2e4", "e7e5"]


class AskingWithoutBytes:
    """A link with commands of its own that come with no bytes on the line (as a broker's
    requests do): each is handed out once, whatever `receive_data` is given."""

    session = "s1"

    def __init__(self, commands: list[Command]) -> None:
        self.commands = commands
        self.replies: list[Reply] = []

    def send(self, message: Outgoing) -> int:
        return 0

    def reply(self, command: Command, message: Reply) -> int:
        self.replies.append(message)
        return 0

    def alive(self) -> None:
        pass

    def data_to_send(self) -> bytes:
        return b""

    def receive_data(self, data: bytes) -> list[Command]:
        commands, self.commands = self.commands, []
        return commands


def test_the_links_own_commands_still_come_with_clients_beside_it() -> None:
    # The page is on by default: with it, a broker's requests (which come with no bytes
    # on the serial line) were never asked for, and a relay's resend went unanswered.
    link = AskingWithoutBytes([AskState(id=7)])
    tee = ClientTee(link, Clients())
    assert tee.receive_data(b"") == [AskState(id=7)]
    assert tee.receive_data(b"") == []


def host_frame(command: dict[str, object]) -> bytes:
    return b"\n" + encode_frame(command)


def test_a_host_s_command_wakes_and_stirs_every_client_though_it_tells_them_nothing() -> None:
    clients = Clients()
    woken: list[int] = []
    page = clients.attach("page", wake=lambda: woken.append(1))
    app, link = board(clients)
    turns(app, 0, 500)
    page.news()
    woken.clear()
    app.step(500, host_frame({"type": "state", "id": 1}))  # a question changes nothing
    assert (woken, page.news()) == ([], ([], False))
    app.step(505, host_frame({"type": "show", "uci": "e2e4", "id": 2}))
    assert woken and page.news() == ([], True)  # a move lit: no effect, but stirred
    app.step(510, host_frame({"type": "show", "uci": "e2e5", "id": 3}))  # refused
    assert page.news() == ([], False)
    replies = {m.get("id"): m["type"] for m in FrameDecoder().feed(bytes(link.written))}
    assert [replies[n] for n in (1, 2, 3)] == ["state", "ack", "error"]  # the host's, as ever
    page.ask(AskState())
    app.step(515)
    told, stirred = page.news()
    assert not stirred and isinstance(told[0], StateMessage) and told[0].hint == ("e2", "e4")


def test_another_client_s_command_stirs_a_client_and_a_state_told_after_it_settles_it() -> None:
    clients = Clients()
    page, engine = clients.attach("page"), clients.attach("engine")
    app, _link = board(clients)
    turns(app, 0, 500)
    page.news(), engine.news()
    engine.ask(AskState(id=1))
    app.step(500)
    assert page.news() == ([], False)  # another's question changes nothing
    page.ask(AskState())  # answered before the engine's move is lit, in the same turn
    engine.ask(ShowMove("e2e4", id=2))
    app.step(505)
    told, stirred = page.news()
    assert stirred and isinstance(told[0], StateMessage) and told[0].hint is None
    engine.ask(ShowMove(None, id=3))
    app.step(510)
    page.ask(AskState())  # a state made after it: the board as it is then
    app.step(515)
    told, stirred = page.news()
    assert not stirred and isinstance(told[0], StateMessage) and told[0].hint is None
