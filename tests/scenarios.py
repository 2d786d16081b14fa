"""Generated small scenarios (up to 4 attacks) covering every modelled rule and pairs of rules.

Shared by the oracle comparison and the invariant tests. Deterministic: no randomness.
"""

from __future__ import annotations

import itertools
from typing import Any

WEAPON_RULES = [
    "Rending (5+)",
    "Breaching (4+)",
    "Murderous Strike (6+)",
    "Shred",
    "Fleshbane",
    "Poisoned (4+)",
    "Poisoned",
    "Instant Death",
    "Brutal (2)",
    "Deflagrate",
    "Gets Hot",
    "Twin-linked",
    "Master-crafted",
    "Ignores Cover",
    "Pinning",
    "Shell Shock (1)",
]

TARGETS: list[dict[str, Any]] = [
    {
        "name": "Legionaries",
        "Unit Type": "Infantry",
        "models": 3,
        "WS": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "Ld": 7,
        "Save": "3+",
        "Cover": "5+",
    },
    {
        "name": "Terminators",
        "Unit Type": "Infantry (Heavy)",
        "models": 2,
        "WS": 4,
        "T": 4,
        "W": 2,
        "I": 4,
        "Ld": 8,
        "Save": "2+",
        "Invulnerable": "5+",
        "rules": ["Feel No Pain (6+)"],
    },
    {
        "name": "Ogryn-like",
        "Unit Type": "Infantry",
        "models": 2,
        "WS": 3,
        "T": 5,
        "W": 3,
        "I": 2,
        "Ld": 6,
        "Save": "5+",
        "rules": ["Shrouded (5+)", "Eternal Warrior"],
    },
    {
        "name": "Wounded hero",
        "Unit Type": "Infantry",
        "models": 1,
        "WS": 6,
        "T": 4,
        "W": 3,
        "I": 5,
        "Ld": 10,
        "Save": "2+",
        "Invulnerable": "4+",
        "wounds_taken": 1,
        "rules": ["Fearless"],
    },
]


# Damaged multi-wound units without Eternal Warrior: an Instant Death wound and an AP 2 wound land on
# different models depending on which is allocated first (allocation_order_scenarios).
DAMAGED_TARGETS: list[dict[str, Any]] = [
    {
        "name": "Damaged Terminators",
        "Unit Type": "Infantry (Heavy)",
        "models": 3,
        "WS": 4,
        "T": 4,
        "W": 2,
        "I": 4,
        "Ld": 8,
        "Save": "2+",
        "Invulnerable": "5+",
        "wounds_taken": 1,
    },
    {
        "name": "Damaged brutes",
        "Unit Type": "Infantry",
        "models": 2,
        "WS": 3,
        "T": 4,
        "W": 3,
        "I": 2,
        "Ld": 6,
        "Save": "4+",
        "wounds_taken": 2,
        "rules": ["Feel No Pain (5+)"],
    },
    {
        "name": "Scratched brutes",
        "Unit Type": "Infantry",
        "models": 2,
        "WS": 3,
        "T": 3,
        "W": 3,
        "I": 2,
        "Ld": 6,
        "Save": "5+",
        "wounds_taken": 1,
    },
]


def shooting(
    rules: list[str],
    *,
    strength: str = "4",
    ap: str = "4",
    shots: str = "2",
    bs: int = 4,
    target: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A small shooting scenario."""
    type_ = ", ".join([f"Assault {shots}", *rules])
    scen = {
        "mode": "shooting",
        "attacker": {"BS": bs, "WS": 4, "S": 4, "T": 4, "W": 1, "Ld": 8, "Save": "3+", "models": 1},
        "weapon": {"name": "test gun", "Range": '24"', "Strength": strength, "AP": ap, "Type": type_},
        "target": dict(target or TARGETS[0]),
    }
    scen.update(extra)
    return scen


def single_rule_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Every rule alone against every target, at a Strength and AP where it matters."""
    out = []
    for rule in WEAPON_RULES:
        for t in TARGETS:
            out.append((f"{rule} vs {t['name']}", shooting([rule], target=t)))
    return out


def pair_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Every pair of rules, against the multi-wound target (where allocation order matters)."""
    out = []
    for a, b in itertools.combinations(WEAPON_RULES, 2):
        if a.split(" (")[0] == b.split(" (")[0]:  # the same rule twice is refused as bad input
            continue
        t = TARGETS[1] if (len(out) % 2 == 0) else TARGETS[2]
        out.append(
            (f"{a} + {b} vs {t['name']}", shooting([a, b], strength="5", ap="2" if "Brutal" in a else "4", target=t))
        )
    return out


def table_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """The BS table, snap shots, the wound table, saves, melee WS chart and random attack counts."""
    out = []
    for bs in range(1, 11):
        out.append((f"BS {bs}", shooting(["Gets Hot"], bs=bs, shots="3")))
        out.append((f"BS {bs} twin", shooting(["Twin-linked", "Gets Hot"], bs=bs, shots="2")))
        out.append((f"BS {bs} master-crafted", shooting(["Master-crafted", "Gets Hot"], bs=bs, shots="3")))
    out.append(("snap shots", shooting([], bs=5, snap_shots=True)))
    for s in range(1, 11):
        out.append((f"S{s} vs T4", shooting([], strength=str(s), ap="-")))
    for ap in ["1", "2", "3", "5", "-"]:
        out.append((f"AP {ap} vs terminators", shooting([], strength="8", ap=ap, target=TARGETS[1])))
    for expr in ["D3", "D6", "D3+1"]:
        out.append((f"attacks {expr}", shooting(["Rending (6+)"], attacks=expr)))
    out.append(
        ("2D6 attacks W1", shooting([], attacks="2D6", strength="6", ap="-", target={**TARGETS[0], "models": 4}))
    )
    out.append(("hits D3 template", shooting(["Template"], hits="D3", target=TARGETS[0])))
    out.append(("hits 3 blast heavy", shooting(['Blast (3")'], hits=3, ap="5", target=TARGETS[1])))
    out.append(("blast gets hot", shooting(['Blast (3")', "Gets Hot"], hits=2, ap="5")))
    for aws, dws in [(4, 3), (4, 4), (3, 7), (2, 5), (6, 4)]:
        t = {**TARGETS[0], "WS": dws}
        out.append(
            (
                f"melee WS{aws} vs WS{dws}",
                {
                    "mode": "melee",
                    "attacker": {"WS": aws, "S": 4, "A": 2, "models": 1, "charging": True},
                    "weapon": {
                        "name": "sword",
                        "Range": "-",
                        "Strength": "User",
                        "AP": "3",
                        "Type": "Melee, Rending (6+)",
                    },
                    "target": t,
                },
            )
        )
    out.append(
        (
            "melee poisoned S>T",
            {
                "mode": "melee",
                "attacker": {"WS": 4, "S": 5, "A": 3, "models": 1},
                "weapon": {"name": "claw", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Poisoned (4+)"},
                "target": TARGETS[0],
            },
        )
    )
    out.append(
        (
            "melee rending ap1",
            {
                "mode": "melee",
                "attacker": {"WS": 5, "S": 4, "A": 3, "models": 1},
                "weapon": {
                    "name": "axe",
                    "Range": "-",
                    "Strength": "+1",
                    "AP": "1",
                    "Type": "Melee, Rending (5+), Brutal (2)",
                },
                "target": TARGETS[1],
            },
        )
    )
    out.append(
        (
            "armourbane vs dreadnought",
            shooting(
                ["Armourbane"],
                strength="6",
                target={
                    "name": "Dread",
                    "Unit Type": "Dreadnought",
                    "models": 1,
                    "WS": 5,
                    "T": 7,
                    "W": 4,
                    "Ld": 9,
                    "Save": "2+",
                },
            ),
        )
    )
    out.append(("psychic focus", shooting(["Psychic Focus"], strength="5", shots="2")))
    out.append(("pinning shell shock", shooting(["Pinning", "Shell Shock (2)"], shots="3")))
    out.append(("pinning fearless", shooting(["Pinning"], target=TARGETS[3])))
    out.append(("pinning already pinned", shooting(["Pinning"], target={**TARGETS[0], "rules": ["Pinned"]})))
    out.append(("two models", shooting(["Rending (6+)"], shots="2", attacker={"BS": 4, "models": 2})))
    out.append(("deflagrate brutal", shooting(["Deflagrate", "Brutal (2)"], strength="5", target=TARGETS[2])))
    out.append(
        (
            "murderous brutal rending",
            shooting(["Murderous Strike (5+)", "Brutal (2)", "Rending (4+)"], strength="4", ap="3", target=TARGETS[1]),
        )
    )
    # saves of one phase (docs/rules.md#saves-for-one-phase): Corswain's 3+ in melee over his 4+, a 3+ armour
    # against shooting over a 5+; each shot and struck
    phased = {
        **TARGETS[3],
        "Save": "5+",
        "rules": ["Fearless", "Invulnerable Save in Melee (3+)", "Armour Save against Shooting (3+)"],
    }
    for ap in ("2", "4"):
        out.append(
            (f"phase saves shot AP{ap}", shooting(["Rending (6+)"], strength="8", ap=ap, shots="3", target=phased))
        )
        out.append(
            (
                f"phase saves struck AP{ap}",
                {
                    "mode": "melee",
                    "attacker": {"WS": 5, "S": 4, "A": 3, "models": 1},
                    "weapon": {"name": "fist", "Range": "-", "Strength": "x2", "AP": ap, "Type": "Melee"},
                    "target": phased,
                },
            )
        )
    return out


def allocation_order_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """One attack whose wounds mix Instant Death and AP 2 against damaged multi-wound units, where
    allocating the AP 2 wounds first would remove a different number of models."""
    mixes: list[tuple[str, list[str], str, str]] = [  # (label, rules, Strength, AP)
        ("murderous + rending", ["Murderous Strike (6+)", "Rending (4+)"], "4", "4"),
        ("murderous + breaching", ["Murderous Strike (5+)", "Breaching (3+)"], "5", "5"),
        ("murderous ap2", ["Murderous Strike (5+)"], "4", "2"),
        ("murderous + rending + brutal", ["Murderous Strike (6+)", "Rending (5+)", "Brutal (2)"], "4", "-"),
        ("murderous + breaching + deflagrate", ["Murderous Strike (6+)", "Breaching (4+)", "Deflagrate"], "4", "4"),
        ("murderous + rending + shred", ["Murderous Strike (6+)", "Rending (5+)", "Shred"], "3", "-"),
    ]
    out = []
    for label, rules, strength, ap in mixes:
        for t in DAMAGED_TARGETS:
            shots = "3" if len(rules) > 2 else "4"
            out.append((f"{label} vs {t['name']}", shooting(rules, strength=strength, ap=ap, shots=shots, target=t)))
    melee = {
        "mode": "melee",
        "attacker": {"WS": 5, "S": 4, "A": 3, "models": 1},
        "weapon": {
            "name": "blade",
            "Range": "-",
            "Strength": "User",
            "AP": "3",
            "Type": "Melee, Rending (5+), Murderous Strike (6+)",
        },
        "target": DAMAGED_TARGETS[0],
    }
    out.append(("melee murderous + rending vs Damaged Terminators", melee))
    return out


def allocation_order_sequences() -> list[tuple[str, dict[str, Any], list[list[dict[str, Any]]]]]:
    """Firing units in turn: the first leaves a model damaged, the next mixes Instant Death (S >= 2T or
    Murderous Strike) and AP 2 (Rending or Breaching) wounds in one attack. (name, target, firing units)."""

    def volley(rules: list[str], **kw: Any) -> dict[str, Any]:
        return {k: v for k, v in shooting(rules, **kw).items() if k != "target"}

    intact = {**DAMAGED_TARGETS[0], "wounds_taken": 0, "name": "Terminators x3"}
    brutes = {**DAMAGED_TARGETS[1], "wounds_taken": 0, "name": "Brutes"}
    return [
        (
            "bolter, then S8 and rending",
            intact,
            [[volley([], strength="4", ap="5", shots="2")], [volley(["Rending (4+)"], strength="4", shots="2")]],
        ),
        (
            "rending, then S8 (Instant Death by Strength) and breaching",
            intact,
            [
                [volley(["Rending (5+)"], strength="4", shots="2")],
                [volley(["Breaching (5+)"], strength="8", ap="4", shots="2")],
            ],
        ),
        (
            "one unit: plain shots, then murderous + breaching",
            brutes,
            [
                [
                    volley([], strength="4", ap="-", shots="2"),
                    volley(["Murderous Strike (6+)", "Breaching (4+)"], strength="4", ap="5", shots="3"),
                ]
            ],
        ),
        (
            "damaged start: murderous + rending twice",
            DAMAGED_TARGETS[0],
            [
                [volley(["Murderous Strike (5+)", "Rending (4+)"], strength="4", shots="2")],
                [volley(["Murderous Strike (6+)", "Rending (3+)"], strength="4", shots="2")],
            ],
        ),
    ]


def all_scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Every generated scenario."""
    return single_rule_scenarios() + pair_scenarios() + table_scenarios() + allocation_order_scenarios()
