"""A roster listed unit by unit, without ratings: what ``praetor roster`` prints for a 3rd-edition roster
until the 3rd edition's engine rates rosters.

Each unit is named by the label ``praetor roster`` gives it (``Tactical Squad (2)`` for a repeated name), with its
force, points, models by statline and weapons (selection name x count, with the firing modes); the selections
outside units are listed with their points, and one line says whether the points add up to the declared total.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from praetor_analysis.bsdata import Hh3Roster, Hh3RosterUnit, Hh3Weapon, Roster
from praetor_analysis.errors import counted_noun
from praetor_analysis.units import unique_labels

__all__ = ["LISTING_COLUMNS", "accounting_line", "listing_frame", "listing_table"]

LISTING_COLUMNS = ["unit", "force", "parent", "points", "models", "statlines", "weapons"]


def _weapon_text(weapon: Hh3Weapon) -> str:
    modes = [p.name for p in weapon.ranged] + [p.name for p in weapon.melee]
    shown = weapon.name if modes == [weapon.name] else f"{weapon.name} [{', '.join(modes)}]"
    return f"{weapon.count}x {shown}"


def _unit_row(label: str, unit: Hh3RosterUnit) -> dict[str, Any]:
    weapons = [w for g in unit.groups for w in g.weapons] + list(unit.unit_weapons)
    counts: dict[str, int] = {}
    for g in unit.groups:
        key = f"{g.statline.name} ({g.statline.unit_type or g.statline.kind})"
        counts[key] = counts.get(key, 0) + g.count
    statlines = [f"{n}x {key}" for key, n in counts.items()]
    return {
        "unit": label,
        "force": unit.force,
        "parent": unit.parent,
        "points": unit.points,
        "models": sum(g.count for g in unit.groups),
        "statlines": "; ".join(statlines),
        "weapons": "; ".join(_weapon_text(w) for w in weapons),
    }


def listing_frame(roster: Hh3Roster) -> pd.DataFrame:
    """One row per unit (:data:`LISTING_COLUMNS`), in roster order, labelled as ``praetor roster`` labels."""
    units = [u for u in roster.units if isinstance(u, Hh3RosterUnit)]
    labels = unique_labels([u.name for u in units])
    return pd.DataFrame([_unit_row(lab, u) for lab, u in zip(labels, units, strict=True)], columns=LISTING_COLUMNS)


def accounting_line(roster: Roster) -> str:
    """One line, worded as the 2nd edition's ratings word it: the declared points as the points of the units
    listed plus those of the selections outside units (each named), and the gap when they do not add up."""
    listed = list(getattr(roster, "not_read", []))
    units = sum(u.points for u in roster.units)
    other = sum(n.points for n in listed)
    line = (
        f"{roster.name}: {roster.points:,.0f} points declared = {units:,.0f} in {len(roster.units)} units listed "
        f"+ {other:,.0f} not in a unit"
    )
    if listed:
        line += " (" + "; ".join(f"{n.name}, {n.points:,.0f} pts" for n in listed) + ")"
    gap = roster.points - units - other
    if abs(gap) > 1e-6:
        line += (
            f"; the file's selections add up to {units + other:,.0f}, {abs(gap):,.0f} {'less' if gap > 0 else 'more'}"
        )
    return line


def listing_table(roster: Hh3Roster) -> str:
    """The plain-text listing: a block per unit (label, force, points, models; its statlines and weapons)."""
    lines = []
    for row in listing_frame(roster).to_dict(orient="records"):
        inside = f", in {row['parent']}" if row["parent"] else ""
        models = counted_noun(row["models"], "model")
        lines.append(f"{row['unit']}: {row['points']:.0f} pts, {models} ({row['force']}{inside})")
        lines.append(f"    models: {row['statlines'] or '-'}")
        lines.append(f"    weapons: {row['weapons'] or '-'}")
    return "\n".join(lines) if lines else "(no units)"
