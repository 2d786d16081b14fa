"""A 3rd-edition roster's reader at its edges: a wargear item's text read for its bearer, profile ids written as a
link's path, a psychic melee weapon (issue 38 item 6: each test kills a mutant of ``bsdata/roster_hh3.py`` that
survived the other tests, named in docs/testing.md). The edited rosters are the fixtures with one change made here."""

from __future__ import annotations

import re
from pathlib import Path

from fixture_files import HH3
from roster_xml import roster_xml

from praetor_analysis.bsdata import read_roster

SMALL = HH3 / "Small Game.rosz"


def _edited(tmp_path: Path, edit: tuple[str, str, int]) -> Path:
    pattern, repl, count = edit
    xml = roster_xml(SMALL).decode("utf-8")
    changed, n = re.subn(pattern, repl, xml, count=count)
    assert n >= 1, pattern
    out = tmp_path / "edited.ros"
    out.write_text(changed, encoding="utf-8")
    return out


def test_a_wargear_items_text_gives_its_bearer_its_save() -> None:
    """All Comers' Deathwing Oathbearer carries a Cytheron pattern aegis, whose Wargear profile grants a 5+
    Invulnerable Save: the model group's reading has it."""
    roster = read_roster(HH3 / "All Comers.rosz")
    unit = next(u for u in roster.units if u.name == "Deathwing Companion Detachment")
    bearer = next(g for g in unit.groups if g.name == "Deathwing Oathbearer")
    assert bearer.wargear == (("Cytheron pattern aegis", 1),)
    assert bearer.wargear_reading.invulnerable == "5+"


def test_a_profile_id_written_as_a_links_path_keeps_the_profiles_own(tmp_path: Path) -> None:
    plain = read_roster(SMALL)
    linked = read_roster(_edited(tmp_path, (r'(<profile [^>]*?\bid=")', r"\1link-1::", 0)))
    ids = [[w.profile["profile_id"] for w in u.weapons] for u in plain.units]
    assert ids == [[w.profile["profile_id"] for w in u.weapons] for u in linked.units]
    assert all(i and "::" not in i for unit in ids for i in unit)


def test_a_psychic_melee_profile_is_read_as_psychic(tmp_path: Path) -> None:
    def psychic(path: Path) -> list[bool]:
        return [m.psychic for u in read_roster(path).units for g in u.groups for w in g.weapons for m in w.melee]

    assert not any(psychic(SMALL))
    # one melee profile's type made "Psychic Melee Weapon": that one, and only it, is psychic
    edited = _edited(tmp_path, (r'typeName="Melee Weapon"', 'typeName="Psychic Melee Weapon"', 1))
    assert sum(psychic(edited)) == 1 and len(psychic(edited)) == len(psychic(SMALL))
