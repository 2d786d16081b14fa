"""Every loadout of a real roster is a loadout of the datasheet (issue 33 item 5): each unit of each roster at
hand, rebuilt as a datasheet block (its datasheet, size, the force's Legion and the options its selections
take), is accepted, prices as the roster does and rates the same (its shooting and its one-way melee at ten
Legionaries). The rosters: the fixtures here, and the community data's own test rosters when they sit beside
the project. The units where the two readings still differ are listed with why; a unit that comes to agree, or
a new one that differs, fails the test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

import pytest
from fixture_files import HH2_ROSTERS

from praetor_analysis.catalog import load_datasheet_models, load_datasheets
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import unit_from_mapping
from praetor_analysis.units.attack import melee, shooting
from praetor_analysis.units.fielded import fielded_unit
from praetor_analysis.units.records import FieldedUnit
from praetor_analysis.units.roster_units import RosterSelection, roster_selections

_HERE = Path(__file__).resolve()
FIXTURES = _HERE.parent / "fixtures"
ROSTERS = [FIXTURES / "tiny.ros", FIXTURES / "heavy_support_lascannons.ros"]
ROSTERS += [p for p in HH2_ROSTERS if p.suffix in (".ros", ".rosz")]

KNOWN = {
    ("Dark Angels - HH2 - Test.ros", "Contemptor Dreadnought Talon"): "two models with different options: a "
    "datasheet loadout gives each option to the first model with room, not to the model the roster names",
    ("Dark Angels - HH2 - Test.ros", "Sky-Hunter Squadron"): "a Plasma Cannon on the Sergeant: the catalog "
    "offers it to the Sky-Hunters only",
}
"""Units whose rebuilt datasheet differs from the roster's reading, and why."""

TARGET = unit_from_mapping(
    {"name": "Legionary", "Unit Type": "Infantry", "models": 10, "WS": 4, "T": 4, "W": 1, "I": 4, "Ld": 8,
     "Save": "3+"},
    field_name="target",
)  # fmt: skip
_LEGION = re.compile(r'(?:name|catalogueName)="[^"]*?\b[IVXL]+:\s*([^"]+)"')


def _tag(e: Element) -> str:
    return e.tag.rsplit("}", 1)[-1]


def _cost(sel: Element) -> float:
    return sum(float(c.get("value") or 0) for c in sel.iter() if _tag(c) == "cost" and c.get("name") == "pts")


def datasheet_block(rs: RosterSelection, legion: str) -> dict[str, Any] | None:
    """The datasheet block of a roster unit: its datasheet, its models' count, and each selection under it that
    is an option row of the datasheet (by its link or entry id; a default taken at no cost is not an option),
    given to the model the roster gives it to."""
    sheets = load_datasheets().drop_duplicates("entry_id").set_index("entry_id")
    entry = (rs.element.get("entryId") or "").split("::")[-1]
    if entry not in sheets.index:
        return None
    sheet = sheets.loc[entry]
    models = load_datasheet_models()
    rows = models[(models["datasheet"] == sheet["name"]) & (models["faction"] == sheet["faction"])]
    defaults = {w.strip() for text in rows["default_wargear"] for w in str(text).split(";")}
    by_id: dict[str, list[dict[str, Any]]] = {}
    for r in rs.options.to_dict(orient="records"):
        for key in (r["option_id"], r["entry_id"]):
            by_id.setdefault(str(key), []).append(r)
    size, loadout = 0, []

    def walk(elem: Element, model: str | None) -> None:
        nonlocal size
        for sel in (s for c in elem if _tag(c) == "selections" for s in c if _tag(s) == "selection"):
            n = int(float(sel.get("number") or 1))
            if sel.get("type") == "unit":
                continue  # a unit inside (a transport) is its own
            if sel.get("type") == "model":
                size += n
                walk(sel, sel.get("name"))
                continue
            ids = (sel.get("entryId") or "").split("::")
            found = next((by_id[i] for i in reversed(ids) if i in by_id), None)
            if found and not (_cost(sel) == 0 and sel.get("name") in defaults):
                row = next((r for r in found if model and r["model"] == model), found[0])
                item = (
                    {"option": row["option"]}
                    if row["model"] == "(unit)"
                    else {"option": row["option"], "model": row["model"]}
                )
                loadout.extend([item] * n)
            walk(sel, model)

    walk(rs.element, None)
    block: dict[str, Any] = {
        "name": sheet["name"],
        "faction": sheet["faction"],
        "size": size or int(sheet["min_models"]),
    }
    block["loadout"] = loadout
    if legion:
        block["legion"] = legion
    return block


def _rating(unit: FieldedUnit) -> tuple[Any, ...]:
    out: list[Any] = []
    for attack in (shooting, melee):
        try:
            out.append(attack(unit, TARGET).to_dict()["casualties"]["pmf"])
        except PraetorError as exc:
            out.append(str(exc))
    return tuple(out)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif len(x) != len(y) or max(abs(p - q) for p, q in zip(x, y, strict=True)) > 1e-12:
            return False
    return True


@pytest.mark.parametrize("path", ROSTERS, ids=[p.name for p in ROSTERS])
def test_a_rosters_units_rebuilt_as_datasheets_price_and_rate_the_same(path: Path) -> None:
    found = _LEGION.findall(path.read_bytes().decode("utf-8", "ignore")) if path.suffix == ".ros" else []
    if path.suffix == ".rosz":
        import zipfile

        with zipfile.ZipFile(path) as z:
            found = _LEGION.findall(z.read(z.namelist()[0]).decode("utf-8", "ignore"))
    legion = found[0].strip() if found else ""
    differ, agree = [], 0
    for rs in roster_selections(path):
        block = datasheet_block(rs, legion)
        if block is None:
            continue
        roster_unit = fielded_unit(rs)
        try:
            built = fielded_unit(block)
        except PraetorError as exc:
            differ.append((roster_unit.datasheet, f"refused: {exc}"))
            continue
        if built.points != roster_unit.points or not _same(_rating(built), _rating(roster_unit)):
            differ.append((roster_unit.datasheet, f"{built.points} vs {roster_unit.points} pts or another rating"))
        else:
            agree += 1
            assert (path.name, roster_unit.datasheet) not in KNOWN, f"{roster_unit.datasheet} agrees: out of KNOWN"
    unexpected = [(name, why) for name, why in differ if (path.name, name) not in KNOWN]
    assert not unexpected, unexpected
    assert agree >= 1


def test_the_leviathans_two_heavy_flamers_fire_from_the_datasheet() -> None:
    """The Leviathan's default "2x Heavy Flamers" is an upgrade holding a Heavy Flamer link taken twice (min 2):
    the catalog reads both (the name says two, the link's minimum is two), as the roster does; an option of the same
    shape ("Two Bolt Pistols": a Bolt Pistol link of min 2) carries two of its weapon. Shipped data, no roster."""
    from praetor_analysis.catalog import load_wargear_options
    from praetor_analysis.units.attack import shooting_volleys

    unit = fielded_unit({"name": "Leviathan Dreadnought Talon", "faction": "Legiones Astartes"})
    names = [w.name for g in unit.groups for w in g.rows]
    assert (names.count("Heavy Flamer"), names.count("Meltagun"), names.count("Leviathan Siege Claw")) == (2, 2, 2)
    volleys, _ = shooting_volleys(unit, TARGET)
    assert [v.weapon.name for v in volleys].count("Heavy Flamer") == 2
    options = load_wargear_options()
    two = options[(options["datasheet"] == "Sanctifier Squad") & (options["option"] == "Two Bolt Pistols")]
    assert set(two["weapons"]) == {"Bolt Pistol; Bolt Pistol"}
