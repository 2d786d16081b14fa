"""An independent check of `praetor calc` in melee (MECHANICS-HH3 sections 10 and 13), die by die.

One side striking on the Weapon Skill chart (SM, AM, AP, D, criticals, no cover, statuses `null`), the bonus
attacks (Reaping Blow, Impact), and whole rounds: Initiative Steps, simultaneous blows, `attacker_casualties`,
`combat` and the loser's Check.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from hh3_independent import (
    TOL,
    Side,
    Target,
    Weapon,
    apply_wounds,
    assert_result,
    attack_outcomes,
    check_pass,
    melee_doc,
    melee_weapon,
    play,
    round_play,
    run,
    strike,
)

ONE_WAY: list[tuple[str, dict[str, Any], Weapon, Target, int, tuple[int, int]]] = [
    (
        "ws4_vs_ws4_sm1",
        melee_doc({"SM": "+1", "AP": 4}, {"models": 3}, {"A": 2, "models": 1}),
        Weapon(5, 4),
        Target(models=3),
        2,
        (4, 4),
    ),
    (
        "ws5_vs_ws9_am_x2",
        melee_doc({"AM": "x2"}, {"models": 3, "WS": 9}, {"WS": 5, "A": 1, "models": 2}),
        Weapon(4, None),
        Target(models=3),
        4,
        (5, 9),
    ),
    (
        "ws4_vs_ws8_fixed_sm",
        melee_doc(
            {"SM": 8, "AP": 2, "D": 2}, {"models": 2, "WS": 8, "W": 2, "INV": "5+"}, {"WS": 4, "A": 2, "models": 1}
        ),
        Weapon(8, 2, 2),
        Target(w=2, models=2, inv=5),
        2,
        (4, 8),
    ),
    (
        "no_cover_in_melee",
        melee_doc({"AP": 3}, {"models": 3, "Cover": "4+"}, {"A": 3, "models": 1}),
        Weapon(4, 3),
        Target(models=3),
        3,
        (4, 4),
    ),
    (
        "crit_rending_in_melee",
        melee_doc(
            {"Special Rules": "Critical Hit (6+), Rending (5+)", "D": 1}, {"models": 2, "W": 2}, {"A": 3, "models": 1}
        ),
        Weapon(4, None, crit=6, rending=5),
        Target(w=2, models=2),
        3,
        (4, 4),
    ),
    (
        "pinning_no_effect_in_melee",
        melee_doc({"Special Rules": "Pinning (1)"}, {"models": 2}, {"A": 2, "models": 1}),
        Weapon(4, None),
        Target(models=2),
        2,
        (4, 4),
    ),
]


@pytest.mark.parametrize(("doc", "wpn", "tgt", "n", "ws"), [c[1:] for c in ONE_WAY], ids=[c[0] for c in ONE_WAY])
def test_melee_one_way(doc: dict[str, Any], wpn: Weapon, tgt: Target, n: int, ws: tuple[int, int]) -> None:
    per = attack_outcomes(wpn, tgt, ws=ws, shooting=False)
    want = play([per] * n, tgt, None)
    res = run(doc)
    assert_result(res, want)
    assert all(v is None for v in res["statuses"].values()), res["statuses"]
    if "Pinning" in str(doc["weapon"]["Special Rules"]):
        assert "Pinning (1)" in res["no_effect"]


ROUND_CASES = [
    # attacker I 5 strikes first; the target I 4 answers with the models it has left
    (
        "first_strike",
        {"I": 5, "A": 1, "models": 2},
        {"models": 2, "I": 4, "A": 1},
        {"AP": 4},
        {"AP": 5},
        lambda: (
            Side(2, 1, 5, attack_outcomes(Weapon(4, 4), Target(models=2), ws=(4, 4), shooting=False), 1),
            Side(2, 1, 4, attack_outcomes(Weapon(4, 5), Target(models=2), ws=(4, 4), shooting=False), 1),
        ),
    ),
    # equal Initiative: simultaneous blows, both sides may be wiped out (a draw)
    (
        "simultaneous",
        {"I": 4, "A": 1, "models": 1, "W": 2},
        {"models": 1, "I": 4, "A": 2, "W": 2},
        {"AP": 3, "D": 2},
        {"AP": 4},
        lambda: (
            Side(1, 1, 4, attack_outcomes(Weapon(4, 3, 2), Target(w=2, models=1), ws=(4, 4), shooting=False), 2),
            Side(1, 2, 4, attack_outcomes(Weapon(4, 4), Target(w=2, models=1), ws=(4, 4), shooting=False), 2),
        ),
    ),
    # the target's weapon IM -3 makes it strike after an attacker of lower I; SM +2
    (
        "im_minus_3",
        {"I": 3, "A": 1, "models": 2, "WS": 5},
        {"models": 2, "I": 5, "A": 1, "WS": 3},
        {"AP": 5},
        {"IM": "-3", "SM": "+2", "AP": 3},
        lambda: (
            Side(2, 1, 3, attack_outcomes(Weapon(4, 5), Target(models=2), ws=(5, 3), shooting=False), 1),
            Side(2, 1, 2, attack_outcomes(Weapon(6, 3), Target(models=2), ws=(3, 5), shooting=False), 1),
        ),
    ),
]


@pytest.mark.parametrize(
    ("att", "tgt", "aw", "tw", "build"), [c[1:] for c in ROUND_CASES], ids=[c[0] for c in ROUND_CASES]
)
def test_whole_round(
    att: dict[str, Any], tgt: dict[str, Any], aw: dict[str, Any], tw: dict[str, Any], build: Any
) -> None:
    doc = melee_doc(aw, tgt, att, target_weapon=melee_weapon("Answer", **tw))
    want, combat = round_play(*build())
    res = run(doc)
    assert_result(res, want)
    for key, value in combat.items():
        assert res["combat"][key] == pytest.approx(float(value), abs=TOL), key


# --- Melee bonuses: Reaping Blow, Impact (section 10) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "extra", "n"),
    [
        ({"Special Rules": "Reaping Blow (1)"}, {}, 2),  # one model against three: outnumbered, A 1 + 1
        ({"Special Rules": "Impact (AM)"}, {"charging": True}, 2),  # a successful charge: AM + 1
        ({"Special Rules": "Impact (AM)"}, {}, 1),
    ],  # no charge: nothing
    ids=["reaping_blow", "impact_charging", "impact_not_charging"],
)
def test_melee_bonus_attacks(weapon: dict[str, Any], extra: dict[str, Any], n: int) -> None:
    doc = melee_doc(weapon, {"models": 3}, {"A": 1, "models": 1}, **extra)
    want = play(
        [attack_outcomes(Weapon(4, None), Target(models=3), ws=(4, 4), shooting=False)] * n, Target(models=3), None
    )
    assert_result(run(doc), want)


def test_round_loser_check() -> None:
    """The first_strike round: the side that loses on points (not wiped out) takes a Leadership Check at
    LD 7 minus the difference; failing, it is Routed."""
    att, tgt = ROUND_CASES[0][5]()
    doc = melee_doc(
        {"AP": 4},
        {"models": 2, "I": 4, "A": 1},
        {"I": 5, "A": 1, "models": 2},
        target_weapon=melee_weapon("Answer", AP=5),
    )
    routed = {"attacker": Fraction(0), "target": Fraction(0)}
    states: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for (a_hits, _, _, _, a_w), pa in strike(att, 2).items():
        tm, _, _ = apply_wounds(2, 1, 0, list(a_w))
        for (_, _, _, _, t_w), pt in strike(tgt, tm).items():
            am, _, _ = apply_wounds(2, 1, 0, list(t_w))
            states[(am, tm)] += pa * pt
    for (am, tm), p in states.items():
        if am == 0 or tm == 0:
            continue
        a_crp, t_crp = (2 - tm) + (am > tm), (2 - am) + (tm > am)
        if a_crp > t_crp:
            routed["target"] += p * (1 - check_pass(7 - (a_crp - t_crp)))
        elif t_crp > a_crp:
            routed["attacker"] += p * (1 - check_pass(7 - (t_crp - a_crp)))
    res = run(doc)
    got = res["routed"]
    assert got["target"] == pytest.approx(float(routed["target"]), abs=TOL), got
    assert got["attacker"] == pytest.approx(float(routed["attacker"]), abs=TOL), got
    assert res["statuses"]["Routed"] == pytest.approx(float(routed["target"]), abs=TOL)  # the target's own
