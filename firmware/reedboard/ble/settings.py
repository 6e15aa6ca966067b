"""The board's `[ble]` settings (docs/ble.md), read by `reedboard.config`."""

from __future__ import annotations

from typing import NamedTuple

MAX_NAME_BYTES = 20  # what an advertisement carries of a name beside its services


class BleConfig(NamedTuple):
    """Phone apps over Bluetooth LE: off unless enabled; on the adapter BlueZ names
    (hci0); advertised as `name`, or reedboard-XXXX (XXXX from the adapter's address)."""

    enabled: bool = False
    adapter: str = "hci0"
    name: str = ""

    def problem(self) -> tuple[str, str] | None:
        """The key whose value is wrong and why, or None."""
        if not self.adapter.isalnum():
            return "adapter", f"an adapter's name such as hci0, not {self.adapter!r}"
        if len(self.name.encode()) > MAX_NAME_BYTES:
            return "name", f"at most {MAX_NAME_BYTES} bytes are advertised, not {self.name!r}"
        return None
