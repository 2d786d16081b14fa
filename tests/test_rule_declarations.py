"""One declaration per rule: the registry, the single classification, and no rule looked up by string."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from praetor_analysis.profiles.rule_tokens import parse_rule
from praetor_analysis.rules.catalogue import all_rules, canonical_rule_name, lookup
from praetor_analysis.rules.classify import Situation, category_of, vehicle_attack, wound_chain
from praetor_analysis.rules.registry import REGISTRY, Holder, Stage

PACKAGE = Path(__file__).resolve().parents[1] / "praetor_analysis"


def test_every_rule_is_declared_once_with_stages_and_a_summary() -> None:
    names = [d.name for d in all_rules()]
    assert len(names) == len(set(names))
    for decl in all_rules():
        assert decl.stages, decl.name
        assert decl.summary, decl.name
        for spelling in decl.spellings:
            assert lookup(spelling) is decl


@pytest.mark.parametrize(
    ("printed", "canonical"),
    [("poison", "Poisoned"), ("Twin linked", "Twin-linked"), ("FNP", "Feel No Pain"), ("locked", "Locked in Combat"),
     ("Duelist's Edge", "Duellist's Edge"), ("Precision Shot", "Precision Shots"), ("Not A Rule", "Not A Rule")],
)  # fmt: skip
def test_spellings_fold_to_the_canonical_name(printed: str, canonical: str) -> None:
    assert canonical_rule_name(printed) == canonical


def _category(text: str, *, vehicle: bool = False, marker_hits: bool = False, melee: bool = False,
              half_range: bool = False, target_type: str = "Infantry", side: str = "weapon") -> str:  # fmt: skip
    token = parse_rule(text)
    resolution = (
        vehicle_attack(marker_hits=marker_hits) if vehicle else wound_chain(melee=melee, marker_hits=marker_hits)
    )
    situation = Situation(melee=melee, half_range=half_range, target_type=target_type)
    return category_of(lookup(token.name), token, resolution, situation, side=side)


# What the engine computes for each (the classification must say the same): pinned by the stage each acts on.
CASES = [
    ("Shred", {}, "applied"),
    ("Shred", {"vehicle": True}, "no_effect"),  # no To Wound roll against armour
    ("Rending (6+)", {"vehicle": True}, "applied"),  # +D3 penetration
    ("Lance", {}, "no_effect"),
    ("Lance", {"vehicle": True}, "applied"),
    ('Blast (3")', {}, "not_modelled"),  # no marker geometry and no hits given: rolled as a plain shot
    ('Blast (3")', {"marker_hits": True}, "applied"),
    ("Haywire", {}, "no_effect"),
    ("Haywire", {"target_type": "Dreadnought"}, "applied"),
    ("Armourbane (Melta)", {"target_type": "Dreadnought"}, "no_effect"),  # beyond half range
    ("Armourbane (Melta)", {"target_type": "Dreadnought", "half_range": True}, "applied"),
    ("Rampage (D3)", {}, "no_effect"),  # acts in a whole round of combat only
    ("Reach (1)", {}, "no_effect"),
    ("Two-handed", {"melee": True}, "applied"),
    ("Two-handed", {}, "no_effect"),
    ("Sniper", {}, "no_effect"),
    ("Skyfire", {"vehicle": True}, "applied"),  # Snap Shots unless the vehicle is a Flyer or Skimmer
    ("Skyfire", {"melee": True}, "no_effect"),
    ("Pinning", {"vehicle": True}, "no_effect"),
    ("Heavy Beam", {}, "not_modelled"),  # known by name, not computed
    ("Force", {}, "applied"),  # the mixture over the Psychic checks (engine/checks.py)
    ("Force", {"vehicle": True}, "not_modelled"),  # the doubled Strength for penetration is pending
    ("Made Up Rule", {}, "not_modelled"),
    ("Feel No Pain (5+)", {"side": "attacker"}, "applied"),  # against its own Gets Hot wounds
    ("Stubborn", {"side": "attacker"}, "no_effect"),
    ("Fearless", {"side": "target"}, "applied"),
    ("Rending (6+)", {"side": "target"}, "not_modelled"),  # a weapon rule given to a unit
]


@pytest.mark.parametrize(("text", "where", "expected"), CASES)
def test_one_classification_for_every_resolution(text: str, where: dict, expected: str) -> None:
    assert _category(text, **where) == expected


def test_unit_rules_are_declared_as_unit_rules() -> None:
    for name in ("Feel No Pain", "Shrouded", "Eternal Warrior", "Fearless", "Stubborn", "Bulky"):
        assert lookup(name).holder is Holder.UNIT, name
    assert Stage.MITIGATION in lookup("Feel No Pain").stages


def _string_rule_lookups(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"has", "get"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value in REGISTRY
        ):
            out.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.func.attr}({node.args[0].value!r})")
    return out


def test_the_stages_ask_declarations_not_strings() -> None:
    bad = []
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name in {"rules", "bsdata"}:
            continue  # declarations themselves; XML attributes in BattleScribe files
        bad.extend(_string_rule_lookups(path))
    assert not bad, "look rules up by their declaration:\n" + "\n".join(bad)
