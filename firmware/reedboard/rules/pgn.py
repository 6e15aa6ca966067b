"""PGN: export of a game with the seven-tag roster, and import of a game's main line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from reedboard.errors import InvalidFenError, InvalidMoveError, InvalidPgnError
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.outcome import Outcome
from reedboard.rules.position import Position
from reedboard.rules.san import san

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(
    r"""\{[^}]*\}?      # a comment (an unclosed one is reported)
      | ;[^\n]*         # a rest-of-line comment
      | \$\d+           # a numeric annotation glyph
      | \(|\)           # a variation's bounds
      | \d+\.+          # a move number
      | (?:1-0|0-1|1/2-1/2|\*)(?=\s|$)
      | [^\s{}();]+     # a move
    """,
    re.VERBOSE,
)


@dataclass
class PgnGame:
    """A game with its PGN tags and the comments after its moves (keyed by ply: the
    comment after the first move has key 1; key 0 comes before the first move)."""

    game: Game
    headers: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_pgn(
    game: Game,
    headers: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
    result: str | None = None,
) -> str:
    """The game as PGN text. The result is taken from `result`, the `Result` header, or the
    game's outcome, in that order; `*` while the game goes on."""
    tags: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}
    tags |= {"White": "?", "Black": "?", "Result": "*"}
    tags.update(headers or {})
    outcome: Outcome | None = game.outcome()
    if result is None:
        result = (headers or {}).get("Result") or (outcome.result if outcome else "*")
    tags["Result"] = result
    start_fen = game.start.fen(shredder=False)
    if game.chess960:
        tags["Variant"] = "Chess960"
    if start_fen != STARTING_FEN or game.chess960:
        tags["SetUp"] = "1"
        tags["FEN"] = start_fen
    lines = [f'[{name} "{_escape(tags[name])}"]' for name in SEVEN_TAG_ROSTER]
    lines += [
        f'[{name} "{_escape(value)}"]'
        for name, value in tags.items()
        if name not in SEVEN_TAG_ROSTER
    ]
    tokens: list[str] = []
    comments = comments or {}
    if comments.get(0):
        tokens.append("{" + comments[0].replace("}", ")") + "}")
    for ply, (before, move) in enumerate(zip(game.positions, game.moves, strict=False), start=1):
        if before.turn:
            tokens.append(f"{before.fullmove_number}.")
        elif ply == 1 or comments.get(ply - 1):
            tokens.append(f"{before.fullmove_number}...")
        tokens.append(san(before, move))
        if comments.get(ply):
            tokens.append("{" + comments[ply].replace("}", ")") + "}")
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


def read_pgn(text: str) -> PgnGame:
    """The first game of PGN text, main line only (variations, NAGs and `;` comments are
    skipped; `{}` comments are kept). An illegal or unreadable move is an `InvalidPgnError`
    naming it and its move number."""
    headers: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (
        not lines[index].strip() or lines[index].lstrip().startswith("[")
    ):
        stripped = lines[index].strip()
        if stripped:
            match = _TAG.match(stripped)
            if not match:
                raise InvalidPgnError(f"line {index + 1}: {stripped!r} is not a PGN tag")
            headers[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
        index += 1
    movetext = "\n".join(lines[index:])
    try:
        if "FEN" in headers:
            chess960 = headers.get("Variant", "").lower() in (
                "chess960",
                "fischerandom",
                "chess 960",
            )
            start = Position.from_fen(headers["FEN"], chess960=chess960)
        elif headers.get("Variant", "").lower() in ("chess960", "fischerandom"):
            start = Position.from_fen(STARTING_FEN, chess960=True)
        else:
            start = Position.standard()
    except InvalidFenError as error:
        raise InvalidPgnError(f"the FEN tag is wrong: {error}") from None
    game = Game(start)
    comments: dict[int, str] = {}
    depth = 0
    for match in _TOKEN.finditer(movetext):
        token = match.group(0)
        if token == "(":
            depth += 1
        elif token == ")":
            if depth == 0:
                raise InvalidPgnError("a ')' closes no variation")
            depth -= 1
        elif depth or token.startswith((";", "$")) or (token[0].isdigit() and token.endswith(".")):
            continue
        elif token.startswith("{"):
            if not token.endswith("}"):
                # A comment that never closes means the text was cut short or garbled.
                raise InvalidPgnError(f"a comment '{{' after ply {len(game)} is never closed")
            ply = len(game)
            body = token[1:].removesuffix("}").strip()
            comments[ply] = f"{comments[ply]} {body}" if ply in comments else body
        elif token in RESULTS:
            headers.setdefault("Result", token)
            break
        else:
            try:
                game.push_san(token)
            except (InvalidMoveError, ValueError) as error:
                number = game.position.fullmove_number
                dots = "." if game.position.turn else "..."
                raise InvalidPgnError(f"move {number}{dots} {token}: {error}") from None
    if depth:
        raise InvalidPgnError("a variation '(' is never closed")
    return PgnGame(game, headers, comments)
