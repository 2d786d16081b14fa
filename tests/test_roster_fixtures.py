"""Real rosters of every Horus Heresy edition and of other games (tests/fixtures/rosters, sources in its README):
the game system is read first, a 3rd-edition roster is read from the profiles it embeds with every point placed,
a 2nd-edition one by today's reader, and any other game is refused in one line (exit 2)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from praetor_analysis.bsdata.files import UntrustedFileError
from praetor_analysis.bsdata.game_system import (
    HH2_SYSTEM_ID,
    HH3_SYSTEM_ID,
    EditionError,
    GameSystemError,
    game_system_of,
    require_edition,
)
from praetor_analysis.bsdata.roster import read_roster, read_roster_bytes
from praetor_analysis.bsdata.roster_hh3 import Hh3Roster, Hh3RosterUnit
from praetor_analysis.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
ROSTER_SUFFIXES = {".ros", ".rosz", ".test"}


def _rosters(folder: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / folder).iterdir() if p.suffix in ROSTER_SUFFIXES)


HH3 = _rosters("hh3")
HH2 = _rosters("hh2")
REFUSED = _rosters("hh1") + _rosters("other")
EMPTY = _rosters("empty")
# The 2nd edition's data under another game system id (a data branch's, README): read by its name, with a note.
HH2_BY_NAME = {"Basic Marines Validate (system id ece7).test"}
NS = "{http://www.battlescribe.net/schema/rosterSchema}"

# Declared totals and units, read by hand from each file's <roster> costs and its force selections.
HH3_TOTALS = {"All Comers.rosz": 2998, "Daemons.rosz": 2998, "Real List.rosz": 2977, "Small Game.rosz": 747}
HH3_UNITS = {"All Comers.rosz": 20, "Daemons.rosz": 12, "Real List.rosz": 18, "Small Game.rosz": 6}


def _root(path: Path) -> ET.Element:
    data = path.read_bytes()
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            data = z.read(z.namelist()[0])
    return ET.fromstring(data)  # trusted test fixture, independent oracle


def _oracle(path: Path) -> tuple[int, float, float]:
    """(units, points of every selection, declared points), counted straight from the XML: a unit is a force's
    selection of type unit or model, or a unit selection nested anywhere in one."""
    root = _root(path)
    units = 0
    for force in root.iter(f"{NS}force"):
        for sel in force.findall(f"{NS}selections/{NS}selection"):
            if sel.get("type") in ("unit", "model"):
                units += 1 + sum(1 for s in sel.iter(f"{NS}selection") if s is not sel and s.get("type") == "unit")

    def pts(elem: ET.Element) -> float:
        return sum(float(c.get("value", 0)) for c in elem.findall(f"{NS}costs/{NS}cost") if c.get("name") == "Point(s)")

    return units, sum(pts(s) for s in root.iter(f"{NS}selection")), pts(root)


def test_the_fixture_folders_hold_every_edition() -> None:
    assert len(HH3) == 4 and len(HH2) == 7 and len(REFUSED) == 25 and len(EMPTY) == 1
    assert (FIXTURES / "README.md").is_file()
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for path in HH3 + HH2 + REFUSED + EMPTY:
        assert f"`{path.parent.name}/{path.name}`" in readme, path.name


@pytest.mark.parametrize("path", HH3, ids=lambda p: p.name)
def test_a_3rd_edition_roster_is_read_whole(path: Path) -> None:
    roster = read_roster(path)
    assert isinstance(roster, Hh3Roster) and roster.edition == "hh3" and roster.notes == ()
    units, every_point, declared = _oracle(path)
    assert roster.points == declared == HH3_TOTALS[path.name]
    assert len(roster.units) == units == HH3_UNITS[path.name]
    # every point placed: the units' plus the selections outside units equal the declared total, and the sum of
    # every selection's cost in the file
    assert sum(u.points for u in roster.units) + sum(n.points for n in roster.not_read) == declared
    assert roster.unaccounted() == 0.0
    assert sum(u.points for u in roster.units) + sum(n.points for n in roster.not_read) == every_point
    for unit in roster.units:
        assert isinstance(unit, Hh3RosterUnit)
        assert unit.groups, f"{unit.name}: no model read"
        assert unit.model_count == sum(g.count for g in unit.groups) > 0


@pytest.mark.parametrize("path", HH2, ids=lambda p: p.name)
def test_a_2nd_edition_roster_goes_to_todays_reader(path: Path) -> None:
    roster = read_roster(path)
    assert roster.edition == "hh2" and not isinstance(roster, Hh3Roster)
    assert roster.units
    if path.name in HH2_BY_NAME:
        system_id = _root(path).get("gameSystemId")
        assert system_id != HH2_SYSTEM_ID and _root(path).get("gameSystemName") == "Horus Heresy (2022)"
        assert len(roster.notes) == 1 and path.name in roster.notes[0] and f"'{system_id}'" in roster.notes[0]
        assert "by its name" in roster.notes[0]
    else:
        assert roster.notes == () and _root(path).get("gameSystemId") == HH2_SYSTEM_ID
    # every point placed: in a unit, or listed outside units (the roster's loose selections)
    assert sum(u.points for u in roster.units) + sum(p for _, p in roster.loose) == roster.points > 0


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.name)
def test_another_games_roster_is_refused(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    system = _root(path).get("gameSystemName") or ""
    with pytest.raises(GameSystemError) as info:
        read_roster(path)
    message = str(info.value)
    assert path.name in message and system in message
    assert "Horus Heresy (2022)" in message and "Horus Heresy 3rd Edition" in message
    assert main(["roster", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and path.name in err and system in err and "0 units" not in err


def test_small_game_profiles_are_typed_hh3_records() -> None:
    """Small Game.rosz, its first Tactical Squad: the values as the file writes them."""
    roster = read_roster(FIXTURES / "hh3" / "Small Game.rosz")
    squad = next(u for u in roster.units if u.name == "Tactical Squad")
    assert isinstance(squad, Hh3RosterUnit)
    assert squad.points == 142  # 10 on the unit + the subtree's costs (the file's own sum)
    sergeant, legionary = squad.groups[0], squad.groups[1]
    assert (sergeant.name, sergeant.count, sergeant.statline.unit_type) == ("Sergeant", 1, "Infantry (Sergeant)")
    s = legionary.statline
    assert (s.move, s.ws, s.bs, s.strength, s.toughness, s.wounds, s.initiative, s.attacks) == (
        *("7", "4", "4", "4", "4", "1", "4", "1"),
    )
    assert (s.leadership, s.cool, s.willpower, s.intelligence, s.save, s.invulnerable) == (
        "7",
        "7",
        "7",
        "7",
        "3+",
        "-",
    )
    pistol = next(w for w in sergeant.weapons if w.name == "Plasma pistol")
    assert [p.name for p in pistol.ranged] == ["Plasma pistol (Sustained)", "Plasma pistol (Maximal)"]  # one weapon
    maximal = pistol.ranged[1]
    assert (maximal.range, maximal.fire_power, maximal.ranged_strength, maximal.ap, maximal.damage) == (
        *("12", "1", "7", "4", "1"),
    )
    assert maximal.special_rules == ("Pistol", "Breaching (5+)", "Overload (1)")
    assert maximal.traits == ("Assault", "Plasma")
    krak = next(w for w in squad.unit_weapons if w.name == "Krak grenades").melee[0]
    assert (krak.initiative_modifier, krak.attacks_modifier, krak.strength_modifier, krak.ap, krak.damage) == (
        *("-3", "1", "6", "4", "2"),
    )
    bolters = [w for g in squad.groups for w in g.weapons if w.name == "Bolter"]
    assert sum(w.count for w in bolters) == 9  # 1 + 8 Legionaries; the Sergeant took a Calibanite Warblade


def test_a_rapier_batterys_crews_stay_in_their_unit() -> None:
    """All Comers.rosz: a Rapier Battery's ``unit-group`` (2 crews: 4 Legionaries, 2 carriers) is one unit, 120
    points (80 on the crews + 40 for two quad launchers)."""
    roster = read_roster(FIXTURES / "hh3" / "All Comers.rosz")
    battery = next(u for u in roster.units if u.name == "Rapier Battery")
    assert isinstance(battery, Hh3RosterUnit)
    assert [(g.name, g.count) for g in battery.groups] == [("Legionary", 4), ("Rapier Carrier", 2)]
    assert battery.points == 120
    assert [(w.name, w.count) for w in battery.unit_weapons] == [("Quad Launcher - (Frag) (Shatter)", 2)]


@pytest.mark.parametrize("path", HH3, ids=lambda p: p.name)
def test_praetor_roster_lists_a_3rd_edition_roster(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roster", "--list", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{HH3_UNITS[path.name]} units" in out.splitlines()[0]
    assert "3rd-edition roster (hh3)" in out.splitlines()[0]
    last = out.splitlines()[-1]
    assert (
        f"{HH3_TOTALS[path.name]:,} points declared = {HH3_TOTALS[path.name]:,} in {HH3_UNITS[path.name]} units" in last
    )
    assert "+ 0 not in a unit (Allegiance, 0 pts" in last and "add up to" not in last
    assert main(["roster", "--list", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    labels = [u["unit"] for u in doc["units"]]
    assert len(labels) == len(set(labels)) == HH3_UNITS[path.name]
    assert doc["edition"] == "hh3" and doc["unaccounted"] == 0
    assert sum(u["points"] for u in doc["units"]) + sum(n["points"] for n in doc["not_in_units"]) == doc["points"]


def test_the_ratings_take_a_3rd_edition_roster(capsys: pytest.CaptureFixture[str]) -> None:
    """The 3rd edition's engine is wired to rosters (tests/test_hh3_commands.py): matchup and a named target rate
    a 3rd-edition roster; a target the 3rd edition does not know is refused in one line."""
    small = str(FIXTURES / "hh3" / "Small Game.rosz")
    assert main(["matchup", small, small]) == 0
    assert "Small Game shooting at Small Game" in capsys.readouterr().out
    assert main(["roster", "--target", "Rhino", small]) == 0
    assert "Rhino" in capsys.readouterr().out
    assert main(["roster", "--target", "Land Raider Proteus", small]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "3rd-edition" in err


def test_game_system_by_id_by_name_or_refused() -> None:
    assert game_system_of(HH3_SYSTEM_ID, "anything", "f.ros").edition == "hh3"
    assert game_system_of(HH2_SYSTEM_ID, "(HH V2) Horus Heresy (2022)", "f.ros").note == ""
    by_name = game_system_of("sys-0000", " Horus Heresy  3rd Edition ", "f.ros")
    assert by_name.edition == "hh3" and "f.ros" in by_name.note and "by its name" in by_name.note
    assert game_system_of("x", "Horus Heresy (2022)", "f.ros").edition == "hh2"
    bare = game_system_of("", "", "f.ros")
    assert bare.edition == "hh2" and "no game system" in bare.note
    with pytest.raises(GameSystemError, match="Warhammer 30,000"):
        game_system_of("ca571888-56a9-c58e-ddaf-54f4713538bc", "Warhammer 30,000 - The Horus Heresy", "f.ros")
    with pytest.raises(GameSystemError, match="f.ros"):
        game_system_of("", "Warhammer 40,000 10th Edition", "f.ros")
    with pytest.raises(EditionError, match="3rd-edition"):
        require_edition("hh3", "hh2", "f.ros", "why")
    require_edition("hh2", "hh2", "f.ros", "why")


def test_a_roster_read_by_its_game_systems_name_carries_a_note() -> None:
    body = (
        b'<roster name="r" gameSystemId="other-id" gameSystemName="Horus Heresy 3rd Edition">'
        b'<costs><cost name="Point(s)" typeId="9893-c379-920b-8982" value="20"/></costs><forces><force name="f">'
        b'<selections><selection type="unit" name="u"><costs><cost name="Point(s)" value="20"/></costs>'
        b'<selections><selection type="model" name="m" number="2"><profiles><profile name="m" typeName="Profile">'
        b'<characteristics><characteristic name="T">4</characteristic></characteristics></profile></profiles>'
        b"</selection></selections></selection></selections></force></forces></roster>"
    )
    roster = read_roster_bytes(body, "named.ros")
    assert isinstance(roster, Hh3Roster)
    assert roster.notes and "named.ros" in roster.notes[0]
    assert [(u.name, u.model_count, u.points) for u in roster.units] == [("u", 2, 20.0)]
    assert roster.unaccounted() == 0


@pytest.mark.parametrize("path", HH3 + REFUSED, ids=lambda p: p.name)
def test_every_command_refuses_in_one_line_naming_the_file(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 3rd-edition roster in a 2nd-edition calc scenario, sweep and matchup, and another game's roster in calc,
    report, sweep and matchup: exit 2 with one line naming the file; none answers "0 units" (a 3rd-edition
    roster's report: tests/test_hh3_commands.py)."""
    scenario = tmp_path / "s.json"
    target = {"roster": str(path), "unit": "Tactical Squad (2)"}
    scenario.write_text(json.dumps({"weapon": "Bolter", "attacker": {"BS": 4}, "target": target}), encoding="utf-8")
    runs = [
        ["calc", str(scenario)],
        ["report", "--roster", str(path), "-o", str(tmp_path / "r.html")],
        [
            "sweep",
            "Dark Angels",
            "--targets",
            str(path),
            "-o",
            str(tmp_path / "s.parquet"),
            "--workers",
            "1",
            "--quiet",
        ],
        ["matchup", str(path), str(FIXTURES / "hh2" / "HH2 - Dark Angels.rosz")],
    ]
    if path in HH3:
        runs = [argv for argv in runs if argv[0] != "report"]
    for argv in runs:
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and path.name in err and "0 units" not in out + err, (argv, err)


@pytest.mark.parametrize("path", HH3, ids=lambda p: p.name)
def test_every_hh3_profile_round_trips_through_its_block(path: Path) -> None:
    """``as_block`` gives back the characteristics under the data's names: reading the block again gives the same
    record, for every statline and weapon profile of the roster."""
    from praetor_analysis.bsdata.hh3_profiles import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline

    seen = 0
    for unit in read_roster(path).units:
        assert isinstance(unit, Hh3RosterUnit)
        weapons = [w for g in unit.groups for w in g.weapons] + list(unit.unit_weapons)
        records: list[Any] = [g.statline for g in unit.groups] + [p for w in weapons for p in (*w.ranged, *w.melee)]
        for record in records:
            block = record.as_block()
            name = block.pop("name")
            if isinstance(record, Hh3Statline):
                again: Any = Hh3Statline.from_characteristics(name, record.kind, block)
            else:
                kind = ("Psychic " if record.psychic else "") + (
                    "Ranged Weapon" if isinstance(record, Hh3RangedProfile) else "Melee Weapon"
                )
                again = type(record).from_characteristics(name, kind, block)
            assert again == record
            seen += 1
    assert seen > 20
    assert Hh3MeleeProfile.FIELDS["IM"] == "initiative_modifier"


def test_the_2nd_editions_pricing_refuses_a_3rd_edition_roster() -> None:
    from praetor_analysis.bsdata.roster_costs import price_roster
    from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options

    with pytest.raises(EditionError, match="Small Game.rosz"):
        price_roster(
            FIXTURES / "hh3" / "Small Game.rosz", load_datasheets(), load_datasheet_models(), load_wargear_options()
        )


@pytest.mark.parametrize("path", [FIXTURES / "hh1" / "HH_Test.ros"], ids=str)
def test_the_dashboards_roster_tab_says_why_it_does_not_read_it(path: Path) -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.catalog import load_targets
    from praetor_analysis.views.dashboard.roster_view import roster_view

    view = roster_view(path.read_bytes(), path.name, load_targets())
    assert view.summary.startswith(f"Not read: {path.name}: ") and view.table.empty


def test_the_dashboards_roster_tab_rates_a_3rd_edition_roster() -> None:
    """Small Game.rosz in the roster tab: every unit at the 3rd edition's standard targets, the points line first."""
    pytest.importorskip("plotly")
    from praetor_analysis.catalog import load_targets
    from praetor_analysis.views.dashboard.roster_view import roster_view

    path = FIXTURES / "hh3" / "Small Game.rosz"
    view = roster_view(path.read_bytes(), path.name, load_targets())
    assert view.summary.startswith("Small Game: 747 points declared = 747 in 6 units rated")
    said = view.table["error"] != ""  # a Rhino strikes no blow: its melee rows say so
    assert set(view.table.loc[said, "unit"].astype(str).str.split(" (", regex=False).str[0]) == {"Rhino"}
    assert (view.table.loc[said, "phase"] == "melee").all()
    assert view.table.loc[said, "error"].str.contains("no model that fights in melee").all()
    assert set(view.table["target"]) >= {"Rhino", "Questoris Knight"}


def test_a_2nd_edition_roster_under_another_id_is_rated_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (Path(__file__).parent / "fixtures" / "tiny.ros").read_bytes()
    assert HH2_SYSTEM_ID.encode() in data
    path = tmp_path / "copied.ros"
    path.write_bytes(data.replace(HH2_SYSTEM_ID.encode(), b"0000-copied-data"))
    roster = read_roster(path)
    assert roster.edition == "hh2" and "copied.ros" in roster.notes[0] and "by its name" in roster.notes[0]
    assert main(["roster", "--target", "Rhino", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("praetor roster: note: copied.ros: game system id '0000-copied-data'")
    assert "units" in out.splitlines()[0]


@pytest.mark.parametrize("path", HH3, ids=lambda p: p.name)
def test_every_selection_of_a_3rd_edition_roster_is_recorded_once(path: Path) -> None:
    """Each selection of the file is a unit, a model group, a weapon, a piece of wargear, a unit-group (a container
    of models) or part of a tree listed outside units: the counts add up to the file's selections."""
    roster = read_roster(path)
    assert isinstance(roster, Hh3Roster)
    recorded = 0
    for unit in roster.units:
        assert isinstance(unit, Hh3RosterUnit)
        recorded += 1 + len(unit.groups) + len(unit.unit_weapons) + len(unit.unit_wargear)
        recorded += sum(len(g.weapons) + len(g.wargear) for g in unit.groups)
    recorded += sum(n.selections for n in roster.not_read)
    selections = list(_root(path).iter(f"{NS}selection"))
    containers = sum(1 for s in selections if s.get("type") == "unit-group")
    assert recorded + containers == len(selections)


def test_a_3rd_edition_selection_number_out_of_bounds_is_refused_naming_the_file() -> None:
    body = (
        b'<roster name="r" gameSystemId="sys-9fe4-1dc3-b7c2-73cf" gameSystemName="Horus Heresy 3rd Edition">'
        b'<forces><force name="f"><selections><selection type="unit" name="u"><selections>'
        b'<selection type="model" name="m" number="1e9"/></selections></selection></selections></force></forces>'
        b"</roster>"
    )
    with pytest.raises(UntrustedFileError, match=r"bad\.ros: selection 'm': number='1e9'"):
        read_roster_bytes(body, "bad.ros")


def _small_game_document() -> bytes:
    data = (FIXTURES / "hh3" / "Small Game.rosz").read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read(z.namelist()[0])


SMALL_GAME = _small_game_document()
_ATTRIBUTES = [b'number="', b'typeName="', b'type="', b'value="', b'name="', b'gameSystemId="']


@settings(derandomize=True, deadline=None, max_examples=60, database=None)
@given(
    st.lists(st.tuples(st.sampled_from(_ATTRIBUTES), st.integers(0, 400), st.text(max_size=6)), min_size=1, max_size=4)
)
def test_a_mangled_3rd_edition_roster_is_read_or_refused_in_one_line(edits: list[tuple[bytes, int, str]]) -> None:
    """Attribute values of a real roster replaced by anything: read (its points still adding up unless a cost was
    edited: an unreadable cost reads as none, as in the 2nd edition) or refused with one line, never another
    exception."""
    doc = SMALL_GAME
    for attr, nth, text in edits:
        starts = [m.start() for m in re.finditer(re.escape(attr), doc)]
        if not starts:
            continue
        at = starts[nth % len(starts)] + len(attr)
        end = doc.index(b'"', at)
        value = text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;").encode("utf-8", "replace")
        doc = doc[:at] + value + doc[end:]
    try:
        roster = read_roster_bytes(doc, "mangled.ros")
    except UntrustedFileError as exc:
        assert "\n" not in str(exc) and "mangled.ros" in str(exc)
        return
    if isinstance(roster, Hh3Roster) and all(attr != b'value="' for attr, _, _ in edits):
        assert roster.unaccounted() == pytest.approx(0.0, abs=1e-6)


def test_every_profile_of_the_hh3_fixtures_drops_into_the_engines_readers() -> None:
    """The records' blocks are what the 3rd edition's profile readers take (``profiles.hh3``): all 270 weapon
    profiles and 90 model statlines of the four fixtures read without a refusal (vehicles are the vehicles
    stage's, not yet wired)."""
    from praetor_analysis.profiles.hh3 import read_unit, read_weapon

    weapons = units = 0
    for path in HH3:
        for unit in read_roster(path).units:
            assert isinstance(unit, Hh3RosterUnit)
            for group in unit.groups:
                if group.statline.kind == "Profile":
                    read_unit({**group.statline.as_block(), "models": group.count}, "target")
                    units += 1
            for weapon in [w for g in unit.groups for w in g.weapons] + list(unit.unit_weapons):
                for profile in (*weapon.ranged, *weapon.melee):
                    read_weapon(profile.as_block())
                    weapons += 1
    assert (weapons, units) == (270, 90)


def test_an_empty_roster_is_read_as_no_unit_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """empty/Empty Validation Test.test (a New Recruit export with a force and no unit): ``roster`` says no unit is
    rated and the account (0 = 0 + 0), not an empty table; the report is written; matchup and calc, which need a
    unit, refuse in one line naming the file."""
    (path,) = EMPTY
    roster = read_roster(path)
    assert roster.edition == "hh2" and len(roster.units) == 0 and roster.points == 0
    for argv in (["roster", str(path)], ["roster", "--all", str(path)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert out.splitlines() == [
            f"{path.name}: no unit rated",
            "Validation Test: 0 points declared = 0 in 0 units rated + 0 not rated",
        ]
    assert main(["roster", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["report", "--roster", str(path), "-o", str(tmp_path / "r.html")]) == 0
    capsys.readouterr()
    assert "Validation Test" in (tmp_path / "r.html").read_text(encoding="utf-8")
    scenario = tmp_path / "s.json"
    target = {"roster": str(path), "unit": "Tactical Squad"}
    scenario.write_text(json.dumps({"weapon": "Bolter", "attacker": {"BS": 4}, "target": target}), encoding="utf-8")
    runs = {  # each refusal names what it refuses: the file (matchup), the unit asked for (calc)
        path.name: ["matchup", str(path), str(FIXTURES / "hh2" / "HH2 - Dark Angels.rosz")],
        "'Tactical Squad'": ["calc", str(scenario)],
    }
    for named, argv in runs.items():
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and named in err and "0 units" not in err, (argv, err)


def test_every_command_reading_a_roster_by_its_name_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The roster under the data branch's game system id (``ece7``) is read by its name: ``roster``, ``matchup`` and
    ``report --roster`` each print the note once per file on standard error (``praetor COMMAND: note: ...``); a
    refusal of the other file is its one line alone."""
    (path,) = [p for p in HH2 if p.name in HH2_BY_NAME]
    other = FIXTURES / "hh2" / "HH2 - Dark Angels.rosz"
    runs = {
        "roster": ["roster", str(path)],
        "matchup": ["matchup", str(path), str(other)],
        "report": ["report", "--roster", str(path), "-o", str(tmp_path / "r.html")],
    }
    for command, argv in runs.items():
        assert main(argv) == 0, argv
        err = capsys.readouterr().err
        notes = [line for line in err.splitlines() if line.startswith(f"praetor {command}: note: {path.name}: ")]
        assert len(notes) == 1 and "'28d4-bd2e-4858-ece7'" in notes[0] and "by its name" in notes[0], err
    refused = FIXTURES / "other" / "Apoc Test.rosz"
    assert main(["matchup", str(path), str(refused)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and refused.name in err and "note" not in err
