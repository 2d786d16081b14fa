"""Every field acts or is refused (issue 26), generated from the contract.

The kinds and their fields are read from the "Fields by kind" table of docs/scenario.md and must equal the
code's (``scenario.fields``). Then, for every kind and every field that acts there, changing the field's value
changes some result (or is refused), except the fields listed in ``PASSIVE`` with their reasons; and every
other field of the contract, given a value that asks for something, is refused naming it and the kind.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.scenario.fields import DATASHEET_ACTS, SCENARIO_ACTS, STATLINE, UNIT_ACTS

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenario.md"
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire, Pinning"}
LAS = {"name": "Las", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
FRAG = {"name": "Frag", "Range": '48"', "Strength": "4", "AP": "6", "Type": "Heavy 1, Barrage, Blast"}
FIST = {"name": "Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}
SWORD = {"name": "Sword", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee"}
STAT = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 2, "Ld": 8, "Save": "3+"}
TARGET = {"name": "Legionaries", "models": 5, **STAT}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 10, "Side": 10, "Rear": 9, "HP": 3}
HULL = {"hull": [4, 2]}

#: A base scenario of each kind (a vehicle target where the vehicle fields are tried).
BASES: dict[str, dict[str, Any]] = {
    "shooting": {"attacker": {**STAT, "models": 3}, "weapon": BOLTER, "target": TARGET},
    "marker": {
        "attacker": {**STAT, "models": 1},
        "weapon": FRAG,
        "target": TARGET,
        "formation": {"models": 5, "gap": 1},
        "attacks": 1,
    },
    "melee": {"mode": "melee", "attacker": {**STAT, "models": 3}, "weapon": SWORD, "target": TARGET},
    "melee round": {
        "mode": "melee",
        "attacker": {**STAT, "models": 3},
        "weapon": SWORD,
        "target": TARGET,
        "target_weapon": SWORD,
    },
    "sequence": {"target": TARGET, "firing_units": [[{"attacker": {**STAT, "models": 3}, "weapon": BOLTER}]]},
    "datasheet shooting": {"attacker": {"name": "Tactical Squad"}, "target": TARGET},
    "datasheet melee": {"mode": "melee", "attacker": {"name": "Tactical Squad"}, "target": TARGET},
}
#: A changed value for each field that acts: (path, value); a path starting with "~" uses a vehicle target.
CHANGES: dict[str, tuple[tuple[str, ...], Any]] = {
    "mode": (("mode",), "melee"),
    "attacker": (("attacker",), {**STAT, "BS": 2, "WS": 2, "A": 1, "models": 1}),
    "weapon": (("weapon",), LAS),  # FIST in melee (see _pair)
    "target": (("target",), {**TARGET, "T": 6, "W": 1, "Save": "2+"}),
    "attacks": (("attacks",), 7),
    "hits": (("hits",), 2),
    "snap_shots": (("snap_shots",), True),
    "half_range": (("half_range",), True),
    "metric": (("metric",), "wipe"),
    "formation": (("formation",), {"models": 5, "gap": 4}),
    "aim": (("aim",), {"model": 4}),
    "indirect": (("indirect",), True),
    "edges": (("edges",), {"xmin": 0.5}),
    "options": (("options",), ["Blade Charge"]),  # the weapon given that option (see _pair)
    "target_weapon": (("target_weapon",), FIST),
    "target.Front": (("~target", "Front"), 14),
    "target.HP": (("~target", "HP"), 1),
    "target.Side": (("~target", "Side"), 14),
    "target.Rear": (("~target", "Rear"), 14),
    "firing_units": (("firing_units",), [[{"attacker": {**STAT, "models": 1}, "weapon": LAS}]]),
    "attacker.charging": (("attacker", "charging"), True),
    "attacker.modifiers": (("attacker", "modifiers"), {"reroll_hits": "all", "to_wound": 1}),
    "attacker.two_weapons": (("attacker", "two_weapons"), True),
    "attacker.disordered": (("attacker", "disordered"), True),  # beside charging (see _changed)
    "attacker.wounds_taken": (("attacker", "wounds_taken"), 1),
    "attacker.second_weapon": (("attacker", "second_weapon"), SWORD),
    "attacker.size": (("attacker", "size"), 12),
    "attacker.models": (("attacker", "models"), 12),
    "attacker.loadout": (("attacker", "loadout"), [{"option": "Power Fist", "model": "Legion Tactical Sergeant"}]),
    "attacker.faction": (("attacker", "faction"), "Blackshields"),
    # the Legion fielding it: the options it is shown (and the result's attacker echoes it)
    "attacker.legion": (("attacker", "legion"), "Dark Angels"),
    # a roster's unit instead of the datasheet (refused without its roster, or without its unit)
    "attacker.roster": (("attacker", "roster"), "HH2 - Dark Angels.rosz"),
    "attacker.unit": (("attacker", "unit"), "Praetor"),
    "attacker.name": (("attacker", "name"), "Assault Squad"),
    "target.wounds_taken": (("target", "wounds_taken"), 1),
    "target.facing": (("~target", "facing"), "Rear"),
    "target.moved": (("~target", "moved"), True),
    "target.charging": (("target", "charging"), True),
    "target.two_weapons": (("target", "two_weapons"), True),
    "target.disordered": (("target", "disordered"), True),
    "target.second_weapon": (("target", "second_weapon"), FIST),
    "target.second_weapon ": (("target", "second_weapon"), FIST),
}
for _role in ("attacker", "target"):  # the statline: a changed characteristic
    for _key, _value in {"WS": 1, "BS": 1, "S": 8, "T": 8, "W": 1, "I": 1, "A": 5, "Ld": 2, "Save": "2+",
                         "Invulnerable": "2+", "Cover": "2+", "models": 1, "rules": ["Feel No Pain (4+)"],
                         "Unit Type": "Infantry (Skirmish)"}.items():  # fmt: skip
        CHANGES[f"{_role}.{_key}"] = ((_role, _key), _value)

_LABEL = "a label: names the unit in messages, not used in the computation"
_MOVE = "a Move characteristic is checked but nothing moves in a scenario"
_PASTED = "a characteristic of the pasted statline that this kind of attack does not read"
_ARMOUR = "a vehicle's armour: a statline field, read only of a vehicle target"
#: (kind, field) -> why changing it may change nothing (statline fields are accepted whole).
PASSIVE: dict[tuple[str, str], str] = {}
for _kind in BASES:
    for _role in ("attacker", "target"):
        for _key in ("name", "points"):
            PASSIVE[(_kind, f"{_role}.{_key}")] = _LABEL
        for _key in ("Move", "M"):
            PASSIVE[(_kind, f"{_role}.{_key}")] = _MOVE
        for _key in ("Front", "Side", "Rear", "HP"):
            if _role == "attacker":
                PASSIVE[(_kind, f"{_role}.{_key}")] = _ARMOUR
            elif _kind == "melee round":
                PASSIVE[(_kind, f"{_role}.{_key}")] = "a whole round with a Vehicle is refused (not modelled)"
            elif _key in ("Side", "Rear"):
                PASSIVE[(_kind, f"{_role}.{_key}")] = "the armour of a facing not hit (the base is hit on its Front)"
    PASSIVE[(_kind, "name")] = _LABEL
for _kind, _keys in {
    "shooting": ("attacker.WS", "attacker.S", "attacker.T", "attacker.W", "attacker.I", "attacker.A",
                 "attacker.Save", "attacker.Invulnerable", "attacker.Cover", "attacker.Unit Type",
                 "attacker.rules", "target.WS", "target.BS", "target.S", "target.I", "target.A", "target.Unit Type"),
    "marker": ("attacker.WS", "attacker.S", "attacker.T", "attacker.W", "attacker.I", "attacker.A", "attacker.Ld",
               "attacker.Save", "attacker.Invulnerable", "attacker.Cover", "attacker.Unit Type", "attacker.rules",
               "attacker.models", "target.WS", "target.BS", "target.S", "target.I", "target.A", "target.Unit Type"),
    "melee": ("attacker.BS", "attacker.T", "attacker.W", "attacker.I", "attacker.Ld", "attacker.Save",
              "attacker.Invulnerable", "attacker.Cover", "attacker.Unit Type", "attacker.rules", "target.BS",
              "target.S", "target.I", "target.A", "target.Unit Type", "target.Cover"),
    "melee round": ("attacker.BS", "attacker.Unit Type", "attacker.rules", "attacker.Ld", "attacker.Cover",
                    "target.BS", "target.Unit Type", "target.Ld", "target.Cover"),
    "sequence": ("target.WS", "target.BS", "target.S", "target.I", "target.A", "target.Unit Type"),
    "datasheet shooting": ("target.WS", "target.BS", "target.S", "target.I", "target.A", "target.Unit Type",
                           "attacker.models"),
    "datasheet melee": ("target.BS", "target.S", "target.I", "target.A", "target.Unit Type", "target.Cover",
                        "attacker.models"),
}.items():  # fmt: skip
    for _key in _keys:
        PASSIVE[(_kind, _key)] = _PASTED
PASSIVE[("marker", "half_range")] = "the base Blast has neither Rapid Fire nor Melta (test_no_silent_answers)"
PASSIVE[("marker", "target.Ld")] = "Barrage Pinning tests Leadership only when the Blast pins; the Frag does not"
PASSIVE[("shooting", "attacker.Ld")] = "Leadership of the firer is read by Psychic weapons only"
PASSIVE[("sequence", "target.Ld")] = "the sequence's Bolter pins, but Ld 2 and Ld 8 pass the same way against 0 wounds"
PASSIVE[("datasheet shooting", "target.Ld")] = "the squad's Bolters do not pin"
PASSIVE[("datasheet melee", "target.Ld")] = "nothing in a one-way melee tests the target's Leadership"
PASSIVE[("melee", "target.Ld")] = "nothing in a one-way melee tests the target's Leadership"
PASSIVE[("datasheet melee", "attacker.faction")] = "Blackshields is refused: the Tactical Squad has one faction"
for _kind in ("datasheet shooting", "datasheet melee"):  # the Legion shows or hides options; the base takes none
    PASSIVE[(_kind, "attacker.legion")] = "a Legion changes which options the data offers; the base takes no option"
PASSIVE[("datasheet shooting", "attacker.faction")] = "Blackshields is refused: the Tactical Squad has one faction"


def _table() -> dict[str, list[set[str]]]:
    """The "Fields by kind" table of docs/scenario.md: kind -> [scenario, attacker, target] field sets."""
    text = DOC.read_text(encoding="utf-8").split("## Fields by kind", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("kind", "---"):
            continue
        kind = re.sub(r" \(.*\)$", "", cells[0])
        rows[kind] = [set(re.findall(r"`([^`]+)`", c)) for c in cells[1:]]
    return rows


def test_the_documented_table_is_the_codes():
    table = _table()
    assert set(table) == set(SCENARIO_ACTS), table.keys()
    for kind, (scenario, attacker, target) in table.items():
        acts = SCENARIO_ACTS[kind] - {"name"}
        if kind == "marker":  # "as shooting without hits and metric, plus ..."
            scenario = (SCENARIO_ACTS["shooting"] - {"hits", "snap_shots", "metric", "name"}) | scenario
            scenario -= {"hits", "snap_shots", "metric"}
        if kind == "sequence":
            scenario -= {"firing_units"} - scenario
        assert scenario == acts, (kind, scenario ^ acts)
        if kind.startswith("datasheet"):
            assert attacker == DATASHEET_ACTS[kind] - {"models"}, kind
        elif kind != "sequence":
            assert attacker == UNIT_ACTS[(kind, "attacker")] - STATLINE, kind
        if kind not in ("sequence", "datasheet melee", "melee round"):
            assert target == UNIT_ACTS[(kind, "target")] - STATLINE, kind


def _cases() -> list[tuple[str, str]]:
    out = []
    for kind, acts in SCENARIO_ACTS.items():
        out += [(kind, f) for f in sorted(acts)]
        roles = ["target"] if kind.startswith("datasheet") or kind == "sequence" else ["attacker", "target"]
        for role in roles:
            key = (kind, role) if kind != "sequence" else ("shooting", role)
            out += [(kind, f"{role}.{f}") for f in sorted(UNIT_ACTS[key])]
        if kind.startswith("datasheet"):
            out += [(kind, f"attacker.{f}") for f in sorted(DATASHEET_ACTS[kind])]
    return out


def _answer(doc: dict[str, Any]) -> str:
    try:
        return json.dumps(calc(doc), sort_keys=True)
    except PraetorError as exc:
        return f"refused: {exc}"


def _pair(kind: str, field: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The base scenario of ``kind`` ready for ``field``, and the same with the field changed."""
    doc = copy.deepcopy(BASES[kind])
    if kind in ("melee", "shooting") and field == "metric":
        doc["weapon"] = [FIST, SWORD] if kind == "melee" else [BOLTER, LAS]
    path, value = CHANGES[field]
    if field == "mode":
        value = "shooting" if doc.get("mode") == "melee" else "melee"
    if field == "weapon" and doc.get("mode") == "melee":
        value = FIST
    if field == "options":  # a weapon with the option (Blade Charge, Rending (3+) taken), not taken in the base
        doc["weapon"] = {**doc["weapon"], "Type": doc["weapon"]["Type"] + ", Blade Charge"}
    if path[0] == "~target":
        doc["target"], path = dict(RHINO), ("target", *path[1:])
        if kind in ("melee", "datasheet melee"):
            doc["target"]["WS"] = None
        if kind == "marker":
            doc["formation"], doc["weapon"] = HULL, {**FRAG, "Type": "Heavy 1, Blast"}
    if field.endswith(".disordered"):
        doc[path[0]] = {**doc[path[0]], "charging": True}
    changed = copy.deepcopy(doc)
    box = changed
    for key in path[:-1]:
        box = box[key]
    box[path[-1]] = value
    return doc, changed


@pytest.mark.parametrize("kind, field", _cases(), ids=lambda v: v)
def test_every_field_that_acts_changes_a_result_or_is_refused(kind, field):
    if (kind, field) in PASSIVE:
        pytest.skip(PASSIVE[(kind, field)])
    if field not in CHANGES:
        pytest.fail(f"{kind}: no changed value for {field!r} in CHANGES and no reason in PASSIVE")
    base, changed = _pair(kind, field)
    before, after = _answer(base), _answer(changed)
    assert not before.startswith("refused"), (kind, field, before)
    assert after != before, f"{kind}: changing {field} changed nothing"


#: Fields of the contract that ask for something (a value that is not neutral), tried in every kind.
ASKING: dict[str, Any] = {
    "attacks": 2, "hits": 2, "snap_shots": True, "half_range": True, "metric": "wipe", "formation": {"models": 5},
    "aim": {"model": 0}, "indirect": True, "edges": {"xmin": -5}, "target_weapon": SWORD,
    "firing_units": [[{"weapon": BOLTER}]],
    "attacker.charging": True, "attacker.two_weapons": True, "attacker.wounds_taken": 1,
    "attacker.modifiers": {"to_hit": 1}, "target.modifiers": {"to_hit": 1},
    "attacker.second_weapon": SWORD, "target.moved": True, "target.charging": True, "target.two_weapons": True,
    "target.second_weapon": SWORD, "target.facing": "Side", "options": ["Blade Charge"],
}  # fmt: skip


def _refusal_cases() -> list[tuple[str, str]]:
    out = []
    for kind in BASES:
        for field in ASKING:
            role, _, key = field.rpartition(".")
            if (role == "attacker" and kind == "sequence") or (kind, field) == ("melee", "target_weapon"):
                continue  # a sequence has no attacker of its own; target_weapon makes a melee a melee round
            if not role:
                acting = field in SCENARIO_ACTS[kind]
            elif kind.startswith("datasheet") and role == "attacker":
                acting = key in DATASHEET_ACTS[kind]
            else:
                unit_kind = "shooting" if kind == "sequence" else kind
                acting = key in UNIT_ACTS.get((unit_kind, role), STATLINE)
            if not acting:
                out.append((kind, field))
    return out


@pytest.mark.parametrize("kind, field", _refusal_cases(), ids=lambda v: v)
def test_every_other_field_is_refused_naming_it(kind, field):
    doc = copy.deepcopy(BASES[kind])
    role, _, key = field.rpartition(".")
    if role:
        if role == "target" and key in ("moved", "facing") and kind != "melee round":
            doc["target"] = {**RHINO, "WS": None}
        doc[role] = {**doc[role], key: ASKING[field]} if isinstance(doc.get(role), dict) else doc[role]
    else:
        doc[field] = ASKING[field]
    with pytest.raises(PraetorError) as info:
        calc(doc)
    msg = str(info.value)
    assert key or field in msg, msg
    assert (key if role else field) in msg and "\n" not in msg, msg
