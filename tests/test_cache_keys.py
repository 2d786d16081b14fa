"""Cache keys are derived, not listed: the sweep's memos are keyed by frozen records of everything their
computation reads, so changing any field of what is read changes the cached answer.

Each test changes one field at a time of a computation already cached, and checks the answer changes and
equals the one computed without the memo (a field missing from a hand-listed key would return the first
answer again: a Furious Charge on the charge was one, its +1 Strength read from the memo of the same weapon
off the charge).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace

import numpy as np
import pytest

from praetor_analysis.engine import Volley
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit, Weapon, unit_from_mapping
from praetor_analysis.scenario.document import parse_target
from praetor_analysis.vehicles.attack import (
    PenetrationReads,
    VehicleRuleReads,
    classify_vehicle_rules,
    penetrating_weapon,
    resolve_vehicle_scenario,
)
from praetor_analysis.vehicles.sweep import hull_points_many

FIST = Weapon.from_mapping({"name": "Fist", "Range": "-", "Strength": "User", "AP": "2", "Type": "Melee"})
GUN = Weapon.from_mapping({"name": "Gun", "Range": '24"', "Strength": "6", "AP": "4", "Type": "Assault 2"})
MELTA = Weapon.from_mapping(
    {"name": "Gun", "Range": '12"', "Strength": "8", "AP": "1", "Type": "Assault 1, Melta, Twin-linked"}
)
MARINES = unit_from_mapping(
    {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 3, "Ld": 8, "models": 5, "rules": ["Furious Charge (1)"]},
    field_name="attacker",
)
RHINO = parse_target(
    {"target": {"name": "Rhino", "Unit Type": "Vehicle (Transport)", "BS": 4, "Front": 11, "Side": 11, "Rear": 10,
                "HP": 3, "rules": ["Shrouded (5+)"]}}
)  # fmt: skip


def _hull_points(volley: Volley, target: Unit = RHINO) -> np.ndarray:
    (found,) = hull_points_many([(volley, target)])
    assert found is not None and not isinstance(found, Exception)
    return found.hull_points


def _full(volley: Volley, target: Unit = RHINO) -> np.ndarray:
    return resolve_vehicle_scenario(target, [[volley]]).hull_points.probabilities


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal pmfs (a trailing run of zeros aside)."""
    n = max(a.size, b.size)
    return bool(np.allclose(np.pad(a, (0, n - a.size)), np.pad(b, (0, n - b.size)), atol=1e-12))


#: One change of each field of PenetrationReads, from a melee volley off the charge.
PENETRATION_CHANGES: dict[str, Callable[[Volley], Volley]] = {
    "weapon": lambda v: replace(v, weapon=Weapon.from_mapping({"name": "Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"})),
    "strength": lambda v: replace(v, attacker=replace(v.attacker, charging=True)),  # Furious Charge: +1 S
    "mode": lambda v: replace(v, weapon=GUN, mode="shooting"),
    "no_shrouded": lambda v: replace(v, attacker=replace(v.attacker, rules=(*v.attacker.rules, *_rules("Night Vision")))),
}  # fmt: skip


def _rules(*names: str) -> tuple[object, ...]:
    return unit_from_mapping({"T": 4, "W": 1, "rules": list(names)}, field_name="attacker").rules


def test_every_field_of_the_penetration_key_is_changed() -> None:
    assert set(PENETRATION_CHANGES) == {f.name for f in fields(PenetrationReads)}


@pytest.mark.parametrize("name", sorted(PENETRATION_CHANGES))
def test_a_change_of_what_penetration_reads_changes_the_cached_answer(name: str) -> None:
    base = Volley(FIST, MARINES, mode="melee")
    changed = PENETRATION_CHANGES[name](base)
    assert getattr(PenetrationReads.of(changed), name) != getattr(PenetrationReads.of(base), name)
    first = _hull_points(base)  # cached first
    assert _same(first, _full(base))
    if name == "no_shrouded":  # Night Vision changes the Shrouded roll against the vehicle, not the hull points
        assert penetrating_weapon(changed).no_shrouded and not penetrating_weapon(base).no_shrouded
        return
    again = _hull_points(changed)
    assert _same(again, _full(changed))
    assert not _same(again, first)


def test_the_charge_reads_its_own_strength_after_the_same_weapon_off_it() -> None:
    # the memo of the penetration profiles was keyed by the wielder's S: the charge's +1 (Furious Charge) was lost
    off, on = Volley(FIST, MARINES, mode="melee"), Volley(FIST, replace(MARINES, charging=True), mode="melee")
    out = hull_points_many([(off, RHINO), (on, RHINO)])
    assert out[0] is not None and out[1] is not None and not isinstance(out[1], Exception)
    assert not isinstance(out[0], Exception)
    assert float(out[0].hull_points[0]) == 1.0  # S4 + D6 never reaches armour 11
    assert _same(out[1].hull_points, _full(on)) and out[1].hull_points[0] < 1.0


#: One change of each field of VehicleRuleReads, from a gun fired at the Rhino.
RULE_CHANGES: dict[str, Callable[[Volley, Unit], tuple[Volley, Unit]]] = {
    "label": lambda v, t: (replace(v, weapon=Weapon.from_mapping({"name": "Gun", "Range": '12"', "Strength": "8", "AP": "1", "Type": "Heavy 1, Melta, Twin-linked"})), t),
    "taken": lambda v, t: (replace(v, taken=("Rocket Barrage",)), t),
    "no_strength": lambda v, t: (replace(v, weapon=Weapon.from_mapping({"name": "Gun", "Range": '12"', "Strength": "-", "AP": "-", "Type": "Assault 1, Melta, Twin-linked"})), t),
    "situation": lambda v, t: (replace(v, half_range=True), t),
    "hits_given": lambda v, t: (replace(v, hits=Dist.point(2)), t),  # no To Hit roll
    "weapon_rules": lambda v, t: (replace(v, weapon=Weapon.from_mapping({"name": "Gun", "Range": '12"', "Strength": "8", "AP": "1", "Type": "Assault 1, Melta, Twin-linked, Pinning"})), t),
    "attacker_rules": lambda v, t: (replace(v, attacker=replace(v.attacker, rules=_rules("Preferred Enemy (Everything)"))), t),
    "target_rules": lambda v, t: (v, replace(t, rules=())),
    "denies_shrouded": lambda v, t: (replace(v, attacker=replace(v.attacker, rules=_rules("Night Vision"))), t),
    "template_on_hull": lambda v, t: (replace(v, weapon=Weapon.from_mapping({"name": "Gun", "Range": "Template", "Strength": "8", "AP": "1", "Type": "Assault 1, Melta, Twin-linked"})), t),
    "denied_cover": lambda v, t: (replace(v, weapon=Weapon.from_mapping({"name": "Gun", "Range": '12"', "Strength": "8", "AP": "1", "Type": "Heavy 1, Melta, Twin-linked, Ignores Cover"})), replace(t, cover=4)),
}  # fmt: skip


def test_every_field_of_the_rules_key_is_changed() -> None:
    assert set(RULE_CHANGES) == {f.name for f in fields(VehicleRuleReads)}


@pytest.mark.parametrize("name", sorted(RULE_CHANGES))
def test_a_change_of_what_the_rules_read_changes_their_key_and_lists(name: str) -> None:
    from praetor_analysis.rules import RuleReport

    base = (Volley(MELTA, replace(MARINES, rules=()), mode="shooting"), RHINO)
    changed = RULE_CHANGES[name](*base)
    before, after = VehicleRuleReads.of(*base), VehicleRuleReads.of(*changed)
    assert getattr(before, name) != getattr(after, name) and before != after

    def lists(v: Volley, t: Unit) -> tuple[list[str], ...]:
        report = RuleReport()
        classify_vehicle_rules(v, t, report)
        return report.lists()

    if name not in ("hits_given", "situation"):  # this gun's rules hold no condition on them: the key alone changes
        assert lists(*changed) != lists(*base)
    # the sweep's cached not-modelled list follows the change: computed first for the base, then the change
    hull_points_many([base])
    (found,) = hull_points_many([changed])
    if found is not None and not isinstance(found, Exception):
        assert found.not_modelled == resolve_vehicle_scenario(changed[1], [[changed[0]]]).not_modelled
