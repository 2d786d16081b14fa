"""Weapons x targets -> a tidy DataFrame of exact outcomes (one row per weapon and target).

Every cell is one docs/scenario.md scenario (:func:`~praetor_analysis.views.cell_documents.scenario_for` writes
it), built as typed records straight from the catalog rows (:mod:`praetor_analysis.analysis.cells`) and computed as
:func:`praetor_analysis.scenario.calc` computes it; nothing is sampled. A cell the engine refuses (a profile it
cannot read, a Strength it cannot resolve...) keeps its row, with the message in ``error`` and NaN numbers, so a
sweep over a whole catalog never stops half way.

A marker or template weapon (Blast, Barrage, Template...) is computed as ``calc`` computes the same scenario:
at a unit that is not a Vehicle, laid over the target's default formation
(:func:`~praetor_analysis.units.formation.default_formation`, its models in lines of five on their Unit
Type's base, a coherency range apart), the row's ``not_modelled`` opening with the ``default formation: ...``
note that says so; at a Vehicle, or where the geometry would be too large to compute, as ``calc`` falls back
(To Hit rolled, the marker rules listed as not modelled). The geometry is memoised on what it reads (the
marker kind, the shots, how the marker is fired, the formation:
:func:`~praetor_analysis.units.marker_volley.geometry_key`), so weapons and targets that share those share
one computation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from praetor_analysis.analysis.attacker import DEFAULT_ATTACKER, AttackerProfile
from praetor_analysis.analysis.cells import cell_results, laid, parsed_once
from praetor_analysis.analysis.sweep import CellResult
from praetor_analysis.engine import Volley
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError, show_value
from praetor_analysis.markers import marker_kind
from praetor_analysis.profiles import Unit, Weapon, parse_weapon_type
from praetor_analysis.rules import Role, canonical_rule_name
from praetor_analysis.units import (
    Measure,
    UnitRow,
    WeaponRow,
    target_unit,
    volley_record,
    weapon_record,
)

__all__ = [
    "COLUMNS",
    "DEFAULT_ATTACKER",
    "CellSummary",
    "ComparisonRow",
    "check_options",
    "compare",
    "compare_distributions",
    "comparison_cells",
    "comparison_frame",
    "filter_weapons",
    "summarise",
]

COLUMNS = [
    "weapon",
    "weapon_id",
    "faction",
    "Range",
    "Strength",
    "AP",
    "Type",
    "target",
    "target_id",
    "models",
    "measure",
    "mean",
    "std",
    "p_any",
    "p_all",
    "p_pinned",
    "points",
    "mean_per_100pts",
    "not_modelled",
    "error",
]
"""The columns of :func:`compare`, in order."""


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One row of :func:`compare` (its :data:`COLUMNS`, in order): the weapon, the target, the numbers of the
    cell (NaN when ``error`` says why it could not be computed) and what is not modelled."""

    weapon: str
    weapon_id: str
    faction: str
    Range: str
    Strength: str
    AP: str
    Type: str
    target: str
    target_id: str
    models: int
    measure: str
    mean: float = math.nan
    std: float = math.nan
    p_any: float = math.nan
    p_all: float = math.nan
    p_pinned: float = math.nan
    points: float = math.nan
    mean_per_100pts: float = math.nan
    not_modelled: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The row as a mapping of :data:`COLUMNS`."""
        return {c: getattr(self, c) for c in COLUMNS}


def _parse_weapon(row: WeaponRow) -> Weapon:
    try:
        return weapon_record(row)
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None


# --- results -> numbers -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CellSummary:
    """The numbers of one comparison cell (the row's columns, and the pmf of its measure kept apart)."""

    measure: str
    pmf: np.ndarray
    mean: float
    std: float
    p_any: float
    p_all: float
    p_pinned: float

    def to_dict(self) -> dict[str, Any]:
        """The row's columns: measure, mean, std, p_any, p_all and p_pinned (the pmf is not a column)."""
        return {"measure": self.measure, "mean": self.mean, "std": self.std, "p_any": self.p_any,
                "p_all": self.p_all, "p_pinned": self.p_pinned}  # fmt: skip


def summarise(result: CellResult, *, models: int, vehicle: bool, pinning: bool = True) -> CellSummary:
    """measure, pmf, mean, std, p_any, p_all and p_pinned of a cell's result.

    ``p_any`` is the upper tail summed (not ``1 - pmf[0]``) to keep small probabilities precise;
    ``p_pinned`` is NaN for a Vehicle, an exempt target (``pinned`` null) or when ``pinning`` is False.
    """
    pmf = np.asarray(result.pmf, dtype=float)
    if vehicle or result.measure is Measure.HULL_POINTS:
        measure = "hull_points"
        p_all = math.nan if result.wrecked is None else float(result.wrecked)
    else:
        measure = "casualties"
        p_all = float(pmf[models]) if pmf.size > models else 0.0
    k = np.arange(pmf.size)
    mean = float(k @ pmf)
    var = max(float((k * k) @ pmf) - mean * mean, 0.0)
    pinned = result.pinned
    p_pinned = math.nan if (pinned is None or not pinning or measure == "hull_points") else float(pinned)
    return CellSummary(measure, pmf, mean, math.sqrt(var), float(pmf[1:].sum()), p_all, p_pinned)


def _points(row: WeaponRow) -> float:
    pts = row.points
    return pts if pts is not None and pts > 0 else math.nan


def row_ids(frame: pd.DataFrame) -> list[str]:
    """One id per row: ``profile_id`` (the index label when absent), made unique with ``#2``, ``#3``..."""
    if "profile_id" in frame.columns:
        base = [str(p) if str(p).strip() else str(i) for i, p in zip(frame.index, frame["profile_id"], strict=False)]
    else:
        base = [str(i) for i in frame.index]
    seen: dict[str, int] = {}
    out = []
    for b in base:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return out


def check_frame(value: Any, field: str, columns: tuple[str, ...] = ()) -> None:
    """Refuse an argument that is not a DataFrame with ``columns`` (a PraetorError naming ``field``)."""
    if not isinstance(value, pd.DataFrame):
        raise PraetorError(f"{field}: expected a DataFrame of catalog rows, got {show_value(value)}", field=field)
    missing = [c for c in columns if c not in value.columns]
    if missing:
        raise PraetorError(f"{field}: the rows have no {missing[0]!r} column", field=field)


def check_options(attacker: object, half_range: object) -> None:
    """Refuse an attacker that is not an :class:`AttackerProfile` and a ``half_range`` that is not a bool (a
    PraetorError)."""
    if attacker is not None and not isinstance(attacker, AttackerProfile):
        raise PraetorError(
            f"attacker: expected an AttackerProfile (AttackerProfile.from_mapping reads a block), "
            f"got {show_value(attacker)}",
            field="attacker",
        )
    if not isinstance(half_range, bool):
        raise PraetorError(f"half_range: expected true or false, got {show_value(half_range)}", field="half_range")


def comparison_cells(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    attacker: AttackerProfile | None,
    shots_per_weapon: Any,
    half_range: bool,
) -> Iterator[tuple[ComparisonRow, np.ndarray | None]]:
    """Every (weapon, target) cell of :func:`compare` in row order: its record (a row of the table) and the pmf
    of its measure (None for a cell with an error)."""
    check_frame(weapons, "weapons")
    check_frame(targets, "targets")
    check_options(attacker, half_range)
    if shots_per_weapon is not None and not isinstance(shots_per_weapon, (str, int, float)):
        raise PraetorError(  # a bad number or dice text is each cell's error; a list or mapping is refused here
            f"shots_per_weapon: expected a number or dice expression, got {show_value(shots_per_weapon)}",
            field="shots_per_weapon",
        )
    fired_by = attacker or DEFAULT_ATTACKER
    units = {mode: fired_by.unit(mode=mode) for mode in ("melee", "shooting")}
    jobs: dict[tuple[Any, ...], tuple[Unit | ScenarioError, Volley | ScenarioError]] = {}  # distinct cells
    # each cell: its row's leading columns, the weapon's points, its job (None: an error), notes, flags, the error
    rows: list[tuple[tuple[Any, ...], float, tuple[Any, ...] | None, list[str], bool, bool, str]] = []
    t_rows = list(zip(row_ids(targets), UnitRow.from_frame(targets), strict=False))
    t_heads = [(tid, row, row.archetype or row.name or "target", 1 if row.models is None else int(row.models))
               for tid, row in t_rows]  # fmt: skip
    targets_parsed: dict[str, Unit | ScenarioError] = {}
    laid_notes: dict[tuple[Any, ...], list[str]] = {}  # a marker cell's notes: the default formation's first
    for wid, wrow in zip(row_ids(weapons), WeaponRow.from_frame(weapons), strict=False):
        volleys: dict[tuple[Any, ...], Volley | ScenarioError] = {}  # this weapon's, by mode, hits and attacks
        profile = wrow.as_profile()
        wkey = replace(profile, name="")
        points = _points(wrow)
        try:
            parsed: Weapon | ScenarioError = _parse_weapon(wrow)
        except ScenarioError as exc:
            parsed = exc
        marker = not isinstance(parsed, ScenarioError) and marker_kind(parsed) is not None  # once per weapon
        faction = wrow.faction
        strength, ap = str(profile.strength), str(profile.ap)
        for tid, trow, tname, tmodels in t_heads:
            vehicle = trow.is_vehicle
            head = (profile.name, wid, faction, str(profile.range), strength, ap, profile.type, tname, tid, tmodels)
            try:
                if isinstance(parsed, ScenarioError):
                    raise ScenarioError(str(parsed))
                mode = "melee" if parsed.is_melee else "shooting"
                # the weapon's name changes no number: identical profiles against one target are computed once
                key = (tid, mode, repr(shots_per_weapon), wkey)
                if key not in jobs:
                    shooting = mode != "melee"
                    volley = partial(volley_record, parsed, units[mode], mode=mode, attacks=shots_per_weapon,
                                     modifiers=fired_by.modifiers)  # fmt: skip
                    target = parsed_once(targets_parsed, tid, partial(target_unit, trow))
                    fired = parsed_once(volleys, key[1:], partial(volley, half_range=half_range and shooting))
                    if marker and shooting and not vehicle:  # over the default formation, as calc lays it
                        fired, laid_notes[key] = laid(fired, target)
                    jobs[key] = (target, fired)
                rows.append((head, points, key, laid_notes.get(key, []), vehicle, parsed.plays(Role.PINNING), ""))
            except ScenarioError as exc:
                rows.append((head, points, None, [], vehicle, False, str(exc)))
    results = cell_results(list(jobs.values()))
    by_key = dict(zip(jobs, results, strict=True))
    for head, points, job, notes, vehicle, pinning, error in rows:
        result = by_key[job] if job is not None else error
        if isinstance(result, str):  # an error: the row's numbers NaN
            yield ComparisonRow(*head, "hull_points" if vehicle else "casualties", points=points, error=result), None
            continue
        s = summarise(result, models=int(head[9]), vehicle=vehicle, pinning=pinning)
        per = s.mean / points * 100.0 if points == points else math.nan
        said = "; ".join([*notes, *result.not_modelled])
        yield ComparisonRow(*head, s.measure, s.mean, s.std, s.p_any, s.p_all, s.p_pinned, points, per, said), s.pmf


def compare(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: AttackerProfile | None = None,
    shots_per_weapon: Any = None,
    half_range: bool = False,
) -> pd.DataFrame:
    """Every weapon against every target: one tidy row per pair.

    Args:
        weapons: Weapon rows (:func:`~praetor_analysis.catalog.load_weapons` or the same columns).
        targets: Target rows (:func:`~praetor_analysis.catalog.load_targets` or ``load_units``); the
            ``models`` column gives the unit size (1 when absent).
        attacker: The attacker (:class:`AttackerProfile`; ``AttackerProfile.from_mapping`` reads a
            docs/scenario.md attacker block); default :data:`DEFAULT_ATTACKER` (one Legionary). Melee
            weapons strike in melee with the attacker's A; others fire their own shot count
            (Rapid Fire: 1, or 2 with ``half_range``).
        shots_per_weapon: Shots (blows, markers) per weapon instead of its own count: an int or a dice
            expression (``"D6"``).
        half_range: Fire at half range (Rapid Fire doubles, Melta's Armourbane applies).

    Returns:
        A DataFrame with :data:`COLUMNS`: ``measure`` is ``casualties`` (models removed) or ``hull_points``
        (Vehicle targets); ``p_any`` = P(at least one), ``p_all`` = P(the unit is wiped out or the vehicle
        wrecked); ``p_pinned`` is NaN when the target is exempt or the weapon has no Pinning; ``points`` is
        the weapon entry's Pts (NaN when unknown or 0: the cost is then in the unit); ``error`` is ``""``
        or the reason the cell could not be computed (numbers NaN).
    """
    return compare_with_distributions(
        weapons, targets, attacker=attacker, shots_per_weapon=shots_per_weapon, half_range=half_range
    )[0]


def compare_with_distributions(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: AttackerProfile | None = None,
    shots_per_weapon: Any = None,
    half_range: bool = False,
) -> tuple[pd.DataFrame, dict[tuple[str, str], np.ndarray]]:
    """:func:`compare` and :func:`compare_distributions` in one pass (what a dashboard update needs)."""
    rows, pmfs = [], {}
    for record, pmf in comparison_cells(weapons, targets, attacker, shots_per_weapon, half_range):
        rows.append(record)
        if pmf is not None:
            pmfs[(record.weapon_id, record.target_id)] = pmf
    return comparison_frame(rows), pmfs


_FLOATS = ("mean", "std", "p_any", "p_all", "p_pinned", "points", "mean_per_100pts")


def comparison_frame(rows: Sequence[ComparisonRow]) -> pd.DataFrame:
    """The table of :func:`compare` from its rows (:data:`COLUMNS`, numbers as floats, ``models`` int)."""
    if not rows:
        return pd.DataFrame([], columns=COLUMNS).astype({"models": int, **dict.fromkeys(_FLOATS, float)})
    columns: dict[str, Any] = {c: [getattr(r, c) for r in rows] for c in COLUMNS}
    columns["models"] = np.array(columns["models"], dtype=np.int64)
    for c in _FLOATS:
        columns[c] = np.array(columns[c], dtype=np.float64)
    return pd.DataFrame(columns, columns=COLUMNS)


def compare_distributions(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: AttackerProfile | None = None,
    shots_per_weapon: Any = None,
    half_range: bool = False,
) -> dict[tuple[str, str], np.ndarray]:
    """The pmf of casualties (hull points for a Vehicle) per ``(weapon_id, target_id)``.

    Same arguments and ids as :func:`compare`; cells with an error are left out.
    """
    return {
        (r.weapon_id, r.target_id): pmf
        for r, pmf in comparison_cells(weapons, targets, attacker, shots_per_weapon, half_range)
        if pmf is not None
    }


# --- filters ------------------------------------------------------------------------------------
def _tokens(row: WeaponRow) -> set[str]:
    """Lower-case rule names and tokens of a weapon row (the shot kind included), empty if unparsable."""
    text = row.type
    try:
        wt = parse_weapon_type(text)
    except (ProfileError, ValueError):
        return set()
    out = {r.name.lower() for r in wt.rules} | {r.text.lower() for r in wt.rules}
    if wt.kind:
        out.add(wt.kind.lower())
    rng = str(row.range or "").lower()
    if "template" in rng:
        out.add("template")
    if "hellstorm" in rng:
        out.add("hellstorm")
    return out


def filter_weapons(
    df: pd.DataFrame, name: str | None = None, faction: str | None = None, rule: str | None = None
) -> pd.DataFrame:
    """Rows of a weapon DataFrame matching every filter given (case-insensitive).

    Args:
        df: Weapon rows.
        name: Substring of the weapon ``name``.
        faction: The ``faction`` label (whole label).
        rule: A rule of the parsed Type: the rule name (``"Rending"``), a token as printed
            (``"Rending (6+)"``) or the shot kind (``"Heavy"``); ``"Template"``/``"Hellstorm"`` also
            match the Range.

    Returns:
        The matching rows (a copy), index kept.
    """
    check_frame(df, "df", ("name",) + (("faction",) if faction is not None else ()))
    for field, value in (("name", name), ("faction", faction), ("rule", rule)):
        if value is not None and not isinstance(value, str):
            raise PraetorError(f"{field}: expected text, got {show_value(value)}", field=field)
        if value is not None and not value.isascii():
            try:
                value.encode("utf-8")  # pandas' Arrow strings (with pyarrow installed) take only valid Unicode
            except UnicodeEncodeError:
                raise PraetorError(f"{field}: not valid Unicode text, got {show_value(value)}", field=field) from None
    mask = pd.Series(True, index=df.index)
    if name is not None:
        mask &= df["name"].astype(str).str.contains(name, case=False, regex=False)
    if faction is not None:
        mask &= df["faction"].astype(str).str.strip().str.lower() == faction.strip().lower()
    if rule is not None:
        wanted = {rule.strip().lower()}
        if "(" not in rule:  # a bare name also matches its canonical spelling ("twin linked")
            wanted.add(canonical_rule_name(rule.strip()).lower())
        mask &= pd.Series([bool(_tokens(row) & wanted) for row in WeaponRow.from_frame(df)], index=df.index, dtype=bool)
    return df[mask].copy()
