"""HH3 scenario documents for the engine-against-oracle tests: a named table and a seeded generator.

Profiles from the HH3 BSData's Weapons.json (bolter, lascannon, autocannon, heavy bolter, multi-melta,
power fist, power sword, chainsword; krak grenades from the rosters, MECHANICS-HH3 section 10) and the core
rules' Rhino.  Every document is small enough for tests/oracle/hh3 to enumerate every die.
"""

from __future__ import annotations

import random

BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "-", "Traits": "Bolt"}
LASCANNON = {"name": "Lascannon", "R": 48, "FP": 1, "RS": 9, "AP": 2, "D": 1,
             "Special Rules": "Heavy (D), Armourbane", "Traits": "Las"}  # fmt: skip
AUTOCANNON = {"name": "Autocannon", "R": 48, "FP": 2, "RS": 7, "AP": 4, "D": 2,
              "Special Rules": "Breaching (6+), Heavy (FP)", "Traits": "Auto"}  # fmt: skip
HEAVY_BOLTER = {"name": "Heavy bolter", "R": 36, "FP": 3, "RS": 5, "AP": 4, "D": 1, "Special Rules": "Heavy (FP)",
                "Traits": "Bolt"}  # fmt: skip
MULTI_MELTA = {"name": "Multi-melta", "R": 24, "FP": 1, "RS": 8, "AP": 2, "D": 3,
               "Special Rules": "Heavy (RS), Melta (8)", "Traits": "Melta"}  # fmt: skip
POWER_FIST = {"name": "Power fist", "IM": "-3", "AM": "A", "SM": "+4", "AP": 2, "D": 2, "Special Rules": "",
              "Traits": "Power"}  # fmt: skip
POWER_SWORD = {"name": "Power sword", "IM": "I", "AM": "A", "SM": "S", "AP": 3, "D": 1,
               "Special Rules": "Breaching (6+)", "Traits": "Power"}  # fmt: skip
CHAINSWORD = {"name": "Chainsword", "IM": "I", "AM": "A", "SM": "S", "AP": 5, "D": 1, "Special Rules": "Shred (6+)",
              "Traits": "Chain"}  # fmt: skip
KRAK = {"name": "Krak grenades", "IM": "-3", "AM": "1", "SM": "6", "AP": 4, "D": 2, "Special Rules": "Detonation",
        "Traits": ""}  # fmt: skip
CCW = {"name": "Close combat weapon", "IM": "I", "AM": "A", "SM": "S", "AP": "-", "D": 1, "Special Rules": "",
       "Traits": ""}  # fmt: skip

LEGIONARIES = {"name": "Legionaries", "Type": "Infantry", "models": 10, "M": 7, "WS": 4, "BS": 4, "S": 4, "T": 4,
               "W": 1, "I": 4, "A": 1, "LD": 7, "CL": 7, "WP": 7, "IN": 7, "SAV": "3+", "INV": "-"}  # fmt: skip
TERMINATORS = {"name": "Terminators", "Type": "Infantry (Heavy)", "models": 3, "WS": 4, "S": 4, "T": 4, "W": 2, "I": 4,
               "A": 2, "LD": 8, "CL": 8, "SAV": "2+", "INV": "4+"}  # fmt: skip
RHINO = {"name": "Rhino", "Type": "Vehicle (Transport)", "BS": 4, "Front Armour": 12, "Side Armour": 11,
         "Rear Armour": 10, "HP": 5}  # fmt: skip
ATTACKER = {"BS": 4, "WS": 4, "S": 4, "I": 4, "A": 1, "T": 4, "W": 1, "LD": 7, "CL": 7, "SAV": "3+", "models": 1}


def doc(weapon: dict, target: dict, *, attacker: dict | None = None, **extra) -> dict:
    d = {
        "edition": "hh3",
        "attacker": {**ATTACKER, **(attacker or {})},
        "weapon": dict(weapon),
        "target": dict(target),
    }
    d.update(extra)
    return d


def w(base: dict, **change) -> dict:
    """A weapon profile with some characteristics changed (`rules` sets Special Rules)."""
    out = dict(base)
    if "rules" in change:
        out["Special Rules"] = change.pop("rules")
    out.update(change)
    return out


def t(base: dict, **change) -> dict:
    return {**base, **change}


LEG3 = t(LEGIONARIES, models=3)
TABLE: list[tuple[str, dict]] = [
    # --- shooting against units of models
    ("bolter_squad_10_v_legionaries", doc(BOLTER, LEGIONARIES, attacker={"models": 10})),
    ("bolter_pair_v_legionaries", doc(BOLTER, LEG3, attacker={"models": 2})),
    ("bolter_pinning", doc(w(BOLTER, rules="Pinning (1)"), LEG3, attacker={"models": 2})),
    ("lascannon_v_legionaries", doc(LASCANNON, LEG3)),
    ("lascannon_stationary_v_terminators", doc(LASCANNON, TERMINATORS, attacker={"models": 2}, stationary=True)),
    ("autocannon_stationary_v_terminators", doc(AUTOCANNON, TERMINATORS, stationary=True)),
    ("heavy_bolter_stationary", doc(HEAVY_BOLTER, LEG3, stationary=True)),
    ("heavy_bolter_moving", doc(HEAVY_BOLTER, LEG3)),
    ("rending_6_v_t8", doc(w(BOLTER, rules="Rending (6+)"), t(LEG3, T=8), attacker={"models": 2})),
    ("rending_4_shred_5_w2", doc(w(BOLTER, rules="Rending (4+), Shred (5+)"), t(LEG3, W=2), attacks=3)),
    ("breaching_5", doc(w(BOLTER, rules="Breaching (5+)"), LEG3, attacker={"models": 2})),
    ("breaching_shred_d3_w3", doc(w(BOLTER, rules="Breaching (5+), Shred (6+)", D="D3"), t(LEG3, W=3), attacks=3)),
    ("critical_hit_5_w2", doc(w(BOLTER, rules="Critical Hit (5+)"), t(LEG3, W=2), attacks=3)),
    ("bs7_band_w2", doc(BOLTER, t(LEG3, W=2), attacker={"BS": 7, "models": 2})),
    ("bs9_band_beats_rending", doc(w(BOLTER, rules="Rending (4+)"), t(LEG3, W=2), attacker={"BS": 9}, attacks=3)),
    ("bs6_band_and_critical_hit_4", doc(w(BOLTER, rules="Critical Hit (4+)"), t(LEG3, W=3), attacker={"BS": 6})),
    ("bs10_automatic", doc(BOLTER, t(LEG3, W=2), attacker={"BS": 10})),
    ("snap_shots_bs4", doc(BOLTER, LEG3, attacker={"models": 2}, snap_shots=True)),
    ("snap_shots_bs1_none", doc(w(BOLTER, rules="Overload (1)"), LEG3, attacker={"BS": 1}, snap_shots=True)),
    ("snap_shots_bs8_no_band", doc(BOLTER, t(LEG3, W=2), attacker={"BS": 8}, snap_shots=True)),
    ("poisoned_4_v_t8", doc(w(BOLTER, rules="Poisoned (4+)"), t(LEG3, T=8), attacker={"models": 2})),
    ("poisoned_3_v_walker", doc(w(BOLTER, rules="Poisoned (3+)"), t(LEG3, T=7, Type="Walker", W=2), attacks=3)),
    ("deflagrate_4", doc(w(BOLTER, rules="Deflagrate (4)"), LEG3, attacker={"models": 2})),
    ("deflagrate_w2_d2", doc(w(BOLTER, rules="Deflagrate (5)", D=2), t(LEG3, W=2), attacks=3)),
    (
        "deflagrate_eternal_warrior_w2",
        doc(
            w(BOLTER, rules="Deflagrate (6)", D=2, AP=4),
            t(LEG3, W=2, rules=["Eternal Warrior (1)", "Feel No Pain (6+)"]),
            attacks=3,
        ),
    ),
    ("feel_no_pain_5", doc(BOLTER, t(LEG3, rules=["Feel No Pain (5+)"]), attacker={"models": 2})),
    ("shrouded_and_cover", doc(LASCANNON, t(LEG3, Cover="5+", rules=["Shrouded (5+)"]), attacks=3)),
    ("eternal_warrior_d3", doc(w(BOLTER, D="D3", AP=2), t(LEG3, W=3, rules=["Eternal Warrior (1)"]), attacks=3)),
    (
        "ordnance_d_stationary",
        doc(w(BOLTER, rules="Ordnance (D)", FP=1, D=2), t(LEG3, W=4), attacks=2, stationary=True),
    ),
    ("ordnance_ap_stationary", doc(w(BOLTER, rules="Ordnance (AP)"), LEG3, attacks=3, stationary=True)),
    ("heavy_ap_stationary", doc(w(BOLTER, rules="Heavy (AP)", AP=4), LEG3, attacks=3, stationary=True)),
    ("heavy_rs_stationary", doc(w(BOLTER, rules="Heavy (RS)"), LEG3, attacks=3, stationary=True)),
    (
        "largest_damage_first",
        doc(
            w(BOLTER, rules="Rending (4+), Shred (5+)"),
            t(LEG3, W=2),
            attacks=3,
            options={"group_order": "largest_damage_first"},
        ),
    ),
    (
        "group_order_created_b_then_bs",
        doc(w(BOLTER, rules="Breaching (4+), Shred (6+)", AP="-"), t(LEG3, W=2, models=2, SAV="-"), attacks=3),
    ),
    (
        "group_order_largest_bs_then_b",
        doc(
            w(BOLTER, rules="Breaching (4+), Shred (6+)", AP="-"),
            t(LEG3, W=2, models=2, SAV="-"),
            attacks=3,
            options={"group_order": "largest_damage_first"},
        ),
    ),
    ("precision_changes_nothing", doc(w(BOLTER, rules="Precision (5+)"), t(LEG3, W=2), attacks=3)),
    ("suppressive_stun_panic", doc(w(BOLTER, rules="Suppressive (1), Stun (0), Panic (1)"), LEG3, attacks=3)),
    ("pinning_heavy_subtype", doc(w(BOLTER, rules="Pinning (2)"), TERMINATORS, attacks=3)),
    ("routed_by_casualties_4_models", doc(w(BOLTER, AP="-"), t(LEG3, models=4, SAV="-"), attacks=3)),
    ("overload_2", doc(w(BOLTER, rules="Overload (2)"), LEG3, attacks=3)),
    ("blast_given_hits", doc(w(BOLTER, FP=1, RS=5, AP=4, rules="Blast (3)", D=1), LEG3, hits="D3")),
    ("template_given_hits_pinning", doc(w(BOLTER, FP=1, R="Template", rules="Template, Panic (1)"), LEG3, hits=3)),
    (
        "template_hits_do_not_ignore_cover",
        doc(w(BOLTER, R="Template", rules="Template", AP=4), t(LEG3, Cover="4+"), hits=3),
    ),
    (
        "template_overload_rolls_fp_dice",
        doc(w(BOLTER, R="Template", FP=2, rules="Template, Overload (2)"), LEG3, attacker={"models": 2}, hits=4),
    ),
    ("invulnerable_better_than_armour", doc(LASCANNON, TERMINATORS, attacks=3)),
    # --- vehicles
    ("lascannon_v_rhino_front", doc(LASCANNON, RHINO)),
    ("lascannon_stationary_v_rhino_side", doc(LASCANNON, t(RHINO, facing="Side"), attacks=3, stationary=True)),
    ("multi_melta_in_range_v_rhino", doc(MULTI_MELTA, RHINO, attacks=2, range=6)),
    ("multi_melta_out_of_range", doc(MULTI_MELTA, RHINO, attacks=2, range=12, stationary=True)),
    ("multi_melta_in_range_no_trait", doc(w(MULTI_MELTA, Traits=""), RHINO, attacks=2, range=6)),
    ("multi_melta_out_of_range_no_trait", doc(w(MULTI_MELTA, Traits=""), RHINO, attacks=2, range=12, stationary=True)),
    (
        "melta_x2_before_critical_and_armour_breaker",
        doc(
            w(MULTI_MELTA, D=1, Traits="", rules="Melta (6), Armour-breaker (4+)"),
            t(RHINO, facing="Rear", HP=9),
            attacker={"BS": 10},
            attacks=2,
            range=3,
        ),
    ),
    (
        "ordnance_rs_past_ten_on_a_vehicle",
        doc(w(BOLTER, FP=1, RS=6, rules="Ordnance (RS)", D=1), RHINO, attacks=3, stationary=True),
    ),
    ("bolters_v_rhino_rear_glances", doc(BOLTER, t(RHINO, facing="Rear"), attacker={"models": 2})),
    ("armour_breaker_4", doc(w(AUTOCANNON, rules="Armour-breaker (4+)"), t(RHINO, facing="Side"), attacks=3)),
    ("bs8_critical_v_vehicle", doc(w(LASCANNON, rules="Armourbane"), RHINO, attacker={"BS": 8}, attacks=3)),
    (
        "critical_wasted_v_vehicle",
        doc(LASCANNON, RHINO, attacker={"BS": 8}, attacks=3, options={"critical_vs_vehicle": "wasted"}),
    ),
    ("shock_pinned_v_rhino", doc(w(BOLTER, rules="Shock (Pinned)", RS=6), RHINO, attacks=3)),
    ("vehicle_inv_cover_fnp", doc(LASCANNON, t(RHINO, INV="5+", Cover="4+", rules=["Feel No Pain (6+)"]), attacks=3)),
    ("super_heavy_glances_cost_hp", doc(w(BOLTER, RS=6), t(RHINO, Type="Vehicle (Super-heavy)", HP=2), attacks=3)),
    (
        "knight_side_uses_rear",
        doc(
            LASCANNON,
            {"name": "Knight", "Type": "Vehicle (Knight)", "WS": 5, "Front": 12, "Rear": 11, "HP": 2, "facing": "Side"},
            attacks=3,
        ),
    ),
    (
        "apt_natural_one_allowed",
        doc(LASCANNON, t(RHINO, facing="Rear"), attacks=2, options={"apt_natural_one_fails": False}),
    ),
    (
        "rending_breaching_nothing_v_vehicle",
        doc(w(AUTOCANNON, rules="Rending (5+), Breaching (4+), Shred (4+)"), t(RHINO, facing="Rear", HP=3), attacks=3),
    ),
    # --- melee, one way
    ("power_fist_v_legionaries", doc(POWER_FIST, LEG3, mode="melee", attacker={"A": 2})),
    ("power_fist_v_terminators", doc(POWER_FIST, TERMINATORS, mode="melee", attacker={"A": 2, "WS": 5})),
    ("power_sword_breaching", doc(POWER_SWORD, LEG3, mode="melee", attacker={"A": 3, "WS": 5})),
    ("chainsword_shred_w2", doc(CHAINSWORD, t(LEG3, W=2), mode="melee", attacker={"A": 2, "models": 2})),
    ("krak_grenade_v_rhino_rear", doc(KRAK, RHINO, mode="melee", attacker={"models": 3})),
    ("power_fist_v_rhino", doc(POWER_FIST, RHINO, mode="melee", attacker={"A": 3})),
    ("melee_rending_ws_table", doc(w(CCW, rules="Rending (5+)"), t(LEG3, WS=7), mode="melee", attacker={"A": 3})),
    (
        "melee_critical_hit_am_x2",
        doc(w(CCW, AM="x2", rules="Critical Hit (6+)"), t(LEG3, W=2), mode="melee", attacker={"A": 2, "WS": 6}),
    ),
    (
        "melee_pinning_does_nothing",
        doc(w(CCW, rules="Pinning (2), Panic (2)"), LEG3, mode="melee", attacker={"A": 3}),
    ),
    (
        "melee_deflagrate_no_cover",
        doc(
            w(CCW, rules="Deflagrate (5)"),
            t(LEG3, Cover="4+", rules=["Shrouded (4+)"]),
            mode="melee",
            attacker={"A": 3},
        ),
    ),
    (
        "melee_shock_v_walker",
        doc(
            w(CCW, SM="+3", rules="Shock (Pinned)"),
            t(LEG3, Type="Walker", T=7, W=3, models=1),
            mode="melee",
            attacker={"A": 3},
        ),
    ),
    ("melee_shock_v_rhino", doc(w(CCW, SM="+3", rules="Shock (Pinned)"), RHINO, mode="melee", attacker={"A": 3})),
    (
        "melee_shock_v_bare_knight_type",
        doc(
            w(CCW, SM="+2", rules="Shock (Suppressed), Armourbane"),
            {"name": "Knight", "Type": "Knight", "WS": 5, "Front": 12, "Rear": 10, "HP": 3},
            mode="melee",
            attacker={"A": 2, "models": 2},
        ),
    ),
    (
        "melee_shock_v_knight",
        doc(
            w(CCW, SM="+2", rules="Shock (Suppressed), Armourbane"),
            {"name": "Knight", "Type": "Vehicle (Knight)", "WS": 5, "Front": 12, "Rear": 10, "HP": 3},
            mode="melee",
            attacker={"A": 2, "models": 2},
        ),
    ),
    # --- a whole round
    ("round_fist_v_chainsword", doc(POWER_FIST, t(LEG3, models=1), mode="melee", target_weapon=CHAINSWORD)),
    (
        "round_same_initiative",
        doc(CHAINSWORD, t(LEG3, models=2), mode="melee", target_weapon=CCW, attacker={"models": 2}),
    ),
    (
        "round_sword_v_fist",
        doc(
            POWER_SWORD,
            t(TERMINATORS, models=1, A=1),
            mode="melee",
            target_weapon=POWER_FIST,
            attacker={"models": 2, "A": 1, "I": 5},
        ),
    ),
]


def volley(weapon: dict, *, attacker: dict | None = None, **extra) -> dict:
    return {"attacker": {**ATTACKER, **(attacker or {})}, "weapon": dict(weapon), **extra}


def sequence(target: dict, units: list[list[dict]], **extra) -> dict:
    return {"edition": "hh3", "target": dict(target), "firing_units": units, **extra}


TABLE += [
    # --- several Fire Groups and attacks in sequence (firing_units)
    ("sequence_pinning_two_attacks", sequence(t(LEG3, models=4), [[volley(w(BOLTER, rules="Pinning (2)"), attacks=2)],
                                                                  [volley(w(BOLTER, rules="Pinning (0)"), attacks=2)]])),
    ("sequence_bolters_then_lascannon_w2", sequence(t(TERMINATORS, SAV="3+", INV="-"),
                                                    [[volley(BOLTER, attacks=2), volley(LASCANNON, attacks=1)]])),
    ("sequence_two_attacks_quarter_check", sequence(t(LEG3, models=4, SAV="-"), [[volley(BOLTER, attacks=2)],
                                                                                 [volley(BOLTER, attacks=2)]])),
    ("sequence_largest_x_of_the_attack", sequence(t(LEG3, T=8, SAV="-", Type="Infantry (Heavy)"), [[
        volley(w(BOLTER, RS=1, rules="Pinning (3)"), attacks=1),
        volley(w(BOLTER, RS=8, rules="Pinning (0)"), attacks=2)]], )),
    # the same for the other Check rules: the attack's largest X, whichever weapon triggered (on a hit or a wound)
    ("sequence_largest_x_suppressive", sequence(t(LEG3, Type="Infantry (Heavy)"), [[
        volley(w(BOLTER, rules="Suppressive (3)"), attacks=1, attacker={"BS": 2}),
        volley(w(BOLTER, rules="Suppressive (1)"), attacks=2)]], )),
    ("sequence_largest_x_stun_panic", sequence(t(LEG3, T=8, SAV="-"), [[
        volley(w(BOLTER, RS=1, rules="Panic (2), Stun (0)"), attacks=1, attacker={"BS": 2}),
        volley(w(BOLTER, RS=8, rules="Panic (0), Stun (2)"), attacks=2)]], )),
    ("sequence_v_rhino", sequence(t(RHINO, facing="Side"), [[volley(LASCANNON, attacks=2)],
                                                            [volley(MULTI_MELTA, attacks=1, range=6)]])),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------- generator
RANGED_RULES = ["Rending ({}+)", "Breaching ({}+)", "Shred ({}+)", "Critical Hit ({}+)", "Poisoned ({}+)",
                "Precision ({}+)", "Deflagrate ({})", "Pinning ({})", "Suppressive ({})", "Stun ({})",
                "Panic ({})", "Heavy (D)", "Heavy (RS)", "Heavy (AP)", "Ordnance (D)"]  # fmt: skip
VEHICLE_RULES = ["Armourbane", "Armour-breaker ({}+)", "Critical Hit ({}+)", "Melta (6)", "Heavy (D)",
                 "Rending ({}+)", "Shock (Stunned)"]  # fmt: skip
MELEE_RULES = ["Rending ({}+)", "Breaching ({}+)", "Shred ({}+)", "Critical Hit ({}+)", "Poisoned ({}+)"]


def _rule(rng: random.Random, pattern: str) -> str:
    if pattern.endswith("+)"):
        return pattern.format(rng.choice([3, 4, 5, 6]))
    return pattern.format(rng.choice([0, 1, 2, 3]))


def _rules(rng: random.Random, pool: list[str], most: int) -> str:
    """Up to `most` rules of the pool, one variant of each name (a weapon has one Heavy (X), one Shock (X))."""
    chosen, names = [], set()
    for pattern in rng.sample(pool, rng.randint(0, most)):
        name = pattern.split(" (")[0]
        if name not in names:
            names.add(name)
            chosen.append(_rule(rng, pattern))
    return ", ".join(chosen)


def _save(rng: random.Random, choices: list) -> str:
    return rng.choice(choices)


def _target(rng: random.Random) -> dict:
    rules = rng.sample([rng.choice(["Feel No Pain (5+)", "Feel No Pain (6+)"]), "Shrouded (5+)", "Eternal Warrior (1)"],
                       rng.randint(0, 2))  # fmt: skip
    return {
        "name": "generated",
        "Type": rng.choice(["Infantry", "Infantry", "Infantry (Heavy)"]),
        "models": rng.randint(1, 3),
        "WS": rng.randint(2, 8),
        "S": rng.randint(3, 5),
        "T": rng.randint(3, 8),
        "W": rng.randint(1, 3),
        "I": rng.randint(1, 6),
        "A": rng.randint(1, 2),
        "LD": rng.randint(5, 9),
        "CL": rng.randint(5, 9),
        "SAV": _save(rng, ["2+", "3+", "4+", "5+", "-"]),
        "INV": _save(rng, ["-", "-", "4+", "5+"]),
        "Cover": _save(rng, ["-", "-", "5+", "6+"]),
        "rules": rules,
    }


def generated_shooting(rng: random.Random) -> dict:
    weapon = {
        "name": "generated",
        "R": 24,
        "FP": rng.choice([1, 1, 2]),
        "RS": rng.randint(3, 9),
        "AP": rng.choice([2, 3, 4, 5, 6, "-"]),
        "D": rng.choice([1, 1, 2, "D3"]),
        "Special Rules": _rules(rng, RANGED_RULES, 3),
        "Traits": "",
    }
    extra: dict = {"stationary": rng.random() < 0.4, "snap_shots": rng.random() < 0.2}
    if rng.random() < 0.3:
        extra["options"] = {"group_order": "largest_damage_first"}
    models = rng.randint(1, 3 - weapon["FP"] + 1)
    return doc(weapon, _target(rng), attacker={"BS": rng.randint(1, 10), "models": models}, **extra)


def generated_vehicle(rng: random.Random) -> dict:
    weapon = {
        "name": "generated",
        "R": 24,
        "FP": 1,
        "RS": rng.randint(5, 10),
        "AP": rng.choice([2, 3, 4, "-"]),
        "D": rng.choice([1, 2, "D3"]),
        "Special Rules": _rules(rng, VEHICLE_RULES, 3),
        "Traits": "",
    }
    target = {
        "name": "generated vehicle",
        "Type": rng.choice(["Vehicle", "Vehicle (Transport)", "Vehicle (Super-heavy)"]),
        "Front Armour": rng.randint(11, 14),
        "Side Armour": rng.randint(10, 13),
        "Rear Armour": rng.randint(10, 12),
        "HP": rng.randint(1, 4),
        "facing": rng.choice(["Front", "Side", "Rear"]),
        "INV": _save(rng, ["-", "-", "5+"]),
        "Cover": _save(rng, ["-", "-", "5+"]),
        "rules": rng.sample(["Feel No Pain (6+)"], rng.randint(0, 1)),
    }
    extra: dict = {"attacks": rng.randint(1, 3), "stationary": rng.random() < 0.4, "range": rng.choice([3, 12])}
    options = {}
    if rng.random() < 0.2:
        options["apt_natural_one_fails"] = False
    if rng.random() < 0.2:
        options["critical_vs_vehicle"] = "wasted"
    if options:
        extra["options"] = options
    return doc(weapon, target, attacker={"BS": rng.randint(2, 10)}, **extra)


def _melee_weapon(rng: random.Random) -> dict:
    return {
        "name": "generated blade",
        "IM": rng.choice(["I", "-1", "-3", "+1", "1"]),
        "AM": rng.choice(["A", "A", "+1", "x2"]),
        "SM": rng.choice(["S", "+1", "+2", "+4", "6"]),
        "AP": rng.choice([2, 3, 4, 5, "-"]),
        "D": rng.choice([1, 1, 2]),
        "Special Rules": _rules(rng, MELEE_RULES, 2),
        "Traits": "",
    }


def generated_melee(rng: random.Random, whole_round: bool) -> dict:
    weapon = _melee_weapon(rng)
    target = _target(rng)
    target["Cover"] = "-"
    attacker = {"WS": rng.randint(1, 8), "S": rng.randint(3, 5), "I": rng.randint(1, 6), "A": 1,
                "models": rng.randint(1, 2), "T": rng.randint(3, 5), "W": rng.randint(1, 2),
                "SAV": _save(rng, ["2+", "3+", "-"]), "LD": rng.randint(6, 9)}  # fmt: skip
    extra: dict = {"mode": "melee"}
    if whole_round:
        target["models"] = rng.randint(1, 2)
        target["A"] = 1
        extra["target_weapon"] = _melee_weapon(rng)
    return doc(weapon, target, attacker=attacker, **extra)


def generated(seed: int = 2025, count: int = 100) -> list[tuple[str, dict]]:
    """`count` documents from a fixed seed: shooting, vehicles, one-way melee and whole rounds."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = ["shooting", "shooting", "vehicle", "melee", "round"][i % 5]
        if kind == "shooting":
            d = generated_shooting(rng)
        elif kind == "vehicle":
            d = generated_vehicle(rng)
        else:
            d = generated_melee(rng, kind == "round")
        out.append((f"gen{i:03d}_{kind}", d))
    return out


# ---------------------------------------------------------------------------------------------- more corners
def _vehicle(rng: random.Random, kind: str) -> dict:
    if kind == "Knight":
        return {"name": "knight", "Type": "Vehicle (Knight)", "WS": rng.randint(3, 6), "Front": 12, "Rear": rng.randint(10, 11),
                "HP": rng.randint(1, 3), "facing": rng.choice(["Front", "Side", "Rear"])}  # fmt: skip
    if "Flyer" in kind:  # one armour value for every facing (MECHANICS-HH3 sections 0 and 9)
        av = rng.randint(10, 12)
        return {"name": kind, "Type": kind, "Front Armour": av, "Side Armour": av, "Rear Armour": av,
                "HP": rng.randint(1, 3), "facing": rng.choice(["Front", "Side", "Rear"])}  # fmt: skip
    return {"name": kind, "Type": kind, "Front Armour": rng.randint(10, 13), "Side Armour": rng.randint(10, 12),
            "Rear Armour": 10, "HP": rng.randint(1, 3), "facing": rng.choice(["Front", "Side", "Rear"])}  # fmt: skip


def generated_more(seed: int = 3, count: int = 60) -> list[tuple[str, dict]]:
    """Corners the first generator leaves out: melee at vehicles and Knights, Firepower and attacks as
    dice, Heavy/Ordnance on FP and RS, Walkers, Flyers, Super-heavies, Automata, firing_units."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = ["melee_vehicle", "dice", "odd_target", "sequence"][i % 4]
        if kind == "melee_vehicle":
            weapon = _melee_weapon(rng)
            weapon["Special Rules"] = _rules(rng, ["Armourbane", "Critical Hit ({}+)", "Armour-breaker ({}+)",
                                                   "Shock (Pinned)"], 2)  # fmt: skip
            target = _vehicle(rng, rng.choice(["Vehicle", "Knight", "Vehicle (Super-heavy)"]))
            d = doc(weapon, target, mode="melee", attacker={"WS": rng.randint(2, 6), "S": rng.randint(4, 6),
                                                            "A": rng.randint(1, 2), "models": rng.randint(1, 2)})  # fmt: skip
        elif kind == "dice":
            weapon = {"name": "dice gun", "R": 24, "FP": rng.choice(["D3", 1, 2]), "RS": rng.randint(4, 8),
                      "AP": rng.choice([3, 4, 5, "-"]), "D": rng.choice([1, "D3"]),
                      "Special Rules": rng.choice(["Heavy (FP)", "Ordnance (FP)", "Ordnance (RS)", "Ordnance (AP)",
                                                   "Heavy (RS)", ""]), "Traits": ""}  # fmt: skip
            if weapon["FP"] != 1 and "(FP)" in weapon["Special Rules"]:
                weapon["FP"] = 1
            extra: dict = {"stationary": rng.random() < 0.6}
            if rng.random() < 0.3:
                extra["attacks"] = rng.choice(["D3", "D3+1", 2])
                weapon["Special Rules"] = weapon["Special Rules"].replace("Heavy (FP)", "").replace("Ordnance (FP)", "")
            d = doc(weapon, _target(rng), attacker={"BS": rng.randint(2, 9)}, **extra)
        elif kind == "odd_target":
            which = rng.choice(["Walker", "Automata", "Flyer", "Super-heavy"])
            weapon = {"name": "odd", "R": 24, "FP": 1, "RS": rng.randint(5, 9), "AP": rng.choice([2, 4, "-"]),
                      "D": rng.choice([1, 2]), "Traits": "",
                      "Special Rules": _rules(rng, ["Poisoned ({}+)", "Shock (Stunned)", "Pinning ({})",
                                                    "Critical Hit ({}+)", "Rending ({}+)"], 3)}  # fmt: skip
            if which in ("Walker", "Automata"):
                target = {**_target(rng), "Type": which}
            else:
                target = _vehicle(rng, f"Vehicle ({which})")
            d = doc(weapon, target, attacker={"BS": rng.randint(3, 8)}, attacks=rng.randint(1, 3))
        else:
            target = _target(rng)
            target["models"] = rng.randint(2, 4)
            units = []
            for _ in range(2):
                units.append([
                    volley({"name": f"gun{j}", "R": 24, "FP": 1, "RS": rng.randint(3, 7), "AP": rng.choice([3, 5, "-"]),
                            "D": rng.choice([1, 2]), "Traits": "",
                            "Special Rules": _rules(rng, RANGED_RULES, 2)},
                           attacker={"BS": rng.randint(3, 7)}, attacks=rng.randint(1, 2))
                    for j in range(rng.randint(1, 2))
                ])  # fmt: skip
            d = sequence(target, units)
        out.append((f"more{i:03d}_{kind}", d))
    return out
