"""The hardware scripts import each other by module name, as `python hardware/build.py`
runs them: put their folder on the path for these tests."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))

# SKiDL opens its log files in the working folder when it is first imported, and deletes them
# by that relative name once a circuit turns files off: test processes running side by side
# in one checkout deleted each other's files (FileNotFoundError) or left them behind. Import
# it once here, in a folder of this process's own, with its files off before any test runs.
_here = os.getcwd()
with tempfile.TemporaryDirectory(prefix="skidl-") as _folder:
    os.chdir(_folder)
    try:
        import build  # noqa: F401  (names KiCad's libraries for SKiDL, then imports it)
        from skidl.logger import stop_log_file_output

        stop_log_file_output()
    finally:
        os.chdir(_here)
