"""Where a piece's magnet closes its reed switch: a small magnetostatic model. Pure.

The magnet is a disc magnetised through its thickness, standing with one pole down in the
piece's base; seen from the reed it is a point dipole of moment m = Br V / mu0 (Br the
grade's remanence, V the disc's volume). Its magnetic scalar potential at a point r from
it is phi = m . r / (4 pi |r|^3), in amperes, and H = -grad(phi).

The reed switch lies flat under the board top, its axis along the rank. Its two blades are
soft iron: they collect the field along the reed's axis, and the contacts close when the
magnetomotive force between the blades' outer ends is large enough. For a field without
currents that force is the line integral of H along the axis, which is the difference of
the potential at the two ends: MMF = phi(one end) - phi(other end). A magnet straight
above the middle of the glass sees both ends at the same distance: MMF = 0, the switch
stays open however strong the magnet. That is the dead zone, a band across the reed
through its centre; the placement rule keeps it out of the part of the square where a
piece stands.

The reed's sensitivity comes in ampere-turns (AT), the current times the turns of the
standard test coil that just closes it. The conversion to a field threshold assumes the
test coil is as long as the glass (`coil_mm`) and long enough to treat as a solenoid: its
field is H = AT / coil length, and the reed closes when the mean axial field over its
glass, MMF / glass length, reaches that H (B = mu0 H). With the coil as long as the glass
the criterion is simply MMF >= AT. Reeds are sold in AT bands (10-15 AT, ...): the model
checks that the least sensitive reed of the band (the top of the band) closes everywhere
a piece is stood, and that the most sensitive (the bottom) stays open under any piece on a
neighbouring square, with margins for what the model leaves out: a dipole is exact only at
a few magnet diameters, and real blades collect less than all of the field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

MU0 = 4e-7 * math.pi  # T m / A


@dataclass(frozen=True)
class DiscMagnet:
    """A neodymium disc magnetised through its thickness (axially)."""

    diameter_mm: float = 8.0
    thickness_mm: float = 2.0
    grade: str = "N35"
    remanence_t: float = 1.19  # Br of N35: 1.17..1.21 T

    @property
    def moment(self) -> float:
        """Dipole moment in A m^2."""
        volume = math.pi * (self.diameter_mm / 2e3) ** 2 * (self.thickness_mm / 1e3)
        return self.remanence_t * volume / MU0


@dataclass(frozen=True)
class ReedSwitch:
    """A normally-open glass reed switch and its pull-in band in ampere-turns."""

    glass_mm: float = 14.0
    glass_diameter_mm: float = 2.3
    pull_in_min_at: float = 15.0  # the band `choose_band` picks for the reference build
    pull_in_max_at: float = 20.0
    coil_mm: float = 14.0  # the test coil's length, taken as long as the glass

    def pull_in_field(self, at: float) -> float:
        """The mean axial field H (A/m) that closes a reed rated `at` ampere-turns."""
        return at / (self.coil_mm / 1e3)

    def pull_in_flux_density_mt(self, at: float) -> float:
        """The same threshold as B in millitesla (mu0 H)."""
        return MU0 * self.pull_in_field(at) * 1e3


@dataclass(frozen=True)
class Stack:
    """The heights between the magnet and the reed, from the board's parameters."""

    top_mm: float = 4.0  # board top over the reed
    base_skin_mm: float = 1.0  # wood or felt under the magnet in the piece's base

    def magnet_height_mm(self, magnet: DiscMagnet, reed: ReedSwitch) -> float:
        """The magnet's centre above the reed's axis."""
        return (
            self.top_mm + reed.glass_diameter_mm / 2 + self.base_skin_mm + magnet.thickness_mm / 2
        )


def potential(point: tuple[float, float, float], magnet_at: tuple[float, float, float],
              moment: float) -> float:  # fmt: skip
    """The scalar potential (A) at `point` (mm) of a dipole at `magnet_at` (mm) pointing
    down (north pole down) with `moment` (A m^2)."""
    rx, ry, rz = ((p - q) / 1e3 for p, q in zip(point, magnet_at, strict=True))
    r = math.sqrt(rx * rx + ry * ry + rz * rz)
    return -moment * rz / (4 * math.pi * r**3)


def field(point: tuple[float, float, float], magnet_at: tuple[float, float, float],
          moment: float) -> tuple[float, float, float]:  # fmt: skip
    """H (A/m) at `point` (mm) of the same dipole: -grad(phi), in closed form."""
    rx, ry, rz = ((p - q) / 1e3 for p, q in zip(point, magnet_at, strict=True))
    r2 = rx * rx + ry * ry + rz * rz
    r = math.sqrt(r2)
    mz = -moment
    dot = mz * rz
    k = 1 / (4 * math.pi * r**5)
    return (k * 3 * dot * rx, k * 3 * dot * ry, k * (3 * dot * rz - mz * r2))


@dataclass(frozen=True)
class ReedUnderSquare:
    """One square's reed and a magnet: positions in mm in the square's frame (origin at its
    centre, x along the rank, the reed's axis), the reed's centre at (`reed_x`, 0)."""

    magnet: DiscMagnet = DiscMagnet()
    reed: ReedSwitch = ReedSwitch()
    stack: Stack = Stack()
    reed_x: float = -8.0

    @property
    def height_mm(self) -> float:
        return self.stack.magnet_height_mm(self.magnet, self.reed)

    def mmf(self, x: float, y: float) -> float:
        """|MMF| (ampere-turns) between the blades' ends, magnet centre over (x, y)."""
        half = self.reed.glass_mm / 2
        at = (x, y, self.height_mm)
        moment = self.magnet.moment
        ends = (
            potential((self.reed_x - half, 0.0, 0.0), at, moment),
            potential((self.reed_x + half, 0.0, 0.0), at, moment),
        )
        return abs(ends[0] - ends[1])

    def closes(self, x: float, y: float, at: float) -> bool:
        """Whether a reed rated `at` ampere-turns closes with the magnet over (x, y)."""
        return self.mmf(x, y) >= at


def disc_points(radius: float, step: float = 0.5) -> list[tuple[float, float]]:
    """Points of a disc of `radius` mm on a grid of `step` mm, centre included."""
    count = int(radius / step)
    return [
        (i * step, j * step)
        for i in range(-count, count + 1)
        for j in range(-count, count + 1)
        if (i * step) ** 2 + (j * step) ** 2 <= radius**2 + 1e-9
    ]


def weakest_own(model: ReedUnderSquare, play_mm: float) -> float:
    """The smallest MMF with the magnet anywhere within `play_mm` of the square's centre."""
    return min(model.mmf(x, y) for x, y in disc_points(play_mm))


def strongest_neighbour(model: ReedUnderSquare, square_mm: float, reach_mm: float) -> float:
    """The largest MMF from a magnet on any of the 8 neighbouring squares, anywhere within
    `reach_mm` of that square's centre (a piece pushed to the edge of its square)."""
    worst = 0.0
    for cx in (-square_mm, 0.0, square_mm):
        for cy in (-square_mm, 0.0, square_mm):
            if cx == cy == 0.0:
                continue
            for x, y in disc_points(reach_mm, 1.0):
                worst = max(worst, model.mmf(cx + x, cy + y))
    return worst


def best_reed_x(model: ReedUnderSquare, play_mm: float, step: float = 0.5) -> float:
    """The reed centre's offset from the square's centre, along the rank (towards the a
    file: negative), that makes the weakest closing within `play_mm` strongest."""
    best_x, best = 0.0, -1.0
    offset = 0.0
    while offset <= model.reed.glass_mm:
        weakest = weakest_own(ReedUnderSquare(model.magnet, model.reed, model.stack, -offset),
                              play_mm)  # fmt: skip
        if weakest > best + 1e-9:
            best_x, best = -offset, weakest
        offset += step
    return best_x


# Reeds are sold in pull-in bands of 5 AT; the straight lead kept along the axis on each
# side of the glass before the bend (the bend is made 2 mm from the seal) collects flux too,
# so the model is run with none and with all of it, and the band must hold for both.
STANDARD_BANDS_AT = tuple((low, low + 5.0) for low in (5.0, 10.0, 15.0, 20.0, 25.0, 30.0))
LEAD_KEPT_MM = 2.0
MARGIN_WANTED = 2.0  # what the model leaves out, in both directions


def with_leads(model: ReedUnderSquare, lead_mm: float) -> ReedUnderSquare:
    """The same reed collecting along `lead_mm` of straight lead beyond each end."""
    return replace(model, reed=replace(model.reed, glass_mm=model.reed.glass_mm + 2 * lead_mm))


@dataclass(frozen=True)
class BandMargins:
    """How a pull-in band fares: the least sensitive reed (the band's top) against the
    weakest pull where a piece stands, the most sensitive (its bottom) against the strongest
    pull of a piece on a neighbouring square, each the worse over the lead's effect."""

    band: tuple[float, float]
    weakest_own_at: float
    strongest_neighbour_at: float

    @property
    def own_margin(self) -> float:
        return self.weakest_own_at / self.band[1]

    @property
    def neighbour_margin(self) -> float:
        return self.band[0] / self.strongest_neighbour_at


def _extremes(
    model: ReedUnderSquare, square_mm: float, play_mm: float, reach_mm: float
) -> tuple[float, float]:
    """The weakest own pull and the strongest neighbour's, each the worse with and without
    the kept leads."""
    leads = (0.0, LEAD_KEPT_MM)
    own = min(weakest_own(with_leads(model, lead), play_mm) for lead in leads)
    neighbour = max(
        strongest_neighbour(with_leads(model, lead), square_mm, reach_mm) for lead in leads
    )
    return own, neighbour


def band_margins(
    model: ReedUnderSquare, band: tuple[float, float], square_mm: float, play_mm: float,
    reach_mm: float,
) -> BandMargins:  # fmt: skip
    return BandMargins(band, *_extremes(model, square_mm, play_mm, reach_mm))


def choose_band(
    model: ReedUnderSquare, square_mm: float, play_mm: float, reach_mm: float
) -> BandMargins:
    """The standard band whose smaller margin is largest."""
    own, neighbour = _extremes(model, square_mm, play_mm, reach_mm)
    bands = [BandMargins(band, own, neighbour) for band in STANDARD_BANDS_AT]
    return max(bands, key=lambda b: min(b.own_margin, b.neighbour_margin))


__all__ = [
    "LEAD_KEPT_MM",
    "MARGIN_WANTED",
    "MU0",
    "STANDARD_BANDS_AT",
    "BandMargins",
    "DiscMagnet",
    "ReedSwitch",
    "ReedUnderSquare",
    "Stack",
    "band_margins",
    "best_reed_x",
    "choose_band",
    "disc_points",
    "field",
    "potential",
    "strongest_neighbour",
    "weakest_own",
    "with_leads",
]
