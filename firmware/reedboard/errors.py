"""The one error hierarchy of reedboard.

Every error the project raises descends from `ReedboardError`, and also from the builtin
that fits (`ValueError` for bad input, `OSError` for hardware and links), so callers can
catch either the project's error or the builtin they already handle.

The errors every layer shares are defined here; an error that belongs to one part is
defined beside it, in this hierarchy still: `ProtocolError` (link/wire_fields.py),
`JournalError` (journal/store.py), `NoConverterError` (lights/gallery.py), `SensorError`
(sim/timeline.py), `LichessError`, `RateLimited` and `BadSetting` (lichess/); on the
host `HostError` and `RefusedError` (connection.py, a `BoardRequestError`),
`BadArgumentError` (arguments.py), `EngineError` (engine.py); in the relay
`PairingsError`, `TrfError` and the console's `Refused`. Only `Stopped` (stopping.py)
stands outside it, on purpose: a stop asked for is no error, and no `except Exception` may swallow it.
"""


class ReedboardError(Exception):
    """Root of every error raised by reedboard."""


class InvalidInputError(ReedboardError, ValueError):
    """Input that cannot be read: the message names what is wrong."""


class InvalidSquareError(InvalidInputError):
    """A square name or number that does not exist."""


class InvalidFenError(InvalidInputError):
    """A FEN string that does not describe a legal position."""


class InvalidMoveError(InvalidInputError):
    """A move in UCI or SAN that cannot be parsed."""


class IllegalMoveError(InvalidInputError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(InvalidInputError):
    """A SAN move that fits more than one legal move."""


class InvalidPgnError(InvalidInputError):
    """PGN text that cannot be read."""


class InvalidChess960Error(InvalidInputError):
    """A Chess960 start position number outside 0..959."""


class ConfigError(InvalidInputError):
    """A configuration file or value that is wrong: the message names the key."""


class ScriptError(InvalidInputError):
    """An event script that cannot be read: the message names the line."""


class HardwareError(ReedboardError, OSError):
    """The hardware did not behave: a stuck switch, a broken wire, a missing driver."""


class HardwareSetupError(HardwareError):
    """Hardware the Pi is not set up for: a library missing or of the wrong version, an
    interface not enabled, a permission not granted, a pin another program holds. Starting
    again changes nothing until a person acts, so the message says what to do."""


class BoardRequestError(ReedboardError, RuntimeError):
    """A request to the board refused or left unanswered, for whoever asked to hear in
    one line (the host's `HostError`; the board's own Lichess player)."""


class LinkError(ReedboardError, OSError):
    """The serial link to the host failed."""
