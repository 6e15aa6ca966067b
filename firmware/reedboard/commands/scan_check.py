"""`reedboard scan --check`: the whole build check, guided on the board's own LEDs.

First the LED test (each LED alone in chain order, then the whole chain red, green, blue
and white), then the setups of `sensing.build_check`: each one's squares light up, the
maker places the pieces and presses Enter, and the terminal says what is wrong while the
faulty squares light in the fault colour. The strip and the question to the maker come
in as arguments, so a test runs it on a recording strip and scripted answers, and
`--fake` on a fake matrix whose pieces go where the lights say.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.lights import led_test
from reedboard.lights.frame import Frame
from reedboard.lights.output import LightsOutput
from reedboard.lights.roles import Role
from reedboard.rules.squares import Bitboard, square_name, square_names_of, squares_of
from reedboard.sensing.build_check import check_steps, judge
from reedboard.sensing.text import occupancy_text

SCANS_PER_STEP = 3  # a few scans with nothing moving, so a flickering switch shows

Ask = Callable[[str], str]


def run_check(
    scanner: MatrixScanner,
    wiring: MatrixWiring,
    lights: LightsOutput,
    out: TextIO,
    *,
    ask: Ask,
    place: Callable[[Bitboard], None] | None = None,
    pause: Callable[[float], None] = time.sleep,
) -> bool:
    """Run the LED test and every setup; True when nothing was wrong. `ask` shows a prompt
    and returns the maker's answer; `place`, for a fake matrix, puts the pieces on the lit
    squares; `pause` waits between the LED test's frames."""
    steps = check_steps()
    failed: list[str] = []
    out.write(f"Build check: the LED test, then {len(steps)} setups of pieces.\n")
    if not _led_test(lights, out, ask, pause):
        failed.append("LED test")
    already_closed = 0  # what the empty board read: named there, not blamed again later
    for number, step in enumerate(steps, start=1):
        _light(lights, step.squares, "setup")
        where = f": {', '.join(square_names_of(step.squares))}" if step.squares else ""
        out.write(f"\nStep {number} of {len(steps)}, {step.name}: {step.instruction}{where}.\n")
        out.flush()
        ask("Press Enter when the pieces stand. ")
        if place is not None:
            place(step.squares)
        scans = [scanner.scan() for _ in range(SCANS_PER_STEP)]
        verdict = judge(step, scans, wiring, already_closed=already_closed)
        if not step.squares:
            already_closed = scans[0] & scans[-1]
        if verdict.ok:
            out.write(f"  {verdict.lines[0]}\n")
            continue
        failed.append(step.name)
        out.write("  the board reads:\n")
        out.write("".join(f"    {line}\n" for line in occupancy_text(scans[-1]).splitlines()))
        out.write("".join(f"  {line}\n" for line in verdict.lines))
        _light(lights, verdict.faulty, "fault")
        if verdict.stop:
            out.write("\nThe check stops here: the setups that follow would read wrongly.\n")
            break
        ask("The faulty squares are lit. Press Enter to go on. ")
    _light(lights, 0, "setup")
    if failed:
        out.write(f"\nBuild check failed: {', '.join(failed)}.\n")
        return False
    out.write("\nBuild check passed: LEDs, orientation, every switch and every diode.\n")
    return True


def _light(lights: LightsOutput, squares: Bitboard, role: Role) -> None:
    lights.update(Frame.from_roles(dict.fromkeys(squares_of(squares), role)), 0)


def _led_test(lights: LightsOutput, out: TextIO, ask: Ask, pause: Callable[[float], None]) -> bool:
    layout = lights.layout
    order = [square_name(source[0]) for source in layout.sources if len(source) == 1]
    if len(order) == layout.count:
        path = " ".join(order[:10]) + " ... " + " ".join(order[-2:])
        walk = f"a white dot walks the chain square by square: {path}"
    else:
        walk = f"a white dot walks the {layout.count} LEDs of the corner grid in chain order"
    out.write(f"\nLED test: {walk}; then the whole board lights red, green, blue and white.\n")
    out.flush()
    elapsed = 0
    while (pixels := led_test.pattern_pixels(layout.count, elapsed)) is not None:
        lights.show_pixels(pixels)
        step = led_test.STEP_MS if elapsed < layout.count * led_test.STEP_MS else led_test.COLOUR_MS
        pause(step / 1000)
        elapsed += step
    answer = ask("Did the dot run that way, and the colours come in that order? [Y/n] ")
    if answer.strip().lower() in ("", "y", "yes"):
        return True
    out.write(
        "  where the dot goes dark: that LED, or the data wire into it, is faulty;\n"
        "  a dot that runs another way: set [leds] layout, first and along to the chain;\n"
        "  wrong colours: set [leds] order (GRB for WS2812B);\n"
        "  white turning yellow along the chain: feed 5 V into the chain's far end too.\n"
    )
    return False


__all__ = ["SCANS_PER_STEP", "run_check"]
