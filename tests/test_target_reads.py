"""Each rule declares what of the target its wound, save and damage hooks read (``RuleDecl.reads``), and the
sweep shares per-hit tables between targets that agree on it (``wound_stage.wound_stage_target``). These tests
check the declarations against the hooks themselves: every hook, on every Unit Type of the shipped data,
answers the same for the target reduced to what its declaration says as for the whole target."""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace

import pytest

from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.engine.rule_report import classification_reads, classify_rules
from praetor_analysis.engine.volley import Volley
from praetor_analysis.engine.wound_stage import (
    damage_per_wound,
    save_context,
    volley_reads,
    wound_stage_target,
    wound_table_for,
)
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import Unit, Weapon
from praetor_analysis.profiles.rule_tokens import parse_rule
from praetor_analysis.rules.catalogue import REGISTRY
from praetor_analysis.rules.contexts import SaveSituation, WoundSituation
from praetor_analysis.rules.hooks import WOUND_STAGE_SLOTS
from praetor_analysis.rules.registry import RuleDecl
from praetor_analysis.rules.saves import SaveContext
from praetor_analysis.rules.target_reads import NO_READS, TargetReads, reads
from praetor_analysis.rules.wound import WoundRoll


def _unit_types() -> list[str]:
    """Every Unit Type of the shipped units and targets, and a few made-up ones that combine words."""
    found = set(load_units()["Unit Type"].astype(str)) | set(load_targets()["Unit Type"].astype(str))
    made = {"Infantry (Heavy, Daemon)", "Monstrous Creature (Psyker)", "Primarch", "Automata (Heavy)", ""}
    return sorted(found | made)


UNIT_TYPES = _unit_types()
#: (name, Strength) pairs a hook may see (a hook that reads either reads it whole or not at all)
NAMED = (("Legionary", None), ("Daemon Prince", 3), ("", 6))


def _hooked() -> list[RuleDecl]:
    return [d for d in REGISTRY.values() if any(s.of(d.hooks) for s in WOUND_STAGE_SLOTS)]


def _params(decl: RuleDecl) -> list[tuple[int | None, str | None]]:
    if decl.param.kind in ("roll", "count"):
        return list(itertools.product((None, 2, 4, 6), (None, "Melta")))
    return [(None, v) for v in (None, "Melta", "Melee", "Ranged", "AP2", "Daemon", "Legionary", "Infantry")]


def _call(fn, *args):
    try:
        return ("value", fn(*args))
    except PraetorError as exc:  # a hook may refuse a situation (Immaterial Blades without an AP): the same
        return ("error", str(exc))


def _wound_situation(unit_type: str, name: str, strength: int | None, r: TargetReads, *, melee: bool):
    full = WoundSituation(
        strength=5, toughness=4, melee=melee, unit_type=unit_type, target_strength=strength, target_name=name
    )
    reduced = WoundSituation(
        strength=5,
        toughness=4,
        melee=melee,
        unit_type=r.unit_type(unit_type),
        target_strength=strength if "S" in r.fields else None,
        target_name=name if "name" in r.fields else "",
    )
    return full, reduced


def test_some_declarations_read_the_target_and_most_do_not():
    hooked = _hooked()
    assert len(hooked) > 30
    reading = {d.name for d in hooked if d.reads != NO_READS}
    assert {"Blast", "Template", "Fleshbane", "Poisoned", "Graviton Pulse", "Preferred Enemy"} <= reading
    assert {"Rending", "Shred", "Breaching", "Brutal", "Ignores Cover"}.isdisjoint(reading)


@pytest.mark.parametrize("decl", _hooked(), ids=lambda d: d.name)
def test_every_hook_reads_no_more_of_the_target_than_its_declaration_says(decl):
    r = decl.reads
    for unit_type, (name, strength), melee in itertools.product(UNIT_TYPES, NAMED, (False, True)):
        full, reduced = _wound_situation(unit_type, name, strength, r, melee=melee)
        if decl.wound_targets is not None:
            assert full.target_is(*decl.wound_targets) == reduced.target_is(*decl.wound_targets), unit_type
        save_full = SaveSituation(melee=melee, unit_type=unit_type)
        save_reduced = SaveSituation(melee=melee, unit_type=r.unit_type(unit_type))
        for value, variant in _params(decl):
            if (hook := decl.hooks.wound) is not None:
                roll = WoundRoll(target=4, ap=4, melee=melee)
                want = _call(hook, roll, value, variant, full)
                assert _call(hook, roll, value, variant, reduced) == want, (unit_type, name, strength, variant)
            if (hook := decl.hooks.save) is not None:
                ctx = SaveContext(armour=3, invulnerable=5, cover=4)
                want = _call(hook, ctx, value, variant, save_full)
                assert _call(hook, ctx, value, variant, save_reduced) == want, (unit_type, variant)
            if (hook := decl.hooks.damage) is not None:
                assert _call(hook, value, variant, reduced) == _call(hook, value, variant, full), unit_type


def test_a_reduced_unit_type_answers_every_tested_word_as_the_whole_one():
    r = reads(("Heavy", "Daemon"))
    assert r.unit_type("Infantry (Heavy)") == "Heavy"
    assert r.unit_type("Infantry (Line)") == ""
    assert r.unit_type("Daemon (Heavy)") == "Daemon Heavy"
    # words that the short form would join into another tested word: the whole Unit Type is kept
    tricky = reads(("a", "b", "a b"))
    assert tricky.unit_type("a x b") == "a x b"
    assert reads((), ("unit_type",)).unit_type("Infantry (Heavy)") == "Infantry (Heavy)"
    with pytest.raises(RuntimeError, match="unknown target fields"):
        TargetReads(fields=frozenset({"Toughness"}))


@functools.cache
def _weapons() -> tuple[Weapon, ...]:
    """One shipped weapon of every distinct rule set."""
    weapons: dict[tuple, Weapon] = {}
    for _, row in load_weapons().iterrows():
        try:
            w = Weapon.from_mapping({k: row[k] for k in ("name", "Range", "Strength", "AP", "Type")})
        except PraetorError:  # a profile without a Strength (a special weapon): no wound table
            continue
        weapons.setdefault(tuple(w.stage_rules), w)
    assert len(weapons) > 100
    return tuple(weapons.values())


@pytest.mark.slow
def test_the_reduced_target_gives_the_same_wound_save_and_damage_tables_on_every_unit_type():
    """Every distinct rule set of the shipped weapons, in its own mode, against one statline under every Unit
    Type: the reduced target's tables equal the whole target's."""
    assert _check_reduced_tables(1) > 20_000


def test_the_reduced_target_gives_the_same_tables_for_a_slice_of_the_rule_sets():
    """The fast tier's slice of the test above: every 10th distinct rule set."""
    assert _check_reduced_tables(10) > 20_000 / 10


def _check_reduced_tables(every: int) -> int:
    """Every ``every``-th distinct rule set of the shipped weapons against one statline under every Unit Type: the
    reduced target's wound, save and damage tables against the whole target's; how many were compared."""
    attacker = Unit(name="attacker", BS=4, WS=4, S=4)
    checked = 0
    for w in _weapons()[::every]:
        for mode in ("melee",) if w.is_melee else ("shooting",):
            volley = Volley(w, attacker, mode=mode)
            r = volley_reads(volley)
            for unit_type in UNIT_TYPES:
                target = Unit(name="Daemon Prince", unit_type=unit_type, T=4, S=5, W=2, save=3, invulnerable=5, cover=5)
                reduced = wound_stage_target(target, r)
                for fn in (wound_table_for, save_context, damage_per_wound):
                    args = (volley, target, 5) if fn is wound_table_for else (volley, target)
                    small = (volley, reduced, 5) if fn is wound_table_for else (volley, reduced)
                    assert _call(fn, *small) == _call(fn, *args), (w.name, w.type.signature, mode, unit_type)
                checked += 1
    return checked


@pytest.mark.slow
def test_the_rule_lists_read_no_more_of_the_target_than_the_declarations_say():
    """``classify_rules`` of every distinct rule set of the shipped weapons, by an attacker with and without
    Preferred Enemy, against targets with and without rules of their own under every Unit Type: the same lists
    for the target reduced to its ``classification_reads`` (the batch keys its rule lists on that)."""
    attackers = (
        Unit(name="attacker", BS=4, WS=4, S=4),
        Unit(name="attacker", BS=4, WS=4, S=4, rules=(parse_rule("Preferred Enemy (Daemon)"),)),
    )
    own = (parse_rule("Eternal Warrior"), parse_rule("Feel No Pain (5+)"), parse_rule("Fearless"))
    checked = 0
    for w, attacker in itertools.product(_weapons(), attackers):
        volley = Volley(w, attacker, mode="melee" if w.is_melee else "shooting")
        for unit_type, rules in itertools.product(UNIT_TYPES, ((), own)):
            target = Unit(name="Daemon Prince", unit_type=unit_type, T=4, W=1, save=3, rules=rules)
            r = classification_reads(volley, target)
            reduced = replace(target, unit_type=r.unit_type(unit_type), name=target.name if "name" in r.fields else "")
            assert classify_rules(volley, reduced, []) == classify_rules(volley, target, []), (w.name, unit_type)
            checked += 1
    assert checked > 40_000
