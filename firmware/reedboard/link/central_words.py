"""Who controls the board over Bluetooth, in words (the board's page, `reedboard-host
watch`): the phone's app the board's `central` message names (its name, address and
protocol, and the clocks it tells). Pure."""

from __future__ import annotations

from reedboard.link.board_messages import CentralMessage

PROTOCOLS = {"cpp": "the Chess Peripheral Protocol", "chesslink": "Millennium ChessLink"}


def central_words(central: CentralMessage | None) -> str:
    """ "" when no phone is connected."""
    if central is None or not central.connected:
        return ""
    who = " ".join(part for part in (central.name, _bracketed(central.address)) if part)
    words = f"Phone {who or 'unnamed'} controls the board over Bluetooth"
    if central.protocol is not None:
        words += f", with {PROTOCOLS.get(central.protocol, central.protocol)}"
    if central.white_ms is not None and central.black_ms is not None:
        words += f"; its clocks: White {_clock(central.white_ms)}, Black {_clock(central.black_ms)}"
    if central.score is not None and " " in central.score:
        white, black = central.score.split(" ", 1)
        words += f"; the match: White {white}, Black {black}"
    return words + "."


def _bracketed(address: str | None) -> str:
    return f"({address})" if address else ""


def _clock(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
