"""Only the simulator's own page drives it: requests over real HTTP with foreign `Host`
and `Origin` headers, as a hostile page or a DNS-rebinding attack would send them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("aiohttp")

import aiohttp
from aiohttp.test_utils import TestServer
from reedboard.simweb.board import SimBoard
from reedboard.simweb.guard import is_own, split_host
from reedboard.simweb.server import make_app

from tests.simweb.simproc import quiet_config


@pytest.fixture(scope="module")
def board() -> Iterator[SimBoard]:
    sim = SimBoard(quiet_config())
    sim.start()
    try:
        yield sim
    finally:
        sim.stop()


def serve(board: SimBoard, talk: Any, host_names: tuple[str, ...] = ()) -> Any:
    """Run `talk(session, port)` against the app served on 127.0.0.1 over real HTTP."""

    async def main() -> Any:
        server = TestServer(make_app(board, host_names), host="127.0.0.1")
        async with server, aiohttp.ClientSession() as session:
            return await talk(session, server.port)

    return asyncio.run(main())


async def ws_status(session: aiohttp.ClientSession, port: int, headers: dict[str, str]) -> int:
    """The status of a WebSocket handshake: 101 if it was upgraded."""
    try:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers)
    except aiohttp.WSServerHandshakeError as error:
        return error.status
    state = await asyncio.wait_for(ws.receive_json(), 5)
    assert state["type"] == "state"  # a real board behind it
    await ws.close()
    return 101


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "https://evil.example:{port}",
        "http://127.0.0.1:{other}",  # another local service's page
        "http://localhost.evil.example:{port}",
        "null",  # a sandboxed frame or a file: page
        None,  # no origin at all
    ],
)
def test_a_websocket_from_another_origin_is_refused(board: SimBoard, origin: str | None) -> None:
    async def talk(session: aiohttp.ClientSession, port: int) -> int:
        headers = {}
        if origin is not None:
            headers["Origin"] = origin.format(port=port, other=port + 1)
        return await ws_status(session, port, headers)

    assert serve(board, talk) == 403


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]"])
def test_the_simulator_s_own_page_connects(board: SimBoard, name: str) -> None:
    async def talk(session: aiohttp.ClientSession, port: int) -> int:
        own = f"{name}:{port}"
        return await ws_status(session, port, {"Host": own, "Origin": f"http://{own}"})

    assert serve(board, talk) == 101


@pytest.mark.parametrize("path", ["/game.pgn", "/", "/static/app.js", "/ws"])
@pytest.mark.parametrize("host", ["rebound.evil.example:{port}", "127.0.0.1:{other}", "", "["])
def test_a_request_for_another_host_is_refused(board: SimBoard, path: str, host: str) -> None:
    async def talk(session: aiohttp.ClientSession, port: int) -> tuple[int, str]:
        headers = {"Host": host.format(port=port, other=port + 1)}
        if path == "/ws":
            headers["Origin"] = f"http://{headers['Host']}"
        async with session.get(f"http://127.0.0.1:{port}{path}", headers=headers) as answer:
            return answer.status, await answer.text()

    status, body = serve(board, talk)
    assert status == 403
    assert "[Event" not in body


def test_the_pgn_is_served_to_the_simulator_s_own_names(board: SimBoard) -> None:
    async def talk(session: aiohttp.ClientSession, port: int) -> list[int]:
        statuses = []
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"board.local:{port}"):
            url = f"http://127.0.0.1:{port}/game.pgn"
            async with session.get(url, headers={"Host": host}) as answer:
                assert '[Event "reedboard sim"]' in await answer.text()
                statuses.append(answer.status)
        return statuses

    # A name given on the command line (`--host board.local`) is the simulator's too.
    assert serve(board, talk, ("board.local",)) == [200, 200, 200]


def test_host_headers_are_read_strictly() -> None:
    names = ("127.0.0.1", "localhost", "::1")
    assert split_host("LocalHost:8080") == ("localhost", 8080)
    assert split_host("[::1]:80") == ("[::1]", 80)
    assert split_host("localhost") == ("localhost", 80)
    assert is_own("[::1]:8080", names, 8080)
    assert not is_own("::1:8080", names, 8080)
    assert not is_own("localhost:8080:1", names, 8080)
    assert not is_own("localhost:+8080", names, 8080)
    assert not is_own("localhost:", names, 8080)
    assert not is_own("localhost", names, 8080)
    assert not is_own(None, names, 8080)
