"""`reedboard replay SCRIPT [--mode casual|strict] [--settle-ms N] [--knock-wait-ms N]
[--lights] [--say LANG]`: an event script through the board's debouncer and arbiter,
effects out as JSON Lines; with `--lights`, also what the LEDs show each time it changes;
with `--say`, after each effect the board speaks, the sentence its voice says."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reedboard.argument_types import whole_number_in
from reedboard.command_line import example
from reedboard.errors import ScriptError
from reedboard.reader.mode import MODES
from reedboard.voice.codes import LANGUAGE_CODES

if TYPE_CHECKING:
    from reedboard.events import Effect
    from reedboard.replay.runner import LightsChange
    from reedboard.replay.script import Script
    from reedboard.voice.narrator import Narrator


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="replay an event script and print what the board decides (JSON Lines)",
        description="Replay an event script through the board's debouncer and arbiter and "
        "print what the board decides, as JSON Lines.",
        epilog=example("reedboard replay game.events --lights"),
    )
    parser.add_argument("script", metavar="SCRIPT", help="the event script ('-' for stdin)")
    parser.add_argument("--mode", choices=MODES, help="override the script's @mode")
    parser.add_argument(
        "--settle-ms",
        type=whole_number_in(1, 60_000),
        metavar="N",
        help="how long the board must be still before a pending move is decided",
    )
    parser.add_argument(
        "--knock-wait-ms",
        type=whole_number_in(1, 60_000),
        metavar="N",
        help="how long a capture that may be a knocked neighbour waits (default: 1000)",
    )
    parser.add_argument(
        "--lights",
        action="store_true",
        help="also print what the LEDs show each time it changes",
    )
    parser.add_argument(
        "--say",
        choices=LANGUAGE_CODES,
        metavar="LANG",
        help=f"also print what the board's voice says, in that language ({', '.join(LANGUAGE_CODES)})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The board's debouncer, arbiter and rules are loaded by the command that replays, not
    # by `reedboard --help` or the board's start: they take a Pi seconds.
    import json

    from reedboard.link.event_codec import effect_json
    from reedboard.replay.runner import LightsChange, replay_script, replay_with_lights
    from reedboard.replay.script import parse_script

    try:
        if args.script == "-":
            text = sys.stdin.read()
        else:
            with open(args.script, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"reedboard replay: cannot read {args.script}: {error}", file=sys.stderr)
        return 2
    if args.settle_ms is not None and args.settle_ms < 1:
        print("reedboard replay: --settle-ms must be at least 1", file=sys.stderr)
        return 2
    try:
        script = parse_script(text)
    except ScriptError as error:
        print(f"reedboard replay: {args.script}: {error}", file=sys.stderr)
        return 2
    out = sys.stdout
    narrator = _narrator(script, args)
    if narrator is not None and hasattr(out, "reconfigure"):
        # The sentences are written as they read ("échec"), whatever the locale says.
        out.reconfigure(encoding="utf-8")
    items: list[Effect | LightsChange]
    if args.lights:
        items = replay_with_lights(
            script, mode=args.mode, settle_ms=args.settle_ms, knock_wait_ms=args.knock_wait_ms
        )
    else:
        items = list(
            replay_script(
                script, mode=args.mode, settle_ms=args.settle_ms, knock_wait_ms=args.knock_wait_ms
            )
        )
    for item in items:
        if isinstance(item, LightsChange):
            out.write(json.dumps({"event": item.kind, "t_ms": item.t_ms, **item.to_json()}) + "\n")
            continue
        out.write(json.dumps(effect_json(item)) + "\n")
        text = narrator.hear(item) if narrator is not None else None
        if text:
            said = {"event": "say", "t_ms": item.t_ms, "text": text}
            out.write(json.dumps(said, ensure_ascii=False) + "\n")
    out.flush()
    return 0


def _narrator(script: Script, args: argparse.Namespace) -> Narrator | None:
    if args.say is None:
        return None
    from reedboard.voice.languages import phrasebook
    from reedboard.voice.narrator import Narrator

    strict = (args.mode or script.mode) == "strict"
    return Narrator(phrasebook(args.say), script.start, strict=strict)
