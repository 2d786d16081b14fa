"""Tests for praetor_analysis.bsdata.roster: reading .ros / .rosz rosters, safely."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from fixture_files import HH2, HH2_ROSTERS

from praetor_analysis.bsdata import roster as roster_mod
from praetor_analysis.bsdata.files import UntrustedFileError
from praetor_analysis.bsdata.roster import (
    Roster,
    read_roster,
    read_roster_bytes,
    roster_units_frame,
    roster_weapons_frame,
)

FIXTURES = Path(__file__).parent / "fixtures"
ROSTERS = HH2
STATLINE_TYPES = {"4bb2-cb95-e6c8-5a21", "2fae-b053-3f78-e7b2", "75b5-9f7a-156e-6889", "eeec-bde3-8ee4-35b0"}
WEAPON_TYPES = {"1a1a-e592-2849-a5c0", "cede-0217-1b10-2a34"}


def roster_files() -> list[Path]:
    return list(HH2_ROSTERS)


def _xml(path: Path) -> ET.Element:
    data = path.read_bytes()
    if path.suffix == ".rosz":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            data = z.read(z.namelist()[0])
    return ET.fromstring(data)  # trusted test fixture, independent oracle


def _unit(r: Roster, name: str, index: int = 0):
    return [u for u in r.units if u.name == name][index]


@pytest.mark.parametrize("path", roster_files(), ids=lambda p: p.name)
def test_every_roster_loads_and_matches_the_file(path: Path) -> None:
    r = read_roster(path)
    assert r.units and r.points > 0
    assert all(u.models for u in r.units)
    assert any(u.weapons for u in r.units)
    assert sum(u.points for u in r.units) == pytest.approx(r.points)
    # Independent count from the XML: every selection's `number`, for each statline / weapon profile.
    root = _xml(path)
    models = weapons = 0
    for sel in root.iter():
        if not sel.tag.endswith("}selection"):
            continue
        n = int(float(sel.get("number", "1")))
        profs = sel.findall("{*}profiles/{*}profile")
        # a "2x Lascannon Array" / "Pair of Lightning Claws" over its one weapon stands for that many (docs/rosters.md)
        said = re.match(r"(\d+)x |(Pair of|Two) ", sel.get("name", ""))
        one = len({p.get("name") for p in profs if p.get("typeId") in WEAPON_TYPES}) == 1
        times = (int(said.group(1)) if said.group(1) else 2) if said and one else 1
        for prof in profs:
            models += n * (prof.get("typeId") in STATLINE_TYPES)
            weapons += n * times * (prof.get("typeId") in WEAPON_TYPES)
    assert sum(u.model_count for u in r.units) == models
    assert sum(w.count for u in r.units for w in u.weapons) == weapons
    frame = roster_units_frame(r)
    assert frame["count"].sum() == models
    assert roster_weapons_frame(r)["count"].sum() == weapons


def test_basic_marines_validate() -> None:
    r = read_roster(ROSTERS / "Basic Marines Validate.test")
    # From the file: roster cost 260 = Centurion 60 + 2 Tactical Squads (10 + 9 Legionaries at 90).
    assert (r.name, r.points, [u.name for u in r.units]) == (
        "Basic Marines Validate",
        260.0,
        ["Centurion", "Tactical Squad", "Tactical Squad"],
    )
    squad = _unit(r, "Tactical Squad")
    assert [(m.name, m.count) for m in squad.models] == [("Legion Tactical Sergeant", 1), ("Legionary", 9)]
    # Bolter: number="1" under the sergeant + number="9" under the Legionary selection.
    assert {w.profile["name"]: w.count for w in squad.weapons} == {"Bolt Pistol": 10, "Bolter": 10}
    assert squad.points == 100.0
    legionary = squad.models[1].statline
    assert (legionary["WS"], legionary["BS"], legionary["Save"]) == ("4", "4", "3+")


def test_dedicated_transport_is_its_own_unit() -> None:
    r = read_roster(ROSTERS / "Dedicated Transport Squad Costs.test")
    # From the file: 170 = squad 37 + Aether-Fire Blaster 50 + 4 Legionaries 48, plus the Rhino at 35.
    squad, rhino = r.units
    assert (squad.name, squad.points, squad.model_count) == ("Tactical Support Squad", 135.0, 5)
    assert (rhino.name, rhino.parent, rhino.points) == ("Rhino Transport", "Tactical Support Squad", 35.0)
    stats = rhino.models[0].statline
    assert (stats["Front"], stats["Side"], stats["Rear"], stats["HP"]) == ("11", "11", "10", "3")
    assert [(w.profile["name"], w.count) for w in rhino.weapons] == [("Twin-linked Bolter", 1)]


def test_dark_angels_ros() -> None:
    r = read_roster(ROSTERS / "Dark Angels - HH2 - Test.ros")
    # From the file: roster cost 2638.0; 15 units counting the two nested Rhinos and the Command Squad.
    assert (r.points, len(r.units)) == (2638.0, 15)
    tartaros = _unit(r, "Terminator Tartaros Squad")
    # Five model selections: one Tartaros Sergeant and four Tartaros, each number="1", each a Combi-bolter.
    assert [(m.name, m.count) for m in tartaros.models] == [("Tartaros Sergeant", 1), ("Tartaros", 4)]
    assert {w.profile["name"]: w.count for w in tartaros.weapons}["Combi-bolter"] == 5
    knight = _unit(r, "Knight Questoris")
    # Heavy Stubber appears twice: in-built in the Rapid-Fire Battle Cannon selection and on its own.
    assert {w.profile["name"]: w.count for w in knight.weapons}["Heavy Stubber"] == 2
    assert knight.models[0].statline["HP"] == "7"


def test_dark_angels_rosz() -> None:
    r = read_roster(ROSTERS / "HH2 - Dark Angels.rosz")
    # From the .ros inside the zip: roster cost 2795.0, 16 units, Assault Squad 1 sergeant + 9 Legionaries.
    assert (r.name, r.points, len(r.units)) == ("Dark Angels", 2795.0, 16)
    assault = _unit(r, "Assault Squad")
    assert [(m.name, m.count) for m in assault.models] == [("Legion Assault Sergeant", 1), ("Legionary", 9)]
    assert {w.profile["name"]: w.count for w in assault.weapons} == {"Chainsword": 10, "Bolt Pistol": 10}


def test_roster_with_entity_definition_is_refused() -> None:
    with pytest.raises(UntrustedFileError, match="entity.ros"):
        read_roster(FIXTURES / "entity.ros")


def test_zip_bomb_rosz_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.rosz"
    body = b'<roster name="bomb">' + b" " * (roster_mod.MAX_ROSZ_BYTES + 1024) + b"</roster>"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.ros", body)
    assert path.stat().st_size < 1_000_000  # tiny on disk, past the bound unpacked
    with pytest.raises(UntrustedFileError, match="bomb.rosz"):
        read_roster(path)


def test_chunked_read_stops_at_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even if the declared size passes the check, reading stops once the bound is crossed."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("small.ros", b"<roster/>")
    monkeypatch.setattr(roster_mod, "MAX_ROSZ_BYTES", 200_000)
    served: list[int] = []

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            served.append(size)
            return b" " * size

    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, *a, **k: Endless())
    with pytest.raises(UntrustedFileError, match="lying.rosz"):
        read_roster_bytes(buf.getvalue(), "lying.rosz")
    assert sum(served) <= 200_000 + 64 * 1024  # stopped within one chunk of the bound


def test_too_many_entries_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i in range(roster_mod.MAX_ROSZ_ENTRIES + 1):
            z.writestr(f"r{i}.ros", b"<roster/>")
    with pytest.raises(UntrustedFileError, match="many.rosz"):
        read_roster_bytes(buf.getvalue(), "many.rosz")


def test_not_a_roster_refused() -> None:
    with pytest.raises(UntrustedFileError, match="cat.ros"):
        read_roster_bytes(b"<catalogue/>", "cat.ros")
