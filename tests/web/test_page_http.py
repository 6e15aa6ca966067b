"""The board's page over real HTTP and a real WebSocket, against `reedboard run --fake
--web 127.0.0.1:0`: the page itself, and every way control is refused (no pairing,
another origin, another host name, a malformed or oversized request) with the game
unchanged, as the board's serial host reads it; pairing, and two paired devices."""

from __future__ import annotations

import asyncio
import json
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from reedboard.web.pairing import TOKENS_FILE
from reedboard.web.server import COOKIE, MAX_SOCKETS, NOT_PAIRED

from tests.web.board_process import RunningBoard, page_json, quiet_scan, running_board

TIMEOUT = aiohttp.ClientTimeout(total=60)


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBoard]:
    with running_board(tmp_path_factory.mktemp("board")) as running:
        yield running


@pytest.fixture(scope="module")
def token(board: RunningBoard) -> str:
    """A paired device's token, paired as a player does: the code read at the board."""
    return asyncio.run(pair(board))


async def pair(board: RunningBoard) -> str:
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        headers = {"Origin": board.origin}
        async with session.post(board.url + "pair/start", json={}, headers=headers) as started:
            assert started.status == 200, await started.text()
        code = await asyncio.to_thread(board.host.pairing_code)
        async with session.post(board.url + "pair", json={"code": code}, headers=headers) as done:
            assert done.status == 200, await done.text()
            cookie = done.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        found = re.search(rf"{COOKIE}=([^;]+)", cookie)
        assert found is not None
        return found.group(1)


async def request(board: RunningBoard, method: str, path: str, **options: Any) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession(timeout=TIMEOUT) as session,
        session.request(method, board.url + path, **options) as response,
    ):
        return response.status, await response.text()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def mode(board: RunningBoard) -> str:
    return str(board.host.state()["mode"])


# ----- the page -----


def test_the_page_is_served_and_needs_nothing_from_outside(board: RunningBoard) -> None:
    status, html = run(request(board, "GET", ""))
    assert status == 200 and "<html" in html
    linked = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert linked and all(link.startswith("/") and not link.startswith("//") for link in linked)
    for link in linked:
        assert run(request(board, "GET", link.lstrip("/")))[0] == 200, link


def test_anyone_may_watch_the_board(board: RunningBoard) -> None:
    async def watch() -> list[dict[str, Any]]:
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT) as session,
            session.ws_connect(board.url + "ws", headers={"Origin": board.origin}) as ws,
        ):
            return [page_json((await ws.receive(timeout=30)).data) for _ in range(2)]

    hello, state = run(watch())
    # The board always has its opponents' part: a person at the board until one is chosen.
    assert hello == {"type": "hello", "paired": False, "opponents": True, "voice": None}
    assert state["type"] == "state" and state["pieces"]["e1"] == "K"
    assert state["opponent"] == "a person at the board"


# ----- refusals -----


def test_control_without_pairing_is_refused_and_changes_nothing(board: RunningBoard) -> None:
    before = board.host.state()
    status, _ = run(
        request(board, "POST", "command", json={"command": {"type": "mode", "mode": "strict"}})
    )
    assert status == 401

    async def over_the_socket() -> aiohttp.WSMessage:
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT) as session,
            session.ws_connect(board.url + "ws", headers={"Origin": board.origin}) as ws,
        ):
            await ws.send_str(json.dumps({"op": "command", "command": {"type": "new_game"}}))
            while True:
                message = await ws.receive(timeout=30)
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    return message

    closed = run(over_the_socket())
    assert closed.data == NOT_PAIRED
    after = board.host.state()
    assert (after["game"], after["mode"], after["moves"]) == (
        before["game"],
        before["mode"],
        before["moves"],
    )


def test_another_origin_is_refused_even_paired(board: RunningBoard, token: str) -> None:
    evil = {"Origin": "http://evil.example"}
    cookies = {COOKIE: token}

    async def socket_status() -> int:
        async with aiohttp.ClientSession(timeout=TIMEOUT, cookies=cookies) as session:
            try:
                async with session.ws_connect(board.url + "ws", headers=evil):
                    return 101
            except aiohttp.WSServerHandshakeError as error:
                return error.status

    assert run(socket_status()) == 403
    command = {"command": {"type": "mode", "mode": "strict"}}
    options = {"json": command, "headers": evil, "cookies": cookies}
    assert run(request(board, "POST", "command", **options))[0] == 403
    assert run(request(board, "POST", "pair/start", json={}, headers=evil))[0] == 403
    assert mode(board) == "casual"


def test_another_host_name_is_refused(board: RunningBoard, token: str) -> None:
    """DNS rebinding: a page of evil.example re-pointed at the board names evil.example."""
    port = board.url.rsplit(":", 1)[1].rstrip("/")
    headers = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    command = {"command": {"type": "mode", "mode": "strict"}}
    options = {"json": command, "headers": headers, "cookies": {COOKIE: token}}
    assert run(request(board, "POST", "command", **options))[0] == 403
    assert mode(board) == "casual"


def test_a_malformed_command_is_a_clear_error_and_changes_nothing(
    board: RunningBoard, token: str
) -> None:
    before = board.host.state()
    options: dict[str, Any] = {"headers": {"Origin": board.origin}, "cookies": {COOKIE: token}}
    bad = {"command": {"type": "new_game", "variant": "chess961"}}
    status, text = run(request(board, "POST", "command", json=bad, **options))
    assert status == 400 and "variant" in json.loads(text)["message"]
    status, text = run(
        request(board, "POST", "command", json={"command": {"type": "hello"}}, **options)
    )
    assert status == 400 and "cannot send 'hello'" in json.loads(text)["message"]
    status, _ = run(request(board, "POST", "command", data=b"{not json", **options))
    assert status == 400
    status, _ = run(request(board, "POST", "command", data=b"x" * 100_000, **options))
    assert status == 413
    after = board.host.state()
    assert (after["game"], after["mode"], after["moves"]) == (
        before["game"],
        before["mode"],
        before["moves"],
    )


def test_an_oversized_message_closes_the_socket(board: RunningBoard, token: str) -> None:
    async def too_long() -> aiohttp.WSMessage:
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT, cookies={COOKIE: token}) as session,
            session.ws_connect(board.url + "ws", headers={"Origin": board.origin}) as ws,
        ):
            await ws.send_str(json.dumps({"op": "command", "pad": "x" * 10_000}))
            while True:
                message = await ws.receive(timeout=30)
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    return message

    assert run(too_long()).data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


def test_open_sockets_are_bounded(board: RunningBoard) -> None:
    async def open_many() -> int:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
            sockets = [
                await session.ws_connect(board.url + "ws", headers={"Origin": board.origin})
                for _ in range(MAX_SOCKETS)
            ]
            try:
                async with session.ws_connect(board.url + "ws", headers={"Origin": board.origin}):
                    return 101
            except aiohttp.WSServerHandshakeError as error:
                return error.status
            finally:
                for ws in sockets:
                    await ws.close()

    assert run(open_many()) == 503


# ----- paired devices -----


def test_a_paired_device_controls_and_the_other_is_told(board: RunningBoard, token: str) -> None:
    async def two_devices() -> tuple[dict[str, Any], dict[str, Any]]:
        async with aiohttp.ClientSession(timeout=TIMEOUT, cookies={COOKIE: token}) as session:
            origin = {"Origin": board.origin}
            async with (
                session.ws_connect(board.url + "ws", headers=origin) as acting,
                session.ws_connect(board.url + "ws", headers=origin) as other,
            ):
                hello = page_json((await acting.receive(timeout=30)).data)
                assert hello["paired"] is True
                command = {"type": "mode", "mode": "strict"}
                await acting.send_str(json.dumps({"op": "command", "command": command}))
                reply = await _next(acting, "reply")
                told = await _next(other, "told")
                return reply, told

    reply, told = run(two_devices())
    assert reply["kind"] == "ack"
    assert told["text"].startswith("Another device: mode")
    assert mode(board) == "strict"
    run(request(board, "POST", "command", json={"command": {"type": "mode", "mode": "casual"}},
                headers={"Origin": board.origin}, cookies={COOKIE: token}))  # fmt: skip


async def _next(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        message = page_json((await ws.receive(timeout=30)).data)
        if message["type"] == kind:
            return message


def test_paired_devices_are_kept_readable_by_the_board_only(
    board: RunningBoard, token: str
) -> None:
    kept = board.folder / TOKENS_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert token not in kept.read_text()  # only its digest


def test_past_games_come_from_the_journal(board: RunningBoard, token: str) -> None:
    status, text = run(request(board, "GET", "games"))
    listed = json.loads(text)
    assert status == 200 and listed and listed[0]["number"] >= 1
    status, pgn = run(request(board, "GET", f"games/{listed[0]['number']}.pgn"))
    assert status == 200 and '[Result "' in pgn
    assert run(request(board, "GET", "games/999999.pgn"))[0] == 404


def test_the_token_file_survives_a_restart(tmp_path: Path) -> None:
    with running_board(tmp_path) as first:
        token = asyncio.run(pair(first))
    with running_board(tmp_path) as second:
        options = {"headers": {"Origin": second.origin}, "cookies": {COOKIE: token}}
        command = {"command": {"type": "mode", "mode": "strict"}}
        assert run(request(second, "POST", "command", json=command, **options))[0] == 200
        assert mode(second) == "strict"


def test_a_paired_device_sets_the_voice_and_its_language(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[voice]\nenabled = true\nlanguage = "fr"\n')
    with running_board(tmp_path, None, "--config", str(quiet_scan(config))) as board:
        french = board.host.ask({"type": "say", "what": "e1"})["text"]
        token = asyncio.run(pair(board))
        hellos: list[dict[str, Any]] = []

        async def set_voice(**fields: Any) -> dict[str, Any]:
            async with aiohttp.ClientSession(timeout=TIMEOUT, cookies={COOKIE: token}) as session:
                origin = {"Origin": board.origin}
                async with session.ws_connect(board.url + "ws", headers=origin) as ws:
                    hellos.append(await _next(ws, "hello"))
                    await ws.send_str(json.dumps({"op": "voice", **fields}))
                    while True:
                        answer = page_json((await ws.receive(timeout=30)).data)
                        if answer["type"] in ("reply", "error"):
                            return answer

        answer = run(set_voice(language="en", enabled=False))
        assert hellos[0]["voice"] == {"enabled": True, "language": "fr", "languages": ["en", "fr"]}
        assert answer["voice"] == {"enabled": False, "language": "en", "languages": ["en", "fr"]}
        english = board.host.ask({"type": "say", "what": "e1"})["text"]
        assert english != french and "king" in english.lower()
        refused = run(set_voice(language="xx"))
        assert refused["type"] == "error" and "no voice in 'xx'" in refused["message"]
