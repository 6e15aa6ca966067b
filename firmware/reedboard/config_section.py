"""One table of the board's TOML file, read with typed getters that name the key when a
value is wrong (`reedboard.config` reads every section with them)."""

from collections.abc import Mapping
from typing import Any

from reedboard.errors import ConfigError

# The 40-pin header's GPIOs. 0/1 carry the HAT ID EEPROM.
HEADER_GPIOS = range(2, 28)


class ConfigSection:
    """One TOML table, with typed getters that name the key when a value is wrong."""

    def __init__(self, data: Mapping[str, Any], prefix: str) -> None:
        self._data = data
        self._prefix = prefix
        self._seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self._prefix}{name}"

    def get(self, name: str, default: Any) -> Any:
        self._seen.add(name)
        return self._data.get(name, default)

    def table(self, name: str) -> "ConfigSection":
        value = self.get(name, {})
        if not isinstance(value, Mapping):
            raise ConfigError(f"{self.key(name)}: expected a table [{self.key(name)}]")
        return ConfigSection(value, f"{self.key(name)}.")

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        value = self.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{self.key(name)}: expected an integer, got {value!r}")
        if not low <= value <= high:
            raise ConfigError(f"{self.key(name)}: {value} is outside {low}..{high}")
        return value

    def number(self, name: str, default: float, low: float, high: float) -> float:
        value = self.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{self.key(name)}: expected a number, got {value!r}")
        if not low <= value <= high:
            raise ConfigError(f"{self.key(name)}: {value} is outside {low}..{high}")
        return float(value)

    def text(self, name: str, default: str) -> str:
        value = self.get(name, default)
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{self.key(name)}: expected a non-empty string, got {value!r}")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self.get(name, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self.key(name)}: expected true or false, got {value!r}")
        return value

    def optional_text(self, name: str) -> str:
        """A string that may be empty (a setting left out)."""
        value = self.get(name, "")
        if not isinstance(value, str):
            raise ConfigError(f"{self.key(name)}: expected a string, got {value!r}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> Any:
        value = self.text(name, default)
        if value not in choices:
            raise ConfigError(
                f"{self.key(name)}: {value!r} is not one of {', '.join(map(repr, choices))}"
            )
        return value

    def pins(self, name: str, default: tuple[int, ...]) -> tuple[int, ...]:
        value = self.get(name, list(default))
        key = self.key(name)
        if not isinstance(value, list) or len(value) != 8:
            raise ConfigError(f"{key}: expected a list of 8 BCM pin numbers, got {value!r}")
        for pin in value:
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise ConfigError(f"{key}: {pin!r} is not a BCM pin number")
            if pin not in HEADER_GPIOS:
                raise ConfigError(f"{key}: GPIO{pin} is not usable (use GPIO2..GPIO27)")
        return tuple(value)

    def refuse_unknown(self) -> None:
        unknown = sorted(set(self._data) - self._seen)
        if unknown:
            raise ConfigError(f"{self.key(unknown[0])}: unknown key")
