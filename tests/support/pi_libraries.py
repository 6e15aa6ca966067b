"""Stand-ins for the Pi's hardware libraries that fail as the real ones do.

Each is the source of a module (`board`, `neopixel`, `neopixel_spi`, `RPi.GPIO`, `lgpio`)
that raises what the real library raises in one situation, with its exact words: Adafruit
Blinka 10 (`adafruit_blinka.importing`, `platform_dependencies`, `busio`), Adafruit_PureIO's
SPI, rpi_ws281x through Blinka's `bcm283x.neopixel`, gpiod 2, RPi.GPIO 0.7.1's C module,
rpi-lgpio 0.6 over lgpio 0.2 (whose `error` prints its text quoted). `write_stand_ins`
puts them in a directory that goes first on the import path of the process under test;
the adapters then really import them. A stand-in that works drives a `FakeGPIO` or a
`RecordingPixelBuf`, so the rest of the board runs as on the Pi."""

from __future__ import annotations

from pathlib import Path

STAND_IN_MODULES = ("board", "neopixel", "neopixel_spi", "RPi", "RPi.GPIO", "lgpio")

# --- board (Blinka) ---

BOARD = """
D10 = "D10"
D18 = "D18"
def SPI():
    return "SPI0"
"""

# `import board` on a Pi without gpiod, as Blinka 10's import_mod reports it.
BOARD_WITHOUT_GPIOD = """
import shlex, sys
try:
    raise ModuleNotFoundError("No module named 'gpiod'", name="gpiod")
except ModuleNotFoundError as error:
    command = shlex.join([sys.executable, "-m", "pip", "install", "gpiod>=2.2.2,<3"])
    raise RuntimeError(
        f"The platform library '{error.name}' was not found. "
        f"To install, try typing: {command}"
    ) from error
"""

# `import board` with a gpiod outside Blinka's bounds, stdin not a terminal.
BOARD_WITH_OLD_GPIOD = """
import shlex, sys
command = shlex.join([sys.executable, "-m", "pip", "install", "gpiod>=2.2.2,<3"])
raise RuntimeError(
    "Blinka found installed platform dependencies with unsupported versions. "
    f"To install supported versions, run: {command}\\n"
    "Then restart Python before using Blinka."
)
"""

# `import board` from a terminal, gpiod missing: Blinka asked, the person said yes, and its
# pip could not write to the venv.
BOARD_INSTALL_REFUSED = """
import shlex, sys
command = shlex.join([sys.executable, "-m", "pip", "install", "gpiod>=2.2.2,<3"])
raise RuntimeError(f"Unable to install the platform dependencies. Try: {command}")
"""

# The same, pip succeeded: the gpiod just installed cannot load in this process.
BOARD_INSTALLED_NOW = """
import shlex, sys
command = shlex.join([sys.executable, "-m", "pip", "install", "gpiod>=2.2.2,<3"])
raise RuntimeError(
    "Installation completed, but these platform dependencies are still missing or "
    "incompatible in this Python process: gpiod>=2.2.2,<3. Restart Python before using "
    f"Blinka. If the problem persists, try: {command}"
)
"""

# `import board` on a machine adafruit-platformdetect does not know.
BOARD_UNKNOWN_MACHINE = '''
raise NotImplementedError(
    """
    adafruit-platformdetect version 3.80.0 was unable to identify the board
    and/or microcontroller running the Linux platform.
    Please be sure you have the latest packages by running:
    'pip3 install --upgrade adafruit-blinka adafruit-platformdetect'
    """
)
'''

# board.SPI() without SPI enabled: Adafruit_PureIO's `raise IOError(f"{device} does not exist")`.
BOARD_WITHOUT_SPI = """
D10 = "D10"
def SPI():
    raise IOError("/dev/spidev0.0 does not exist")
"""

# board.SPI() when Blinka's pin table has no SPI port for the pins: busio's words.
BOARD_SPI_PORT_UNKNOWN = """
D10 = "D10"
def SPI():
    raise ValueError(
        "No Hardware SPI on (SCLK, MOSI, MISO)=(11, 10, 9)\\n"
        "Valid SPI ports: ().\\nMake sure SPI is enabled."
    )
"""

# board.SPI() as a user outside the spi group: PureIO's os.open.
BOARD_SPI_DENIED = """
D10 = "D10"
def SPI():
    raise PermissionError(13, "Permission denied", "/dev/spidev0.0")
"""

# --- neopixel_spi ---

NEOPIXEL_SPI = """
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
class NeoPixel_SPI(RecordingPixelBuf):
    def __init__(self, spi, n, *, pixel_order="GRB", brightness=1.0, auto_write=True,
                 reset_time=80e-6):
        super().__init__(n, byteorder=pixel_order, brightness=brightness)
"""

# A version without the `reset_time` option.
NEOPIXEL_SPI_OLD = """
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
class NeoPixel_SPI(RecordingPixelBuf):
    def __init__(self, spi, n, *, pixel_order="GRB", brightness=1.0, auto_write=True):
        super().__init__(n, byteorder=pixel_order, brightness=brightness)
"""

# --- neopixel (the pwm and pi5 drivers) ---

_NEOPIXEL_SENDING = """
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
class NeoPixel(RecordingPixelBuf):
    def __init__(self, pin, n, *, pixel_order="GRB", brightness=1.0, auto_write=True):
        {open_pin}
        super().__init__(n, byteorder=pixel_order, brightness=brightness)
    def _transmit(self, buffer):
        {transmit}
"""

NEOPIXEL = _NEOPIXEL_SENDING.format(open_pin="pass", transmit="super()._transmit(buffer)")

# `import neopixel` on a Pi 4 without rpi_ws281x: neopixel_write's check, Blinka's words.
NEOPIXEL_WITHOUT_WS281X = """
import shlex, sys
try:
    raise ModuleNotFoundError("No module named '_rpi_ws281x'", name="_rpi_ws281x")
except ModuleNotFoundError as error:
    command = shlex.join([sys.executable, "-m", "pip", "install", "rpi_ws281x>=4.0.0"])
    raise RuntimeError(
        f"The platform library '{error.name}' was not found. "
        f"To install, try typing: {command}"
    ) from error
"""

# The first frame without root: bcm283x.neopixel's answer to ws2811_init's -5.
NEOPIXEL_WITHOUT_ROOT = _NEOPIXEL_SENDING.format(
    open_pin="pass",
    transmit='raise RuntimeError("NeoPixel support requires running with sudo, please try again!")',
)

# The data pin held by another program: gpiod's request_lines, errno EBUSY.
NEOPIXEL_PIN_BUSY = _NEOPIXEL_SENDING.format(
    open_pin="import errno, os; raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))",
    transmit="pass",
)

# Blinka cannot open any /dev/gpiochip* (its raspberry_pi_pin._find_chip).
NEOPIXEL_GPIO_DENIED = _NEOPIXEL_SENDING.format(
    open_pin='raise PermissionError("Cannot inspect Raspberry Pi GPIO controllers; '
    'grant access to the gpio group")',
    transmit="pass",
)

# The Pi 5's PIO as a user outside the gpio group: its neopixel_write's first frame.
NEOPIXEL_PIO_DENIED = _NEOPIXEL_SENDING.format(
    open_pin="pass",
    transmit='raise RuntimeError("Failed to open PIO device (error -13)")',
)

# The Pi 5's PIO on a system too old to have /dev/pio0.
NEOPIXEL_PIO_MISSING = _NEOPIXEL_SENDING.format(
    open_pin="pass",
    transmit='raise RuntimeError("Failed to open PIO device (error -2)")',
)

# --- RPi.GPIO (and rpi-lgpio, which provides the same module) ---

_GPIO_WORKING = """
from reedboard.config import MatrixConfig
from reedboard.hal.fake_gpio import FakeGPIO
_matrix = MatrixConfig()
_gpio = FakeGPIO(_matrix.rows, _matrix.columns)
BCM, IN, OUT, HIGH, LOW = _gpio.BCM, _gpio.IN, _gpio.OUT, _gpio.HIGH, _gpio.LOW
PUD_UP, PUD_DOWN = _gpio.PUD_UP, _gpio.PUD_DOWN
setmode, setwarnings, output, input, cleanup = (
    _gpio.setmode, _gpio.setwarnings, _gpio.output, _gpio.input, _gpio.cleanup
)
"""

RPI_GPIO = _GPIO_WORKING + "setup = _gpio.setup\n"

# RPi.GPIO 0.7.1 (and rpi-lgpio) imported on a PC.
RPI_GPIO_NOT_A_PI = 'raise RuntimeError("This module can only be run on a Raspberry Pi!")\n'

# RPi.GPIO's setup when /dev/gpiomem is not open to the user (it then tries /dev/mem).
RPI_GPIO_NO_GPIOMEM = _GPIO_WORKING + (
    "def setup(*args, **kwargs):\n"
    '    raise RuntimeError("No access to /dev/mem.  Try running as root!")\n'
)

# RPi.GPIO on a Pi 5, whose registers it does not know.
RPI_GPIO_ON_A_PI_5 = _GPIO_WORKING + (
    "def setup(*args, **kwargs):\n"
    '    raise RuntimeError("Cannot determine SOC peripheral base address")\n'
)

# rpi-lgpio: lgpio.gpio_claim_input of a line another program holds.
RPI_LGPIO_BUSY = _GPIO_WORKING + (
    "import lgpio\ndef setup(*args, **kwargs):\n    raise lgpio.error(lgpio.error_text(-79))\n"
)

# rpi-lgpio: lgpio.gpiochip_open of /dev/gpiochip4 not open to the user.
RPI_LGPIO_NO_CHIP = RPI_GPIO + (
    "import lgpio\ndef setmode(mode):\n    raise lgpio.error(lgpio.error_text(-78))\n"
)

# lgpio's exception (a plain Exception that prints its text quoted) and error texts.
LGPIO = """
class error(Exception):
    def __init__(self, value):
        self.value = value
    def __str__(self):
        return repr(self.value)
def error_text(code):
    return {-78: "can not open gpiochip", -79: "GPIO busy"}[code]
"""


def write_stand_ins(directory: Path, **sources: str) -> Path:
    """Write each module's source (`RPi_GPIO` for `RPi.GPIO`) into `directory`; returns it.
    A module not given is not there (its import fails as on a Pi without it)."""
    for name, source in sources.items():
        if name == "RPi_GPIO":
            package = directory / "RPi"
            package.mkdir(exist_ok=True)
            (package / "__init__.py").write_text("", encoding="utf-8")
            path = package / "GPIO.py"
        else:
            path = directory / f"{name}.py"
        path.write_text(source, encoding="utf-8")
    return directory
