"""Edges of the unit ratings (issue 38 item 6, "mutants die": these lines of ``analysis/unit_ratings.py``
survived mutmut): a 3rd-edition unit's melee row is its melee, not its shooting, and each unit profile as a
target is labelled by its name, faction and profile id."""

from __future__ import annotations

from pathlib import Path

from praetor_analysis.analysis.unit_ratings import edition_targets, profile_targets, rate, standard_targets
from praetor_analysis.catalog import load_units
from praetor_analysis.units import hh3_melee, hh3_shooting, hh3_standard_targets
from praetor_analysis.units.fielded import roster_units

SMALL = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


def test_a_3rd_edition_units_melee_row_is_its_melee() -> None:
    units = roster_units(SMALL)
    targets = hh3_standard_targets()[:2]
    differ = 0
    for unit in units[:3]:
        frame = rate(unit, targets)
        for label, target in targets:
            rows = frame[frame["target"] == label].set_index("phase")
            shot, hit = hh3_shooting(unit, target), hh3_melee(unit, target)
            assert rows.loc["shooting", "mean"] == shot.removed.mean()
            assert rows.loc["melee", "mean"] == hit.removed.mean()
            differ += shot.removed.mean() != hit.removed.mean()
    assert differ  # the two phases are told apart on this roster


def test_each_profile_target_is_labelled_by_name_faction_and_id() -> None:
    targets, skipped = profile_targets()
    rows = load_units()
    labels = [label for label, _ in targets] + [label for label, _ in skipped]
    assert sorted(labels) == sorted(f"{r['name']} ({r['faction']}, {r['profile_id']})" for _, r in rows.iterrows())
    assert all(isinstance(label, str) and label for label, _ in skipped)


def test_profile_targets_are_one_model_by_default_and_say_why_one_is_skipped() -> None:
    targets, skipped = profile_targets()
    assert targets and all(t.models == 1 for _, t in targets)
    assert skipped and all(why.startswith("target.T: required") for _, why in skipped), skipped  # the error, named


def test_each_editions_standard_targets() -> None:
    hh2 = [label for label, _ in standard_targets()]
    hh3 = [label for label, _ in hh3_standard_targets()]
    assert hh2 and hh3 and hh2 != hh3
    assert [label for label, _ in edition_targets()] == hh2
    assert [label for label, _ in edition_targets("hh2")] == hh2
    assert [label for label, _ in edition_targets("hh3")] == hh3
