"""The Vehicle Damage table (docs/rules.md#vehicle-damage-table) as data the user can override.

One roll per Penetrating Hit: a D6 (for a Slow Vehicle, two D6 keeping the lower), plus a modifier that
depends on the weapon's AP, read against bands of results. The default bands live twice, kept equal by a
test: in the module constant :data:`VEHICLE_DAMAGE_BANDS` and in the shipped CSV ``data/vehicle_damage.csv``.
A user who reads the printed table differently builds a :class:`DamageTable` from their own bands or CSV
(:func:`load_damage_table`) and passes it to the vehicle functions.

CSV columns: ``low`` (least modified roll of the band; empty = no lower bound), ``high`` (largest; empty =
no upper bound), ``result`` (the result's name), ``extra_hull_points`` (hull points the result removes on
top of the hit's own: ``0``, ``1``, ``D3``...).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from praetor_analysis.prob import D6, parse_dice

CREW_SHAKEN = "Crew Shaken"
CREW_STUNNED = "Crew Stunned"
WEAPON_DESTROYED = "Weapon Destroyed"
IMMOBILISED = "Immobilised"
EXPLODES = "Explodes"


@dataclass(frozen=True)
class DamageBand:
    """One row of the Vehicle Damage table.

    Attributes:
        low: least modified roll giving this result, or None for no lower bound.
        high: largest modified roll giving this result, or None for no upper bound.
        result: the result's name (e.g. ``"Explodes"``).
        extra_hull_points: hull points the result removes beyond the hit's own, as a dice expression.
    """

    low: int | None
    high: int | None
    result: str
    extra_hull_points: str = "0"

    def covers(self, roll: int) -> bool:
        """True when the modified ``roll`` falls in this band."""
        return (self.low is None or roll >= self.low) and (self.high is None or roll <= self.high)


VEHICLE_DAMAGE_BANDS: tuple[DamageBand, ...] = (
    DamageBand(None, 3, CREW_SHAKEN),
    DamageBand(4, 4, CREW_STUNNED),
    DamageBand(5, 5, WEAPON_DESTROYED),
    DamageBand(6, 6, IMMOBILISED),
    DamageBand(7, None, EXPLODES, "D3"),
)
"""The default bands (docs/rules.md#vehicle-damage-table): 1-3 Crew Shaken, 4 Crew Stunned, 5 Weapon Destroyed,
6 Immobilised, 7+ Explodes (a further D3 hull points)."""

AP_MODIFIERS: dict[int | None, int] = {1: 2, 2: 1, None: -1}
"""Modifier to the damage roll by the weapon's AP (None is AP "-"); any AP not listed adds 0."""


@dataclass(frozen=True)
class DamageTable:
    """The Vehicle Damage table: bands of results and the AP modifiers of the roll.

    Args:
        bands: the rows, which together must cover every modified roll (checked for -10..20).
        ap_modifiers: modifier by AP (None for AP "-"); an AP not listed adds 0.
    """

    bands: tuple[DamageBand, ...] = VEHICLE_DAMAGE_BANDS
    ap_modifiers: Mapping[int | None, int] = field(default_factory=lambda: dict(AP_MODIFIERS))

    def __post_init__(self) -> None:
        object.__setattr__(self, "bands", tuple(self.bands))
        for band in self.bands:
            parse_dice(band.extra_hull_points, field=f"extra_hull_points of {band.result!r}")
        for roll in range(-10, 21):
            hits = [b.result for b in self.bands if b.covers(roll)]
            if len(hits) != 1:
                raise ValueError(f"bands: a modified roll of {roll} must fall in exactly one band, got {hits}")

    @property
    def results(self) -> tuple[str, ...]:
        """The result names in table order, without repeats."""
        return tuple(dict.fromkeys(b.result for b in self.bands))

    def band_for(self, roll: int) -> DamageBand:
        """The band that a modified roll falls in."""
        return next(b for b in self.bands if b.covers(roll))

    def modifier(self, ap: int | None) -> int:
        """The roll's modifier for a weapon of this AP."""
        return int(self.ap_modifiers.get(ap, 0))

    def outcomes(self, ap: int | None, *, slow: bool = False) -> list[tuple[float, str, np.ndarray]]:
        """The distribution of one damage roll.

        Args:
            ap: the weapon's AP (None for "-").
            slow: a Slow Vehicle rolls two D6 and discards the highest.

        Returns:
            ``(probability, result, extra_hp_pmf)`` per band that can occur, ``extra_hp_pmf`` being the pmf
            (over 0..n) of the hull points the result adds.
        """
        faces = _slow_die() if slow else D6
        mod = self.modifier(ap)
        by_band: dict[DamageBand, float] = {}
        for face, p in enumerate(faces, start=1):
            band = self.band_for(face + mod)
            by_band[band] = by_band.get(band, 0.0) + float(p)
        return [(p, band.result, parse_dice(band.extra_hull_points).dist.probabilities) for band, p in by_band.items()]


def _slow_die() -> np.ndarray:
    """pmf over faces 1..6 of the lower of two D6: P(k) = (13 - 2k) / 36."""
    return (13.0 - 2.0 * np.arange(1, 7)) / 36.0


def _parse_bound(text: str, column: str, row: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{column} (row {row}): expected an integer or nothing, got {text!r}") from None


def bands_from_csv(text: str) -> tuple[DamageBand, ...]:
    """Parse CSV text (columns ``low,high,result,extra_hull_points``) into bands.

    Raises:
        ValueError: naming the column and row of a bad value, or a missing column.
    """
    reader = csv.DictReader(io.StringIO(text))
    needed = {"low", "high", "result", "extra_hull_points"}
    missing = needed - set(reader.fieldnames or ())
    if missing:
        raise ValueError(f"vehicle damage CSV: missing column(s) {sorted(missing)}")
    bands = []
    for row, rec in enumerate(reader, start=1):
        result = (rec["result"] or "").strip()
        if not result:
            raise ValueError(f"result (row {row}): empty")
        bands.append(
            DamageBand(
                _parse_bound(rec["low"] or "", "low", row),
                _parse_bound(rec["high"] or "", "high", row),
                result,
                (rec["extra_hull_points"] or "0").strip() or "0",
            )
        )
    return tuple(bands)


def load_damage_table(
    path: str | Path | None = None, *, ap_modifiers: Mapping[int | None, int] | None = None
) -> DamageTable:
    """Load the Vehicle Damage table from a CSV file, by default the shipped ``data/vehicle_damage.csv``.

    Args:
        path: a CSV file with columns ``low,high,result,extra_hull_points``; None for the shipped one.
        ap_modifiers: AP modifiers of the roll; None for :data:`AP_MODIFIERS`.
    """
    if path is None:
        text = resources.files("praetor_analysis.data").joinpath("vehicle_damage.csv").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    mods = dict(AP_MODIFIERS if ap_modifiers is None else ap_modifiers)
    return DamageTable(bands_from_csv(text), mods)


def bands_to_csv(bands: Iterable[DamageBand]) -> str:
    """The CSV text of some bands (the inverse of :func:`bands_from_csv`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["low", "high", "result", "extra_hull_points"])
    for b in bands:
        writer.writerow(
            ["" if b.low is None else b.low, "" if b.high is None else b.high, b.result, b.extra_hull_points]
        )
    return out.getvalue()


DEFAULT_DAMAGE_TABLE = DamageTable()
"""The table built from the module constants (equal to the shipped CSV)."""
