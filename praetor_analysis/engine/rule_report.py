"""Which rules of a volley were applied, had no effect, or are not modelled."""

from __future__ import annotations

from praetor_analysis.engine.volley import Volley
from praetor_analysis.engine.wound_stage import armourbane_active
from praetor_analysis.profiles.records import Unit
from praetor_analysis.rules.names import (
    MARKER_RULES,
    MELEE_ROUND_RULES,
    NO_EFFECT_RULES,
    UNIT_RULES,
    VEHICLE_ONLY_RULES,
    WOUND_CHAIN_RULES,
)


# --- rule bookkeeping ---------------------------------------------------------------------------
def classify_rules(volley: Volley, target: Unit, notes: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for every rule in the weapon, attacker and target."""
    applied: list[str] = []
    no_effect: list[str] = []
    missing: list[str] = []
    w = volley.weapon
    if w.type.kind and w.type.kind != "Melee":
        applied.append(f"{w.type.kind} {w.type.shots}" if w.type.shots and w.type.kind != "Rapid Fire" else w.type.kind)
    if w.strength.kind == "unknown":
        missing.append(f"Strength {w.strength.text}")
    haywire_target = target.has_type("Dreadnought") or target.has_type("Automata")
    for r in w.rules:
        name = r.name
        if not r.known:
            missing.append(r.text)
        elif name == "Haywire":
            (applied if haywire_target else no_effect).append(r.text)
        elif name == "Armourbane":
            (applied if haywire_target and armourbane_active(w, volley) else no_effect).append(r.text)
        elif name in {"Sniper", "Precision Shots", "Precision Strikes"}:
            no_effect.append(r.text)  # only who is allocated the wound: nothing on a uniform unit
        elif name in WOUND_CHAIN_RULES:
            applied.append(r.text)
        elif name in MARKER_RULES:
            (applied if volley.hits is not None else missing).append(r.text)
        elif name in VEHICLE_ONLY_RULES or name in NO_EFFECT_RULES:
            no_effect.append(r.text)
        elif name in {"Two-handed", "Specialist Weapon"} and volley.mode == "melee":
            applied.append(r.text)
        elif name in MELEE_ROUND_RULES:
            no_effect.append(r.text) if name in {"Unwieldy", "Reach"} else missing.append(r.text)
        else:
            missing.append(r.text)
    for who, unit in (("target", target), ("attacker", volley.attacker)):
        for r in unit.rules:
            if not r.known or r.name not in UNIT_RULES:
                missing.append(f"{who}: {r.text}")
            elif who == "target" or r.name == "Feel No Pain":
                applied.append(f"{who}: {r.text}")
            else:
                no_effect.append(f"{who}: {r.text}")
    applied.extend(notes)
    return applied, no_effect, missing
