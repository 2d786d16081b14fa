"""The probe's pair method (issue 38): the same input with and without one field. The answer changes, the
field is refused naming it, or the result says why not (``applied``, ``no_effect``, ``not_modelled``,
``reasons``). Each field below was found doing nothing without a word before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc

TARGET = {"name": "T", "T": 4, "W": 1, "Save": "3+", "models": 10, "WS": 4, "I": 4}
FLAMER = {"attacker": {"BS": 4}, "weapon": "Flamer", "target": TARGET, "formation": {"models": 10}}
BLAST = {**FLAMER, "weapon": "Missile Launcher - Frag"}
SWORD = {"name": "w", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
MELEE = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 2, "I": 4}, "weapon": SWORD, "target": TARGET}
EDGES = {"xmin": -20, "xmax": 40, "ymin": -20, "ymax": 30}


def _said(result: dict[str, Any]) -> str:
    return json.dumps([result.get(k) for k in ("applied", "no_effect", "not_modelled", "reasons")])


def _pair(without: dict[str, Any], with_field: dict[str, Any], field: str) -> str:
    """'changes', 'refused' or 'said' for the pair; fails when the field does nothing without a word."""
    before = calc(without)
    try:
        after = calc(with_field)
    except PraetorError as exc:
        assert field in str(exc), (field, str(exc))
        return "refused"
    strip = {"attacker", "target", "name", "formation"}
    if {k: v for k, v in before.items() if k not in strip} != {k: v for k, v in after.items() if k not in strip}:
        return "changes"
    assert field.rsplit(".", 1)[-1] in _said(after), f"{field} did nothing and nothing says so"
    return "said"


@pytest.mark.parametrize(
    ("without", "with_field", "field"),
    [
        (FLAMER, {**FLAMER, "aim": {"model": 3}}, "aim"),
        (FLAMER, {**FLAMER, "edges": EDGES}, "edges"),
        (BLAST, {**BLAST, "formation": {"models": 10, "firer_distance": 12}}, "formation.firer_distance"),
        (MELEE, {**MELEE, "weapon": {**SWORD, "Range": "Template"}}, "weapon.Range"),
    ],
    ids=[
        "aim beside a template",
        "edges beside a template",
        "firer_distance beside a blast",
        "template range in melee",
    ],
)
def test_issue_38s_silent_fields_now_refused(without: dict[str, Any], with_field: dict[str, Any], field: str) -> None:
    assert _pair(without, with_field, field) == "refused"


@pytest.mark.parametrize(
    ("without", "with_field", "field"),
    [
        (BLAST, {**BLAST, "aim": {"model": 9}}, "aim"),
        (BLAST, {**BLAST, "edges": {"xmin": 0, "xmax": 8, "ymin": -1, "ymax": 5}}, "edges"),
        (FLAMER, {**FLAMER, "formation": {"models": 10, "firer_distance": 12}}, "formation.firer_distance"),
    ],
    ids=["aim at a blast", "edges around a blast", "firer_distance of a template"],
)
def test_the_same_fields_act_where_they_belong(without: dict[str, Any], with_field: dict[str, Any], field: str) -> None:
    assert _pair(without, with_field, field) in {"changes", "said"}


def test_a_legion_on_a_datasheet_it_cannot_change_is_named() -> None:
    # issue 38: legion on a Custodes datasheet did nothing without a word; a roster's force gives every unit its
    # Legion (an allied Knight too), so it is named in the result rather than refused
    base = {"attacker": {"name": "Custodian Guard Squad"}, "target": "Rhino Transport"}
    given = {"attacker": {"name": "Custodian Guard Squad", "legion": "Dark Angels"}, "target": "Rhino Transport"}
    assert _pair(base, given, "legion") in {"changes", "said"}  # only the result's words differ
    assert any("legion 'Dark Angels'" in n for n in calc(given)["not_modelled"])


@pytest.mark.parametrize("key", ["charging", "disordered"])
def test_a_matchup_lists_unit_flags_are_refused(key: str, tmp_path: Path) -> None:
    # issue 38: a list's "charging": true acted only when that unit was the one charged
    from praetor_analysis.analysis.army_list import load_list

    plain, flagged = tmp_path / "plain.json", tmp_path / "flagged.json"
    plain.write_text('[{"name": "Tactical Squad"}]', encoding="utf-8")
    flagged.write_text(json.dumps([{"name": "Tactical Squad", key: True}]), encoding="utf-8")
    load_list(plain)
    with pytest.raises(PraetorError, match=rf"units\[0\]\.{key}"):
        load_list(flagged)
