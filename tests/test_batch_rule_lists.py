"""The batch's rule lists (applied, no effect, not modelled) are shared by a token of what ``classify_rules``
reads of the volley and the target (``batch_facts.VolleyFacts.rules``, ``TargetFacts.rules_token``): a key listed
by hand, which once left out the target's Cover (a Cover denied is named under no effect). In one batch, cells
of every declared weapon rule, in both modes, with and without an attacker's rule, against targets that differ
in one field each (saves, cover, wounds, Toughness, Strength, Unit Type, name, rules) have the one-cell engine's
lists (``exact.resolve_exact``), whichever cell came first.
"""

from __future__ import annotations

import random
from typing import Any

from test_batch_cold_tables import _parsed as carrying

from praetor_analysis.engine import batch
from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.exact import resolve_exact
from praetor_analysis.engine.volley import Volley, VolleyResult
from praetor_analysis.profiles.records import Weapon, unit_from_mapping
from praetor_analysis.rules import REGISTRY

BASE = {"models": 5, "WS": 4, "S": 4, "A": 1, "BS": 4, "Ld": 8, "T": 4, "W": 1, "Save": "3+"}
ONE_FIELD: list[dict[str, Any]] = [
    {},
    {"Save": "2+"},
    {"Save": "6+"},
    {"Invulnerable": "4+"},
    {"Cover": "4+"},
    {"Cover": "6+"},
    {"Invulnerable": "4+", "Cover": "5+"},
    {"W": 2},
    {"T": 6},
    {"S": 6},
    {"Unit Type": "Infantry (Heavy)"},
    {"Unit Type": "Monstrous Creature"},
    {"Unit Type": "Cavalry"},
    {"name": "Legionaries"},
    {"rules": ["Fearless"]},
    {"rules": ["Feel No Pain (5+)"]},
    {"rules": ["Shrouded (5+)"]},
    {"rules": ["Stealth"]},
    {"rules": ["Eternal Warrior"]},
]


def _weapons() -> list[Weapon]:
    """A weapon for each declared rule that a weapon's Type can carry (``test_batch_cold_tables._parsed``)."""
    return [w for w in map(carrying, REGISTRY) if w is not None]


def test_rule_lists_shared_in_a_batch_equal_the_one_cell_engine():
    targets = [unit_from_mapping({**BASE, **row}, field_name="target") for row in ONE_FIELD]
    attackers = [unit_from_mapping({**BASE, "rules": rules}, field_name="attacker") for rules in ([], ["Night Vision"])]
    cells = [
        (Volley(w, a, mode=mode, attacks=3), t)
        for w in _weapons()
        for mode in ("shooting", "melee")
        for a in attackers
        for t in targets
    ]
    random.Random(5).shuffle(cells)  # any cell may come first and make the shared lists
    batch.SHARED.clear()
    compared = 0
    for (volley, target), got in zip(cells, resolve_many(cells), strict=True):
        if not isinstance(got, VolleyResult):
            continue
        want = resolve_exact(volley, target)
        lists = (list(got.applied), list(got.no_effect), list(got.not_modelled))
        assert lists == (list(want.applied), list(want.no_effect), list(want.not_modelled)), (
            volley.weapon.type.text,
            volley.mode,
            [t.text for t in volley.attacker.rules],
            target.name,
            target.unit_type,
            target.cover,
            [t.text for t in target.rules],
        )
        compared += 1
    assert compared > 5000
