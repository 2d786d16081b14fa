"""The comparison's attacker as a typed record: read from a scenario's attacker block with the one-line errors
``praetor calc`` gives, written back as the block, and every field read by the comparison's cell memory."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from praetor_analysis.analysis import DEFAULT_ATTACKER, AttackerProfile, ComparisonCache
from praetor_analysis.analysis.compare import compare
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units import Modifiers
from praetor_analysis.views.cell_documents import scenario_for


def test_the_default_is_the_legionary_block() -> None:
    assert DEFAULT_ATTACKER.to_block() == {
        "name": "Legionary", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+",
    }  # fmt: skip
    assert AttackerProfile.from_mapping({}) == DEFAULT_ATTACKER


def test_a_block_round_trips() -> None:
    block = {
        "name": "Sergeant", "WS": 5, "BS": 5, "S": 4, "T": 4, "W": 2, "I": 5, "A": 3, "Ld": 9, "Save": "2+",
        "Invulnerable": "4+", "models": 3, "Unit Type": "Infantry (Character)", "rules": ["Preferred Enemy"],
        "charging": True, "modifiers": {"to_hit": 1},
    }  # fmt: skip
    a = AttackerProfile.from_mapping(block)
    assert (a.models, a.save, a.invulnerable, a.rules, a.modifiers) == (
        3,
        2,
        4,
        ("Preferred Enemy",),
        Modifiers(to_hit=1),
    )
    assert a.to_block() == block
    assert "charging" not in a.to_block(mode="shooting")  # how it strikes acts in melee alone
    assert AttackerProfile.from_mapping(a.to_block()) == a


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ({"BS": "x"}, "attacker.BS: expected a whole number, got 'x'"),
        ({"BS": 11}, "attacker.BS: must be between 0 and 10, got 11"),
        ({"models": 0}, "attacker.models: must be at least 1, got 0"),
        ({"Foo": 1}, "attacker.Foo: unknown field 'Foo'"),
        ({"Cover": "5+"}, "attacker.Cover: not used by a comparison's attacker"),
        ({"points": 100}, "attacker.points: not used by a comparison's attacker"),
        ({"modifiers": {"to_hit": 2}}, "attacker.modifiers.to_hit: -1, 0 or 1, got 2"),
        ({"charging": "yes"}, "attacker.charging: expected true or false, got 'yes'"),
        (3, "attacker: expected an attacker block, got 3"),
    ],
)
def test_a_bad_block_is_refused_on_one_line_naming_the_field(block: object, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        AttackerProfile.from_mapping(block)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_a_bad_record_is_refused_as_its_block_would_be() -> None:
    with pytest.raises(ScenarioError, match=r"^attacker.BS: must be between 0 and 10, got 12$"):
        AttackerProfile(BS=12)
    with pytest.raises(ScenarioError, match=r"^attacker.rules: expected a tuple"):
        AttackerProfile(rules=["Fear"])  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match=r"^attacker.models: must be at least 1, got 0$"):
        AttackerProfile(models=0)


def test_compare_refuses_a_mapping_saying_how_to_read_it() -> None:
    weapons, targets = load_weapons().head(1), load_targets().head(1)
    with pytest.raises(PraetorError, match=r"^attacker: expected an AttackerProfile \(AttackerProfile.from_mapping"):
        compare(weapons, targets, attacker={"BS": 3})  # type: ignore[arg-type]


def test_a_compared_cell_is_calc_of_the_block() -> None:
    weapons = load_weapons()
    weapons = weapons[weapons["name"].isin(["Bolter", "Chainsword"])].drop_duplicates("name")
    target = load_targets().iloc[0]
    a = AttackerProfile(BS=3, WS=5, A=2, models=4, charging=True, modifiers=Modifiers(to_wound=1))
    table = compare(weapons, target.to_frame().T, attacker=a)
    assert len(table) == 2 and (table["error"] == "").all()
    for (_, w), mean in zip(weapons.iterrows(), table["mean"], strict=True):
        doc = scenario_for(w, target, attacker=a)
        assert doc["attacker"] == a.to_block(mode=doc.get("mode", "shooting"))
        assert mean == pytest.approx(calc(doc)["casualties"]["mean"], abs=1e-12)


def test_every_field_of_the_attacker_is_in_the_cache_key() -> None:
    # the cell memory keys on the frozen record itself: a change of any field is a new cell, never a stale one
    weapons = load_weapons()
    weapons = weapons[weapons["name"].isin(["Bolter", "Chainsword"])].drop_duplicates("name")
    targets = load_targets().head(1)
    changed = {
        "name": "Other", "models": 2, "unit_type": "Infantry (Character)", "WS": 5, "BS": 3, "S": 5, "T": 5, "W": 2,
        "I": 5, "A": 2, "Ld": 8, "save": 2, "invulnerable": 4, "rules": ("Preferred Enemy",), "charging": True,
        "two_weapons": True, "disordered": True, "modifiers": Modifiers(to_hit=1),
    }  # fmt: skip
    assert set(changed) == {f.name for f in dataclasses.fields(AttackerProfile)}
    cache = ComparisonCache()
    cache.compare_with_distributions(weapons, targets, attacker=DEFAULT_ATTACKER)
    for name, value in changed.items():
        before = cache.computed
        got, _ = cache.compare_with_distributions(
            weapons, targets, attacker=dataclasses.replace(DEFAULT_ATTACKER, **{name: value})
        )
        assert cache.computed == before + len(weapons), name
        want = compare(weapons, targets, attacker=dataclasses.replace(DEFAULT_ATTACKER, **{name: value}))
        pd.testing.assert_frame_equal(got, want)
