"""The board's settings as CPP options (`options_begin`, `option`, `set_option`): the
touch-move mode, the arbiter's waits, tournament mode and the LEDs' brightness. Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from reedboard.ble.cpp import CppError
from reedboard.link.acks import BrightnessSet, ModeSet, SettingsNow
from reedboard.link.board_messages import Ack, Reply
from reedboard.link.messages import SETTINGS, ChangeSettings, Command, SetBrightness, SetMode


@dataclass(frozen=True, slots=True)
class BoardOptions:
    mode: str = "casual"
    settle_ms: int = 600
    castle_wait_ms: int = 2000
    knock_wait_ms: int = 1000
    tournament: bool = False
    brightness: int = 100


def option_lines(options: BoardOptions) -> list[str]:
    """`option <name> <type> <value> <params>` for each setting, as CPP lists them."""
    lines = [f"option mode enum {options.mode} casual strict"]
    for name, (low, high) in SETTINGS.items():
        lines.append(f"option {name} int {getattr(options, name)} {low} {high}")
    lines.append(f"option tournament bool {str(options.tournament).lower()}")
    lines.append(f"option brightness int {options.brightness} 0 100 1")
    return lines


def option_command(name: str, value: str) -> Command:
    """The board's command that sets option `name` to `value`; `CppError` when the name
    or the value is not one."""
    if name == "mode":
        if value not in ("casual", "strict"):
            raise CppError(f"set_option mode is casual or strict, not {value!r}")
        return SetMode("casual" if value == "casual" else "strict")
    if name == "tournament":
        if value not in ("true", "false"):
            raise CppError(f"set_option tournament is true or false, not {value!r}")
        return ChangeSettings(tournament=value == "true")
    low, high = SETTINGS.get(name, (0, 100) if name == "brightness" else (1, 0))
    if low > high:
        raise CppError(f"set_option: no option {name!r}")
    if not value.isdigit() or not low <= int(value) <= high:
        raise CppError(f"set_option {name} is a whole number {low}..{high}, not {value!r}")
    if name == "brightness":
        return SetBrightness(int(value))
    return ChangeSettings(**{name: int(value)})  # type: ignore[arg-type]


def reset_commands(defaults: BoardOptions) -> list[Command]:
    """The commands that put every option back to the board's configured value."""
    return [
        SetMode("strict" if defaults.mode == "strict" else "casual"),
        ChangeSettings(
            defaults.settle_ms,
            defaults.castle_wait_ms,
            defaults.knock_wait_ms,
            tournament=defaults.tournament,
        ),
        SetBrightness(defaults.brightness),
    ]


def options_after(options: BoardOptions, reply: Reply) -> BoardOptions:
    """The options as the board's acknowledgement of a setting says they are now."""
    if not isinstance(reply, Ack):
        return options
    done = reply.done
    if isinstance(done, ModeSet):
        return replace(options, mode=done.mode)
    if isinstance(done, SettingsNow):
        return BoardOptions(
            done.mode,
            done.settle_ms,
            done.castle_wait_ms,
            done.knock_wait_ms,
            done.tournament,
            options.brightness,
        )
    if isinstance(done, BrightnessSet):
        return replace(options, brightness=done.percent)
    return options
