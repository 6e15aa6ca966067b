"""What the hardware libraries say when the Pi is not set up for the board, turned into one
line that says what to do.

The libraries under the adapters each report trouble their own way: Adafruit Blinka (over
gpiod) a RuntimeError whose text names a missing platform library or one of the wrong
version, Adafruit_PureIO an OSError without an errno for an SPI device that is not there,
RPi.GPIO a RuntimeError ("No access to /dev/mem", "This module can only be run on a
Raspberry Pi!"), rpi-lgpio lgpio's own `error` ("'GPIO busy'", "'can not open
gpiochip'"), rpi_ws281x a RuntimeError asking for sudo. The adapters hand what they caught
to `led_trouble` or `gpio_trouble` and raise what comes back: a `HardwareSetupError`
naming the fix when the trouble is one a person must fix, or else a `HardwareError` with
the library's own words on one line.
"""

from __future__ import annotations

import errno
import re

from reedboard.errors import HardwareError, HardwareSetupError

INSTALL_EXTRA = "install the board's extra (pip install 'reedboard[pi]')"
ENABLE_SPI = "run sudo raspi-config nonint do_spi 0, then reboot"
ON_A_PC = "on a PC, run with --fake"

ROOT = "root"
# Which group opens which device node (ROOT: only root may).
DEVICE_GROUPS: tuple[tuple[str, str], ...] = (
    ("/dev/spidev", "spi"),
    ("/dev/gpiomem", "gpio"),
    ("/dev/gpiochip", "gpio"),
    ("/dev/pio", "gpio"),
    ("/dev/mem", ROOT),
)

# Blinka's words, as its `importing` and `platform_dependencies` modules write them (kept
# as text: compiled by `re` on the first failing start, not at every import).
_PLATFORM_MISSING = (
    r"platform library '(?P<name>[^']+)' was not found\. To install, try typing: (?P<run>.+)"
)
_PLATFORM_VERSION = (
    r"platform library '(?P<name>[^']+)' has unsupported installed version (?P<version>\S+)\. "
    r"To install a supported version, run: (?P<run>.+?)(?: Then restart Python.*)?$"
)
_PLATFORM_VERSIONS = (
    r"unsupported versions\. To install supported versions, run: (?P<run>.+?)"
    r"(?: Then restart Python.*)?$"
)
_PLATFORM_INSTALL_FAILED = r"Unable to install the platform dependencies\. Try: (?P<run>.+)"
# adafruit-blinka-raspberry-pi5-neopixel's words when /dev/pio0 does not open.
_PIO_OPEN = r"Failed to open PIO device \(error (?P<code>-?\d+)\)"
_DEVICE = r"/dev/[\w./-]+"
_UNKNOWN_KEYWORD = r"unexpected keyword argument '(?P<name>\w+)'"
# The distributions that hold each LED driver's Python side.
_LED_DISTRIBUTION = {"spi": "adafruit-circuitpython-neopixel-spi"}


def one_line(error: BaseException) -> str:
    """The error's text on one line (lgpio's error prints its text quoted: the quotes go)."""
    text = " ".join(str(error).split())
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text or type(error).__name__


def group_fix(group: str | None) -> str:
    """How to get the permission a group gives (ROOT: root's; None: a group not known)."""
    if group == ROOT:
        return "only root may open it: set User=root in the service's unit"
    if group is None:
        return "run the board as a user who may (ls -l shows the file's owner and group)"
    return (
        f"add the user to the {group} group (sudo usermod -aG {group} USER, then log in "
        f"again; the service's unit has SupplementaryGroups={group})"
    )


def device_group(path: str) -> str | None:
    for prefix, group in DEVICE_GROUPS:
        if path.startswith(prefix):
            return group
    return None


def led_trouble(error: Exception, driver: str, data_pin: int) -> HardwareError:
    """The error to raise for `error`, met while starting the LEDs on `driver`."""
    where = f"leds.driver = {driver!r}"
    fix = (
        _led_driver_trouble(error, where)
        or _library_trouble(error, where, driver)
        or _device_trouble(error, where, f"GPIO{data_pin} (the LEDs' data pin)")
    )
    if fix is not None:
        return HardwareSetupError(fix)
    return HardwareError(f"{where}: the LEDs did not start: {_named(error)}")


def gpio_import_trouble(error: ImportError | RuntimeError) -> HardwareError:
    """The error to raise when `import RPi.GPIO` fails with `error`."""
    if isinstance(error, ImportError) and error.name not in (None, "RPi", "RPi.GPIO"):
        # rpi-lgpio is there but lgpio (or its C library) is not.
        return HardwareSetupError(
            f"RPi.GPIO needs {error.name}, which does not load ({one_line(error)}): "
            f"pip install --force-reinstall {error.name.lstrip('_')} in the board's venv"
        )
    if isinstance(error, ImportError):
        return HardwareSetupError(
            "RPi.GPIO is not installed: on the board, " + INSTALL_EXTRA + "; on a Pi 5, "
            "pip install rpi-lgpio instead; " + ON_A_PC
        )
    if "only be run on a Raspberry Pi" in str(error):
        return HardwareSetupError(f"RPi.GPIO says this is not a Raspberry Pi: {ON_A_PC}")
    return HardwareError(f"RPi.GPIO cannot run here: {one_line(error)}")


def gpio_trouble(error: Exception, what: str) -> HardwareError:
    """The error to raise for `error`, met while `RPi.GPIO` set up the pins of `what`
    (`the switch matrix`, `the clock buttons`)."""
    text = one_line(error)
    fix = _device_trouble(error, what, "a pin")
    if fix is None and ("peripheral base address" in text or "Mmap of GPIO" in text):
        # RPi.GPIO knows the Pi 4's registers and older ones, not the Pi 5's.
        fix = (
            f"{what}: RPi.GPIO does not run on this Pi ({text}): on a Pi 5, "
            "pip uninstall RPi.GPIO, then pip install rpi-lgpio"
        )
    if fix is not None:
        return HardwareSetupError(fix)
    return HardwareError(f"cannot set up {what}: {_named(error)}")


def _library_trouble(error: Exception, where: str, driver: str) -> str | None:
    """A library missing, of the wrong version, or one that does not know this machine."""
    text = one_line(error)
    if isinstance(error, ImportError):
        if "cannot import name" in text:
            return f"{where}: the LED libraries installed do not fit together ({text}): " + (
                "re" + INSTALL_EXTRA
            )
        return f"{where} needs {error.name or 'its library'}, which is not installed: " + (
            INSTALL_EXTRA
        )
    if platform := _platform_trouble(text, where):
        return platform
    # Blinka's "Board not supported"; or a `board` it made without SPI or the data pin,
    # as on a PC it takes for a generic one.
    if isinstance(error, NotImplementedError) or "module 'board' has no attribute" in text:
        return (
            f"{where}: the LED library does not know this machine ({text}): {ON_A_PC}; on a "
            "Pi, pip install --upgrade adafruit-blinka adafruit-platformdetect"
        )
    if isinstance(error, TypeError) and (found := re.search(_UNKNOWN_KEYWORD, text)):
        name = _LED_DISTRIBUTION.get(driver, "adafruit-circuitpython-neopixel")
        return (
            f"{where}: {name} {_version(name)} is too old (it has no {found['name']}): "
            f"pip install --upgrade {name}"
        )
    return None


def _platform_trouble(text: str, where: str) -> str | None:
    """Blinka's platform libraries (gpiod, rpi_ws281x, the Pi 5's PIO driver): missing, of
    a version it does not support, or just installed by Blinka itself (it offers to when
    run from a terminal)."""
    if found := re.search(_PLATFORM_MISSING, text):
        return f"{where} needs {found['name']}, which is not installed: run {found['run']}"
    if found := re.search(_PLATFORM_VERSION, text):
        return (
            f"{where}: {found['name']} {found['version']} is a version the LED library does "
            f"not support: run {found['run']}"
        )
    if found := re.search(_PLATFORM_VERSIONS, text):
        return f"{where}: a GPIO library has a version Blinka does not support: run {found['run']}"
    if found := re.search(_PLATFORM_INSTALL_FAILED, text):
        return (
            f"{where}: Blinka could not install what it needs: run {found['run']} (with sudo "
            "when the board's venv is root's)"
        )
    if "Restart Python before using Blinka" in text:
        return f"{where}: Blinka has installed what it needs: start the board again"
    return None


def _led_driver_trouble(error: Exception, where: str) -> str | None:
    """The drivers' own refusals: rpi_ws281x's (`pwm`), the Pi 5's PIO's (`pi5`)."""
    text = one_line(error)
    if "requires running with sudo" in text:
        return f"{where} needs root: set User=root in the service's unit, or use driver = 'spi'"
    if "ws2811_init failed" in text:
        return f"{where} cannot start ({text}): use driver = 'spi', which runs on every Pi"
    found = re.search(_PIO_OPEN, text)
    if found is None and "pio_init() failed" not in text:
        return None
    code = -int(found["code"]) if found else 0  # piolib's error is a negated errno
    if code in (errno.EACCES, errno.EPERM):
        return f"{where}: no permission to open /dev/pio0: {group_fix('gpio')}"
    if code == errno.EBUSY:
        return f"{where}: the Pi 5's PIO is held by another program: stop it"
    return (
        f"{where}: the Pi 5's PIO does not open ({text}): update Raspberry Pi OS (sudo apt "
        "full-upgrade) and reboot, or use driver = 'spi'"
    )


def _device_trouble(error: Exception, where: str, pin: str) -> str | None:
    """An interface not enabled, a device node not open to this user, a pin in use."""
    text = one_line(error)
    if "spidev" in text and ("does not exist" in text or _errno(error) == errno.ENOENT):
        return f"{where} needs SPI, which is not enabled (no /dev/spidev0.0): {ENABLE_SPI}"
    if "Make sure SPI is enabled" in text:
        return f"{where} needs SPI, which is not enabled: {ENABLE_SPI}"
    if isinstance(error, PermissionError) or "grant access to the gpio group" in text:
        path = str(error.filename) if isinstance(error, OSError) and error.filename else ""
        path = path or next(iter(re.findall(_DEVICE, text)), "/dev/gpiochip*")
        return f"{where}: no permission to open {path}: {group_fix(device_group(path))}"
    if "No access to /dev/mem" in text:
        # RPi.GPIO opens /dev/gpiomem (the gpio group's) and names /dev/mem, its fallback.
        return f"{where}: no permission to open /dev/gpiomem: {group_fix('gpio')}"
    if text in ("can not open gpiochip", "no permission to access file") or (
        "GPIO operation not permitted" in text
    ):
        return f"{where}: cannot open the GPIO chip ({text}): {group_fix('gpio')}"
    if "GPIO busy" in text or _errno(error) == errno.EBUSY:
        return (
            f"{where}: {pin} is held by another program: stop it (gpioinfo names each "
            "line's user) or wire the board to free pins"
        )
    return None


def _errno(error: Exception) -> int | None:
    return error.errno if isinstance(error, OSError) else None


def _named(error: Exception) -> str:
    return f"{type(error).__name__}: {one_line(error)}"


def _version(distribution: str) -> str:
    import importlib.metadata  # here: only a failing start needs it, and it is slow to load

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "(version unknown)"


__all__ = ["gpio_import_trouble", "gpio_trouble", "led_trouble", "one_line"]
