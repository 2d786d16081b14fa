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
from praetor_analysis.scenario.calc import calc, calc_many

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


def test_rules_from_the_unit_type_are_reported_like_listed_ones():
    # MECHANICS.md 4b: "a rule a unit gets from its type is reported ... like any other". A Primarch's It Will
    # Not Die (5+) (end of a turn) and Bulky (4) (a whole round's Rampage) do nothing in one attack, so they
    # are under no_effect with their reason, exactly where the same rules listed by an Infantry unit go;
    # its Eternal Warrior and Fearless act (S8 on T4 is Instant Death; the Pinning test) and are applied.
    weapon = {"name": "gun", "Range": '24"', "Strength": "8", "AP": "4", "Type": "Heavy 3, Pinning"}
    rules = ["Eternal Warrior", "Fearless", "It Will Not Die (5+)", "Bulky (4)"]
    body = {"name": "P", "models": 1, "T": 4, "W": 6, "Ld": 10, "Save": "3+"}
    typed = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {**body, "Unit Type": "Primarch"}})
    listed = calc(
        {"attacker": {"BS": 4}, "weapon": weapon, "target": {**body, "Unit Type": "Infantry", "rules": rules}}
    )
    _same_distributions(typed, listed)
    for rule in rules:
        where = "no_effect" if rule.startswith(("It Will", "Bulky")) else "applied"
        assert f"target: {rule}" in listed[where]
        assert f"target: {rule} (from Primarch)" in typed[where]
        if where == "no_effect":
            assert typed["reasons"][f"target: {rule} (from Primarch)"] == listed["reasons"][f"target: {rule}"]
    assert typed["reasons"]["target: It Will Not Die (5+) (from Primarch)"] == "recovers wounds at the end of a turn"


_SHROUDED_SQUAD = {"name": "S", "Unit Type": "Infantry", "models": 5, "WS": 4, "T": 4, "W": 1, "Ld": 8, "Save": "4+"}
_BOLTER = {"name": "bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Assault 2"}
_FLAMER = {"name": "flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1"}
_SWORD = {"name": "sword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
_RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}


@pytest.mark.parametrize(
    ("label", "scenario"),
    [
        ("Fearless target", {"weapon": _BOLTER, "target": {**_SHROUDED_SQUAD, "rules": ["Fearless"]}}),
        ("Dreadnought (Fearless)", {"weapon": _BOLTER, "target": {**_SHROUDED_SQUAD, "Unit Type": "Dreadnought"}}),
        ("Primarch (Fearless)", {"weapon": _BOLTER, "target": {**_SHROUDED_SQUAD, "Unit Type": "Primarch"}}),
        ("template", {"weapon": _FLAMER, "hits": 3, "target": _SHROUDED_SQUAD}),
        ("Ignores Cover", {"weapon": {**_BOLTER, "Type": "Assault 2, Ignores Cover"}, "target": _SHROUDED_SQUAD}),
        ("melee", {"mode": "melee", "weapon": _SWORD, "target": _SHROUDED_SQUAD}),
        ("Night Vision", {"weapon": _BOLTER, "target": _SHROUDED_SQUAD, "attacker": {"BS": 4, "rules": ["Night Vision"]}}),
        ("template on a vehicle", {"weapon": {**_FLAMER, "Strength": "6"}, "hits": 3, "target": _RHINO}),
        ("melee on a vehicle", {"mode": "melee", "weapon": {**_SWORD, "Strength": "x2"}, "target": _RHINO}),
        ("Night Vision on a vehicle", {"weapon": {**_BOLTER, "Strength": "8"}, "target": _RHINO,
                                       "attacker": {"BS": 4, "rules": ["Night Vision"]}}),
    ],
)  # fmt: skip
def test_shrouded_that_cannot_act_is_reported_under_no_effect(label, scenario):
    # MECHANICS.md 4 and 8: no Shrouded roll in melee, against Ignores Cover (templates have it) or for a
    # Fearless model (from any source: a Dreadnought's or a Primarch's type); Night Vision denies it too
    # (docs/rules.md#night-vision). The numbers ignore it, so it is listed under no_effect with its reason,
    # as Armourbane is against Infantry, never under applied.
    sc = {"attacker": {"BS": 4, "WS": 4, "S": 4, "A": 2}, **scenario}
    plain = calc(sc)
    shrouded = calc({**sc, "target": {**sc["target"], "rules": [*sc["target"].get("rules", []), "Shrouded (4+)"]}})
    for key in ("glancing", "penetrating", "hull_points") if "HP" in sc["target"] else DISTS:
        assert shrouded[key]["pmf"] == pytest.approx(plain[key]["pmf"], abs=1e-15), key
    assert "target: Shrouded (4+)" in shrouded["no_effect"], label
    assert "target: Shrouded (4+)" not in shrouded["applied"]
    assert "none in melee" in shrouded["reasons"]["target: Shrouded (4+)"]


@pytest.mark.parametrize("target", [_SHROUDED_SQUAD, _RHINO], ids=["infantry", "vehicle"])
def test_shrouded_that_acts_is_applied(target):
    # Hand value (MECHANICS.md 4): a bolter's 2 shots at BS 4 on T4 4+ (infantry): each unsaved with 2/3 x
    # 1/2 x 1/2 = 1/6, Shrouded (4+) halves it: 1/12, 2/12 = 1/6 in all. On the Rhino an S8 shot glances or
    # penetrates Front 11 on 3+, and Shrouded halves the hits that get through.
    weapon = _BOLTER if "HP" not in target else {**_BOLTER, "Strength": "8"}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "target": {**target, "rules": ["Shrouded (4+)"]}}
    r = calc(sc)
    assert "target: Shrouded (4+)" in r["applied"]
    if "HP" not in target:
        assert r["unsaved"]["mean"] == pytest.approx(2 / 12, abs=1e-12)
    else:  # 2 shots x 2/3 hit x 4/6 glance or penetrate x 1/2 unshrouded
        assert r["hull_points"]["mean"] == pytest.approx(2 * 2 / 3 * 4 / 6 / 2, abs=1e-12)


def test_night_vision_denies_a_vehicles_shrouded():
    # docs/rules.md#night-vision: no Shrouded roll against the attacks of a unit with Night Vision, on a
    # vehicle too (the vehicle engine rolled it). Hand value: one S9 AP2 hit on a Rhino's Front 11 (3 hull
    # points): glances on a 2, penetrates on 3+; a penetration explodes on a 6 (D6 + 1 for AP 2), D3 more
    # hull points capped at the 2 left after the hit (mean 5/3): 5/6 + 4/6 x 1/6 x 5/3 = 55/54 hull points.
    # Shrouded (4+) halves that (55/108) unless the firer has Night Vision; cover is untouched by it.
    weapon = {"name": "lascannon", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
    rhino = {**_RHINO, "rules": ["Shrouded (4+)"]}
    seeing = {"attacker": {"BS": 4, "rules": ["Night Vision"]}, "weapon": weapon, "hits": 1, "target": rhino}
    plain = {**seeing, "attacker": {"BS": 4}}
    in_cover = {**seeing, "target": {**_RHINO, "Cover": "4+"}}
    for results in ([calc(seeing), calc(plain), calc(in_cover)], calc_many([seeing, plain, in_cover])):
        assert results[0]["hull_points"]["mean"] == pytest.approx(55 / 54, abs=1e-12)
        assert results[1]["hull_points"]["mean"] == pytest.approx(55 / 108, abs=1e-12)
        assert results[2]["hull_points"]["mean"] == pytest.approx(55 / 108, abs=1e-12)
        assert "target: Shrouded (4+)" in results[0]["no_effect"] and "attacker: Night Vision" in results[0]["applied"]
