"""The 3rd edition's unit attack keeps what a sweep reads once per cell (bench/README "The sweep's 0.92x traced"):
a target's record by the target, the one-model shot of a statline and weapon under the default names. The kept
answers equal the ones read afresh (after ``clear_cache``), and a target equal to another but a new object is read
to an equal record."""

from __future__ import annotations

from dataclasses import replace

from test_hh3_mode_score import FIXTURES

from praetor_analysis.errors import PraetorError
from praetor_analysis.units import hh3_attack
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_target import hh3_standard_targets


def test_a_targets_record_is_kept_and_equal_to_a_fresh_read() -> None:
    for _, target in hh3_standard_targets():
        first = hh3_attack.hh3_target_record(target)
        assert hh3_attack.hh3_target_record(target) is first
        hh3_attack.clear_cache()
        assert hh3_attack.hh3_target_record(target) == first
        twin = replace(target)  # equal, another object
        assert twin is not target and hh3_attack.hh3_target_record(twin) == first


def test_kept_shots_choose_as_fresh_ones() -> None:
    units = read_roster_units(FIXTURES / "Small Game.rosz").units
    for unit in units:
        for _, target in hh3_standard_targets():
            for mode in ("shooting", "melee"):
                hh3_attack.clear_cache()
                try:
                    cold = hh3_attack.hh3_volleys(unit, target, mode)
                except PraetorError as e:
                    cold = str(e)
                try:
                    warm = hh3_attack.hh3_volleys(unit, target, mode)
                except PraetorError as e:
                    warm = str(e)
                assert warm == cold, (unit.name, target.name, mode)
