"""`reedboard sim`: the whole board on fake hardware, played from a web page.

    reedboard sim [--port N] [--host ADDR] [--no-browser] [--config FILE]

The real firmware loop runs on a fake switch matrix and a fake LED strip; the page shows
the pieces, the LEDs as the strip shows them, the moves and the effects, and lifts and
places pieces with the mouse. The first line of stdout is the page's URL (a free port
when N is left out); the second names the pty that is the board's serial side, for
`reedboard-host`. SIGINT or SIGTERM ends it, exit status 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reedboard.argument_types import whole_number_in
from reedboard.command_line import example
from reedboard.errors import ReedboardError
from reedboard.stopping import stop_event

SHUTDOWN_S = 2.0  # the most a stop waits for requests still being answered


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sim",
        help="the whole board in a web browser, with a pty for the host",
        description="The whole board on fake hardware, played from a web page; prints the "
        "page's URL, then the pty that is the board's serial side.",
        epilog=example("reedboard sim --no-browser"),
    )
    parser.add_argument(
        "--port", type=whole_number_in(0, 65535), default=0, metavar="N", help="web port (0: free)"
    )
    parser.add_argument("--host", default="127.0.0.1", metavar="ADDR", help="address to serve on")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--config", metavar="FILE", help="board TOML file (default: built-in)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        print("reedboard sim: --port must be 0..65535", file=sys.stderr)
        return 2
    try:
        # The web library is the simulator's own; a board that never runs it needs none.
        import aiohttp  # noqa: F401
    except ImportError as error:
        print(f"reedboard sim: {error}; install the `sim` extra", file=sys.stderr)
        return 1
    # Imported here, not at the top: asyncio, the web server and the board's parts cost a
    # Pi's start-up (and `reedboard --help`'s) seconds, and only the simulator needs them.
    import asyncio

    from reedboard.config import load_config
    from reedboard.simweb.board import SimBoard

    try:
        board = SimBoard(load_config(args.config))
    except ReedboardError as error:
        print(f"reedboard sim: {error}", file=sys.stderr)
        return 1
    board.start()
    try:
        return asyncio.run(_serve(board, args))
    except OSError as error:
        print(f"reedboard sim: cannot serve on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    finally:
        board.stop()


async def _serve(board: Any, args: argparse.Namespace) -> int:
    import threading
    import webbrowser

    from aiohttp import web

    from reedboard.simweb.server import make_app

    # The name served on is the page's own too (a `--host` given as a name, not an address).
    # Open pages are told to go on shutdown; whatever still runs after that is cut short.
    runner = web.AppRunner(
        make_app(board, (args.host,)), access_log=None, shutdown_timeout=SHUTDOWN_S
    )
    await runner.setup()
    try:
        await web.TCPSite(runner, args.host, args.port).start()
        port = runner.addresses[0][1]
        host = args.host if ":" not in args.host else f"[{args.host}]"
        url = f"http://{host}:{port}/"
        print(url, flush=True)
        print(f"serial: {board.link.path}", flush=True)
        if not args.no_browser:
            # Some browsers' launchers wait for the window: never hold up the board.
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        await stop_event().wait()
    finally:
        await runner.cleanup()
    return 0
