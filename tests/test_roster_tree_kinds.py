"""How the roster reader tells a statline from a weapon and finds units and loose selections in the XML tree.

Each case is a small hand-written roster fragment in BattleScribe's format: a profile's kind is its ``typeId``
when the data gives one (the ids of the 2nd edition's game system, ``PROFILE_TYPE_IDS``), its ``typeName`` only
when it has no ``typeId``.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element, fromstring

from praetor_analysis.bsdata.files import PROFILE_TYPE_IDS
from praetor_analysis.bsdata.roster_tree import is_statline, is_weapon, loose_selections, unit_nodes


def _profile(type_id: str | None, type_name: str | None) -> Element:
    attrs = {"name": "p"}
    if type_id is not None:
        attrs["typeId"] = type_id
    if type_name is not None:
        attrs["typeName"] = type_name
    return Element("profile", attrs)


def test_a_profile_is_read_by_its_type_id_first() -> None:
    # the id decides even when the printed type name says otherwise
    assert is_statline(_profile(PROFILE_TYPE_IDS["unit"], "Something else"))
    assert is_weapon(_profile(PROFILE_TYPE_IDS["weapon"], "Unit"))
    assert not is_weapon(_profile(PROFILE_TYPE_IDS["unit"], "Weapon"))


def test_a_type_name_is_read_only_without_a_type_id() -> None:
    assert is_statline(_profile(None, " Unit "))
    assert is_weapon(_profile(None, "Psychic Weapon"))
    # an id the reader does not know is not rescued by a name it knows
    assert not is_statline(_profile("0000-unknown", "Unit"))
    assert not is_weapon(_profile("0000-unknown", "Weapon"))
    assert not is_statline(_profile(None, "Wargear"))


_ROSTER = """<roster xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <forces>
    <force id="f1">
      <selections>
        <selection id="s1" name="Sergeant Upgrade" type="upgrade">
          <profiles><profile id="p1" name="Lone Hero" typeName="Unit"/></profiles>
        </selection>
        <selection id="s2" name="Warlord Trait" type="upgrade"/>
      </selections>
    </force>
  </forces>
</roster>"""


def test_a_selection_with_its_own_statline_is_a_unit_and_a_nameless_force_is_named_empty() -> None:
    root = fromstring(_ROSTER)
    units = unit_nodes(root)
    # an upgrade that holds no unit or model selection but carries a statline profile is fielded as a unit
    assert [(sel.get("name"), force, parent) for sel, force, parent in units] == [("Sergeant Upgrade", "", "")]
    loose = loose_selections(root)
    assert [(sel.get("name"), force) for sel, force in loose] == [("Warlord Trait", "")]
