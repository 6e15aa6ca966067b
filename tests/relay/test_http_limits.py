"""The relay's web sides hold a bounded number of requests, event streams and connections:
the excess is answered 503 at once, with one log line per kind, and what was held is
given back when a client goes."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from aiohttp import web
from reedboard_relay.http_limits import Gate, HttpLimits


async def serve(gate: Gate, opened: asyncio.Event) -> tuple[web.AppRunner, str]:
    async def events(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"data: []\n\n")
        opened.set()
        await asyncio.Event().wait()  # a spectator who stays
        return response

    async def page(_request: web.Request) -> web.Response:
        return web.Response(text="page")

    app = web.Application(middlewares=[gate.middleware])
    app.router.add_get("/events", events)
    app.router.add_get("/", page)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)  # as the relay
    gate.connections = lambda: len(runner.server.connections) if runner.server else 0
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


async def streams_then_one_too_many(caplog: pytest.LogCaptureFixture) -> None:
    gate = Gate(HttpLimits(requests=10, streams=2, connections=50))
    opened = asyncio.Event()
    runner, url = await serve(gate, opened)
    try:
        async with aiohttp.ClientSession() as first, aiohttp.ClientSession() as second:
            held = []
            for session in (first, second):
                opened.clear()
                held.append(await session.get(url + "/events"))
                await opened.wait()
            assert gate.streams == 2
            async with aiohttp.ClientSession() as third:
                for _ in range(5):
                    async with third.get(url + "/events") as refused:
                        assert refused.status == 503
                async with third.get(url + "/") as page:
                    assert page.status == 200  # the page itself is still served
            held[0].close()
            deadline = asyncio.get_running_loop().time() + 20
            while gate.streams > 1 and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)  # the server notices the spectator went
            assert gate.streams == 1
            async with aiohttp.ClientSession() as fourth:
                opened.clear()
                again = await fourth.get(url + "/events")
                assert again.status == 200
                again.close()
            held[1].close()
    finally:
        await runner.cleanup()
    lines = [r.getMessage() for r in caplog.records if "refused a request" in r.getMessage()]
    assert lines == ["refused a request: 2 event streams open"]


def test_event_streams_beyond_the_limit_are_refused_and_given_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        asyncio.run(streams_then_one_too_many(caplog))


async def connections_beyond_the_limit(caplog: pytest.LogCaptureFixture) -> None:
    gate = Gate(HttpLimits(requests=10, streams=10, connections=3))
    runner, url = await serve(gate, asyncio.Event())
    try:
        idle = [
            await asyncio.open_connection("127.0.0.1", int(url.rsplit(":", 1)[1])) for _ in range(4)
        ]
        deadline = asyncio.get_running_loop().time() + 20
        while gate.connections() < 4 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)  # the server takes the connections in
        async with aiohttp.ClientSession() as session, session.get(url + "/") as page:
            assert page.status == 503
        for _reader, writer in idle:
            writer.close()
    finally:
        await runner.cleanup()
    assert any("connections open" in r.getMessage() for r in caplog.records)


def test_a_request_past_the_open_connections_limit_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        asyncio.run(connections_beyond_the_limit(caplog))
