"""The 3rd edition's JSON importer: bounded reading, links resolved or reported, datasheets priced as the data
authors price them, and the shipped catalogs under data/hh3 (a synthetic data set built here; the shipped catalogs
checked against the reference snapshot when ../shared is present)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from fixture_files import COMMUNITY_DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from praetor_analysis.bsdata import json_data
from praetor_analysis.bsdata.files import UntrustedFileError
from praetor_analysis.bsdata.game_system import HH2_SYSTEM_ID, HH3_SYSTEM_ID
from praetor_analysis.bsdata.importer_hh3 import HH3_POINTS_TYPE_ID, MAX_LABEL, build_hh3_catalog
from praetor_analysis.bsdata.json_data import JsonData, parse_json_bytes
from praetor_analysis.bsdata.roster import read_roster
from praetor_analysis.bsdata.roster_hh3 import Hh3RosterUnit
from praetor_analysis.catalog import (
    load_datasheet_models,
    load_datasheets,
    load_provenance,
    load_units,
    load_wargear_options,
    load_weapons,
)
from praetor_analysis.cli import main
from praetor_analysis.errors import PraetorError

HH3_BSDATA = COMMUNITY_DATA / "hh3" / "bsdata"
ROSTERS = Path(__file__).parent / "fixtures" / "rosters" / "hh3"


def _pts(value: float) -> list[dict[str, Any]]:
    return [{"name": "Point(s)", "typeId": HH3_POINTS_TYPE_ID, "value": value}]


def _chars(**kv: str) -> list[dict[str, str]]:
    return [{"name": k.replace("_", " "), "$text": v} for k, v in kv.items()]


def _minmax(low: int, high: int) -> list[dict[str, Any]]:
    return [
        {"type": "min", "value": low, "field": "selections", "scope": "parent", "id": "c-min"},
        {"type": "max", "value": high, "field": "selections", "scope": "parent", "id": "c-max"},
    ]


STATLINE = _chars(Type="Infantry", M="7", WS="4", BS="4", S="4", T="4", W="1", I="4", A="1", LD="7", CL="7")
WEAPONS = {
    "catalogue": {
        "id": "lib-w",
        "name": "Weapons",
        "gameSystemId": HH3_SYSTEM_ID,
        "library": True,
        "sharedSelectionEntries": [
            {
                "id": "w-bolter",
                "name": "Bolter",
                "type": "upgrade",
                "profiles": [
                    {
                        "id": "p-bolter",
                        "name": "Bolter",
                        "typeName": "Ranged Weapon",
                        "characteristics": _chars(
                            R="24", FP="2", RS="4", AP="5", D="1", Special_Rules="-", Traits="Bolt"
                        ),
                    }
                ],
            },
            {
                "id": "w-fist",
                "name": "Power fist",
                "type": "upgrade",
                "costs": _pts(15),
                "profiles": [
                    {
                        "id": "p-fist",
                        "name": "Power fist",
                        "typeName": "Melee Weapon",
                        "characteristics": _chars(
                            IM="-1", AM="A", SM="+4", AP="2", D="2", Special_Rules="", Traits="Fist"
                        ),
                    }
                ],
            },
        ],
    }
}
FACTION = {
    "catalogue": {
        "id": "cat-f",
        "name": "   Test Legion",
        "gameSystemId": HH3_SYSTEM_ID,
        "catalogueLinks": [
            {"id": "l1", "name": "Weapons", "type": "catalogue", "targetId": "lib-w"},
            {"id": "l2", "name": "Legiones Astartes", "type": "catalogue", "targetId": "gone-la"},
        ],
        "sharedSelectionEntries": [
            {
                "id": "u1",
                "name": "Companion Squad",
                "type": "unit",
                "costs": _pts(55),
                "categoryLinks": [{"id": "cl1", "name": "Infantry", "targetId": "cat-inf"}],
                "selectionEntries": [
                    {
                        "id": "m1",
                        "name": "Companion",
                        "type": "model",
                        "constraints": _minmax(4, 9),
                        "costs": _pts(30),
                        "profiles": [
                            {"id": "p-comp", "name": "Companion", "typeName": "Profile", "characteristics": STATLINE}
                        ],
                        "entryLinks": [
                            {"id": "el1", "name": "Bolter", "type": "selectionEntry", "targetId": "w-bolter"}
                        ],
                    },
                    {
                        "id": "m2",
                        "name": "Oathbearer",
                        "type": "model",
                        "constraints": _minmax(1, 1),
                        "profiles": [
                            {"id": "p-oath", "name": "Oathbearer", "typeName": "Profile", "characteristics": STATLINE}
                        ],
                    },
                ],
                "selectionEntryGroups": [
                    {
                        "id": "g1",
                        "name": "x" * (MAX_LABEL + 40),
                        "defaultSelectionEntryId": "el2",
                        "entryLinks": [
                            {"id": "el2", "name": "Power fist", "type": "selectionEntry", "targetId": "w-fist"},
                            {"id": "el3", "name": "Legion Widget", "type": "selectionEntry", "targetId": "nowhere"},
                        ],
                    }
                ],
            }
        ],
    }
}
SYSTEM = {
    "gameSystem": {
        "id": HH3_SYSTEM_ID,
        "name": "Horus Heresy 3rd Edition",
        "categoryEntries": [{"id": "cat-inf", "name": "Infantry Model Type"}],
    }
}


def _write(folder: Path, files: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, doc in files.items():
        (folder / name).write_bytes(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
    return folder


def test_a_datasheet_is_priced_as_the_data_authors_price_it(tmp_path: Path) -> None:
    src = _write(tmp_path / "in", {"Weapons.json": WEAPONS, "Test Legion.json": FACTION})
    report = build_hh3_catalog(src, tmp_path / "out")
    assert report.files == 2 and report.datasheets == 1
    sheet = load_csv(tmp_path / "out" / "datasheets.csv").iloc[0]
    # 55 on the unit + 4 Companions x 30 + 1 Oathbearer x 0 (the mandatory model costs 0): 175; grows by 30
    figures = [float(sheet[k]) for k in ("base_points", "points_per_model", "unit_points", "min_models", "max_models")]
    assert figures == [175.0, 30.0, 55.0, 5.0, 10.0]
    assert sheet["models"] == "4-9 Companion; 1-1 Oathbearer"
    assert sheet["faction"] == "Test Legion" and sheet["dangling"] == "Legion Widget"
    options = load_csv(tmp_path / "out" / "wargear_options.csv")
    got = {(o["model"], o["option"]): (float(o["points"]), o["weapons"], o["resolved"]) for _, o in options.iterrows()}
    assert got[("Companion", "Bolter")] == (0.0, "Bolter", "True")
    assert got[("(unit)", "Power fist")] == (15.0, "Power fist", "True")
    assert got[("(unit)", "Legion Widget")] == (0.0, "", "False")  # reported, never guessed
    assert options["group"].str.len().max() <= MAX_LABEL
    assert options.set_index("option").loc[["Power fist", "Legion Widget", "Bolter"], "default"].tolist() == [
        *("True", "False", "False"),
    ]
    weapons = load_csv(tmp_path / "out" / "weapons.csv").set_index("name")
    assert weapons.loc["Bolter", ["R", "FP", "RS", "AP", "D", "Traits"]].tolist() == ["24", "2", "4", "5", "1", "Bolt"]
    assert weapons.loc["Power fist", ["IM", "AM", "SM", "AP", "D"]].tolist() == ["-1", "A", "+4", "2", "2"]
    assert float(weapons.loc["Power fist", "points"]) == 15.0
    units = load_csv(tmp_path / "out" / "units.csv").set_index("name")
    assert units.loc["Companion", ["M", "WS", "LD", "CL", "extra"]].tolist() == ["7", "4", "7", "7", ""]
    assert (units.loc["Companion", "unit"], float(units.loc["Companion", "points"])) == ("Companion Squad", 30.0)
    # the missing files, one line each, then the file with dangling links
    assert report.missing[0].startswith("missing: the game system file (needed by 2 files")
    assert report.missing[1].startswith("missing: 'Legiones Astartes' (needed by 1 files: Test Legion)")
    dangling = [line for line in report.missing if line.startswith("dangling: Test Legion")]
    assert len(dangling) == 1 and "3 links resolve nowhere" in dangling[0]  # Legion Widget, Infantry, the import
    prov = json.loads((tmp_path / "out" / "provenance.json").read_text(encoding="utf-8"))
    assert prov["edition"] == "hh3" and prov["counts"]["unresolved_links"] == len(report.unresolved) == 3
    assert set(prov["files"]) == {"Weapons.json", "Test Legion.json"}


def load_csv(path: Path) -> Any:
    import pandas as pd

    return pd.read_csv(path, keep_default_na=False, dtype=str)  # as the catalog loaders read them


def test_with_the_game_system_file_its_links_resolve(tmp_path: Path) -> None:
    src = _write(tmp_path / "in", {"Weapons.json": WEAPONS, "Test Legion.json": FACTION, "System.json": SYSTEM})
    report = build_hh3_catalog(src, tmp_path / "out")
    assert not any("game system" in line for line in report.missing)
    assert {(u.kind, u.name) for u in report.unresolved} == {
        ("entryLink:selectionEntry", "Legion Widget"),
        ("catalogueLink:catalogue", "Legiones Astartes"),
    }


def test_the_cli_imports_json_data_by_its_game_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "in", {"Weapons.json": WEAPONS, "Test Legion.json": FACTION})
    assert main(["import", str(src), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "2 JSON files (3rd edition)" in out and "1 datasheets" in out
    assert "missing: 'Legiones Astartes'" in out and "dangling: Test Legion" in out
    bad = _write(
        tmp_path / "bad", {"Forty.json": {"catalogue": {"id": "x", "gameSystemId": "sys-352e-adc2-7639-d6a9"}}}
    )
    assert main(["import", str(bad), "--out", str(tmp_path / "o2")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Forty.json" in err and "sys-352e-adc2-7639-d6a9" in err


@pytest.mark.parametrize(
    ("label", "data", "mention"),
    [
        ("deep", b'{"catalogue": ' + b"[" * 300 + b"]" * 300 + b"}", "nested"),
        ("very deep", b'{"catalogue": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested"),
        ("NaN", b'{"catalogue": {"x": NaN}}', "NaN"),
        ("latin-1", b'{"catalogue": {"name": "\xe9"}}', "UTF-8"),
        ("truncated", b'{"catalogue": {"name": "a"', "not a JSON document"),
        ("a list", b"[1, 2]", "not a BattleScribe data file"),
        ("two roots", b'{"catalogue": {}, "x": 1}', "not a BattleScribe data file"),
        ("huge integer", b'{"catalogue": {"n": ' + b"9" * 5000 + b"}}", "not a JSON document"),
    ],
)
def test_untrusted_json_is_refused_in_one_line(label: str, data: bytes, mention: str) -> None:
    with pytest.raises(UntrustedFileError, match=mention) as info:
        parse_json_bytes(data, f"{label}.json")
    assert f"{label}.json" in str(info.value) and "\n" not in str(info.value)


def test_bounds_on_size_count_and_game_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_data, "MAX_XML_BYTES", 100)
    with pytest.raises(UntrustedFileError, match="larger than 100"):
        parse_json_bytes(json.dumps(FACTION).encode(), "big.json")
    monkeypatch.undo()
    monkeypatch.setattr(json_data, "MAX_XML_ELEMENTS", 50)
    with pytest.raises(UntrustedFileError, match="more than 50 values"):
        parse_json_bytes(json.dumps(FACTION).encode(), "many.json")
    monkeypatch.undo()
    mixed = _write(tmp_path / "mixed", {"a.json": WEAPONS, "b.json": {"catalogue": {"id": "b", "gameSystemId": "z"}}})
    with pytest.raises(UntrustedFileError, match="2 game systems"):
        JsonData.load(mixed)
    hh2 = _write(tmp_path / "hh2", {"a.json": {"catalogue": {"id": "a", "gameSystemId": HH2_SYSTEM_ID}}})
    with pytest.raises(UntrustedFileError, match="3rd edition"):
        JsonData.load(hh2)
    with pytest.raises(UntrustedFileError, match="no .json"):
        JsonData.load(_write(tmp_path / "empty", {}))
    monkeypatch.setattr(json_data, "MAX_CATALOGUE_FILES", 1)
    with pytest.raises(UntrustedFileError, match="limit 1"):
        JsonData.load(_write(tmp_path / "two", {"a.json": WEAPONS, "b.json": FACTION}))


def test_the_shipped_hh3_catalogs() -> None:
    weapons, units, sheets = load_weapons("hh3"), load_units("hh3"), load_datasheets("hh3")
    models, options, prov = load_datasheet_models("hh3"), load_wargear_options("hh3"), load_provenance("hh3")
    assert prov["edition"] == "hh3" and prov["game_system_id"] == HH3_SYSTEM_ID
    assert prov["source"]["commit"] == "d6703cb4dd5cea43a702e15c17e094464a64731d"
    counts = prov["counts"]
    assert (counts["weapon_profiles"], counts["unit_profiles"], counts["datasheets"]) == (
        len(weapons),
        len(units),
        len(sheets),
    )
    assert (counts["datasheet_models"], counts["wargear_options"]) == (len(models), len(options))
    assert len(prov["files"]) == 40 and "Legiones Astartes.json" not in prov["files"]
    assert any(
        line.startswith("missing: 'Legiones Astartes' (needed by 23 files") and "importRootEntries" in line
        for line in prov["missing"]
    )
    assert any(line.startswith("missing: the game system file") for line in prov["missing"])
    # the generic Legion datasheets live only in the missing catalogue: none is invented
    assert "Tactical Squad" not in set(sheets["name"])
    bolt = weapons[(weapons["name"] == "Bolt pistol") & (weapons["source"] == "Weapons")].iloc[0]
    assert [bolt[k] for k in ("R", "FP", "RS", "AP", "D", "Special Rules", "Traits")] == [
        *("12", "1", "4", "5", "1", "Pistol", "Assault, Bolt"),
    ]
    # Dark Angels.json: the unit costs 55, each of the 4 to 9 Companions 30, the Oathbearer 0
    dw = sheets[sheets["name"] == "Deathwing Companion Detachment"].iloc[0]
    assert (dw["base_points"], dw["points_per_model"], dw["min_models"], dw["max_models"]) == (175, 30, 5, 10)
    assert (
        weapons["profile_type"]
        .isin(["Ranged Weapon", "Melee Weapon", "Psychic Ranged Weapon", "Psychic Melee Weapon"])
        .all()
    )
    with pytest.raises(PraetorError, match="edition"):
        load_weapons("hh4")


def test_rosters_and_catalogs_agree_on_statlines() -> None:
    """Every model profile of the fixture rosters whose name the shipped catalogs define once reads the same
    characteristics from both (two readers of two file formats)."""
    units = load_units("hh3")
    units = units[units["profile_type"] == "Profile"]
    once = units[~units["name"].duplicated(keep=False)].set_index("name")
    fields = {"M": "move", "WS": "ws", "BS": "bs", "S": "strength", "T": "toughness", "W": "wounds", "SAV": "save"}
    checked = 0
    for path in sorted(ROSTERS.iterdir()):
        for unit in read_roster(path).units:
            assert isinstance(unit, Hh3RosterUnit)
            for group in unit.groups:
                if group.statline.name in once.index and group.statline.kind == "Profile":
                    row = once.loc[group.statline.name]
                    assert {k: row[k] for k in fields} == {k: getattr(group.statline, v) for k, v in fields.items()}
                    checked += 1
    assert checked >= 15  # 18 model groups with today's fixtures and catalogs


@pytest.mark.full_data("hh3/bsdata")
def test_the_shipped_catalogs_rebuild_from_the_snapshot(tmp_path: Path) -> None:
    report = build_hh3_catalog(HH3_BSDATA, tmp_path)
    shipped = Path(__file__).resolve().parents[1] / "data" / "hh3"
    for name in ("weapons.csv", "units.csv", "datasheets.csv", "datasheet_models.csv", "wargear_options.csv"):
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name
    fresh = json.loads((tmp_path / "provenance.json").read_text(encoding="utf-8"))
    for key in ("files", "counts", "missing"):
        assert fresh[key] == load_provenance("hh3")[key], key
    # every other key too, but the source (the snapshot's origin, written beside the shipped catalogs by hand)
    assert {k: v for k, v in fresh.items() if k != "source"} == {
        k: v for k, v in load_provenance("hh3").items() if k != "source"
    }
    assert report.datasheets == len(load_datasheets("hh3")) and not math.isnan(report.datasheets)


def test_a_link_cycle_is_reported_and_a_fan_out_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from praetor_analysis.bsdata import importer_hh3

    looped = json.loads(json.dumps(FACTION))
    unit = looped["catalogue"]["sharedSelectionEntries"][0]
    unit["selectionEntryGroups"][0]["entryLinks"].append(
        {"id": "el4", "name": "Again", "type": "selectionEntryGroup", "targetId": "g1"}
    )
    unit["selectionEntries"][0]["entryLinks"].append(
        {"id": "el5", "name": "Self", "type": "selectionEntry", "targetId": "m1"}
    )
    src = _write(tmp_path / "loop", {"Weapons.json": WEAPONS, "Test Legion.json": looped})
    report = build_hh3_catalog(src, tmp_path / "out")
    sheet = load_csv(tmp_path / "out" / "datasheets.csv").iloc[0]
    assert "a link cycle at" in sheet["dangling"] and report.datasheets == 1
    monkeypatch.setattr(importer_hh3, "MAX_EXPANSIONS", 2)
    with pytest.raises(UntrustedFileError, match="Companion Squad.*expands past 2"):
        build_hh3_catalog(src, tmp_path / "out2")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["id", "name", "type", "targetId"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*here, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*here, i)))
    return out


FUZZ_PATHS = [p for p in _paths(FACTION) if len(p) > 1]


@settings(derandomize=True, deadline=None, max_examples=50, database=None)
@given(st.lists(st.tuples(st.sampled_from(FUZZ_PATHS), _JSON_VALUES), min_size=1, max_size=4))
def test_mangled_json_data_is_imported_or_refused_never_a_traceback(changes: list[tuple[Any, Any]]) -> None:
    """Any value replaced anywhere by any JSON value (a number where a list belongs, a list where a name does):
    the import writes its catalogs or refuses in one line, never an unexpected exception."""
    import tempfile

    doc = json.loads(json.dumps(FACTION))
    for path, value in changes:
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed that place
    with tempfile.TemporaryDirectory() as tmp:
        src = _write(Path(tmp) / "in", {"Weapons.json": WEAPONS, "Test Legion.json": doc})
        try:
            build_hh3_catalog(src, Path(tmp) / "out")
        except UntrustedFileError as exc:
            assert "\n" not in str(exc)


def _roster_points(elem: Any) -> float:
    ns = "{http://www.battlescribe.net/schema/rosterSchema}"
    return sum(float(c.get("value")) for c in elem.findall(f"{ns}costs/{ns}cost") if c.get("name") == "Point(s)")


def test_the_fixture_rosters_cost_what_the_shipped_datasheets_say() -> None:
    """Every unit of the 3rd-edition fixtures whose datasheet the shipped catalogs hold (matched by entry id): the
    cost on the unit selection is the datasheet's unit_points, each model selection costs its slot's points times
    its number, and each option its points times its number, unless the data modifies that cost (flagged
    ``points_modified``, not applied)."""
    import io
    import zipfile
    from xml.etree import ElementTree as ET

    ns = "{http://www.battlescribe.net/schema/rosterSchema}"
    sheets, slots, options = load_datasheets("hh3"), load_datasheet_models("hh3"), load_wargear_options("hh3")
    units = models = priced = modified = 0
    for path in sorted(ROSTERS.iterdir()):
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
            root = ET.fromstring(z.read(z.namelist()[0]))  # trusted fixture; an oracle independent of the readers
        for sel in root.iter(f"{ns}selection"):
            found = sheets[sheets["entry_id"].isin((sel.get("entryId") or "").split("::"))]
            if sel.get("type") != "unit" or found.empty:
                continue
            sheet = found.iloc[0]
            mine = (slots["datasheet"] == sheet["name"]) & (slots["faction"] == sheet["faction"])
            assert _roster_points(sel) == sheet["unit_points"], sheet["name"]
            units += 1
            for child in sel.iter(f"{ns}selection"):
                ids = (child.get("entryId") or "").split("::")
                number = int(child.get("number", "1"))
                if child.get("type") == "model":
                    slot = slots[mine & (slots["model_id"].isin(ids) | slots["entry_id"].isin(ids))]
                    assert len(slot) >= 1, child.get("name")
                    assert _roster_points(child) == slot.iloc[0]["points"] * number, child.get("name")
                    models += 1
                elif child.get("type") == "upgrade":
                    own = (options["datasheet"] == sheet["name"]) & (options["faction"] == sheet["faction"])
                    option = options[own & options["option_id"].isin(ids)]
                    if option.empty:
                        continue
                    if option.iloc[0]["points_modified"]:
                        modified += 1
                    else:
                        assert _roster_points(child) == option.iloc[0]["points"] * number, child.get("name")
                        priced += 1
    assert (units, models) == (17, 25) and priced >= 60 and modified >= 2, (priced, modified)


def test_no_rules_text_in_the_hh3_catalogs() -> None:
    """Figures and names only: no column of the shipped hh3 catalogs holds prose (a line break or a long text)."""
    frames = (load_weapons("hh3"), load_units("hh3"), load_datasheets("hh3"), load_wargear_options("hh3"))
    for frame in frames:
        for col in frame.select_dtypes(exclude="number").columns:
            text = frame[col].astype(str)
            assert text.str.len().max() < 160, col
            assert not text.str.contains("\n").any(), col
