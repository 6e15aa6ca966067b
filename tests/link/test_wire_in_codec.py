"""The link's untyped message, `frame.Wire` (a JSON object as a plain dict), stays inside
the link's codec: the modules that write the typed commands, replies and events as JSON
objects and frames and read them back, every field checked against its type. Everything
else holds typed values (or bytes, for what only passes frames on), so that its checks
come from the types; a message only shown as the link writes it is `dict[str, object]`,
whose fields cannot be read unchecked. The relay too takes the typed messages and keeps
them as the codec writes them (`board_messages.message_text`): no module outside the
codec is excepted."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = ROOT / "firmware" / "reedboard" / "link"
CODEC = {
    LINK / name
    for name in (
        "frame.py",  # the frame: a JSON object, its CRC
        "wire_plan.py",  # a command's or a reply's fields, read from its type
        "command_codec.py",
        "reply_codec.py",
        "event_codec.py",
        "messages.py",  # the host's commands
        "acks.py",  # an ack's outcome
        "board_messages.py",  # the board's messages
    )
}
PACKAGES = (ROOT / "firmware" / "reedboard", ROOT / "host")


def wire_uses(source: str) -> int:
    """How many times `source` names `Wire` (imported, in a type, or as `frame.Wire`)."""
    names = {ast.Name: "id", ast.Attribute: "attr", ast.alias: "name"}
    return sum(
        1
        for node in ast.walk(ast.parse(source))
        if type(node) in names and getattr(node, names[type(node)]) == "Wire"
    )


def uses_by_module() -> dict[Path, int]:
    found: dict[Path, int] = {}
    for package in PACKAGES:
        for path in package.rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            uses = wire_uses(source) if "Wire" in source else 0  # parse only what may
            if uses:
                found[path] = uses
    return found


def test_only_the_codec_holds_untyped_messages() -> None:
    outside = [
        f"{path.relative_to(ROOT)}: {uses}"
        for path, uses in sorted(uses_by_module().items())
        if path not in CODEC
    ]
    assert not outside, "the untyped Wire outside the link's codec:\n" + "\n".join(outside)


def test_the_count_sees_every_way_of_naming_it() -> None:
    source = (
        "from reedboard.link.frame import Wire\n"
        "from reedboard.link import frame\n"
        "def f(message: Wire) -> frame.Wire:\n"
        "    return message\n"
        "# Wire in a comment, and 'Wire' in a string, are not uses\n"
        "x = 'Wire'\n"
    )
    assert wire_uses(source) == 3
    assert wire_uses("WireValue = 1\nwire = {}\n") == 0
