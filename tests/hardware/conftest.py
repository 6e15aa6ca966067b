"""The hardware scripts import each other by module name, as `python hardware/build.py`
runs them: put their folder on the path for these tests."""

from __future__ import annotations

import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))
