"""Rules whose whole effect in one attack is a report: what docs/rules.md says of them, held by tests.

Each test compares a profile with and without the rule: the distributions must be identical and the rule
must be listed where docs/rules.md says (``no_effect``, ``applied`` or ``not_modelled``).
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import pytest

from praetor_analysis.errors import PraetorError
from praetor_analysis.markers.attack import hits_from_formation
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.kinds import MARKER_DIAMETERS as MARKER_SIZES
from praetor_analysis.prob.dice import leadership_pass
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.rules.catalogue import all_rules
from praetor_analysis.rules.registry import Holder, Stage

#: Weapon rules that act outside the attack (movement, targeting, later turns).
NO_EFFECT_RULES = [
    d.name for d in all_rules() if d.stages == {Stage.ELSEWHERE} and d.holder is Holder.WEAPON and d.modelled
]
#: Rules known by name but not computed.
OTHER_KNOWN = [d.name for d in all_rules() if not d.modelled]
from praetor_analysis.scenario.calc import calc

DISTS = ("hits", "wounds", "unsaved", "casualties")


def _scenario(weapon_rules: list[str], target_rules: list[str] | None = None) -> dict[str, Any]:
    return {
        "attacker": {"BS": 4, "S": 4, "models": 1},
        "weapon": {
            "name": "gun",
            "Range": '24"',
            "Strength": "5",
            "AP": "4",
            "Type": ", ".join(["Heavy 3", *weapon_rules]),
        },
        "target": {"models": 3, "T": 4, "W": 2, "Ld": 7, "Save": "4+", "rules": target_rules or []},
    }


def _same_distributions(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in DISTS:
        assert a[key]["pmf"] == pytest.approx(b[key]["pmf"], abs=1e-15), key
    assert a["pinned"] == b["pinned"]


def test_leadership_test_by_enumeration():
    # docs/rules.md#dice: 2D6 at most Ld passes; Ld below 2 always fails (no double-1 pass).
    for ld in range(-1, 13):
        exact = Fraction(sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b <= ld and ld >= 2), 36)
        assert leadership_pass(ld) == pytest.approx(float(exact), abs=1e-15)
    assert leadership_pass(7) == pytest.approx(21 / 36)  # 21 of the 36 throws of 2D6 total 7 or less


@pytest.mark.parametrize("rule", ["Sniper", "Precision Shots", "Precision Strikes"])
def test_allocation_rules_change_nothing_on_a_uniform_unit(rule):
    plain, with_rule = calc(_scenario([])), calc(_scenario([rule]))
    _same_distributions(plain, with_rule)
    assert rule in with_rule["no_effect"]
    assert rule not in with_rule["applied"] and rule not in with_rule["not_modelled"]


@pytest.mark.parametrize("rule", sorted(NO_EFFECT_RULES))
def test_rules_with_no_effect_change_nothing(rule):
    plain, with_rule = calc(_scenario([])), calc(_scenario([rule]))
    _same_distributions(plain, with_rule)
    assert rule in with_rule["no_effect"]
    assert rule not in with_rule["not_modelled"]


@pytest.mark.parametrize(
    ("rule", "where"),
    [
        ("Stubborn", "applied"),
        ("It Will Not Die (5+)", "no_effect"),
        ("Bulky (2)", "no_effect"),
        ("Psyker", "no_effect"),
    ],
)
def test_unit_rules_without_an_effect_here_change_nothing(rule, where):
    # Stubborn acts on the Pinning test (no Shell Shock here, so the same numbers); It Will Not Die acts at
    # the end of a turn, Bulky in a whole round of combat, Psyker through Psychic Focus: none in this attack.
    weapon = ["Pinning"]  # a Pinning weapon, so a rule that touched the Pinning test would show
    plain, with_rule = calc(_scenario(weapon)), calc(_scenario(weapon, [rule]))
    _same_distributions(plain, with_rule)
    assert f"target: {rule}" in with_rule[where]


@pytest.mark.parametrize("rule", sorted(OTHER_KNOWN))
def test_known_rules_without_a_model_are_not_modelled(rule):
    result = calc(_scenario([rule]))
    assert rule in result["not_modelled"]


def test_marker_sizes():
    # docs/rules.md#markers-and-templates: Blast 3", Large 5", Massive 7", Apocalyptic 10" (diameters).
    assert MARKER_SIZES == {
        "Blast": 3.0,
        "Large Blast": 5.0,
        "Massive Blast": 7.0,
        "Apocalyptic Blast": 10.0,
        "Apocalyptic Mega-blast": 10.0,
    }
    squad = Formation.grid(10, base_mm=32, gap=2.0)
    means = []
    for name in ('Blast (3")', 'Large Blast (5")', 'Massive Blast (7")', 'Apocalyptic Blast (10")'):
        weapon = Weapon.from_mapping(
            {"name": "m", "Range": '36"', "Strength": "6", "AP": "4", "Type": f"Heavy 1, {name}"}
        )
        hits, _, _ = hits_from_formation(
            weapon,
            Dist.point(1),
            squad,
            bs=4,
            indirect=False,
            aim=None,
            edges=None,
            firer_distance=1.0,
            twin_linked=False,
            gets_hot=False,
        )
        means.append(hits.mean())
    assert means == sorted(means) and means[0] < means[-1]  # a larger marker never hits fewer models


@pytest.mark.parametrize(
    ("printed", "message"),
    [
        ('Blast (5")', 'a Blast is a 3" marker, got 5" (the 5" marker is Large Blast)'),
        ('Large Blast (3")', 'a Large Blast is a 5" marker, got 3" (the 3" marker is Blast)'),
        ('Massive Blast (6")', 'a Massive Blast is a 7" marker, got 6"'),
    ],
)
def test_a_marker_printed_with_another_size_is_refused(printed: str, message: str) -> None:
    # docs/rules.md#blast: each marker rule has its own size; a size it does not have was read as the rule's
    # own before, silently (a "Blast (5")" hit as a 3" marker)
    with pytest.raises(PraetorError, match=re.escape(message)) as refused:
        Weapon.from_mapping({"name": "m", "Range": '36"', "Strength": "6", "AP": "4", "Type": f"Heavy 1, {printed}"})
    assert str(refused.value).startswith(f"weapon.Type: {printed!r}: ")  # the field and the value named
