"""Numbers ``praetor roster`` prints for real rosters (tests/fixtures/rosters, sources in its README), checked by
hand from the rules contracts: a simple unit of each edition shooting at a standard target, and the label the
screen prints accepted back by ``praetor calc`` with the same number."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from praetor_analysis.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
SMALL_GAME = FIXTURES / "hh3" / "Small Game.rosz"
BASIC_MARINES = FIXTURES / "hh2" / "Basic Marines Validate (system id ece7).test"


def _shooting(path: Path, target: str, capsys: pytest.CaptureFixture[str]) -> dict[str, float]:
    """Each unit's mean models removed shooting at ``target``, as ``praetor roster --json --target`` prints it."""
    assert main(["roster", "--json", "--target", target, str(path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    return {r["unit"]: r["mean"] for r in rows if r["phase"] == "shooting"}


def test_two_rhinos_of_small_game_at_legionaries_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """Small Game.rosz, 3rd edition: a Rhino (BS 4) fires every weapon (a vehicle) at 10 Legionaries (T 4, W 1,
    SAV 3+). By MECHANICS-HH3.md: BS 4 hits on 3+ (section 4, no critical band below BS 6): 2/3. Bolter and
    combi-bolter, RS 4 = T: wound on 4+ (section 5): 1/2; AP 5 > 3, the 3+ save stands (section 6): fails 1/3; D 1:
    one Legionary per unsaved wound. So 1/9 per Firepower die: bolter FP 2 -> 2/9, combi-bolter FP 4 -> 4/9.
    Hunter-killer missile FP 1 (Limited (1): once), RS 9 >= T + 2: 2+ = 5/6, AP 3 <= 3 stops the save, D 3 on a
    W 1 model: one model (excess lost, section 7): 2/3 * 5/6 = 5/9. At most 7 of the 10 models can fall, so the
    means add: Rhino (1) (bolter, combi-bolter, missile) 2/9 + 4/9 + 5/9 = 11/9; Rhino (2) (two combi-bolters,
    missile) 4/9 + 4/9 + 5/9 = 13/9."""
    means = _shooting(SMALL_GAME, "Legionary (Tactical Squad)", capsys)
    assert means["Rhino (1)"] == pytest.approx(float(Fraction(11, 9)), abs=1e-12)
    assert means["Rhino (2)"] == pytest.approx(float(Fraction(13, 9)), abs=1e-12)


def test_basic_marines_at_militia_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """Basic Marines Validate (the ``ece7`` export), 2nd edition, at 20 Militia (T 3, W 1, Save 5+). By
    MECHANICS.md: a Tactical Squad's 10 models (BS 4) each fire their bolter (Rapid Fire, 24": one shot at full
    range): BS 4 hits on 3+ (7 - BS): 2/3; S 4 against T 3 wounds on 3+: 2/3; AP 5 stops a 5+ save. 10 * 4/9 =
    40/9. The Centurion (BS 5, 2+) fires his bolt pistol (Pistol 1): 5/6 * 2/3 = 5/9, 60 points: 500/540 = 25/27
    per 100 points."""
    means = _shooting(BASIC_MARINES, "Militia (Infantry Squad)", capsys)
    assert means["Tactical Squad (1)"] == means["Tactical Squad (2)"] == pytest.approx(40 / 9, abs=1e-12)
    assert means["Centurion"] == pytest.approx(5 / 9, abs=1e-12)
    assert main(["roster", "--json", "--target", "Militia (Infantry Squad)", str(BASIC_MARINES)]) == 0
    rows = json.loads(capsys.readouterr().out)
    centurion = next(r for r in rows if r["unit"] == "Centurion" and r["phase"] == "shooting")
    assert centurion["per_100_pts"] == pytest.approx(25 / 27, abs=1e-12)


def test_a_label_roster_prints_is_calcs_unit_with_the_same_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rhino (2) of Small Game, named as ``roster`` prints it, is ``calc``'s attacker: 13/9 Legionaries again."""
    doc = {"edition": "hh3", "attacker": {"roster": str(SMALL_GAME), "unit": "Rhino (2)"}, "target": "Legionary"}
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["calc", str(scenario)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["casualties"]["mean"] == pytest.approx(13 / 9, abs=1e-12)
