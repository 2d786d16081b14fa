"""What a model's wargear does to its statline: the saves and unit rules of the items it carries.

An item may grant an armour save or an invulnerable save outright (``save``, ``invulnerable`` of the option
table, or read from a roster's wargear text), or be a unit rule the engine declares (Iron Halo, Refractor
Field). A save is the better of the statline's and the item's (saves do not add up); a rule joins the
statline's ``rules`` once. Used wherever a unit is fielded, so a target and an attacker alike carry them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from praetor_analysis.bsdata import best_save
from praetor_analysis.units.catalog_rows import Cell, UnitRow

__all__ = ["Item", "with_wargear"]

Item = tuple[str, str, str]
"""``(save, invulnerable, rules)`` of one wargear item: ``"2+"``, ``"4+"``, ``"Iron Halo"`` (rules ``;``-separated:
``"Invulnerable Save against Shooting (4+);Invulnerable Save in Melee (5+)"``); ``""`` for none."""


def _save(value: Cell | None) -> str:
    """A save as ``"3+"`` (the data writes some as ``"3"``), ``""`` for none (``"-"``, empty)."""
    text = str(value if value is not None else "").strip().rstrip("+")
    return f"{text}+" if text in ("2", "3", "4", "5", "6") else ""


def with_wargear(statline: UnitRow, items: Iterable[Item]) -> UnitRow:
    """``statline`` with the saves and rules of ``items`` (see the module docstring); the same when none act."""
    out = statline
    for save, invulnerable, rule in items:
        own, given = _save(out.Save), _save(save)
        if given and own != best_save(own, given):
            out = replace(out, Save=given)
        own, given = _save(out.Invulnerable), _save(invulnerable)
        if given and own != best_save(own, given):
            out = replace(out, Invulnerable=given)
        for one in filter(None, rule.split(";")):
            if one not in out.rules:
                out = replace(out, rules=(*out.rules, one))
    return out
