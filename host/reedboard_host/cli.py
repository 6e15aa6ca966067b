"""The `reedboard-host` command: the PC side of a reedboard.

    reedboard-host record --port URL --out FILE      every game to a PGN file, as it is played
    reedboard-host watch [--port P] [--say fr|en]    the live board in the terminal, spoken
    reedboard-host play --engine stockfish [--level N] [--color white|black] [--new]
    reedboard-host new [--chess960 [N]] [--fen FEN]  and mode, promote, takeback, show, mark,
                                                     draw, resign, led-test, settings, state
    reedboard-host add-time white|black 2m           time added to a clock (FIDE 7.5.5)
    reedboard-host say position|last|clock|SQUARE    the board's voice says it
    reedboard-host ports                             serial ports that may be a board
    reedboard-host publish --mqtt URL --board-id ID  the board on an MQTT broker, for a relay
    reedboard-host emulate dgt|chesslink --pty PATH  a DGT or ChessLink board for other software
    reedboard-host uci                               the board as a UCI engine for a chess GUI
    reedboard-host lichess --token-file F [--seek 15+10 | --challenge USER] [--accept [USER]]
                                                     play on Lichess through the Board API

Without --port the first USB serial port found is used. Errors are one line on stderr:
exit status 2 for arguments that cannot be right (checked before the port is opened, or
refused by the board as unreadable), 1 for everything else (no board, a link problem, a
command the board's game does not allow now). Output cut short by its reader ends quietly.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from reedboard import __version__
from reedboard.argument_types import whole_number_in
from reedboard.command_line import BAD_ARGUMENTS, OneLineParser, closed_output, example
from reedboard.errors import ReedboardError
from reedboard.link.acks import Said
from reedboard.link.board_messages import Ack, Reply
from reedboard.link.messages import (
    AddTime,
    AskState,
    ChangeSettings,
    ChoosePromotion,
    Draw,
    LedTest,
    Mark,
    Resign,
    Say,
    SetMode,
    ShowMove,
    StartGame,
    TakeBack,
    Variant,
    WireCommand,
)
from reedboard.link.mqtt_retry import RETRY_MS, RETRY_MS_RANGE
from reedboard.log_setup import log_to_stderr
from reedboard.reader.mode import MODES
from reedboard.stopping import stop_asked, stop_on_signals
from reedboard.voice.languages import LANGUAGES

from reedboard_host import arguments
from reedboard_host.arguments import BadArgumentError
from reedboard_host.connection import BoardConnection, HostError, RefusedError

# Each command's own modules (the emulations, the terminal view, the PGN file, the follower,
# the port finder) are imported by its function: the command line is read, and a short
# command (`state`, `new`) done, without the CPU of importing those of the others.

BRIDGES_NAMED_IN_LOG = ("uci", "lichess", "publish")

# Named, not `__name__`: run as `python -m reedboard_host.cli`, this module is `__main__`,
# outside the package whose lines the command line prints.
logger = logging.getLogger("reedboard_host.cli")


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="reedboard-host",
        description="The PC side of a reedboard electronic chessboard.",
        epilog="example:\n  reedboard-host record --out games.pgn\n\n"
        "`reedboard-host COMMAND --help` describes each command.",
    )
    parser.add_argument("--version", action="version", version=f"reedboard-host {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(
        name: str, help_: str, run: Callable[[argparse.Namespace], int], *examples: str
    ) -> Any:
        p = sub.add_parser(
            name, help=help_, description=help_[0].upper() + help_[1:] + ".",
            epilog=example(*(f"reedboard-host {name} {line}".rstrip() for line in examples)),
        )  # fmt: skip
        p.add_argument("--port", metavar="URL",
                       help="the board's serial port, pty or URL (default: the first USB "
                            "serial port)")  # fmt: skip
        p.set_defaults(run=run)
        return p

    p = command("record", "append every game to a PGN file, flushed after every move", _record,
                "--port /dev/ttyACM0 --out games.pgn")  # fmt: skip
    p.add_argument("--out", required=True, metavar="FILE", help="the PGN file")
    p = command("watch", "show the live board and its effects as they come", _watch,
                "", "--say fr")  # fmt: skip
    p.add_argument("--say", choices=sorted(LANGUAGES), metavar="LANG",
                   help="also say each effect aloud with espeak-ng, in this language "
                        f"({', '.join(sorted(LANGUAGES))})")  # fmt: skip
    command("state", "print the board's whole state as JSON", _state, "")
    command("ports", "list the USB serial ports that may be a board", _ports, "")
    p = command("new", "start a new game on the board", _new, "--chess960 518")
    p.add_argument("--chess960", nargs="?", const=-1, type=whole_number_in(0, 959), metavar="N",
                   help="Chess960: start position N (0..959), random without N")  # fmt: skip
    p.add_argument("--fen", type=arguments.fen, help="start from this position")
    p.add_argument("--clock", type=arguments.time_control, metavar="CONTROL",
                   help="a timed game: 5+3, 15, 0.5+0, 90/40:30+30")  # fmt: skip
    p = command("mode", "set the touch-move rules", _asking(lambda a: SetMode(a.mode)), "strict")
    p.add_argument("mode", choices=MODES)
    p = command("promote", "the piece for the next promotion", _asking(lambda a: ChoosePromotion(a.piece)),
                "n")  # fmt: skip
    p.add_argument("piece", choices=("q", "r", "b", "n"))
    command("takeback", "take back the last move", _asking(lambda _a: TakeBack()), "")
    p = command("add-time", "add time to a player's clock (an arbiter's decision, FIDE 7.5.5)",
                _add_time, "black 2m", "white 30s")  # fmt: skip
    p.add_argument("color", choices=("white", "black"), help="whose clock")
    p.add_argument("amount", type=arguments.added_ms, metavar="TIME",
                   help="2m, 30s, 1m30s, or minutes alone (at most 60 minutes)")  # fmt: skip
    p = command("show", "show a move on the LEDs for the player to carry out", _show, "e2e4")
    p.add_argument("uci", nargs="?", type=arguments.uci_move, help="the move in UCI (none: clear)")
    p = command("say", "have the board's voice say the position, the last move, the clocks"
                " or a square", _say, "position", "last", "clock", "e4")  # fmt: skip
    p.add_argument("what", type=arguments.question, metavar="WHAT",
                   help="position, last, clock, or a square such as e4")  # fmt: skip
    p = command("mark", "light squares on the LEDs until the next move (none: clear)", _mark,
                "c6 d4 --blink f6")  # fmt: skip
    p.add_argument("squares", nargs="*", type=arguments.square, metavar="SQ",
                   help="squares to light, such as e4")  # fmt: skip
    p.add_argument("--blink", nargs="+", type=arguments.square, default=[], metavar="SQ",
                   help="squares to blink")  # fmt: skip
    p = command("draw", "end the game drawn (claimed, or agreed with --agreed)", _draw,
                "--agreed")  # fmt: skip
    p.add_argument("--agreed", action="store_true", help="the players agreed a draw")
    p = command("resign", "resign the game (the side to move, unless --color)", _resign,
                "--color black")  # fmt: skip
    p.add_argument("--color", choices=("white", "black"))
    command("led-test", "light every LED in turn, then each colour on the whole chain",
            _asking(lambda _a: LedTest()), "")  # fmt: skip
    p = command("settings", "show or change the board's settings", _settings,
                "--settle-ms 250")  # fmt: skip
    p.add_argument("--settle-ms", type=whole_number_in(*arguments.SETTLE_MS), metavar="N",
                   help="stillness before a move that may grow counts, ms")  # fmt: skip
    p.add_argument("--castle-wait-ms", type=whole_number_in(*arguments.CASTLE_WAIT_MS),
                   metavar="N", help="how long a move castling may follow waits, ms")  # fmt: skip
    p.add_argument("--knock-wait-ms", type=whole_number_in(*arguments.KNOCK_WAIT_MS),
                   metavar="N", help="how long a capture that may be a knock waits, ms")  # fmt: skip
    p = command("play", "play against a UCI engine on the board", _play,
                "--engine stockfish --level 5 --color white --out games.pgn")  # fmt: skip
    p.add_argument("--engine", default="stockfish", help="the engine's program")
    p.add_argument("--level", type=whole_number_in(*arguments.LEVELS), default=5, metavar="N",
                   help="skill level 0..20")  # fmt: skip
    p.add_argument("--color", choices=("white", "black"), default="white", help="your colour")
    p.add_argument("--out", metavar="FILE", help="also record the game to this PGN file")
    p.add_argument("--movetime-ms", type=whole_number_in(*arguments.MOVETIME_MS), default=500,
                   metavar="N", help="engine think time, ms")  # fmt: skip
    p.add_argument("--new", action="store_true",
                   help="replace a game under way on the board")  # fmt: skip
    p.add_argument("--name", metavar="NAME",
                   help="your name in the PGN (default: your login name)")  # fmt: skip
    p = command("emulate", "be a DGT or ChessLink board on a pty for other software", _emulate,
                "dgt --pty ~/dgtboard")  # fmt: skip
    p.add_argument("protocol", choices=("dgt", "chesslink"))
    p.add_argument("--pty", required=True, metavar="PATH", help="the link to the pty to make")
    command("uci", "be a UCI engine whose moves are the ones played on the board", _uci, "")
    p = command("publish", "publish the board to an MQTT broker, for reedboard-relay", _publish,
                "--port /dev/ttyACM0 --mqtt mqtt://club.local --board-id b7")  # fmt: skip
    p.add_argument("--mqtt", required=True, metavar="URL",
                   help="the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")  # fmt: skip
    p.add_argument("--board-id", required=True, metavar="ID", help="the board's name there")
    p.add_argument("--username", default="", help="the broker's user")
    p.add_argument("--password-file", default="", metavar="FILE", help="the broker's password")
    p.add_argument("--ca-file", default="", metavar="FILE", help="the CA to trust (mqtts://)")
    p.add_argument("--mqtt-retry-ms", type=whole_number_in(*RETRY_MS_RANGE), default=RETRY_MS,
                   metavar="MS", help="the longest wait between attempts to reach the broker "
                   f"(default {RETRY_MS}; the first waits are a quarter and a half of it)")  # fmt: skip
    p = command("lichess", "play on Lichess from the board (the Board API)", _lichess,
                "--token-file lichess.token --seek 15+10")  # fmt: skip
    from reedboard_host.lichess.bridge import add_arguments

    add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return BAD_ARGUMENTS
        log_to_stderr(_log_prefix(args.command))
        try:
            result: int = args.run(args)
            sys.stdout.flush()  # a closed pipe shows here, not at exit
            return result
        except BrokenPipeError:
            raise
        except (ReedboardError, OSError) as error:
            print(f"reedboard-host {args.command}: {error}", file=sys.stderr)
            return _status(error)
    except BrokenPipeError:
        # `reedboard-host state | head -c 100`: the reader has what it wanted.
        return closed_output()


def _log_prefix(command: str) -> str:
    """Each log line starts with the program's name; a bridge's lines also name the bridge,
    for they show among other programs' lines (a chess GUI's engine log)."""
    return f"reedboard-host: {command}" if command in BRIDGES_NAMED_IN_LOG else "reedboard-host"


def _publish(args: argparse.Namespace) -> int:
    from reedboard.link.mqtt_client import BrokerSettings
    from reedboard.link.mqtt_topics import check_board_id, parse_url

    from reedboard_host.connection import choose_port
    from reedboard_host.publish import publish

    try:
        parse_url(args.mqtt)
        check_board_id(args.board_id)
    except ReedboardError as error:
        raise BadArgumentError(str(error)) from None
    settings = BrokerSettings(
        args.mqtt, args.board_id, args.username, args.password_file, args.ca_file,
        args.mqtt_retry_ms,
    )  # fmt: skip
    return publish(choose_port(args.port), settings, stop_asked())


def _status(error: BaseException) -> int:
    """2 for arguments that cannot be right (checked here, or refused by the board as a
    command it cannot read); 1 for everything else: no board, a link problem, a command
    the board's game does not allow now."""
    if isinstance(error, BadArgumentError):
        return BAD_ARGUMENTS
    if isinstance(error, RefusedError) and error.code == "bad_argument":
        return BAD_ARGUMENTS
    return 1


def _watch(args: argparse.Namespace) -> int:
    from reedboard_host.watch import watch

    return watch(args)


def _record(args: argparse.Namespace) -> int:
    from reedboard_host.follow import Follower
    from reedboard_host.pgn_file import PgnFile

    try:
        out = PgnFile(args.out)
    except OSError as error:
        raise HostError(f"cannot write {args.out}: {error.strerror or error}") from None
    follower = Follower(args.port, on_change=out.update)
    logger.info(
        "recording the game of the board on %s to %s; Ctrl-C stops",
        args.port or "the first USB serial port", args.out,
    )  # fmt: skip
    # SIGINT or SIGTERM ends it at once, wherever it waits (a handshake or a long game's
    # fetch on a noisy line): the game as far as it came is written on the way out.
    with stop_on_signals():
        try:
            follower.connect(wait_for_board=True)  # a board still starting is waited for
            out.update(follower.mirror)
            follower.run(lambda: False)
        finally:
            out.update(follower.mirror)
            out.close()
            follower.connection.close()
    return 0


def _emulate(args: argparse.Namespace) -> int:
    from reedboard_host.emulate import emulate_on_pty

    emulate_on_pty(args.protocol, args.port, args.pty, stop_asked())
    return 0


def _connected(args: argparse.Namespace) -> BoardConnection:
    connection = BoardConnection(args.port)
    try:
        connection.open()
    except BaseException:
        connection.close()
        raise
    return connection


def _ask(args: argparse.Namespace, command: WireCommand) -> Reply:
    connection = _connected(args)
    try:
        return connection.request(command)
    finally:
        connection.close()


def _print_reply(reply: Reply) -> None:
    shown = {k: v for k, v in reply.to_wire().items() if k not in ("type", "seq", "id")}
    print(json.dumps(shown))


def _state(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, AskState()))
    return 0


def _ports(_args: argparse.Namespace) -> int:
    from reedboard_host.usb_ports import usb_serial_ports

    found = usb_serial_ports()
    if not found:
        logger.warning("no USB serial port found: is the board's USB cable in?")
    for device in found:
        print(device)
    return 0


def _new(args: argparse.Namespace) -> int:
    chess960 = args.chess960 is not None
    number = args.chess960 if chess960 and args.chess960 >= 0 else None
    if args.fen:
        if number is not None:
            raise BadArgumentError("--chess960 N and --fen name two start positions: give one")
        arguments.check_start_fen(args.fen, chess960=chess960)
    variant: Variant = "chess960" if chess960 else "standard"
    start = StartGame(variant, number, args.fen or None, clock=args.clock)
    _print_reply(_ask(args, start))
    return 0


def _asking(
    command: Callable[[argparse.Namespace], WireCommand],
) -> Callable[[argparse.Namespace], int]:
    """A subcommand that sends the one command its arguments make (argparse's choices
    have checked them) and prints the reply."""

    def run(args: argparse.Namespace) -> int:
        _print_reply(_ask(args, command(args)))
        return 0

    return run


def _add_time(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, AddTime(args.color, args.amount)))
    return 0


def _show(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, ShowMove(args.uci)))
    return 0


def _say(args: argparse.Namespace) -> int:
    """The board says it aloud; the sentence is printed here too."""
    reply = _ask(args, Say(args.what))
    said = reply.done if isinstance(reply, Ack) else None
    print(said.text if isinstance(said, Said) else "")
    return 0


def _mark(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, Mark(tuple(args.squares), tuple(args.blink))))
    return 0


def _draw(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, Draw(args.agreed)))
    return 0


def _resign(args: argparse.Namespace) -> int:
    _print_reply(_ask(args, Resign(args.color)))
    return 0


def _settings(args: argparse.Namespace) -> int:
    _print_reply(
        _ask(args, ChangeSettings(args.settle_ms, args.castle_wait_ms, args.knock_wait_ms))
    )
    return 0


def _play(args: argparse.Namespace) -> int:
    from reedboard_host.play import play

    # Ctrl-C or SIGTERM ends the game wherever the host waits; the PGN is printed on the way.
    with stop_on_signals():
        return play(args)
    return 0


def _uci(args: argparse.Namespace) -> int:
    from reedboard_host.uci.board_engine import run_uci

    # stdout is the GUI's: every word for a person goes to stderr.
    return run_uci(args.port, stop=stop_asked())


def _lichess(args: argparse.Namespace) -> int:
    from reedboard_host.lichess.bridge import lichess

    return lichess(args, stop=stop_asked())


if __name__ == "__main__":
    sys.exit(main())
