"""The ``set hidden`` modifiers of an option read as plain JSON (``bsdata.visibility``), on a hand-written data set.

The expected documents follow the format the module's docstring defines: each condition is ``[scope, type,
value, kind of the element it counts, its name]``, a group of one item stands alone, groups of the same ``op``
merge, a modifier group's conditions join each of its modifiers' with ``and``.
"""

from __future__ import annotations

import json
from pathlib import Path

from praetor_analysis.bsdata.files import BSData, children
from praetor_analysis.bsdata.visibility import visibility_rules

NS = "http://www.battlescribe.net/schema"

GST = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem xmlns="{NS}/gameSystemSchema" id="gs" name="Vis system" type="gameSystem">
  <categoryEntries><categoryEntry id="cat-char" name="  Character "/></categoryEntries>
</gameSystem>
"""

CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue xmlns="{NS}/catalogueSchema" id="c1" name="Vis cat" gameSystemId="gs" type="catalogue">
  <selectionEntries>
    <selectionEntry id="legion-da" name="I: Dark   Angels" type="upgrade"/>
    <selectionEntry id="blade" name="Warblade" type="upgrade" hidden="true">
      <modifiers>
        <modifier type="set" field="hidden" value="false">
          <conditions>
            <condition scope="force" type="equalTo" value="1" childId="legion-da"/>
            <condition scope="ancestor" type="instanceOf" value="0" childId="cat-char"/>
          </conditions>
        </modifier>
        <modifier type="set" field="hidden" value="true">
          <conditionGroups>
            <conditionGroup type="or">
              <conditions>
                <condition scope="roster" type="atLeast" value="2.5" childId="no-such-id"/>
                <condition scope="parent" type="lessThan" value="junk" childId=""/>
                <condition childId=""/>
              </conditions>
            </conditionGroup>
          </conditionGroups>
        </modifier>
        <modifier type="increment" field="hidden" value="true"/>
        <modifier type="set" field="name" value="true"/>
        <modifier type="set" field="hidden" value="TRUE"/>
      </modifiers>
      <modifierGroups>
        <modifierGroup>
          <conditions>
            <condition scope="self" type="atMost" value="3" childId="legion-da"/>
          </conditions>
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditionGroups>
                <conditionGroup type="and">
                  <conditions>
                    <condition scope="unit" type="notInstanceOf" value="1" childId="cat-char"/>
                  </conditions>
                </conditionGroup>
                <conditionGroup type="xor">
                  <conditions>
                    <condition scope="force" type="greaterThan" value="4" childId="blade"/>
                    <condition scope="force" type="equalTo" value="" childId="blade"/>
                  </conditions>
                </conditionGroup>
              </conditionGroups>
            </modifier>
          </modifiers>
        </modifierGroup>
      </modifierGroups>
    </selectionEntry>
    <selectionEntry id="plain" name="Plain" type="upgrade"/>
  </selectionEntries>
  <entryLinks>
    <entryLink id="link-blade" name="Warblade" targetId="blade" type="selectionEntry">
      <modifiers>
        <modifier type="set" field="hidden" value="false"/>
      </modifiers>
    </entryLink>
  </entryLinks>
</catalogue>
"""

FORCE_DA = ["force", "equalTo", 1.0, "selectionEntry", "I: Dark Angels"]
CHARACTER = ["ancestor", "instanceOf", 0.0, "categoryEntry", "Character"]
SELF_AT_MOST = ["self", "atMost", 3.0, "selectionEntry", "I: Dark Angels"]
NOT_CHARACTER = ["unit", "notInstanceOf", 1.0, "categoryEntry", "Character"]
GREATER = ["force", "greaterThan", 4.0, "selectionEntry", "Warblade"]
EMPTY_VALUE = ["force", "equalTo", 0.0, "selectionEntry", "Warblade"]


def _data(tmp_path: Path) -> BSData:
    (tmp_path / "vis.gst").write_text(GST, encoding="utf-8")
    (tmp_path / "vis.cat").write_text(CAT, encoding="utf-8")
    return BSData.load(tmp_path)


def test_an_entrys_hidden_modifiers_in_document_order_with_names_for_ids(tmp_path: Path) -> None:
    data = _data(tmp_path)
    cat = data.catalogues["c1"]
    blade = cat.index["blade"]
    rules = json.loads(visibility_rules(data, cat, [blade]))
    assert rules == [
        {"hidden": False, "when": {"op": "and", "items": [FORCE_DA, CHARACTER]}},
        {
            "hidden": True,
            "when": {
                "op": "or",
                "items": [
                    ["roster", "atLeast", 2.5, "", "no-such-id"],
                    ["parent", "lessThan", 0.0, "", ""],
                    ["", "", 0.0, "", ""],  # a condition without scope, type or value
                ],
            },
        },
        # value "TRUE" is not "true": the modifier shows the option; no conditions is always true
        {"hidden": False, "when": {"op": "and", "items": []}},
        # the group's condition, then the modifier's groups: the "and" group of one item stands alone, the group of
        # an unknown op ("xor") is read as "and", and "and" groups merge into one
        {"hidden": True, "when": {"op": "and", "items": [SELF_AT_MOST, NOT_CHARACTER, GREATER, EMPTY_VALUE]}},
    ]


def test_the_link_follows_the_entry_and_an_element_given_twice_counts_once(tmp_path: Path) -> None:
    data = _data(tmp_path)
    cat = data.catalogues["c1"]
    blade = cat.index["blade"]
    link = next(children(cat.root, "entryLinks", "entryLink"))
    alone = json.loads(visibility_rules(data, cat, [blade]))
    both = json.loads(visibility_rules(data, cat, [blade, link, blade]))
    assert both == [*alone, {"hidden": False, "when": {"op": "and", "items": []}}]


def test_the_json_is_compact_and_keeps_non_ascii_names(tmp_path: Path) -> None:
    data = _data(tmp_path)
    cat = data.catalogues["c1"]
    link = next(children(cat.root, "entryLinks", "entryLink"))
    assert visibility_rules(data, cat, [link]) == '[{"hidden":false,"when":{"op":"and","items":[]}}]'
    cat.index["legion-da"].set("name", "Légion")
    text = visibility_rules(data, cat, [cat.index["blade"]])
    assert '"Légion"' in text and text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)


def test_an_option_without_hidden_modifiers_gives_an_empty_string(tmp_path: Path) -> None:
    data = _data(tmp_path)
    cat = data.catalogues["c1"]
    assert visibility_rules(data, cat, [cat.index["plain"]]) == ""
    assert visibility_rules(data, cat, []) == ""
