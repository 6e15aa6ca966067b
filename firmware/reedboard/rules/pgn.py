"""PGN: export of a game with the seven-tag roster, and import of a game's main line."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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


_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
WIDTH = 79  # a PGN line's width (the standard's export format keeps under 80)
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _escape(value: str) -> str:
    """A tag's value that stays one value on one line whatever it holds: a quote or a
    backslash cannot end it, and a line break (a name typed with one) cannot start a
    tag line or a game of its own; control characters become one space."""
    value = _CONTROLS.sub(" ", value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _tag(name: str, value: str) -> str:
    if not _TAG_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a PGN tag name (letters, digits, _)")
    return f'[{name} "{_escape(value)}"]'


def comment_token(text: str) -> str:
    """A comment that stays one: a brace cannot end it, and it keeps to one line, so no
    line of it can be read as a tag."""
    return "{" + _CONTROLS.sub(" ", text).replace("}", ")") + "}"


def write_pgn(
    game: Game,
    headers: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
    result: str | None = None,
    sans: Sequence[str] | None = None,
) -> str:
    """The game as PGN text. The result is taken from `result`, the `Result` header, or the
    game's outcome, in that order; `*` while the game goes on. `sans`, the moves in SAN
    where the caller already has them (a relay writing a thousand games again at every
    move keeps them), else worked out here."""
    tags: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}
    tags |= {"White": "?", "Black": "?", "Result": "*"}
    tags.update(headers or {})
    if result is None:  # the outcome looks for the legal moves: only when it is needed
        outcome: Outcome | None = game.outcome()
        result = (headers or {}).get("Result") or (outcome.result if outcome else "*")
    tags["Result"] = result
    tags.update(start_tags(game.start))
    lines = [_tag(name, tags[name]) for name in SEVEN_TAG_ROSTER]
    lines += [_tag(name, value) for name, value in tags.items() if name not in SEVEN_TAG_ROSTER]
    tokens: list[str] = []
    comments = comments or {}
    if comments.get(0):
        tokens.append(comment_token(comments[0]))
    for ply, (before, move) in enumerate(zip(game.positions, game.moves, strict=False), start=1):
        if before.turn:
            tokens.append(f"{before.fullmove_number}.")
        elif ply == 1 or comments.get(ply - 1):
            tokens.append(f"{before.fullmove_number}...")
        tokens.append(sans[ply - 1] if sans is not None else san(before, move))
        if comments.get(ply):
            tokens.append(comment_token(comments[ply]))
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


_STANDARD_KEY = Position.standard().repetition_key()


def start_tags(start: Position) -> dict[str, str]:
    """The tags a game from `start` needs: none from the standard start position (told
    without writing its FEN), else `SetUp` and `FEN`, and `Variant` for Chess960."""
    if (
        not start.chess960
        and start.halfmove_clock == 0
        and start.fullmove_number == 1
        and start.repetition_key() == _STANDARD_KEY
    ):
        return {}  # the same pieces, side, rights, en passant and clocks: STARTING_FEN
    tags = {"Variant": "Chess960"} if start.chess960 else {}
    fen = start.fen()  # kept by the position: written once a game
    if fen != STARTING_FEN or start.chess960:
        tags |= {"SetUp": "1", "FEN": fen}
    return tags


def _wrap(tokens: list[str]) -> str:
    done, line = wrap_on("", "", tokens)
    return f"{done}\n{line}" if done else line


def wrap_on(done: str, line: str, tokens: Sequence[str], width: int = WIDTH) -> tuple[str, str]:
    """Greedy wrapping of movetext `tokens` at `width`, carried on from the lines already
    finished (`done`) and the line still open: a writer that grows a game's movetext
    (the relay's) wraps it exactly as a game written whole."""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            done = f"{done}\n{line}" if done else line
            line = token
        else:
            line = f"{line} {token}" if line else token
    return done, line


def read_pgn(text: str) -> PgnGame:
    """The first game of PGN text, main line only (variations, NAGs and `;` comments are
    skipped; `{}` comments are kept). An illegal or unreadable move is an `InvalidPgnError`
    naming it and its move number."""
    lines = text.splitlines()
    headers, index = _read_tags(lines)
    game = Game(_start_position(headers))
    comments = _read_movetext("\n".join(lines[index:]), game, headers)
    return PgnGame(game, headers, comments)


def _read_tags(lines: list[str]) -> tuple[dict[str, str], int]:
    """The tags at the head of the text, and the index of the first line after them."""
    headers: dict[str, str] = {}
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
    return headers, index


def _start_position(headers: Mapping[str, str]) -> Position:
    """The position the game starts from, as its `FEN` and `Variant` tags say."""
    variant = headers.get("Variant", "").lower()
    if "FEN" not in headers:
        if variant in ("chess960", "fischerandom"):
            return Position.from_fen(STARTING_FEN, chess960=True)
        return Position.standard()
    chess960 = variant in ("chess960", "fischerandom", "chess 960")
    try:
        return Position.from_fen(headers["FEN"], chess960=chess960)
    except InvalidFenError as error:
        raise InvalidPgnError(f"the FEN tag is wrong: {error}") from None


def _read_movetext(movetext: str, game: Game, headers: dict[str, str]) -> dict[int, str]:
    """Play the main line of `movetext` into `game`; returns the comments by ply. A result
    token ends the game and becomes the `Result` tag when there is none."""
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
        elif depth or _is_skipped(token):
            continue
        elif token.startswith("{"):
            _add_comment(comments, token, len(game))
        elif token in RESULTS:
            headers.setdefault("Result", token)
            break
        else:
            _push_san(game, token)
    if depth:
        raise InvalidPgnError("a variation '(' is never closed")
    return comments


def _is_skipped(token: str) -> bool:
    """A `;` comment, a numeric annotation glyph or a move number."""
    return token.startswith((";", "$")) or (token[0].isdigit() and token.endswith("."))


def _add_comment(comments: dict[int, str], token: str, ply: int) -> None:
    if not token.endswith("}"):
        # A comment that never closes means the text was cut short or garbled.
        raise InvalidPgnError(f"a comment '{{' after ply {ply} is never closed")
    body = token[1:].removesuffix("}").strip()
    comments[ply] = f"{comments[ply]} {body}" if ply in comments else body


def _push_san(game: Game, token: str) -> None:
    try:
        game.push_san(token)
    except (InvalidMoveError, ValueError) as error:
        number = game.position.fullmove_number
        dots = "." if game.position.turn else "..."
        raise InvalidPgnError(f"move {number}{dots} {token}: {error}") from None
