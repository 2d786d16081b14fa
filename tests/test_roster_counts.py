"""A 2nd-edition roster's models and weapons are counted as the file writes them (issue 38 item 6, "mutants
die": merged model counts and a selection numbered 0 survived): each unit's models, by profile, are the
``number`` of every selection carrying that statline (profiles of one name and statline merged), against an
oracle that reads the XML on its own; a selection numbered 0 holds no model and is read, not refused."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from roster_xml import NS, roster_xml

from praetor_analysis.bsdata.roster import read_roster, read_roster_bytes
from praetor_analysis.bsdata.roster_records import ModelCount
from praetor_analysis.errors import PraetorError

HH2 = Path(__file__).parent / "fixtures" / "rosters" / "hh2"
ROSTERS = sorted(p for p in HH2.iterdir() if p.name != "README.md")
STATLINES = {"Unit", "Vehicle", "Knights and Titans", "Fortification"}


def _models(sel: ET.Element, out: Counter[str]) -> Counter[str]:
    """Models by profile name in a unit selection and everything under it but its nested units."""
    n = int(float(sel.get("number", "1")))
    for prof in sel.findall(f"{NS}profiles/{NS}profile"):
        if (prof.get("typeName") or "").strip() in STATLINES:
            out[" ".join((prof.get("name") or "").split())] += n
    for c in sel.findall(f"{NS}selections/{NS}selection"):
        if c.get("type") != "unit":
            _models(c, out)
    return out


def _oracle(path: Path) -> list[Counter[str]]:
    """Each unit's models by profile but the nested ones': a unit is a selection of type unit or model outside
    any unit (at a force's top or under an upgrade that wraps it)."""
    root = ET.fromstring(roster_xml(path))  # trusted test fixture
    out: list[Counter[str]] = []

    def outside(sel: ET.Element) -> None:
        if sel.get("type") in ("unit", "model"):
            out.append(_models(sel, Counter()))
            return
        for c in sel.findall(f"{NS}selections/{NS}selection"):
            outside(c)

    for force in root.iter(f"{NS}force"):
        for sel in force.findall(f"{NS}selections/{NS}selection"):
            outside(sel)
    return out


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: p.name)
def test_each_units_models_are_counted_as_written(path: Path) -> None:
    roster = read_roster(path)
    read = [Counter(_merged(u.models)) for u in roster.units if not u.parent]
    oracle = _oracle(path)
    assert sorted(map(_key, read)) == sorted(map(_key, oracle))
    for u in roster.units:
        assert u.model_count == sum(m.count for m in u.models)
        names = [(m.name, tuple(sorted(m.statline.items()))) for m in u.models]
        assert len(names) == len(set(names)), u.name  # one entry per profile and statline: merged


def _merged(models: list[ModelCount]) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in models:
        out[m.name] = out.get(m.name, 0) + m.count
    return out


def _key(c: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, v) for k, v in c.items() if v))


def test_a_selection_numbered_zero_holds_no_model_and_is_read() -> None:
    path = HH2 / "Basic Marines Validate.test"
    xml = roster_xml(path).decode("utf-8")
    base = read_roster(path)
    first = next(m for u in base.units for m in u.models if m.count > 1)
    # every selection carrying that profile, numbered 0: the unit keeps the profile, at 0 models
    root = ET.fromstring(xml.encode("utf-8"))
    numbers = []
    for sel in root.iter(f"{NS}selection"):
        if any(" ".join((p.get("name") or "").split()) == first.name for p in sel.findall(f"{NS}profiles/{NS}profile")):
            numbers.append(sel.get("number"))
            sel.set("number", "0")
    assert numbers
    edited = read_roster_bytes(ET.tostring(root), "zero.ros")
    counts = {m.name: m.count for u in edited.units for m in u.models}
    assert counts[first.name] == 0
    assert edited.points == base.points
    for bad in ("-1", "1.5", "nan"):
        for sel in root.iter(f"{NS}selection"):
            if sel.get("number") == "0":
                sel.set("number", bad)
        with pytest.raises(PraetorError, match=f"number={bad!r}"):
            read_roster_bytes(ET.tostring(root), "bad.ros")
        for sel in root.iter(f"{NS}selection"):
            if sel.get("number") == bad:
                sel.set("number", "0")
