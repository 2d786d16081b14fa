"""The batch's shared To Hit roll (``BatchShared.hit``: one ``hit_stage.shared_roll`` for the volleys that differ
only in their attack count, each volley's hits from it by ``hits_from_shots``) against the per-volley build
(``hit_stage.hit_stage``) on generated volleys: hits and natural 1s to 1e-12, P(the check passes), the notes, the
same error; and the batch's results against the one-cell engine on such volleys."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.exact import resolve_exact
from praetor_analysis.engine.hit_stage import hit_stage, hit_stage_target_part
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist, parse_dice
from praetor_analysis.profiles.records import Weapon, unit_from_mapping

TOL = 1e-12

SHOOTING_TYPES = [
    "Assault 2",
    "Heavy 1, Twin-linked",
    "Heavy 1, Master-crafted",
    "Rapid Fire, Gets Hot",
    "Heavy 1, Skyfire",
    "Assault 1, Psychic Focus",  # a check: the per-volley build, not the shared roll
    "Heavy 1, Retaliation",  # automatic hits: the per-volley build
]
MELEE_TYPES = ["Melee", "Melee, Lightning Blows", "Melee, Master-crafted, Lightning Blows (5+)", "Melee, Detonation"]
COUNTS = [0, 1, 4, 9, 30, "D3", "2D6"]


def _attackers():
    base = {"WS": 4, "S": 4, "A": 2, "BS": 4, "Ld": 8}
    return [
        unit_from_mapping({**base, "models": 1}, field_name="attacker"),
        unit_from_mapping({**base, "models": 3, "rules": ["Preferred Enemy (Legionaries)"]}, field_name="attacker"),
        unit_from_mapping({**base, "models": 2, "BS": 6, "WS": 7}, field_name="attacker"),
    ]


def _targets():
    rows = [
        {"name": "Legionaries", "models": 5, "WS": 4, "T": 4, "W": 1, "Save": "3+", "Ld": 7},
        {"name": "Others", "models": 5, "WS": 2, "T": 4, "W": 1, "Save": "4+", "Ld": 7},
        {"name": "Jets", "models": 1, "WS": 1, "T": 5, "W": 3, "Save": "3+", "Ld": 8, "Unit Type": "Flyer"},
    ]
    return [unit_from_mapping(row, field_name="target") for row in rows]


def _volleys():
    out = []
    for attacker in _attackers():
        for types, mode, rng in ((SHOOTING_TYPES, "shooting", '24"'), (MELEE_TYPES, "melee", "-")):
            for type_ in types:
                weapon = Weapon.from_mapping({"name": "w", "Range": rng, "Strength": "4", "AP": "5", "Type": type_})
                snaps = (False, True) if mode == "shooting" and "Skyfire" not in type_ else (False,)
                for count, snap in itertools.product(COUNTS, snaps):
                    attacks = parse_dice(count) if isinstance(count, str) else count
                    out.append(Volley(weapon, attacker, mode=mode, attacks=attacks, snap_shots=snap))
    return out


def _outcome(volley, target, build):
    try:
        return build(volley, target)
    except ProfileError as exc:
        return str(exc)


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    n = max(a.size, b.size)
    return float(np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))))


def test_shared_roll_equals_the_per_volley_hit_stage_on_generated_volleys():
    shared = BatchShared()
    volleys, targets = _volleys(), _targets()
    compared = 0
    for volley, target in itertools.product(volleys, targets):
        part = hit_stage_target_part(volley, target)
        got = _outcome(volley, target, lambda v, t, p=part: shared.hit(v, t, p))
        want = _outcome(volley, target, hit_stage)
        where = (volley.weapon.type.text, volley.mode, volley.attacks, volley.attacker.models, target.name)
        if isinstance(want, str):
            assert got == want, where
            continue
        assert not isinstance(got, str), (where, got)
        assert _gap(got[0].probabilities, want[0].probabilities) <= TOL, where
        assert _gap(got[1].probabilities, want[1].probabilities) <= TOL, where
        assert got[2] == want[2] and got[3] == want[3], where
        compared += 1
    assert compared > 1000
    shared_rolls = [r for r in shared.rolls.values() if r is not None]
    assert 0 < len(shared_rolls) < len(shared.hits) / 4  # the volleys of one count-free key share one roll


def test_shared_roll_keeps_the_per_volley_error_order():
    # too many shots and no Ballistic Skill: hit_stage names the shots first; so does the shared path
    attacker = unit_from_mapping({"models": 1, "WS": 4, "S": 4, "A": 1, "BS": 0, "Ld": 8}, field_name="attacker")
    weapon = Weapon.from_mapping({"name": "w", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Heavy 1"})
    target = _targets()[0]
    shared = BatchShared()
    for count in (3, 1500, 4):
        volley = Volley(weapon, attacker, attacks=Dist.point(count))
        want = _outcome(volley, target, hit_stage)
        got = _outcome(volley, target, lambda v, t: shared.hit(v, t, hit_stage_target_part(v, t)))
        assert isinstance(want, str) and got == want


@pytest.mark.parametrize("mode", ["shooting", "melee"])
def test_batch_of_volleys_differing_only_in_count_equals_the_one_cell_engine(mode):
    cells = [(v, t) for v in _volleys() if v.mode == mode for t in _targets()]
    for (volley, target), got in zip(cells, resolve_many(cells), strict=True):
        try:
            want = resolve_exact(volley, target)
        except ProfileError as exc:
            assert isinstance(got, ProfileError) and str(got) == str(exc)
            continue
        where = (volley.weapon.type.text, volley.attacks, volley.attacker.models, target.name)
        assert not isinstance(got, Exception), (where, got)
        for name in ("hits", "wounds", "unsaved", "casualties"):
            assert _gap(getattr(got, name).probabilities, getattr(want, name).probabilities) <= TOL, (where, name)
        assert got.applied == want.applied and got.not_modelled == want.not_modelled, where
