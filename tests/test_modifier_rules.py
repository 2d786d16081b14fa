"""Re-rolls of 1 and To Hit / To Wound modifiers (rules/modifier_rules.py): Preferred Enemy and the
project's own "Re-roll To Hit 1s", "Re-roll To Wound 1s", "To Hit modifier (+1)", "To Wound modifier (-1)".

Each rule alone and with Twin-linked, Shred, Rending, Master-crafted and Gets Hot is checked against the
die-by-die oracle (tests/oracle, to 1e-12); pinned values are worked by hand from the rule texts named.
"""

from __future__ import annotations

from typing import Any

import pytest
from oracle import oracle_calc
from scenarios import TARGETS, shooting
from test_engine_vs_oracle import compare

from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.errors import PraetorError
from praetor_analysis.rules.hit import HitRoll
from praetor_analysis.rules.wound import WoundRoll
from praetor_analysis.scenario.calc import calc, parse_target, parse_volley

ATTACKER = {"BS": 4, "WS": 4, "S": 4, "T": 4, "W": 1, "Ld": 8, "Save": "3+", "models": 1}


def with_rules(rules: list[str], weapon_rules: list[str] = (), **kw: Any) -> dict[str, Any]:
    """A shooting scenario whose attacker has ``rules``."""
    bs = kw.pop("bs", 4)
    models = kw.pop("models", 1)
    return shooting(list(weapon_rules), attacker={**ATTACKER, "BS": bs, "models": models, "rules": rules}, **kw)


def melee_with(rules: list[str], weapon_rules: str = "Melee", ws: int = 4, target: dict | None = None) -> dict:
    return {
        "mode": "melee",
        "attacker": {"WS": ws, "S": 4, "A": 2, "models": 1, "rules": rules},
        "weapon": {"name": "sword", "Range": "-", "Strength": "User", "AP": "3", "Type": weapon_rules},
        "target": dict(target or TARGETS[0]),
    }


ATTACKER_RULES = [
    ["Re-roll To Hit 1s"],
    ["Re-roll To Wound 1s"],
    ["Preferred Enemy"],
    ["To Hit modifier (+1)"],
    ["To Hit modifier (-1)"],
    ["To Wound modifier (+1)"],
    ["To Wound modifier (-1)"],
    ["Re-roll To Hit 1s", "To Hit modifier (-1)"],
    ["Preferred Enemy", "To Wound modifier (+1)"],
]
WEAPON_RULES = [[], ["Twin-linked"], ["Shred"], ["Rending (5+)"], ["Gets Hot"], ["Master-crafted"], ["Breaching (6+)"]]

CASES = [
    (f"{'+'.join(a)} | {'+'.join(w) or 'plain'} | BS{bs}", with_rules(a, w, bs=bs, shots="2"))
    for a in ATTACKER_RULES
    for w in WEAPON_RULES
    for bs in (1, 4, 6)
]
CASES += [
    (f"{'+'.join(a)} | BS{bs} master-crafted x2", with_rules(a, ["Master-crafted", "Gets Hot"], bs=bs, models=2))
    for a in ATTACKER_RULES
    for bs in (2, 6, 8)
]
CASES += [(f"melee {'+'.join(a)}", melee_with(a, "Melee, Rending (6+)")) for a in ATTACKER_RULES]
CASES += [
    ("wound modifier S3 vs T7 cannot", with_rules(["To Wound modifier (-1)"], strength="4", target=TARGETS[1])),
    ("preferred enemy by name", with_rules(["Preferred Enemy (legion)"], ["Rending (6+)"])),
    ("preferred enemy by unit type", with_rules(["Preferred Enemy (Infantry)"], ["Shred"])),
    ("not the preferred enemy", with_rules(["Preferred Enemy (Daemon)"])),
]


@pytest.mark.parametrize("scenario", [s for _, s in CASES], ids=[n for n, _ in CASES])
def test_modifier_rules_match_enumeration(scenario):
    compare(scenario)


def hits(scenario: dict) -> float:
    pmf = calc(scenario)["hits"]["pmf"]
    return sum(k * p for k, p in enumerate(pmf))


def test_reroll_hit_ones_pinned_values():
    # a re-roll of 1s (Preferred Enemy's text): BS 4 hits on 3+ (2/3) and re-rolls the 1 (1/6 * 2/3) = 7/9
    assert hits(with_rules(["Re-roll To Hit 1s"], shots="1")) == pytest.approx(7 / 9, abs=1e-12)
    # BS 6 (2+, a 1 re-rolled at 6+ by the table): the re-roll of 1s takes the 1 at 2+ instead: 5/6 + 1/6*5/6
    assert hits(with_rules(["Re-roll To Hit 1s"], shots="1", bs=6)) == pytest.approx(35 / 36, abs=1e-12)
    # with Twin-linked every failure is re-rolled once already: 2/3 + 1/3 * 2/3 = 8/9, nothing more
    twin = with_rules(["Re-roll To Hit 1s"], ["Twin-linked"], shots="1")
    assert hits(twin) == pytest.approx(8 / 9, abs=1e-12)


def test_hit_modifier_pinned_values():
    # +1 to hit: BS 4's 3+ becomes 2+ (5/6); BS 5's 2+ stays 2+ (a natural 1 always fails)
    assert hits(with_rules(["To Hit modifier (+1)"], shots="1")) == pytest.approx(5 / 6, abs=1e-12)
    assert hits(with_rules(["To Hit modifier (+1)"], shots="1", bs=5)) == pytest.approx(5 / 6, abs=1e-12)
    # -1 to hit at BS 1: 6+ becomes 7+, which never hits
    assert hits(with_rules(["To Hit modifier (-1)"], shots="1", bs=1)) == 0.0
    # -1 at BS 6: 2+ becomes 3+, and the 1's second roll 6+ becomes 7+: 4/6 (as BS 5)
    assert hits(with_rules(["To Hit modifier (-1)"], shots="1", bs=6)) == pytest.approx(4 / 6, abs=1e-12)
    # +1 at BS 6: 2+ stays, the second roll 6+ becomes 5+: 5/6 + 1/6 * 2/6
    assert hits(with_rules(["To Hit modifier (+1)"], shots="1", bs=6)) == pytest.approx(5 / 6 + 2 / 36, abs=1e-12)


def test_wound_roll_pinned_values():
    # S4 vs T4 wounds on 4+; a re-roll of 1s: 1/2 + 1/6 * 1/2 = 7/12
    assert sum(WoundRoll(4, reroll_ones=True).outcomes().values()) == pytest.approx(7 / 12, abs=1e-12)
    # +1 to wound: 3+ (2/3); -1 on a 6+ need: 7+, never; a table "-" stays "-"
    assert sum(WoundRoll(4, modifier=1).outcomes().values()) == pytest.approx(2 / 3, abs=1e-12)
    assert WoundRoll(6, modifier=-1).outcomes() == {}
    assert WoundRoll(None, modifier=2).outcomes() == {}
    # Rending (6+) with -1 to wound on a 6+ need: the natural 6 still wounds (and rends)
    rend = WoundRoll(6, modifier=-1, rending=6).outcomes()
    assert sum(rend.values()) == pytest.approx(1 / 6, abs=1e-12) and all(k.ap == 2 for k in rend)
    # Shred re-rolls every failure once: the re-roll of 1s adds nothing
    assert WoundRoll(4, reroll_failed=True, reroll_ones=True).outcomes() == WoundRoll(4, reroll_failed=True).outcomes()


def test_hit_roll_gets_hot_ones():
    # a natural 1 stands only when the re-roll shows 1 again: 1/36 a shot
    assert HitRoll(3, reroll_ones=True).per_shot() == pytest.approx((7 / 9, 1 / 36), abs=1e-12)
    assert HitRoll(3, modifier=-1).per_shot() == pytest.approx((1 / 2, 1 / 6), abs=1e-12)


def test_preferred_enemy_is_applied_and_reads_the_target():
    bare = calc(with_rules(["Preferred Enemy"], shots="1"))
    assert "attacker: Preferred Enemy" in bare["applied"] and not bare["not_modelled"]
    assert sum(k * p for k, p in enumerate(bare["hits"]["pmf"])) == pytest.approx(7 / 9, abs=1e-12)
    other = with_rules(["Preferred Enemy (Daemon)"], shots="1")
    assert hits(other) == pytest.approx(2 / 3, abs=1e-12)
    assert "attacker: Preferred Enemy (Daemon)" in calc(other)["no_effect"]
    named = with_rules(["Preferred Enemy (Legionaries)"], shots="1")
    assert hits(named) == pytest.approx(7 / 9, abs=1e-12)


def test_preferred_enemy_in_a_sweep_reads_each_target_name():
    # two targets alike but for the name: the sweep must not share the Preferred Enemy's tables between them
    base = with_rules(["Preferred Enemy (Legionaries)"], ["Breaching (6+)"], shots="1")
    volley = parse_volley(base)
    targets = [parse_target(base), parse_target({**base, "target": {**base["target"], "name": "Militia"}})]
    got = [r.hits.mean() for r in resolve_many([(volley, t) for t in targets])]  # type: ignore[union-attr]
    assert got == pytest.approx([7 / 9, 2 / 3], abs=1e-12)
    wounds = [r.wounds.mean() for r in resolve_many([(volley, t) for t in targets])]  # type: ignore[union-attr]
    assert wounds == pytest.approx([7 / 9 * 7 / 12, 2 / 3 * 1 / 2], abs=1e-12)


@pytest.mark.parametrize(
    "bad",
    [
        "To Hit modifier",
        "To Hit modifier (+x)",
        "To Wound modifier (1)",
        "To Hit modifier (+6)",
        "To Wound modifier (-6)",
    ],
)
def test_a_modifier_needs_a_signed_number(bad):
    with pytest.raises(PraetorError, match="signed modifier"):
        calc(with_rules([bad]))


def furious(rules: list[str], weapon_type: str = "Melee", **attacker: Any) -> dict[str, Any]:
    """One Legionary-like model striking a T4 target with a Strength User blade."""
    return {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "A": 1, "models": 1, "rules": rules, **attacker},
        "weapon": {"name": "blade", "Range": "-", "Strength": "User", "AP": "3", "Type": weapon_type},
        "target": dict(TARGETS[0]),
    }


def wounds_mean(scenario: dict[str, Any]) -> float:
    return calc(scenario)["wounds"]["mean"]


def test_furious_charge_as_the_attackers_unit_rule():
    # Furious Charge (X) (rules reference p. 239): +X Strength on a turn the unit charged, not after a
    # Disordered Charge. Charging: 2 blows at WS 4 v 4 (4+), S4+1 = 5 v T4 wounds on 3+: 2 * 1/2 * 2/3
    charged = calc(furious(["Furious Charge (1)"], charging=True))
    assert "attacker: Furious Charge (1)" in charged["applied"]
    assert charged["wounds"]["mean"] == pytest.approx(2 * 1 / 2 * 2 / 3, abs=1e-12)
    s5 = {**furious([]), "attacker": {**furious([])["attacker"], "S": 5, "charging": True}}
    assert charged["unsaved"]["pmf"] == pytest.approx(oracle_calc(s5)["unsaved"], abs=1e-12)
    # not charging, or a Disordered Charge: S4 v T4 on 4+ (and no charge attack when disordered)
    still = calc(furious(["Furious Charge (1)"]))
    assert "attacker: Furious Charge (1)" in still["no_effect"]
    assert still["wounds"]["mean"] == pytest.approx(1 / 2 * 1 / 2, abs=1e-12)
    disordered = furious(["Furious Charge (2)"], charging=True, disordered=True)
    assert wounds_mean(disordered) == pytest.approx(1 / 2 * 1 / 2, abs=1e-12)
    # the unit's rule and the weapon's are one rule: +1, not +2 (S5 v T4, not S6 on 2+)
    both = furious(["Furious Charge (1)"], "Melee, Furious Charge (1)", charging=True)
    assert wounds_mean(both) == pytest.approx(2 * 1 / 2 * 2 / 3, abs=1e-12)
