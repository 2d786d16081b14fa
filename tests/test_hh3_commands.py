"""Every command on the fixture rosters of both editions (tests/fixtures/rosters/README.md names their sources):
``roster`` rates every unit at the roster's points, ``matchup`` prints both fire plans, ``calc`` takes a roster's
unit as attacker and as target, ``report --roster`` writes its report; a 3rd-edition unit's attack equals the edition
3 door given the same volleys (1e-12), and what it refuses it refuses in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.analysis.unit_ratings import rate_roster
from praetor_analysis.cli import main
from praetor_analysis.scenario.calc import calc
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units import NO_MELEE, fights_in_melee, hh3_shooting, hh3_volleys
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_datasheet import is_hh3_datasheet
from praetor_analysis.units.hh3_target import hh3_standard_targets

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
HH3 = sorted((FIXTURES / "hh3").glob("*.rosz"))
HH2 = sorted(p for p in (FIXTURES / "hh2").iterdir() if p.suffix in (".ros", ".rosz", ".test"))
SMALL = FIXTURES / "hh3" / "Small Game.rosz"
DAEMONS = FIXTURES / "hh3" / "Daemons.rosz"
FAST = {SMALL.name, "HH2 - Dark Angels.rosz"}


def _mark(paths: list[Path]) -> list[object]:
    return [
        pytest.param(p, id=f"{p.parent.name}/{p.name}", marks=() if p.name in FAST else pytest.mark.slow) for p in paths
    ]


@pytest.mark.parametrize("path", _mark(HH3) + _mark(HH2))
def test_every_unit_rated_at_the_rosters_points(path: Path) -> None:
    reading = read_roster_units(path)
    frame = rate_roster(path)
    assert len(reading.units) > 0
    assert reading.rated_points + reading.not_rated_points == pytest.approx(reading.declared)
    assert set(frame["unit"]) == set(reading.labels)  # every unit has its rows
    per_unit = frame.drop_duplicates("unit").set_index("unit")["points"]
    assert per_unit.sum() == pytest.approx(reading.rated_points)
    if path.parent.name == "hh3":  # every row of a 3rd-edition roster computed, at the 3rd edition's targets
        # but the melee rows of a unit none of whose models strikes (a Rhino), which say why
        silent = {label for label, u in zip(reading.labels, reading.units, strict=True) if not fights_in_melee(u)}
        said = (frame["phase"] == "melee") & frame["unit"].isin(silent)
        assert (frame.loc[said, "error"].str.endswith(NO_MELEE)).all()
        # and the shooting rows of a unit none of whose models carries a ranged weapon, which say so
        unarmed = (frame["phase"] == "shooting") & frame["no_weapon"].astype(bool)
        assert frame.loc[unarmed, "error"].str.contains("has no weapon for the shooting phase").all()
        assert frame.loc[frame["phase"] == "shooting"].groupby("unit")["no_weapon"].nunique().max() == 1
        said |= unarmed
        rated = frame[~said]
        assert (rated["error"] == "").all(), rated.loc[rated["error"] != "", ["unit", "target", "error"]]
        assert set(frame["target"]) == {label for label, _ in hh3_standard_targets()}
        assert rated["mean"].notna().all() and (rated["p_any"] <= 1 + 1e-12).all()


@pytest.mark.parametrize("path", _mark(HH3) + _mark(HH2))
def test_every_command_on_a_roster(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """roster (table and JSON), calc with a roster unit as attacker (3rd edition) or target, report --roster,
    matchup of the roster against itself: exit 0, the points line printed."""
    reading = read_roster_units(path)
    assert main(["roster", str(path)]) == 0
    out = capsys.readouterr().out
    assert reading.account() in out
    assert main(["roster", "--json", str(path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["unit"] for r in rows} == set(reading.labels)
    label = reading.labels[0]
    doc: dict[str, object]
    if path.parent.name == "hh3":
        doc = {"edition": "hh3", "attacker": {"roster": str(path), "unit": label}, "target": "Rhino"}
    else:
        doc = {"weapon": "Bolter", "attacker": {"BS": 4}, "target": {"roster": str(path), "unit": label}}
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["calc", str(scenario)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "hull_points" in result or "casualties" in result
    assert main(["report", "--edition", path.parent.name, "--roster", str(path), "-o", str(tmp_path / "r.html")]) == 0
    capsys.readouterr()
    assert (tmp_path / "r.html").stat().st_size > 1000
    shipped = [u for u in reading.units if path.parent.name == "hh3" and is_hh3_datasheet(u.datasheet)]
    for unit in shipped[:1]:  # a unit whose datasheet the 3rd edition's catalogs ship: its options per point
        assert main(["wargear", unit.datasheet, "--edition", "hh3", "--size", str(unit.size), "--target", "Rhino"]) == 0
        assert capsys.readouterr().out.startswith(f"{unit.datasheet} against Rhino:")
    assert main(["matchup", str(path), str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count(" shooting at ") == 2  # both fire plans


def test_a_3rd_edition_matchup_prints_both_fire_plans(capsys: pytest.CaptureFixture[str]) -> None:
    result = matchup(SMALL, DAEMONS)
    assert [p.attacker_list for p in result.plans] == ["Small Game", "Daemons"]
    assert result.plans[0].expected > 0 and result.plans[0].expected <= result.plans[0].bound + 1e-9
    assert main(["matchup", str(SMALL), str(DAEMONS)]) == 0
    out = capsys.readouterr().out
    assert "Small Game shooting at Daemons" in out and "Daemons shooting at Small Game" in out


def test_mixed_editions_and_2nd_edition_doors_refuse_a_3rd_edition_roster_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hh2 = FIXTURES / "hh2" / "HH2 - Dark Angels.rosz"
    assert main(["matchup", str(SMALL), str(hh2)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and SMALL.name in err and hh2.name in err
    scenario = tmp_path / "s.json"
    target = {"roster": str(SMALL), "unit": "Tactical Squad (2)"}
    scenario.write_text(json.dumps({"weapon": "Bolter", "attacker": {"BS": 4}, "target": target}), encoding="utf-8")
    assert main(["calc", str(scenario)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and SMALL.name in err and '"edition": "hh3"' in err
    out = tmp_path / "s.parquet"
    assert main(["sweep", "Dark Angels", "--targets", str(SMALL), "-o", str(out), "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and SMALL.name in err


def test_a_unit_with_no_melee_says_so_on_the_roster_screen(capsys: pytest.CaptureFixture[str]) -> None:
    """A Rhino strikes no blow: its melee cell reads "no melee" (as the 2nd edition's screen), never "0.00 models"."""
    assert main(["roster", str(SMALL)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Rhino")]
    assert len(lines) == 2
    for line in lines:
        assert line.rstrip().endswith("no melee") and "0.00 models" not in line.split("Lesser Daemon")[1], line
    frame = rate_roster(SMALL)
    frame = frame[frame["phase"] == "melee"]
    rhino = frame[frame["unit"] == "Rhino (1)"]
    assert (rhino["error"].str.contains("no model that fights in melee")).all() and rhino["mean"].isna().all()
    squad = frame[frame["unit"] == "Tactical Squad (1)"]
    assert (squad["error"] == "").all() and squad["mean"].notna().all() and (squad["mean"] > 0).any()


def test_a_3rd_edition_units_attack_equals_the_door_given_its_volleys() -> None:
    """The unit's shooting is the door's result of the volleys it chose, written out as a document (1e-12), and
    each group fires with at most its models."""
    reading = read_roster_units(SMALL)
    for unit in reading.units:
        for _, target in hh3_standard_targets():
            made = hh3_volleys(unit, target)
            volleys, chosen = [s.to_block() for s in made.shots], [c.to_dict() for c in made.chosen]
            mine = hh3_shooting(unit, target).to_dict()
            key = "hull_points" if target.is_vehicle else "casualties"
            if volleys:
                door = calc_hh3_stages({"edition": "hh3", "firing_units": [volleys], "target": dict(target.block)})
                assert mine[key]["pmf"] == pytest.approx(door[key]["pmf"], abs=1e-12)
            else:
                assert mine[key]["pmf"] == [1.0]
            for group in unit.groups:
                fired = sum(c["count"] for c in chosen if c["model"] == group.model and c["weapon"] is not None)
                fires_all = bool(group.hh3_statline.front)  # it prints Front Armour
                assert fires_all or fired <= sum(g.count for g in unit.groups if g.model == group.model)


def test_a_squad_fires_its_bolters_and_its_sergeant_his_pistol() -> None:
    """Tactical Squad (2) of Small Game.rosz at Legionaries: 14 Legionaries fire Bolters (not their Bolt pistols:
    FP 2 against FP 1 at the same Strength and AP), the Sergeant his Plasma pistol (his only ranged weapon
    besides grenades)."""
    reading = read_roster_units(SMALL)
    unit = reading.units[reading.labels.index("Tactical Squad (2)")]
    target = dict(hh3_standard_targets())["Legionary (Tactical Squad)"]
    chosen = hh3_shooting(unit, target).to_dict()["chosen"]
    assert sorted((c["model"], c["count"], c["weapon"]) for c in chosen) == [
        ("Legionary", 1, "Bolter"),
        ("Legionary", 13, "Bolter"),
        ("Sergeant", 1, "Plasma pistol"),
    ]


def test_calc_resolves_names_in_the_3rd_edition() -> None:
    """A standard target's and a catalog weapon's name give the same result as their profiles written out."""
    attacker = {"name": "Legionary", "Type": "Infantry", "BS": "4", "WS": "4", "S": "4", "T": "4", "W": "1",
                "I": "4", "A": "1", "models": 5}  # fmt: skip
    rhino = dict(hh3_standard_targets())["Rhino"].block
    named = calc({"edition": "hh3", "attacker": attacker, "weapon": "Lascannon", "target": "Rhino"})
    weapon = {"name": "Lascannon", "R": "48", "FP": "1", "RS": "9", "AP": "2", "D": "1",
              "Special Rules": "Heavy (D), Armourbane", "Traits": "Las"}  # fmt: skip
    written = calc({"edition": "hh3", "attacker": attacker, "weapon": weapon, "target": dict(rhino)})
    assert named["hull_points"]["pmf"] == pytest.approx(written["hull_points"]["pmf"], abs=1e-12)
    with pytest.raises(Exception, match="weapon: no weapon profile named 'Nope'"):
        calc({"edition": "hh3", "attacker": attacker, "weapon": "Nope", "target": "Rhino"})


def test_calc_says_a_datasheet_is_not_an_attacker_yet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 38: a datasheet's name (``praetor wargear`` fields it) is refused as a calc attacker on one line that
    says what to give instead, not as a name missing from the data."""
    assert is_hh3_datasheet("Lasrifle Section")
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps({"edition": "hh3", "mode": "melee", "attacker": {"name": "Lasrifle Section"}}))
    assert main(["calc", str(doc)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "attacker: 'Lasrifle Section' is a 3rd-edition datasheet" in err
    assert '"roster"' in err and "statline" in err and "no unit profile named" not in err
    with pytest.raises(Exception, match="attacker: no unit profile named 'Nope'"):  # a name of nothing: as before
        calc({"edition": "hh3", "mode": "melee", "attacker": {"name": "Nope"}, "target": "Rhino"})


def test_an_array_of_3rd_edition_documents_with_names_and_roster_units() -> None:
    """In an array too (checked before any is computed): each item equals the same document alone."""
    from praetor_analysis.scenario.calc import calc_json

    items = [
        {"edition": "hh3", "attacker": {"roster": str(SMALL), "unit": "Centurion"}, "target": "Rhino", "mode": "melee"},
        {"edition": "hh3", "attacker": {"BS": 4, "models": 2}, "weapon": "Lascannon", "target": "Questoris Knight"},
    ]
    results = calc_json(json.dumps(items))
    for item, result in zip(items, results, strict=True):
        assert result["hull_points"]["pmf"] == pytest.approx(calc(item)["hull_points"]["pmf"], abs=1e-12)
    with pytest.raises(Exception, match=r"\[1\] weapon: no weapon profile named 'Nope'"):
        calc_json(json.dumps([items[0], {**items[1], "weapon": "Nope"}]))
