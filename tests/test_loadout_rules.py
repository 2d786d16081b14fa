"""Loadouts as the army list allows them (issue 33 item 5): options of one Legion need it, two Legions' options
are refused together, every paid weapon fires, and the loadouts real rosters hold are accepted."""

from __future__ import annotations

from typing import Any

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units.fielded import fielded_unit

TALON = "Contemptor Dreadnought Talon"


def _weapons(block: dict[str, Any]) -> list[str]:
    return sorted(w.name for g in fielded_unit(block).groups for w in g.rows for _ in range(g.count))


def _refusal(block: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as info:
        fielded_unit(block)
    return str(info.value)


def test_an_option_of_one_legion_needs_it_and_two_legions_are_refused() -> None:
    squad: dict[str, Any] = {"name": "Heavy Support Squad", "loadout": ["Lascannon", "Cyber-Familiar"]}
    text = _refusal(squad)  # no Legion: only what every Legion may take
    assert "'Cyber-Familiar'" in text and "offered only to Iron Hands" in text and '"legion"' in text
    lascannons = fielded_unit({"name": "Heavy Support Squad", "loadout": ["Lascannon"]}).points
    assert fielded_unit({**squad, "legion": "Iron Hands"}).points == lascannons + 20
    both = _refusal({**squad, "legion": "Iron Hands", "loadout": [*squad["loadout"], "Infravisor"]})
    assert "'Infravisor'" in both and "XIX: Raven Guard" in both


def test_a_vox_bearer_keeps_the_lascannon_the_squad_paid_for() -> None:
    """Heavy Support Squad, Lascannons (150 pts) and a Nuncio-Vox (10): four lascannons fire (three before)."""
    block = {"name": "Heavy Support Squad", "loadout": ["Lascannon", "Nuncio-Vox"]}
    assert fielded_unit(block).points == 150 + 10
    assert _weapons(block).count("Lascannon") == 4
    result = calc({"attacker": block, "target": {"name": "Land Raider Spartan"}})
    assert sum(c["count"] for c in result["chosen"] if c["weapon"] == "Lascannon") == 4


def test_a_contemptor_replaces_its_in_built_combi_bolter() -> None:
    """The group 'May replace an in-built combi-bolter' allows one per Gravis Power Fist, Chainfist or Graviton
    Maul held (the data's repeats over the three): a Meltagun (as a real roster has it) takes the combi-bolter's
    place (it was refused 'at most 0 per model'); a Gravis Lascannon in place of the fist takes the
    combi-bolter with it (it was left); a second fist brings a second combi-bolter, which a second Meltagun
    may replace."""
    assert _weapons({"name": TALON}) == ["Combi-bolter", "Gravis Bolt Cannon", "Gravis Power Fist"]
    assert fielded_unit({"name": TALON, "loadout": ["Meltagun"]}).points == 175 + 15
    assert _weapons({"name": TALON, "loadout": ["Meltagun"]}) == ["Gravis Bolt Cannon", "Gravis Power Fist", "Meltagun"]
    assert _weapons({"name": TALON, "loadout": ["Gravis Lascannon"]}) == ["Gravis Bolt Cannon", "Gravis Lascannon"]
    two_fists = ["Gravis Lascannon", "Gravis Power Fist"]
    assert _weapons({"name": TALON, "loadout": two_fists}) == ["Combi-bolter", "Gravis Lascannon", "Gravis Power Fist"]
    assert "at most 0 per model" in _refusal({"name": TALON, "loadout": ["Gravis Lascannon", "Meltagun"]})
    assert "at most 1 per model" in _refusal({"name": TALON, "loadout": ["Meltagun", "Meltagun"]})
    twice = {"name": TALON, "loadout": ["Gravis Power Fist", "Meltagun", "Meltagun"]}
    assert fielded_unit(twice).points == 175 + 0 + 15 + 15
    assert _weapons(twice).count("Meltagun") == 2


def test_a_weapon_carried_twice_fires_twice() -> None:
    target = {"name": "Tactical Squad"}
    once = calc({"attacker": {"name": TALON, "loadout": ["Gravis Power Fist", "Meltagun"]}, "target": target})
    twice = calc(
        {"attacker": {"name": TALON, "loadout": ["Gravis Power Fist", "Meltagun", "Meltagun"]}, "target": target}
    )
    meltas = [c for c in twice["chosen"] if c["weapon"] == "Meltagun"]
    assert sum(c.get("copies", 1) for c in meltas) == 2
    melta_alone = calc({"attacker": {"BS": 5}, "weapon": {"name": "Meltagun", "Range": '12"', "Strength": "8", "AP": "1",
                                                          "Type": "Assault 1, Melta"}, "target": target})  # fmt: skip
    assert twice["casualties"]["mean"] == pytest.approx(2 * melta_alone["casualties"]["mean"], abs=1e-12)
    assert once["casualties"]["mean"] != pytest.approx(twice["casualties"]["mean"])


def test_an_option_most_legions_have_names_the_ones_without_it() -> None:
    """A Centurion's Librarian upgrade is hidden for the White Scars and Space Wolves (their own): with no Legion
    it is refused naming them; for the Dark Angels it is taken."""
    text = _refusal({"name": "Centurion", "loadout": ["Librarian"]})
    assert "offered to every Legion but Space Wolves, White Scars" in text and len(text) < 200
    assert fielded_unit({"name": "Centurion", "legion": "Dark Angels", "loadout": ["Librarian"]}).points > 60


def test_an_option_in_a_group_of_one_legion_needs_it() -> None:
    """The Hexagrammaton choices sit in a group the data hides but for the Dark Angels, the Surgical Augments in
    one shown to the Emperor's Children (Traitor): both were taken by any force; now the group's Legion is
    needed (the allegiance no scenario states changes nothing)."""
    assert "offered only to Dark Angels" in _refusal({"name": "Heavy Support Squad", "loadout": ["Deathwing"]})
    assert fielded_unit({"name": "Heavy Support Squad", "legion": "Dark Angels", "loadout": ["Deathwing"]})
    lance = {"name": "Heavy Support Squad", "loadout": ["Sonic Lance"]}
    assert "its group 'Surgical Augment (Unit Character)'" in _refusal({**lance, "legion": "Dark Angels"})
    assert fielded_unit({**lance, "legion": "Emperor's Children"}).points == 100 + 20
