"""Read the scenario JSON (SCENARIO.md) into plain records for the brute-force oracle.

Written independently of praetor_analysis: nothing here imports the package.
Weapon rules that MECHANICS.md does not model and that could change the result raise NotImplementedError,
so that a test never compares the engine with an oracle that silently skipped a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Rules that cannot change hits, wounds, saves or casualties of one weapon against a uniform,
# non-vehicle unit (vehicle-only, initiative, targeting or bookkeeping rules).  Lower case.
IGNORED_WEAPON_RULES = {
    "melee",
    "two-handed",
    "specialist weapon",
    "unwieldy",
    "reach",
    "sunder",
    "lance",
    "exoshock",
    "skyfire",
    "one shot",
    "one use",
    "sniper",
    "precision shots",
    "precision strikes",
    "concussive",
    "blind",
    "barrage",
    "cumbersome",
    "ungainly",
}
# Target rules the oracle reads; every other target rule is ignored.
EXEMPT_FROM_PINNING = {"fearless", "pinned", "locked in combat", "embarked"}

_RULE = re.compile(r"^\s*(?P<name>[^()]*?)\s*(?:\((?P<value>[^()]*)\))?\s*$")
_DICE = re.compile(r"^\s*(?P<n>\d*)\s*[dD]\s*(?P<k>[36])\s*(?:(?P<sign>[+-])\s*(?P<c>\d+))?\s*$")


@dataclass(frozen=True)
class DiceExpr:
    """`n` dice with `faces` faces (3 or 6) plus `plus`; a plain integer has n = 0."""

    n: int
    faces: int
    plus: int


def dice_expr(value) -> DiceExpr:
    """Parse 3, "3", "D3", "D6", "2D6", "D6+1", "D3+1"."""
    if isinstance(value, bool):
        raise ValueError(f"not a dice expression: {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"negative count: {value}")
        return DiceExpr(0, 6, value)
    text = str(value).strip()
    if text.isdigit():
        return DiceExpr(0, 6, int(text))
    m = _DICE.match(text)
    if not m:
        raise ValueError(f"not a dice expression: {value!r}")
    plus = int(m["c"]) if m["c"] else 0
    if m["sign"] == "-":
        plus = -plus
    return DiceExpr(int(m["n"]) if m["n"] else 1, int(m["k"]), plus)


def split_rules(text: str) -> list[str]:
    """Split "Heavy 2, Blast (3\"), Rending (6+)" at the commas that are outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text or "":
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def rule_name_value(rule: str) -> tuple[str, str | None]:
    """("Rending", "6+") from "Rending (6+)"; ("Shred", None) from "Shred"."""
    m = _RULE.match(rule)
    if not m:
        return rule.strip().lower(), None
    return m["name"].strip().lower(), (m["value"].strip() if m["value"] is not None else None)


def plus_value(value: str | None, default: int | None = None) -> int | None:
    """ "4+" -> 4, "(2)" style "2" -> 2, None -> default."""
    if value is None:
        return default
    m = re.match(r"^\s*(\d+)\s*\+?\s*$", value)
    if not m:
        raise ValueError(f"bad rule value: {value!r}")
    return int(m[1])


def characteristic(value, *, dash=None) -> int | None:
    """4, "4", "3+" -> the number; "-" (or missing) -> `dash`."""
    if value is None:
        return dash
    if isinstance(value, int):
        return value
    text = str(value).strip().rstrip("+")
    if text in ("-", ""):
        return dash
    return int(text)


def rules_dict(rules) -> dict[str, str | None]:
    """Rule list -> {lower-case name: value or None}."""
    out = {}
    for rule in rules or []:
        name, value = rule_name_value(rule)
        out[name] = value
    return out


@dataclass(frozen=True)
class Weapon:
    strength: int
    ap: int  # 7 for "-" (never negates a save)
    shots: DiceExpr | None  # shots per model from the Type ("Melee" -> None)
    melee_type: bool
    rending: int | None = None
    breaching: int | None = None
    murderous: int | None = None
    poisoned: int | None = None
    shred: bool = False
    fleshbane: bool = False
    instant_death: bool = False
    brutal: int = 1
    deflagrate: bool = False
    gets_hot: bool = False
    twin_linked: bool = False
    master_crafted: bool = False
    ignores_cover: bool = False
    pinning: bool = False
    shell_shock: int = 0
    psychic_focus: bool = False
    armourbane: bool = False
    armourbane_variant: str = ""
    blast: bool = False
    template: bool = False
    two_handed: bool = False
    # the long tail
    graviton_pulse: bool = False  # a D6 against the target's S instead of the wound roll
    graviton_collapse: bool = False  # 2D6 against the target's S instead of the wound roll; no Shrouded
    data_djinn: bool = False  # never wounds units other than Automata, Dreadnoughts, vehicles, buildings
    six_ap: int | None = None  # Immaterial Blades: a wound roll of 6 at this AP
    six_unsavable: bool = False  # Synaptic Disruptor, Phase Shift: a 6 always wounds, no save or mitigation
    sanctic: bool = False  # Daemons wounded on 2+ (their passed invulnerable saves are not re-rolled here)
    curse: bool = False  # Curse of Dead Worlds: invulnerable saves one worse, down to 6+
    destructor: bool = False  # D6 wounds per unsaved wound (2D6 on large targets)
    moonsilver: bool = False  # two wounds per unsaved wound on Daemons and Psykers
    destroyer: bool = False  # D3 wounds per unsaved wound, the excess lost
    neutron_flux: bool = False  # Instant Death against Automata
    haywire: bool = False  # a D6 instead of the wound roll against Dreadnoughts, Automata and Mechanised
    entangle: bool = False  # the wound roll against the target's S; its wounds are discarded (never unsaved)
    molecular: bool = False  # Molecular Dissonance: a To Hit roll of 6 wounds without a roll
    check: str | None = None  # "force", "achean force" or "divine guidance": a Psychic check raising S


_SHOT_TYPES = ("heavy", "assault", "pistol", "ordnance", "rapid fire")


def parse_strength(value, attacker_s) -> int:
    """ "User" = attacker S; "+N" and "xN" modify it; capped at 10."""
    text = str(value).strip()
    low = text.lower()
    if text in ("*", "\u2020"):  # a footnote naming a Graviton rule: the weapon's Strength is never read
        return 0
    if low == "user":
        s = int(attacker_s)
    elif low.startswith("+"):
        s = int(attacker_s) + int(low[1:])
    elif low[:1] in ("x", "\u00d7"):
        s = int(attacker_s) * int(low[1:])
    else:
        s = int(text)
    return min(s, 10)


def parse_weapon(weapon: dict, attacker: dict) -> Weapon:
    fields: dict = {}
    shots: DiceExpr | None = None
    melee_type = False
    rules = split_rules(weapon.get("Type", "")) + list(weapon.get("rules", []))
    if str(weapon.get("Range", "")).strip().lower() in ("template", "hellstorm"):
        fields["template"] = True  # a template weapon (Hellstorm: the larger template) whatever its Type says
    for rule in rules:
        low = rule.strip().lower()
        if low == "melee":
            melee_type = True
            continue
        kind = next((t for t in _SHOT_TYPES if low == t or low.startswith(t + " ")), None)
        if kind is not None:
            count = low[len(kind) :].strip()
            shots = dice_expr(count if count else 1)
            continue
        name, value = rule_name_value(rule)
        if "blast" in name or name == "barrage":
            fields["blast"] = True
        elif "template" in name or name == "hellstorm":
            fields["template"] = True
        elif name == "rending":
            fields["rending"] = plus_value(value)
        elif name == "breaching":
            fields["breaching"] = plus_value(value)
        elif name == "murderous strike":
            fields["murderous"] = plus_value(value)
        elif name == "poisoned":
            fields["poisoned"] = plus_value(value, 4)
        elif name == "shred":
            fields["shred"] = True
        elif name == "fleshbane":
            fields["fleshbane"] = True
        elif name == "instant death":
            fields["instant_death"] = True
        elif name == "brutal":
            fields["brutal"] = plus_value(value, 1)
        elif name == "deflagrate":
            fields["deflagrate"] = True
        elif name == "gets hot":
            fields["gets_hot"] = True
        elif name == "twin-linked":
            fields["twin_linked"] = True
        elif name == "master-crafted":
            fields["master_crafted"] = True
        elif name == "ignores cover":
            fields["ignores_cover"] = True
        elif name == "pinning":
            fields["pinning"] = True
        elif name == "shell shock":
            fields["shell_shock"] = plus_value(value)
        elif name in ("psychic focus", "cybertheurgic focus"):  # a Cybertheurgy check is the same test
            fields["psychic_focus"] = True
        elif name == "armourbane":
            fields["armourbane"] = True
            fields["armourbane_variant"] = (value or "").lower()  # "melta": half range only; "melee", "ranged"
        elif name == "graviton pulse":
            fields["graviton_pulse"] = True
        elif name == "graviton collapse":
            fields["graviton_collapse"] = True
        elif name == "data-djinn":
            fields["data_djinn"] = True
        elif name == "immaterial blades":
            fields["six_ap"] = int(str(value).upper().replace("AP", ""))
        elif name in ("synaptic disruptor", "phase shift"):
            fields["six_unsavable"] = True
        elif name == "sanctic":
            fields["sanctic"] = True
        elif name == "curse of dead worlds":
            fields["curse"] = True
        elif name == "destructor":
            fields["destructor"] = True
        elif name == "moonsilver":
            fields["moonsilver"] = True
        elif name == "destroyer":
            fields["destroyer"] = True
        elif name == "neutron-flux":
            fields["neutron_flux"] = True
        elif name == "haywire":
            fields["haywire"] = True
        elif name == "entangle":
            fields["entangle"] = True
        elif name == "molecular dissonance":
            fields["molecular"] = True
        elif name in ("force", "achean force", "divine guidance"):
            if fields.get("check") is not None:
                raise NotImplementedError("the oracle takes one Psychic check rule per weapon")
            fields["check"] = name
        elif name in IGNORED_WEAPON_RULES:
            if name == "two-handed":
                fields["two_handed"] = True
        else:
            raise NotImplementedError(f"oracle does not model weapon rule {rule!r}")
    if fields.get("rending") is not None and not 2 <= fields["rending"] <= 6:
        raise ValueError(f"bad Rending value {fields['rending']}")
    return Weapon(
        strength=parse_strength(weapon["Strength"], attacker.get("S", 0)),
        ap=characteristic(weapon.get("AP", "-"), dash=7),
        shots=shots,
        melee_type=melee_type,
        **fields,
    )


@dataclass(frozen=True)
class Target:
    models: int
    wounds: int  # W of each model
    wounds_taken: int  # already lost by the model being worked on
    toughness: int
    ws: int
    ld: int
    save: int | None
    invulnerable: int | None
    cover: int | None
    feel_no_pain: int | None
    shrouded: int | None
    eternal_warrior: bool
    fearless: bool
    exempt_from_pinning: bool
    heavy: bool  # sub-type (Heavy)
    dreadnought_or_automata: bool
    mechanised: bool = False  # the Mechanised sub-type: Armourbane re-rolls failed wounds against it
    toxin_resistant: bool = False  # Dreadnought, Automata, Mechanised (not Gargantuan): re-roll toxin wounds
    ignores_ld_penalties: bool = False  # Stubborn or Inexorable: no Shell Shock
    strength: int | None = None
    daemon: bool = False
    psyker: bool = False
    large: bool = False  # Knight, Titan, Super-heavy, building or Monstrous: Destructor does 2D6
    automata: bool = False
    primarch: bool = False
    name: str = ""
    unit_type: str = "Infantry"
    battle_hardened: int = 0  # Battle-Hardened (X): T counts X higher for the Strength's Instant Death
    swarm: bool = False  # Swarm: an unsaved Blast or Template wound (not Instant Death) is two wounds
    aegis: int | None = None  # Malefic Aegis (X): an invulnerable save of X+ (the better one is taken)
    adamantium: int | None = None  # Adamantium Will (X): an invulnerable X+ (5+ bare) against Force weapons
    # saves of one phase (wargear: Corswain's 3+ invulnerable against close combat attacks): (melee, shooting)
    phase_invulnerable: tuple[int | None, int | None] = (None, None)
    phase_armour: tuple[int | None, int | None] = (None, None)


def parse_target(target: dict) -> Target:
    unit_type = str(target.get("Unit Type", "Infantry"))
    if "vehicle" in unit_type.lower():
        raise NotImplementedError("the oracle covers non-vehicle targets only")
    rules = rules_dict(target.get("rules"))
    sub_types = re.findall(r"\(([^()]*)\)", unit_type)
    sub_types = {s.strip().lower() for group in sub_types for s in group.split(",")}
    low = unit_type.lower()
    # the unit-type rules of the game system file: Fearless for Dreadnoughts, Automata, Primarchs and the
    # Gargantuan sub-type, Eternal Warrior for the last two; Cavalry, Monstrous and Daemons never end Pinned
    typed_fearless = any(k in low for k in ("dreadnought", "automata", "primarch", "gargantuan"))
    typed_eternal = any(k in low for k in ("primarch", "gargantuan"))
    never_pinned = any(k in low for k in ("cavalry", "monstrous", "daemon"))
    return Target(
        models=int(target.get("models", 1)),
        wounds=int(characteristic(target.get("W", 1))),
        wounds_taken=int(target.get("wounds_taken", 0)),
        toughness=int(characteristic(target["T"])),
        ws=int(characteristic(target.get("WS", 0), dash=0)),
        ld=int(characteristic(target.get("Ld", 0), dash=0)),
        save=characteristic(target.get("Save", "-")),
        invulnerable=characteristic(target.get("Invulnerable", "-")),
        cover=characteristic(target.get("Cover", "-")),
        feel_no_pain=plus_value(rules["feel no pain"], 6) if "feel no pain" in rules else None,
        shrouded=plus_value(rules["shrouded"], 6) if "shrouded" in rules else None,
        eternal_warrior="eternal warrior" in rules or typed_eternal,
        fearless="fearless" in rules or typed_fearless,
        exempt_from_pinning=bool(EXEMPT_FROM_PINNING & set(rules)) or typed_fearless or never_pinned,
        heavy="heavy" in sub_types,
        dreadnought_or_automata=("dreadnought" in unit_type.lower() or "automata" in unit_type.lower()),
        mechanised="mechanised" in sub_types,
        toxin_resistant=any(k in unit_type.lower() for k in ("dreadnought", "automata", "mechanised")),
        ignores_ld_penalties="stubborn" in rules or "inexorable" in rules,
        strength=characteristic(target["S"]) if "S" in target else None,
        daemon="daemon" in unit_type.lower(),
        psyker="psyker" in unit_type.lower(),
        large=any(w in unit_type.lower() for w in ("knight", "titan", "super-heavy", "monstrous", "building")),
        automata="automata" in low,
        primarch="primarch" in low,
        name=str(target.get("name", "")),
        unit_type=unit_type,
        battle_hardened=(int(rules["battle-hardened"] or 1) if "battle-hardened" in rules else 0),
        swarm="swarm" in rules,
        aegis=min(
            ([plus_value(rules["malefic aegis"])] if "malefic aegis" in rules else [])
            + [4] * ("iron halo" in rules)
            + [5] * ("refractor field" in rules),
            default=None,
        ),  # Malefic Aegis (X), Iron Halo 4+, Refractor Field 5+: invulnerable saves, the best one taken
        adamantium=plus_value(rules["adamantium will"], 5) if "adamantium will" in rules else None,
        phase_invulnerable=(
            _given(rules, "invulnerable save in melee"),
            _given(rules, "invulnerable save against shooting"),
        ),
        phase_armour=(_given(rules, "armour save in melee"), _given(rules, "armour save against shooting")),
    )


def _given(rules: dict[str, str | None], name: str) -> int | None:
    """The X of a rule ``name (X+)`` the target carries, None when it carries none."""
    return plus_value(rules[name]) if name in rules else None


@dataclass(frozen=True)
class Attacker:
    models: int
    bs: int
    ws: int
    ld: int
    attacks: int  # A per model, with the charge and second-weapon bonuses
    save: int | None
    invulnerable: int | None
    feel_no_pain: int | None
    # re-rolls of 1 and modifiers (docs/rules.md#to-hit-and-to-wound-modifiers)
    preferred_enemy: str | None = None  # None: no Preferred Enemy; "": every target; else X (name or Unit Type)
    reroll_hit_ones: bool = False
    reroll_wound_ones: bool = False
    hit_modifier: int = 0  # added to the natural face
    wound_modifier: int = 0
    night_vision: bool = False  # no Shrouded roll against its attacks


def signed(value: str | None) -> int:
    """ "+1" -> 1, "-1" -> -1."""
    m = re.match(r"^\s*([+-])\s*(\d)\s*$", value or "")
    if not m:
        raise ValueError(f"bad modifier: {value!r}")
    return int(m[2]) if m[1] == "+" else -int(m[2])


def parse_attacker(attacker: dict, weapon: Weapon) -> Attacker:
    rules = rules_dict(attacker.get("rules"))
    a = int(characteristic(attacker.get("A", 1), dash=0))
    if attacker.get("charging"):
        a += 1
    if attacker.get("two_weapons") and not weapon.two_handed:
        a += 1
    return Attacker(
        models=int(attacker.get("models", 1)),
        bs=int(characteristic(attacker.get("BS", 0), dash=0)),
        ws=int(characteristic(attacker.get("WS", 0), dash=0)),
        ld=int(characteristic(attacker.get("Ld", 0), dash=0)),
        attacks=a,
        save=characteristic(attacker.get("Save", "-")),
        invulnerable=characteristic(attacker.get("Invulnerable", "-")),
        feel_no_pain=plus_value(rules["feel no pain"], 6) if "feel no pain" in rules else None,
        preferred_enemy=(rules["preferred enemy"] or "") if "preferred enemy" in rules else None,
        reroll_hit_ones="re-roll to hit 1s" in rules,
        reroll_wound_ones="re-roll to wound 1s" in rules or "marked for death" in rules,  # the target is marked
        night_vision="night vision" in rules,
        hit_modifier=signed(rules["to hit modifier"]) if "to hit modifier" in rules else 0,
        wound_modifier=signed(rules["to wound modifier"]) if "to wound modifier" in rules else 0,
    )
