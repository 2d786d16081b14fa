"""What the data reader finds on one entry of the hand-made mini data set (tests/fixtures/mini): its name, the
profiles described on it, and the children a unit always takes."""

from __future__ import annotations

from praetor_analysis.bsdata.files import PROFILE_TYPE_IDS, BSData
from tests.fixture_files import FIXTURES


def _data() -> BSData:
    return BSData.load(FIXTURES / "mini")


def test_files_are_named_as_they_name_themselves() -> None:
    data = _data()
    assert data.catalogues["test-cat"].name == "Mini catalogue"  # mini.cat's root name attribute
    assert data.game_system.name == "Mini system"


def test_an_entry_describes_its_own_profiles() -> None:
    data = _data()
    cat = data.catalogues["test-cat"]
    hit = data.resolve(cat, "e-model")
    assert hit is not None
    found = data.described(*hit)
    # the Trooper model carries one statline profile (" Trooper ", its name's spaces folded)
    assert [(d.name, d.kind) for d in found] == [("Trooper", PROFILE_TYPE_IDS["unit"])]


def test_mandatory_children_are_those_with_a_minimum_of_one() -> None:
    data = _data()
    cat = data.catalogues["test-cat"]
    hit = data.resolve(cat, "e-model")
    assert hit is not None
    # the Shield link has min 1 (taken), the Gun link none (an option)
    taken = [(c.id, e.get("id"), e.get("name")) for c, e in data.mandatory_children(*hit)]
    assert taken == [("test-cat", "e-shield", "Shield")]


def test_a_mandatory_groups_default_entry_written_in_place_is_taken() -> None:
    # a group of at least one selection whose default is an entry written inside it (not a link): that entry is
    # taken, found in the catalogue the unit is read from; a group with no minimum takes nothing
    from xml.etree.ElementTree import fromstring

    data = _data()
    cat = data.catalogues["test-cat"]
    group = (
        '<selectionEntryGroup id="g" name="Armour" defaultSelectionEntryId="e-plate">{min}<selectionEntries>'
        '<selectionEntry id="e-mail" name="Mail"/><selectionEntry id="e-plate" name="Plate"/>'
        "</selectionEntries></selectionEntryGroup>"
    )
    least = '<constraints><constraint type="min" field="selections" scope="parent" value="1"/></constraints>'
    unit = fromstring(f'<selectionEntry id="u"><selectionEntryGroups>{group.format(min=least)}</selectionEntryGroups>'
                      "</selectionEntry>")  # fmt: skip
    taken = list(data.mandatory_children(cat, unit))
    assert [(c is cat, e.get("name")) for c, e in taken] == [(True, "Plate")]
    free = fromstring(f'<selectionEntry id="u"><selectionEntryGroups>{group.format(min="")}</selectionEntryGroups>'
                      "</selectionEntry>")  # fmt: skip
    assert list(data.mandatory_children(cat, free)) == []
