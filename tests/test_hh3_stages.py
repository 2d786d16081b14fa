"""The edition 3 door's stages through ``praetor calc``: vehicles, markers and templates, whole rounds (pinned
by hand, with the computation in a comment), and bad input refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers.formation import Formation, Hull
from praetor_analysis.markers.hh3_blast import barrage_hh3, blast_hh3, hull_hit_probability, template_touched
from praetor_analysis.scenario.calc import calc

RHINO = {"name": "Rhino", "Type": "Vehicle (Transport)", "Front Armour": 11, "Side Armour": 11, "Rear Armour": 10,
         "HP": 3}  # fmt: skip
LASCANNON = {"name": "Lascannon", "R": 48, "FP": 1, "RS": 9, "AP": 2, "D": 1, "Special Rules": "", "Traits": "Las"}
MARINES = {"name": "Legionaries", "Type": "Infantry", "models": 10, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
           "LD": 7, "CL": 7, "SAV": "3+"}  # fmt: skip


def _doc(**kw: Any) -> dict[str, Any]:
    return {"edition": "hh3", "attacker": {"BS": 4, "models": 1}, "weapon": LASCANNON, "target": RHINO, **kw}


def _pmf(result: dict[str, Any], key: str) -> list[float]:
    return list(result[key]["pmf"])


def test_lascannon_against_a_rhino_by_hand() -> None:
    # BS 4 hits on 3+ (2/3). D6 + 9 vs Front 11: a 2 glances (1/6), 3..6 penetrate (4/6), a natural 1 fails.
    # P(glance) = 2/3 * 1/6 = 1/9; P(pen) = 2/3 * 2/3 = 4/9 = P(1 hull point); each status 1/9 * 1/3 = 1/27.
    r = calc(_doc())
    assert _pmf(r, "glancing")[1] == pytest.approx(1 / 9, abs=1e-12)
    assert _pmf(r, "penetrating")[1] == pytest.approx(4 / 9, abs=1e-12)
    assert _pmf(r, "hull_points")[1] == pytest.approx(4 / 9, abs=1e-12)
    assert r["statuses"] == pytest.approx({"Pinned": 1 / 27, "Suppressed": 1 / 27, "Stunned": 1 / 27, "Routed": None})
    assert r["wrecked"] == 0.0 and r["no_effect"] == ["Las"]


def test_melta_needs_range_and_doubles_damage() -> None:
    # Multi-melta RS 8, D 2, Melta (12): within 6": Armourbane, Damage 4 per Penetrating Hit. BS 4 (2/3), Rear 10
    # (facing Rear): D6 + 8 >= 10 penetrates on 2..6 (5/6, a natural 1 fails): wrecked (4 >= 3 HP) = 2/3 * 5/6.
    melta = {"name": "Multi-melta", "R": 24, "FP": 1, "RS": 8, "AP": 1, "D": 2, "Special Rules": "Melta (12)"}
    rear = {**RHINO, "facing": "Rear"}
    r = calc(_doc(weapon=melta, target=rear, range=6))
    assert r["wrecked"] == pytest.approx(2 / 3 * 5 / 6, abs=1e-12)
    assert "Melta (12)" in r["applied"]
    far = calc(_doc(weapon=melta, target=rear))
    assert "Melta (12)" in far["no_effect"] and "range" in far["reasons"]["Melta (12)"]
    # Without Melta: 2 glances (10), 3..6 penetrate with D 2: never wrecked (2 < 3).
    assert far["wrecked"] == 0.0


def test_rules_that_do_nothing_against_vehicles_are_named() -> None:
    rending = {**LASCANNON, "Special Rules": "Rending (5+), Breaching (5+), Pinning (1)"}
    r = calc(_doc(weapon=rending))
    for label in ("Rending (5+)", "Breaching (5+)", "Pinning (1)"):
        assert label in r["no_effect"] and r["reasons"][label]
    assert r["hull_points"] == calc(_doc())["hull_points"]


def test_power_fist_against_a_rhino_in_melee() -> None:
    # WS 4 against a vehicle (WS 1): 2+ (5/6). S 4 x2 = 8 against the Rear 10: 2 glances, 3..6 penetrate (4/6).
    # D 2 per Penetrating Hit, HP 3: wrecked only by two of them (4 >= 3). Two attacks (A 2).
    fist = {"name": "Power fist", "IM": "-3", "AM": "A", "SM": "x2", "AP": 2, "D": 2}
    doc = {"edition": "hh3", "mode": "melee", "attacker": {"WS": 4, "S": 4, "I": 4, "A": 2, "models": 1},
           "weapon": fist, "target": RHINO}  # fmt: skip
    r = calc(doc)
    pen = 5 / 6 * 4 / 6
    assert _pmf(r, "penetrating") == pytest.approx([(1 - pen) ** 2, 2 * pen * (1 - pen), pen**2], abs=1e-12)
    assert r["wrecked"] == pytest.approx(pen**2, abs=1e-12)
    assert any("Rear" in a for a in r["applied"])


def test_blast_on_a_vehicle_uses_its_hull() -> None:
    # A frag missile's 3" Blast at BS 4 (2/3) over a 4.5" x 3.5" hull: hit in place, else the scattered marker
    # still touches with the geometry's probability; S 4 never hurts AV 11, so read the hits.
    frag = {"name": "Frag", "R": 48, "FP": 1, "RS": 4, "AP": None, "D": 1, "Special Rules": 'Blast (3")'}
    r = calc(_doc(weapon=frag, formation={"hull": [4.5, 3.5]}))
    _, scattered = hull_hit_probability(blast_hh3(Hull(4.5, 3.5), 3.0))
    assert _pmf(r, "hits")[1] == pytest.approx(2 / 3 + 1 / 3 * scattered, abs=1e-12)
    with pytest.raises(ScenarioError, match="formation.hull"):
        calc(_doc(weapon=frag))


def test_blast_on_one_model_by_hand() -> None:
    # One 32 mm model, a 3" Blast at BS 4: in place on 3+ (2/3); a miss moves 1..6" and still touches on 1 or 2
    # (centre within 1.5 + 0.63"): P(hit) = 2/3 + 1/3 * 2/6 = 7/9. S 4 vs T 4 wounds on 4+, no save: 7/18.
    one = {**MARINES, "models": 1, "SAV": "-"}
    frag = {"name": "Frag", "R": 48, "FP": 1, "RS": 4, "AP": None, "D": 1, "Special Rules": 'Blast (3")'}
    r = calc(_doc(weapon=frag, target=one, formation={"models": 1, "base_mm": 32}))
    assert _pmf(r, "hits")[1] == pytest.approx(7 / 9, abs=1e-12)
    assert _pmf(r, "casualties")[1] == pytest.approx(7 / 18, abs=1e-12)
    assert 'Blast (3")' in r["applied"]


def test_template_hits_firepower_times_models() -> None:
    flamer = {"name": "Flamer", "R": "Template", "FP": 1, "RS": 4, "AP": 5, "D": 1, "Special Rules": "Template"}
    r = calc(_doc(weapon=flamer, target=MARINES))
    touched, _ = template_touched(Formation.grid(10, 32, 2.0, 5), 1.0)
    assert _pmf(r, "hits")[touched] == 1.0
    assert any(note.startswith("default formation") for note in r["applied"])
    assert any(note.startswith("Template touching") for note in r["applied"])


def test_indirect_barrage_has_no_hit_test() -> None:
    # Barrage (1), 5" Blast, indirect: the hits are the indirect scatter's, whatever the BS.
    mortar = {
        "name": "Mortar",
        "R": 48,
        "FP": 1,
        "RS": 4,
        "AP": None,
        "D": 1,
        "Special Rules": 'Blast (5"), Barrage (1)',
    }
    fm = {"models": 10, "base_mm": 32, "gap": 1}
    low = calc(_doc(weapon=mortar, target=MARINES, formation=fm, indirect=True, attacker={"BS": 1, "models": 1}))
    high = calc(_doc(weapon=mortar, target=MARINES, formation=fm, indirect=True, attacker={"BS": 5, "models": 1}))
    assert low["hits"] == high["hits"]
    law = barrage_hh3(Formation.grid(10, 32, 1.0, 5), 5.0, 1)
    assert low["hits"]["mean"] == pytest.approx(float((law.on_hit * range(law.on_hit.size)).sum()), abs=1e-12)
    with pytest.raises(ScenarioError, match="indirect"):
        calc(_doc(weapon={**mortar, "Special Rules": 'Blast (5")'}, target=MARINES, formation=fm, indirect=True))


def test_a_whole_round_by_hand() -> None:
    # One Legionary (I 4, chainsword: hits WS 4 on 4+, wounds on 4+, save 3+: kills 1/2 * 1/2 * 1/3 = 1/12)
    # against one sergeant with a power fist (I 4 - 3 = 1: strikes after; hits 1/2, S 8 wounds T 4 on 2+, AP 2
    # beats 3+: kills 1/2 * 5/6 = 5/12). The Legionary strikes first.
    sword = {"name": "Chainsword", "IM": "I", "AM": "A", "SM": "S", "AP": None, "D": 1}
    fist = {"name": "Power fist", "IM": "-3", "AM": "A", "SM": "x2", "AP": 2, "D": 2}
    one = {**MARINES, "models": 1}
    doc = {"edition": "hh3", "mode": "melee", "attacker": one, "weapon": sword, "target": one, "target_weapon": fist}
    r = calc(doc)
    assert _pmf(r, "casualties")[1] == pytest.approx(1 / 12, abs=1e-12)
    assert _pmf(r, "attacker_casualties")[1] == pytest.approx(11 / 12 * 5 / 12, abs=1e-12)
    assert r["combat"] == pytest.approx(
        {"attacker_wins": 1 / 12, "target_wins": 11 / 12 * 5 / 12, "draw": 11 / 12 * 7 / 12}, abs=1e-12
    )
    assert r["routed"] == {"attacker": 0.0, "target": 0.0}  # a side wiped out makes no Check


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (_doc(target={**RHINO, "HP": None}), "target.HP"),
        (_doc(target={k: v for k, v in RHINO.items() if k != "Rear Armour"}), "target.Rear Armour"),
        (_doc(target={**RHINO, "facing": "Top"}), "target.facing"),
        (_doc(options={"critical_vs_vehicle": "maybe"}), "options.critical_vs_vehicle"),
        (_doc(options={"apt_natural_one_fails": "yes"}), "options.apt_natural_one_fails"),
        (_doc(target_weapon={"IM": "I", "AM": "A", "SM": "S"}), "target_weapon"),
    ],
)
def test_bad_input_names_the_field(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(ScenarioError) as info:
        calc(doc)
    assert field in str(info.value)


def test_vehicle_options_act() -> None:
    # BS 10: an automatic Critical Hit. Literal reading: wasted, nothing happens.
    r = calc(_doc(attacker={"BS": 10, "models": 1}, options={"critical_vs_vehicle": "wasted"}))
    assert r["hull_points"]["pmf"] == [1.0]
    # The natural-1 option: RS 10 vs AV 11 glances on a natural 1 only when the option is off.
    hits = {"BS": 4, "models": 1}
    strong = {**LASCANNON, "RS": 10}
    off = calc(_doc(attacker=hits, weapon=strong, options={"apt_natural_one_fails": False}))
    assert _pmf(off, "glancing")[1] == pytest.approx(2 / 3 * 1 / 6, abs=1e-12)
    on = calc(_doc(attacker=hits, weapon=strong))
    assert on["glancing"]["pmf"] == [1.0]


def test_shock_names_several_statuses_on_a_vehicle() -> None:
    # RS 3 never hurts AV 11; BS 4. Shock (Pinning, Stunned): any natural 5 or 6 (1/3) gives both, hit or miss.
    shock = {**LASCANNON, "RS": 3, "Special Rules": "Shock (Pinning, Stunned)"}
    r = calc(_doc(weapon=shock))
    assert r["statuses"]["Pinned"] == pytest.approx(1 / 3, abs=1e-12)
    assert r["statuses"]["Stunned"] == pytest.approx(1 / 3, abs=1e-12)
    assert r["statuses"]["Suppressed"] is None
    assert "Shock (Pinning, Stunned)" in r["applied"]


def test_force_is_named_not_modelled_where_a_stage_does_not_apply_it() -> None:
    # The engine applies Force (X) to one Fire Group at a unit; a whole round and a marker volley do not yet,
    # and say so rather than list it as applied.
    psyker = {**MARINES, "models": 1, "WP": 8, "BS": 4}
    sword = {"name": "Force sword", "IM": "I", "AM": "A", "SM": "S", "AP": 3, "D": 1, "Special Rules": "Force (D)"}
    r = calc({"edition": "hh3", "mode": "melee", "attacker": psyker, "weapon": sword, "target": MARINES,
              "target_weapon": sword})  # fmt: skip
    assert {"Force (D)", "target_weapon: Force (D)"} <= set(r["not_modelled"])
    frag = {"name": "Frag", "R": 48, "FP": 1, "RS": 4, "AP": None, "D": 1, "Special Rules": 'Blast (3"), Force (RS)'}
    r = calc(_doc(attacker=psyker, weapon=frag, target=MARINES))
    assert "Force (RS)" in r["not_modelled"] and r["reasons"]["Force (RS)"]


def test_volleys_in_sequence_carry_the_vehicle_over() -> None:
    # Two lascannons (two firing units) at a Rhino (HP 3): each takes a hull point with 4/9, glances with 1/9.
    # P(2 hull points) = (4/9)^2; never wrecked; P(Stunned) = 1 - (1 - 1/27)^2 (each volley's glance 1/9 x 1/3).
    volley = {"attacker": {"BS": 4, "models": 1}, "weapon": LASCANNON}
    r = calc({"edition": "hh3", "target": RHINO, "firing_units": [[volley], [volley]]})
    assert _pmf(r, "hull_points")[2] == pytest.approx((4 / 9) ** 2, abs=1e-12)
    assert r["statuses"]["Stunned"] == pytest.approx(1 - (26 / 27) ** 2, abs=1e-12)
    assert _pmf(r, "penetrating")[2] == pytest.approx((4 / 9) ** 2, abs=1e-12)
    # A melee volley after a shooting one meets the Rear armour: both are resolved in order.
    fist = {"name": "Power fist", "IM": "-3", "AM": "A", "SM": "x2", "AP": 2, "D": 2}
    melee = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "I": 4, "A": 1, "models": 1}, "weapon": fist}
    mixed = calc({"edition": "hh3", "target": RHINO, "firing_units": [[volley], [melee]]})
    pen = 5 / 6 * 4 / 6  # WS 4 vs WS 1 on 2+, S 8 vs Rear 10 penetrates on 3..6
    assert mixed["wrecked"] == pytest.approx(4 / 9 * pen, abs=1e-12)  # 1 + 2 = 3 hull points


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        # a marker volley: 1000 models of W 6 is beyond models x W (5,000)
        (_doc(weapon={"name": "Frag", "R": 48, "FP": 1, "RS": 4, "AP": None, "D": 1, "Special Rules": 'Blast (3")'},
              target={**MARINES, "models": 1000, "W": 6}), "target.models"),
        # a whole round: 100 attackers of A 10 against 100 W 5 is beyond dice x wounds
        ({"edition": "hh3", "mode": "melee", "attacker": {**MARINES, "models": 100, "A": 10},
          "weapon": {"IM": "I", "AM": "A", "SM": "S", "AP": None, "D": 1}, "target": {**MARINES, "models": 100, "W": 5},
          "target_weapon": {"IM": "I", "AM": "A", "SM": "S", "AP": None, "D": 1}}, "attacker.A"),
        # 200 dice at a shielded vehicle
        (_doc(attacker={"BS": 4, "models": 200}, target={**RHINO, "rules": "Void Shields (2)"}), "attacks"),
    ],
)  # fmt: skip
def test_untrusted_sizes_are_refused_before_any_table(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(ScenarioError) as info:
        calc(doc)
    assert str(info.value).startswith(field), str(info.value)


def test_vehicle_options_on_other_targets_are_named() -> None:
    bolter = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1}
    r = calc(_doc(weapon=bolter, target=MARINES, options={"critical_vs_vehicle": "wasted"}))
    assert "options.critical_vs_vehicle" in r["no_effect"] and r["reasons"]["options.critical_vs_vehicle"]


@pytest.mark.parametrize(("fp", "want"), [(1, 1 / 3), (2, 1 - (2 / 3) ** 2)])
def test_shock_from_blast_markers_on_a_walker(fp: int, want: float) -> None:
    # RS 1 never wounds T 7: the only status is Shock's, when a marker's Hit Test shows a natural 5 or 6 (1/3 per
    # marker, hit or miss): 1/3 for one marker, 1 - (2/3)^2 for two.
    walker = {"name": "Dreadnought", "Type": "Walker", "models": 1, "WS": 5, "S": 6, "T": 7, "W": 6, "I": 4,
              "A": 3, "LD": 8, "CL": 8, "SAV": "2+"}  # fmt: skip
    weak = {
        "name": "Weak",
        "R": 48,
        "FP": fp,
        "RS": 1,
        "AP": None,
        "D": 1,
        "Special Rules": 'Blast (3"), Shock (Pinned)',
    }
    r = calc(_doc(weapon=weak, target=walker))
    assert r["statuses"]["Pinned"] == pytest.approx(want, abs=1e-12)
    assert "Shock (Pinned)" in r["applied"]


def test_a_pinning_blast_by_hand() -> None:
    # One 32 mm Legionary (SAV 2+): hit 7/9 (see above), wound 1/2, saved 5/6 (else it dies: no status).
    # Pinning (1): a Cool Check at CL 7 - 1 = 6 fails in 21 of 36: P(Pinned) = 7/18 x 5/6 x 21/36.
    one = {**MARINES, "models": 1, "SAV": "2+"}
    frag = {"name": "Frag", "R": 48, "FP": 1, "RS": 4, "AP": None, "D": 1, "Special Rules": 'Blast (3"), Pinning (1)'}
    r = calc(_doc(weapon=frag, target=one, formation={"models": 1, "base_mm": 32}))
    assert r["statuses"]["Pinned"] == pytest.approx(7 / 18 * 5 / 6 * 21 / 36, abs=1e-12)


def test_a_template_equals_the_engine_given_its_hits() -> None:
    # A template's hits are a fixed count (FP x models touched), plain and independent: the markers stage must
    # answer exactly as the engine's door given that many hits.
    flamer = {"name": "Flamer", "R": "Template", "FP": 1, "RS": 4, "AP": 5, "D": 1,
              "Special Rules": "Template, Pinning (1), Shred (6+)"}  # fmt: skip
    target = {**MARINES, "W": 2}
    placed = calc(_doc(weapon=flamer, target=target))
    touched = len(placed["hits"]["pmf"]) - 1
    given = calc(_doc(weapon=flamer, target=target, hits=touched))
    for key in ("wounds", "unsaved", "casualties", "damage"):
        assert placed[key]["pmf"] == pytest.approx(given[key]["pmf"], abs=1e-12), key
    assert placed["statuses"] == pytest.approx(given["statuses"], abs=1e-12)


def test_arrays_take_every_stage() -> None:
    import json

    from praetor_analysis.scenario.calc import calc_json

    sword = {"name": "Chainsword", "IM": "I", "AM": "A", "SM": "S", "AP": None, "D": 1}
    round_doc = {"edition": "hh3", "mode": "melee", "attacker": MARINES, "weapon": sword, "target": MARINES,
                 "target_weapon": sword}  # fmt: skip
    flamer = {"name": "Flamer", "R": "Template", "FP": 1, "RS": 4, "AP": 5, "D": 1, "Special Rules": "Template"}
    docs = [_doc(), round_doc, _doc(weapon=flamer, target=MARINES)]
    out = calc_json(json.dumps(docs))
    assert out[0] == calc(docs[0]) and out[1]["combat"] == calc(round_doc)["combat"] and "hits" in out[2]
    with pytest.raises(ScenarioError, match=r"^\[1\] target_weapon"):
        calc_json(json.dumps([_doc(), {**round_doc, "mode": "shooting"}]))


@pytest.mark.parametrize("same_unit", [True, False])
def test_marker_volleys_in_sequence_equal_the_engine_given_their_hits(same_unit: bool) -> None:
    # A flamer then bolters (one firing unit, or two): the markers stage carries the target over as the engine
    # does when the template's hits are given.
    flamer = {"name": "Flamer", "R": "Template", "FP": 1, "RS": 4, "AP": 5, "D": 1,
              "Special Rules": "Template, Pinning (1)"}  # fmt: skip
    bolter = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "Suppressive (1)"}
    shooter = {"BS": 4, "models": 3}
    target = {**MARINES, "W": 2}
    touched = len(calc(_doc(weapon=flamer, target=target))["hits"]["pmf"]) - 1

    def units(first: dict[str, Any]) -> list[list[dict[str, Any]]]:
        second = {"attacker": shooter, "weapon": bolter}
        return [[first, second]] if same_unit else [[first], [second]]

    placed = calc({"edition": "hh3", "target": target,
                   "firing_units": units({"attacker": {"BS": 4, "models": 1}, "weapon": flamer})})  # fmt: skip
    given = calc({"edition": "hh3", "target": target,
                  "firing_units": units({"attacker": {"BS": 4, "models": 1}, "weapon": flamer, "hits": touched})})  # fmt: skip
    for key in ("hits", "wounds", "unsaved", "casualties", "damage"):
        assert placed[key]["pmf"] == pytest.approx(given[key]["pmf"], abs=1e-12), key
    assert placed["statuses"] == pytest.approx(given["statuses"], abs=1e-12)


def test_overload_misfires_are_resolved_beside_vehicles_and_markers() -> None:
    # A plasma cannon (Overload (1)) at a Rhino: each natural 1 on its Hit Test is a Misfire on the firer, hit
    # with the weapon's own profile: one die, P(misfire) = 1/6; RS 7 vs T 4 wounds on 2+ (5/6), AP 4 vs SAV 3+
    # saves on 3+ (2/3 pass): P(the firer's model dies) = 1/6 x 5/6 x 1/3.
    firer = {**MARINES, "models": 1, "BS": 4}
    plasma = {"name": "Plasma cannon", "R": 36, "FP": 1, "RS": 7, "AP": 4, "D": 1, "Special Rules": "Overload (1)"}
    r = calc(_doc(attacker=firer, weapon=plasma))
    assert "Overload (1)" in r["applied"]
    assert r["misfires"][0]["casualties"]["pmf"][1] == pytest.approx(1 / 6 * 5 / 6 * 1 / 3, abs=1e-12)
    blast = {**plasma, "Special Rules": 'Blast (3"), Overload (1)'}
    m = calc(_doc(attacker=firer, weapon=blast, target=MARINES))
    assert m["misfires"][0]["casualties"]["pmf"][1] == pytest.approx(1 / 6 * 5 / 6 * 1 / 3, abs=1e-12)
