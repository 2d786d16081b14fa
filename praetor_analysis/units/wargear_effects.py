"""What a model's wargear does to its statline: the saves and unit rules of the items it carries.

An item may grant an armour save or an invulnerable save outright (``save``, ``invulnerable`` of the option
table, or read from a roster's wargear text), or be a unit rule the engine declares (Iron Halo, Refractor
Field). A save is the better of the statline's and the item's (saves do not add up); a rule joins the
statline's ``rules`` once. Used wherever a unit is fielded, so a target and an attacker alike carry them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from praetor_analysis.bsdata import best_save

__all__ = ["Item", "with_wargear"]

Item = tuple[str, str, str]
"""``(save, invulnerable, rule)`` of one wargear item: ``"2+"``, ``"4+"``, ``"Iron Halo"``; ``""`` for none."""


def _save(value: Any) -> str:
    """A save as ``"3+"`` (the data writes some as ``"3"``), ``""`` for none (``"-"``, empty)."""
    text = str(value if value is not None else "").strip().rstrip("+")
    return f"{text}+" if text in ("2", "3", "4", "5", "6") else ""


def with_wargear(statline: Mapping[str, Any], items: Iterable[Item]) -> dict[str, Any]:
    """``statline`` with the saves and rules of ``items`` (see the module docstring); the same when none act."""
    out = dict(statline)
    for save, invulnerable, rule in items:
        for key, value in (("Save", save), ("Invulnerable", invulnerable)):
            own, value = _save(out.get(key)), _save(value)
            if value and own != best_save(own, value):
                out[key] = value
        if rule:
            rules = list(out.get("rules") or [])
            if rule not in rules:
                out["rules"] = [*rules, rule]
    return out
