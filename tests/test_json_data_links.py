"""The 3rd edition's JSON data (``bsdata.json_data``) on a hand-written folder: the links that resolve nowhere are
listed with their file, kind, own id, name and target, and a field holding an object where text belongs reads
as no text."""

from __future__ import annotations

import json
from pathlib import Path

from praetor_analysis.bsdata.json_data import JsonData

SYSTEM_ID = "sys-9fe4-1dc3-b7c2-73cf"  # the 3rd edition's game system id (bsdata.game_system)


def _folder(tmp_path: Path) -> Path:
    system = {"gameSystem": {"id": SYSTEM_ID, "name": "Horus Heresy 3rd Edition", "sharedSelectionEntries": [
        {"id": "shared-1", "name": "Bolter", "type": "upgrade"}]}}  # fmt: skip
    cat = {
        "catalogue": {
            "id": "cat-1",
            "name": {"not": "text"},
            "gameSystemId": SYSTEM_ID,
            "catalogueLinks": [{"id": "cl-1", "name": "Gone", "targetId": "cat-gone"}],
            "entryLinks": [
                {"id": "el-ok", "name": "Bolter", "targetId": "shared-1", "type": "selectionEntry"},
                {"id": "el-1", "name": "  Lost   link ", "targetId": "nowhere", "type": "selectionEntry"},
                {"id": 7, "name": ["x"], "targetId": "nowhere-2"},
            ],
        }
    }
    (tmp_path / "a-system.json").write_text(json.dumps(system), encoding="utf-8")
    (tmp_path / "b-cat.json").write_text(json.dumps(cat), encoding="utf-8")
    return tmp_path


def test_unresolved_links_are_named_and_counted(tmp_path: Path) -> None:
    data = JsonData.load(_folder(tmp_path))
    cat = data.catalogues["cat-1"]
    assert cat.name == ""  # an object where the name belongs: no name
    links = data.check_links()
    assert data.links_checked == 4
    assert [(u.catalogue, u.kind, u.link_id, u.name, u.target_id) for u in links] == [
        ("b-cat", "catalogueLink", "cl-1", "Gone", "cat-gone"),
        ("b-cat", "entryLink:selectionEntry", "el-1", "Lost link", "nowhere"),
        ("b-cat", "entryLink", "7", "", "nowhere-2"),
    ]
