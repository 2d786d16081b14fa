"""The modifiers a player expects, as the engine's rules and statlines (pure; no widgets, no figures).

Each modifier becomes a rule the engine computes exactly (docs/rules.md#to-hit-and-to-wound-modifiers):

- re-roll all failed hits: the weapon gains Twin-linked; all failed wounds: it gains Shred;
- re-roll hits or wounds of 1: the attacker's "Re-roll To Hit 1s" / "Re-roll To Wound 1s";
  Preferred Enemy: the attacker's "Preferred Enemy" (re-rolls 1s to hit and to wound);
- +1/-1 to hit: the attacker's "To Hit modifier (+1)"/"(-1)"; to wound: "To Wound modifier (+1)"/"(-1)"
  (the roll needed moves; the Strength, Instant Death and armour penetration do not);
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
    "modifier_rules",
    "modifiers_in_rules",
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


def modifier_rules(m: Modifiers) -> list[str]:
    """The attacker's rules the modifiers add (re-rolls of 1, Preferred Enemy, To Hit / To Wound modifiers)."""
    out = []
    if m.reroll_hits == "ones":
        out.append("Re-roll To Hit 1s")
    if m.reroll_wounds == "ones":
        out.append("Re-roll To Wound 1s")
    if m.preferred_enemy:
        out.append("Preferred Enemy")
    if m.to_hit:
        out.append(f"To Hit modifier ({m.to_hit:+d})")
    if m.to_wound:
        out.append(f"To Wound modifier ({m.to_wound:+d})")
    return out


def attacker_rules_with(rules: Any, m: Modifiers) -> list[Any]:
    """An attacker's ``rules`` with the modifiers' rules added, each once (a rule already there is kept)."""
    out = list(rules or [])
    have = {str(r).split("(")[0].strip().lower() for r in out}
    for rule in modifier_rules(m):
        if rule.split("(")[0].strip().lower() not in have:
            out.append(rule)
    return out


def modifiers_in_rules(rules: Any) -> dict[str, Any]:
    """The :class:`Modifiers` fields an attacker's ``rules`` carry (a saved setup read back): re-rolls of 1,
    Preferred Enemy and the To Hit / To Wound modifiers."""
    text = [str(r).strip() for r in (rules or [])]
    out: dict[str, Any] = {}
    if "Re-roll To Hit 1s" in text:
        out["reroll_hits"] = "ones"
    if "Re-roll To Wound 1s" in text:
        out["reroll_wounds"] = "ones"
    if any(r.startswith("Preferred Enemy") for r in text):
        out["preferred_enemy"] = True
    for field_name, rule in (("to_hit", "To Hit modifier"), ("to_wound", "To Wound modifier")):
        for r in text:
            m = re.fullmatch(re.escape(rule) + r"\s*\(([+-]1)\)", r)
            if m:
                out[field_name] = int(m.group(1))
    return out


def _weapon_with(w: Mapping[str, Any], m: Modifiers) -> dict[str, Any]:
    out = dict(w)
    out["Type"] = weapon_type_with(out.get("Type", ""), m)
    return out


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
    out["weapon"] = (
        [_weapon_with(w, m) for w in weapons] if isinstance(out.get("weapon"), list) else (_weapon_with(weapons[0], m))
    )
    if melee and m.charging and m.furious_charge:
        attacker["S"] = _shift(attacker.get("S", 4), 1)
    if melee and m.charging:
        attacker["charging"] = True
    rules = attacker_rules_with(attacker.get("rules", []), m)
    if rules != list(attacker.get("rules", [])):
        attacker["rules"] = rules
    notes: list[str] = []
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
    """Weapon catalog rows with the modifiers' weapon rules (Twin-linked, Shred) added to ``Type``; the
    attacker's rules are added by :func:`attacker_with`."""
    out = weapons.copy()
    for col in ("Type", "Type_clean"):  # the engine reads Type_clean when present
        if col in out:
            out[col] = out[col].astype(str).map(lambda t: weapon_type_with(t, m))
    return out


def attacker_with(attacker: Mapping[str, Any], m: Modifiers) -> dict[str, Any]:
    """The attacker block of a weapons x targets sweep: the modifiers' rules (re-rolls of 1, Preferred Enemy,
    To Hit and To Wound modifiers), charging and Furious Charge."""
    scenario, _ = apply_modifiers({"mode": "shooting", "attacker": attacker, "weapon": {}, "target": {}}, m)
    out = scenario["attacker"]
    if m.charging:
        out["charging"] = True
        if m.furious_charge:
            out["S"] = _shift(out.get("S", 4), 1)
    return out
