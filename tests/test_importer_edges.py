"""The 2nd edition's importer on the mini data set (tests/fixtures/mini) with one edit made here: a Type with a
second line, profiles without ids, mandatory wargear named as a rule the engine declares (issue 38 item 6: each
test kills a mutant of ``bsdata/importer.py`` that survived the other tests, named in docs/testing.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from fixture_files import FIXTURES

from praetor_analysis.bsdata.files import BSData
from praetor_analysis.bsdata.importer import ImportReport, units_frame, weapons_frame


def _mini(tmp_path: Path, old: str, new: str) -> BSData:
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    cat = folder / "mini.cat"
    text = cat.read_text(encoding="utf-8")
    assert old in text
    cat.write_text(text.replace(old, new), encoding="utf-8")
    return BSData.load(folder)


def test_a_type_with_text_after_its_first_line_is_named_not_read(tmp_path: Path) -> None:
    data = _mini(tmp_path, "Assult 2,  Gets hot", "Assault 2\nTwo of them: one more attack")
    report = ImportReport()
    weapons = weapons_frame(data, report)
    assert list(weapons["Type"]) == ["Assault 2"]
    assert report.texts_not_read == ["Test Gun"]


def test_a_profile_without_an_id_has_an_empty_profile_id(tmp_path: Path) -> None:
    data = _mini(tmp_path, 'profile id="p-trooper" ', "profile ")
    assert list(units_frame(data)["profile_id"]) == [""]
    assert list(weapons_frame(data)["profile_id"]) == ["p-gun"]


def test_mandatory_wargear_named_as_a_declared_unit_rule_is_that_rule(tmp_path: Path) -> None:
    """The mini data's Trooper carries a Shield whose text grants a 5+ Invulnerable Save; named Ion Shield (a rule
    the engine declares for its holder), it is that rule and its text is not read."""
    plain = units_frame(BSData.load(FIXTURES / "mini")).iloc[0]
    assert (plain["Invulnerable"], plain["rules"]) == ("5+", "")
    ion = units_frame(_mini(tmp_path, 'name="Shield" type="upgrade"', 'name="Ion Shield" type="upgrade"')).iloc[0]
    assert (ion["Invulnerable"], ion["rules"]) == ("", "Ion Shield")
