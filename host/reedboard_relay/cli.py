"""`reedboard-relay --mqtt URL [--http HOST:PORT] [--db FILE] [--pairings FILE]
[--round N] [--boards ID,ID,...] [--delay MINUTES]`, and `reedboard-relay secure-setup DIR ...`
(reedboard_relay/secure_setup.py): a closed broker's files.

Subscribes to every board on the broker, keeps every board's game in SQLite, and serves
the spectator page and the PGN over HTTP. The first line on stdout is the page's URL, the
second the arbiter's console's (`arbiter: URL`, with its token).
SIGINT or SIGTERM ends it cleanly, exit status 0."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Callable
from typing import NamedTuple

from aiohttp import web
from aiohttp.log import access_logger
from reedboard import __version__
from reedboard.argument_types import whole_number_in
from reedboard.command_line import OneLineParser, example
from reedboard.errors import ReedboardError
from reedboard.lichess.settings import read_token, server_url
from reedboard.link import mqtt_topics
from reedboard.link.board_messages import BoardMessage
from reedboard.link.mqtt_client import BrokerSettings, check_settings
from reedboard.link.mqtt_retry import RETRY_MS, RETRY_MS_RANGE
from reedboard.log_setup import log_to_stderr
from reedboard.stopping import stop_event

from reedboard_relay.arbiter_console import ArbiterDesk, console_app
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import MAX_BOARDS, Boards
from reedboard_relay.broadcast_delay import minutes, with_delay
from reedboard_relay.collector import Collector
from reedboard_relay.evidence_desk import with_evidence
from reedboard_relay.game_on_board import BoardGames
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.http_limits import Gate, HttpLimits
from reedboard_relay.lichess_push import (
    LichessPush,
    PushSettings,
    Refusals,
    RoundsOfBoards,
    rounds_for,
)
from reedboard_relay.pairings import Pairings, PairingsError
from reedboard_relay.push_games import PushedGame
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore
from reedboard_relay.time_desk import heard_time, with_added_time
from reedboard_relay.web import RelayWeb, make_app

KEEPALIVE_S = 15.0  # an idle connection is closed after this: connections are bounded


def _say(line: str) -> None:
    print(line, flush=True)


class Serving(NamedTuple):
    """Where the relay says its two URLs and what asks it to end: the command prints them
    and ends on SIGINT or SIGTERM; a test may run the relay on a thread of its own, told
    the URLs and ending it itself (signal handlers belong to the main thread)."""

    say: Callable[[str], None] = _say
    stopping: Callable[[], asyncio.Event] = stop_event


COMMAND = Serving()  # the `reedboard-relay` command's


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="reedboard-relay",
        description="Every board on an MQTT broker, kept durably and broadcast over HTTP.",
        epilog=example(
            "reedboard-relay --mqtt mqtt://127.0.0.1 --http 0.0.0.0:8080 --pairings round.csv"
        )
        + "\n\nreedboard-relay secure-setup DIR --boards ID,ID,... writes a closed broker's "
        "files (TLS, users, access list) and each board's [mqtt] section: see "
        "reedboard-relay secure-setup --help.",
    )
    p.add_argument("--version", action="version", version=f"reedboard-relay {__version__}")
    p.add_argument("--mqtt", required=True, metavar="URL", help="mqtt://HOST[:PORT] or mqtts://")
    p.add_argument("--http", default="127.0.0.1:0", metavar="HOST:PORT",
                   help="where to serve the page (default 127.0.0.1 and a free port)")  # fmt: skip
    p.add_argument("--db", default="relay.sqlite", metavar="FILE", help="the SQLite store")
    p.add_argument("--pairings", metavar="FILE",
                   help="who plays on which board: a CSV (board,round,board_number,white,"
                        "black) or FIDE's Tournament Report File (TRF), told by its content")  # fmt: skip
    p.add_argument("--round", type=_round_number, metavar="N",
                   help="a TRF's round to show (default: its last round with pairings)")  # fmt: skip
    p.add_argument("--boards", type=_board_ids, default=(), metavar="ID,ID,...",
                   help="a TRF's board numbers 1, 2... are played on these boards "
                        "(default: the board whose id is the board number)")  # fmt: skip
    p.add_argument("--username", default="", help="the broker's user")
    p.add_argument("--password-file", default="", metavar="FILE", help="the broker's password")
    p.add_argument("--ca-file", default="", metavar="FILE", help="CA for mqtts://")
    p.add_argument("--mqtt-retry-ms", type=whole_number_in(*RETRY_MS_RANGE), default=RETRY_MS, metavar="MS",
                   help="the longest wait between attempts to reach the broker "
                   f"(default {RETRY_MS}; the first waits are a quarter and a half of it)")  # fmt: skip
    p.add_argument("--lichess-round", action="append", default=[], metavar="ROUND_ID",
                   help="push the games to this Lichess broadcast round; given again, the "
                        "boards beyond the 100 a round takes go to the next")  # fmt: skip
    p.add_argument("--token-file", metavar="FILE", help="the Lichess API token (scope study:write)")
    p.add_argument("--lichess-url", default="https://lichess.org", metavar="URL",
                   help="the Lichess server (default https://lichess.org)")  # fmt: skip
    p.add_argument("--client-id", metavar="ID",
                   help="the relay's MQTT client id (default: reedboard-relay- and eight "
                        "hex digits, made once and kept in the --db store)")  # fmt: skip
    p.add_argument("--arbiter-http", default="127.0.0.1:0", metavar="HOST:PORT",
                   help="where to serve the arbiter's console (default 127.0.0.1 and a free "
                        "port: only this machine); its URL, with its token, is printed")  # fmt: skip
    p.add_argument("--arbiter-host", action="append", default=[], metavar="NAME",
                   help="a name the console answers to besides IP addresses and localhost "
                        "(a request naming any other host is refused)")  # fmt: skip
    p.add_argument("--delay", type=_delay, metavar="MINUTES",
                   help="show every game on the public outputs (page, PGN, events, Lichess) "
                        "as it stood this long ago, decimals allowed; kept for the round, "
                        "changed on the console (default: the kept one, else none)")  # fmt: skip
    p.add_argument("--venue", action="append", type=_venue, default=[], metavar="NAME",
                   help="read only this venue's boards, bridged as reedboard/NAME/boards/ID/ "
                        "(given again, more venues; default: every board, named VENUE:ID "
                        "when bridged from a venue)")  # fmt: skip
    p.add_argument("--tournament", action="store_true",
                   help="tournament mode for the round: every board told, and kept")  # fmt: skip
    p.add_argument("--max-boards", type=_how_many, default=MAX_BOARDS, metavar="N",
                   help=f"boards this relay keeps; frames of more are refused (default {MAX_BOARDS})")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["secure-setup"]:
        try:
            from reedboard_relay.secure_setup import main as secure_setup
        except ModuleNotFoundError as error:
            if error.name != "cryptography" and not str(error.name).startswith("cryptography."):
                raise
            print(
                "reedboard-relay secure-setup: needs the cryptography package: pip install "
                "'.[relay]' in reedboard's checkout (or pip install cryptography)",
                file=sys.stderr,
            )
            return 2

        return secure_setup(argv[1:])
    args = parser().parse_args(argv)
    log_to_stderr("reedboard-relay")
    return run(args)


def run(args: argparse.Namespace, serving: Serving = COMMAND) -> int:
    """The relay for the command line read into `args`, until it is asked to end; its
    exit status (a bad setting is said on stderr, status 2)."""
    try:
        host, port = _address(args.http)
        _address(args.arbiter_http, "--arbiter-http")
        settings = BrokerSettings(
            args.mqtt, "relay", args.username, args.password_file, args.ca_file,
            args.mqtt_retry_ms,
        )  # fmt: skip
        check_settings(settings)
        if args.lichess_round and not args.token_file:
            raise ValueError("--lichess-round needs --token-file")
        # The host's reading: the file's first line, checked to be a token that can go in
        # a header, and never repeated back in a message.
        token = read_token(args.token_file, {}) if args.lichess_round else ""
        server_url(args.lichess_url, "--lichess-url")  # a bad one is said before the start
        store = RelayStore(args.db)
    except (ReedboardError, ValueError, OSError) as error:
        print(f"reedboard-relay: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # sqlite3.DatabaseError: a file that is not a database
        print(f"reedboard-relay: cannot open {args.db}: {error}", file=sys.stderr)
        return 2
    try:
        pairings = Pairings(args.pairings, round_=args.round, boards=args.boards)
        pairings.load()
        return asyncio.run(_serve(settings, store, pairings, (host, port), args, token, serving))
    except PairingsError as error:
        print(f"reedboard-relay: {error}", file=sys.stderr)
        return 2
    finally:
        store.close()


async def _serve(
    settings: BrokerSettings,
    store: RelayStore,
    pairings: Pairings,
    address: tuple[str, int],
    args: argparse.Namespace,
    token: str,
    serving: Serving,
) -> int:
    # The handlers first: a supervisor may stop the relay the moment it says where it
    # serves, and a SIGTERM before them would kill it (-15) instead of ending it.
    stopping = serving.stopping()
    host, port = address
    relay: RelayWeb | None = None
    desk: ArbiterDesk | None = None
    pushes: dict[str, LichessPush] = {}
    rounds = RoundsOfBoards(args.lichess_round)
    refusals = Refusals()  # each board's game not on Lichess, for the console

    def changed(board: str) -> None:
        if relay is not None:
            relay.changed(board)
        if desk is not None:
            desk.settle(board)

    def public_changed(board: str) -> None:
        """The board's game as the public sees it changed (the delay passed, if any)."""
        if relay is not None and pushes:
            for round_id in rounds.touched(board, relay.board_ids()):
                push = pushes.get(round_id)
                if push is not None:
                    push.changed()

    def heard(board: str, message: BoardMessage) -> None:
        if desk is not None:
            desk.heard(board, message)
            heard_time(desk, board, message)

    service = RelayService(
        settings,
        Boards(store),
        client_id=args.client_id or store.client_id(),
        changed=changed,
        heard=heard,
        venues=tuple(args.venue),
    )
    service.boards.max_boards = args.max_boards
    # The boards as rebuilt from the store: an older relay's decisions go to their games.
    rebuilt = {b.id: BoardGames.of(b.mirror) for b in service.boards.boards.values()}
    decisions = ArbiterStore(store.db, rebuilt)
    games = GamePairings(pairings, store.db)
    desk = ArbiterDesk(service, decisions, games, changed, refusals.of)
    web_side = relay = RelayWeb(
        service, games, decisions.of, desk.tournament_confirmed, public_changed=public_changed
    )
    relay.resume_delay(args.delay)

    def round_games(round_id: str) -> Callable[[], list[PushedGame]]:
        def games() -> list[PushedGame]:
            ids = rounds_for(web_side.board_ids(), args.lichess_round).get(round_id, [])
            return [PushedGame(board, text) for board in ids if (text := web_side.pgn(board))]

        return games

    for round_id in args.lichess_round:
        push_settings = PushSettings(round_id, token, args.lichess_url)
        pushes[round_id] = LichessPush(push_settings, round_games(round_id), refusals)
    relay.loop = asyncio.get_running_loop()
    runner, url = await _listen(make_app(relay), f"{host}:{port}")
    key = secrets.token_urlsafe(18)  # the console's, new at every start (not Lichess's)
    console_side = with_evidence(
        with_delay(with_added_time(console_app(desk, key, tuple(args.arbiter_host))), relay)
    )
    console, console_url = await _listen(console_side, args.arbiter_http, logged=False)
    serving.say(f"{url}/")
    serving.say(f"arbiter: {console_url}/arbiter?token={key}")
    service.keep_snapshots()  # boards replayed from their messages: not again next time
    service.start()
    # Read again as it changes, whether a page asks or not: a file broken between two
    # rounds is said when it happens, not when a spectator comes.
    watching = asyncio.create_task(_watch(pairings))
    following = asyncio.create_task(relay.follow())
    collecting = asyncio.create_task(Collector().run())  # no full pass over every game
    if args.tournament:
        desk.set_tournament(True)
    for push in pushes.values():
        push.start()
    try:
        await stopping.wait()
    finally:
        watching.cancel()
        following.cancel()
        collecting.cancel()
        for push in pushes.values():
            await push.close()
        service.stop()
        await console.cleanup()
        await runner.cleanup()
    return 0


async def _watch(pairings: Pairings) -> None:
    while True:
        pairings.reload()
        await asyncio.sleep(pairings.check_every_s)


def _address(text: str, option: str = "--http") -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{option} {text!r}: write HOST:PORT, such as 127.0.0.1:8080")
    return host, int(port)


def _round_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a round is a number from 1")
    return int(text)


def _venue(text: str) -> str:
    if not mqtt_topics.BOARD_ID.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a venue's name is 1 to 64 letters, digits, '.', '_' or '-'"
        )
    return text


def _delay(text: str) -> float:
    try:
        return minutes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _how_many(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: write a number from 1")
    return int(text)


def _board_ids(text: str) -> tuple[str, ...]:
    ids = tuple(part.strip() for part in text.split(","))
    if not all(ids):
        raise argparse.ArgumentTypeError(f"{text!r}: write board ids separated by commas")
    if len(set(ids)) != len(ids):
        raise argparse.ArgumentTypeError(f"{text!r}: a board id is named twice")
    return ids


async def _listen(
    app: web.Application, address: str, *, logged: bool = True
) -> tuple[web.AppRunner, str]:
    """The app served at `address`; its runner and `http://HOST:PORT` as bound. The
    console's requests are not logged: their URLs carry the token."""
    host, port = _address(address)
    access_log = access_logger if logged else None  # aiohttp's own logger, or none
    gate = Gate(HttpLimits())
    app.middlewares.append(gate.middleware)
    # A client that goes ends its handler at once (a spectator's event stream would
    # otherwise be held until the next change is written to nobody).
    runner = web.AppRunner(
        app,
        shutdown_timeout=0.5,
        access_log=access_log,
        keepalive_timeout=KEEPALIVE_S,
        handler_cancellation=True,
    )
    gate.connections = lambda: len(runner.server.connections) if runner.server else 0
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    addresses = runner.addresses
    bound = addresses[0][1] if addresses else port
    return runner, f"http://{host}:{bound}"
