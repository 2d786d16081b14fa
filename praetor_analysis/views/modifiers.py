"""The modifiers a player expects, as the engine's rules and statlines (pure; no widgets, no figures).

Each modifier becomes something the engine already computes exactly, or is named in ``not_modelled``:

- re-roll all failed hits: the weapon gains Twin-linked; all failed wounds: it gains Shred;
- re-roll hits or wounds of 1, Preferred Enemy (re-roll 1s to hit and to wound): the engine has no
  re-roll of ones yet, so they are passed as the attacker's rule and listed under ``not_modelled``;
- +1/-1 to hit: BS (shooting) or WS (melee) +/-1 — exact for the shooting table up to BS 5;
- +1/-1 to wound: Strength +/-1 (so it also moves Instant Death and armour penetration);
- cover and Feel No Pain: the target's ``Cover`` and ``rules``; half range: the scenario's ``half_range``;
- charging: the attacker's ``charging`` (+1 Attack); Furious Charge: +1 Strength when charging in melee.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

__all__ = [
    "REROLL_CHOICES",
    "Modifiers",
    "apply_modifiers",
    "attacker_with",
    "modifier_names",
    "weapon_rows_with",
    "weapon_type_with",
]

REROLL_CHOICES: tuple[str, ...] = ("none", "ones", "all")


@dataclass(frozen=True)
class Modifiers:
    """The modifiers of a dashboard setup.

    Attributes:
        reroll_hits, reroll_wounds: ``"none"``, ``"ones"`` or ``"all"`` (failed rolls).
        to_hit, to_wound: -1, 0 or +1.
        cover, fnp: The target's cover save and Feel No Pain (``"-"`` for none).
        half_range: Shooting at half range.
        charging: The attacker charged (melee).
        preferred_enemy: Re-roll 1s to hit and to wound.
        furious_charge: +1 Strength on the charge (melee).
    """

    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    to_hit: int = 0
    to_wound: int = 0
    cover: str = "-"
    fnp: str = "-"
    half_range: bool = False
    charging: bool = False
    preferred_enemy: bool = False
    furious_charge: bool = False

    def __post_init__(self) -> None:
        for name in ("reroll_hits", "reroll_wounds"):
            if getattr(self, name) not in REROLL_CHOICES:
                raise ValueError(f"{name}: one of {REROLL_CHOICES}, got {getattr(self, name)!r}")
        for name in ("to_hit", "to_wound"):
            if getattr(self, name) not in (-1, 0, 1):
                raise ValueError(f"{name}: -1, 0 or +1, got {getattr(self, name)!r}")


def modifier_names(m: Modifiers, *, melee: bool = False) -> tuple[str, ...]:
    """The modifiers in force, in words (for the report's Assumptions)."""
    out = []
    if m.reroll_hits != "none":
        out.append(f"re-roll {'failed hits' if m.reroll_hits == 'all' else 'hit rolls of 1'}")
    if m.reroll_wounds != "none":
        out.append(f"re-roll {'failed wounds' if m.reroll_wounds == 'all' else 'wound rolls of 1'}")
    if m.to_hit:
        out.append(f"{m.to_hit:+d} to hit")
    if m.to_wound:
        out.append(f"{m.to_wound:+d} to wound")
    if m.cover not in ("", "-"):
        out.append(f"cover {m.cover}")
    if m.fnp not in ("", "-"):
        out.append(f"Feel No Pain ({m.fnp})")
    if m.preferred_enemy:
        out.append("Preferred Enemy")
    if melee and m.furious_charge:
        out.append("Furious Charge")
    return tuple(out)


def weapon_type_with(type_text: str, m: Modifiers) -> str:
    """A weapon's Type with the re-roll rules the modifiers add (Twin-linked, Shred), each once."""
    text = str(type_text or "")
    for wanted, rule in ((m.reroll_hits == "all", "Twin-linked"), (m.reroll_wounds == "all", "Shred")):
        if wanted and not re.search(re.escape(rule), text, flags=re.IGNORECASE):
            text = f"{text}, {rule}" if text.strip() else rule
    return text


def _shift(value: Any, by: int) -> Any:
    """A characteristic moved by ``by`` (1..10), or unchanged when not a number."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return value
    return min(max(n + by, 1), 10)


def _strength_with(text: Any, by: int) -> Any:
    """A weapon Strength moved by ``by``: ``"7"`` -> ``"8"``; ``"User"`` and ``"+1"`` stay (the attacker's S moves)."""
    s = str(text).strip()
    return str(_shift(s, by)) if s.isdigit() else text


def apply_modifiers(scenario: Mapping[str, Any], m: Modifiers) -> tuple[dict[str, Any], list[str]]:
    """A ``praetor calc`` scenario with the modifiers applied, and the notes on what is not modelled.

    Args:
        scenario: A scenario (``attacker``, ``weapon``, ``target``..., SCENARIO contract).
        m: The modifiers (the attacker's: in a whole round the target strikes back unmodified).
    """
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in scenario.items()}
    melee = out.get("mode") == "melee"
    attacker, target = dict(out.get("attacker", {})), dict(out.get("target", {}))
    weapons = out["weapon"] if isinstance(out.get("weapon"), list) else [out.get("weapon", {})]
    new_weapons = []
    for w in weapons:
        w = dict(w)
        w["Type"] = weapon_type_with(w.get("Type", ""), m)
        if m.to_wound and not melee:
            w["Strength"] = _strength_with(w.get("Strength"), m.to_wound)
        new_weapons.append(w)
    out["weapon"] = new_weapons if isinstance(out.get("weapon"), list) else new_weapons[0]
    if m.to_hit:
        key = "WS" if melee else "BS"
        attacker[key] = _shift(attacker.get(key, 4), m.to_hit)
    s_by = (m.to_wound if melee else 0) + (1 if melee and m.charging and m.furious_charge else 0)
    if s_by:
        attacker["S"] = _shift(attacker.get("S", 4), s_by)
    if melee and m.charging:
        attacker["charging"] = True
    notes = []
    if m.reroll_hits == "ones" or m.reroll_wounds == "ones" or m.preferred_enemy:
        rules = list(attacker.get("rules", []))
        if "Preferred Enemy" not in rules:
            rules.append("Preferred Enemy")
        attacker["rules"] = rules
        notes.append("re-rolls of 1 (Preferred Enemy): not modelled by the engine yet")
    if m.cover not in ("", "-"):
        target["Cover"] = m.cover
    vehicle = "vehicle" in str(target.get("Unit Type", "")).lower()
    if m.fnp not in ("", "-") and not vehicle:
        rules = [r for r in target.get("rules", []) if not str(r).startswith("Feel No Pain")]
        target["rules"] = [*rules, f"Feel No Pain ({m.fnp})"]
    if m.half_range and not melee:
        out["half_range"] = True
    out["attacker"], out["target"] = attacker, target
    return out, notes


def weapon_rows_with(weapons: pd.DataFrame, m: Modifiers) -> pd.DataFrame:
    """Weapon catalog rows with the modifiers' rules added to ``Type`` and, for +/-1 to wound, their
    numeric ranged Strength moved (melee weapons use the attacker's S: see :func:`attacker_with`)."""
    out = weapons.copy()
    for col in ("Type", "Type_clean"):  # the engine reads Type_clean when present
        if col in out:
            out[col] = out[col].astype(str).map(lambda t: weapon_type_with(t, m))
    if m.to_wound and "Strength" in out:
        ranged = ~out.get("Type", pd.Series("", index=out.index)).astype(str).str.contains("Melee")
        out.loc[ranged, "Strength"] = out.loc[ranged, "Strength"].map(lambda v: _strength_with(v, m.to_wound))
    return out


def attacker_with(attacker: Mapping[str, Any], m: Modifiers) -> dict[str, Any]:
    """The attacker block of a weapons x targets sweep: BS +/- to hit, S +/- to wound (melee weapons),
    charging and Furious Charge, and Preferred Enemy named (reported as not modelled)."""
    scenario, _ = apply_modifiers({"mode": "shooting", "attacker": attacker, "weapon": {}, "target": {}}, m)
    out = scenario["attacker"]
    if m.to_wound:
        out["S"] = _shift(out.get("S", 4), m.to_wound)
    if m.charging:
        out["charging"] = True
        if m.furious_charge:
            out["S"] = _shift(out.get("S", 4), 1)
    return out
