"""Price a roster's selections from the datasheets: the check that the datasheets hold the real costs.

Each unit selection of a roster names its datasheet by the last id of its ``entryId`` (the chain of link
ids ending in the entry's own id). Each selection inside it is priced from the datasheet tables: a model
by its model slot (``model_id``), an option by its ``option_id``, the rightmost id of the chain that the
datasheet knows; a selection the datasheet does not list (a default piece of wargear) costs nothing
beyond what its model slot already includes. The unit's price is then the datasheet's own cost, its
unit-wide default wargear, and the priced selections times their ``number``.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast
from xml.etree.ElementTree import Element

import pandas as pd

from praetor_analysis.bsdata.files import children, parse_xml_bytes
from praetor_analysis.bsdata.game_system import require_edition
from praetor_analysis.bsdata.roster import read_roster_bytes, selection_number, selection_points, unzip_roster
from praetor_analysis.bsdata.roster_tree import unit_nodes

__all__ = ["ROSTER_PRICE_COLUMNS", "is_counted", "price_roster", "selection_option"]

ROSTER_PRICE_COLUMNS = ["unit", "datasheet", "faction", "number", "roster_points", "datasheet_points", "unmatched"]


def _ids(sel: Element) -> list[str]:
    return (sel.get("entryId") or "").split("::")


def _walk(sel: Element, found: list[Element]) -> None:
    """Every selection under ``sel`` that is not a nested unit (those are priced on their own)."""
    for child in children(sel, "selections", "selection"):
        if child.get("type") == "unit":
            continue
        found.append(child)
        _walk(child, found)


def is_counted(sel: Element, child_id: str) -> bool:
    """Whether a model selection is counted by a cost repeat on ``child_id`` (``"model"``, a group or an
    entry id of the data)."""
    if sel.get("type") != "model":
        return False
    return child_id == "model" or child_id in _ids(sel) + (sel.get("entryGroupId") or "").split("::")


def selection_option(sel: Element, options: pd.DataFrame) -> pd.Series | None:
    """The row of ``options`` (one datasheet's) a roster selection took: its rightmost id the table knows."""
    by_id = options.drop_duplicates("option_id").set_index("option_id")
    hit = next((i for i in reversed(_ids(sel)[1:]) if i in by_id.index), None)
    return None if hit is None else cast(pd.Series, by_id.loc[hit])  # one row: option ids are made unique above


def _count(selections: list[Element], child_id: str) -> int:
    """Models among ``selections`` counted by a repeat on ``child_id``."""
    return sum(selection_number(s) for s in selections if is_counted(s, child_id))


def _units(elem: Element) -> list[Element]:
    """The unit selections of a roster, wherever they sit (:func:`~praetor_analysis.bsdata.roster_tree.unit_nodes`)."""
    return [sel for sel, _, _ in unit_nodes(elem)]


def price_roster(
    path: str | Path, datasheets: pd.DataFrame, models: pd.DataFrame, options: pd.DataFrame
) -> pd.DataFrame:
    """Price every unit of a roster file from the datasheet tables, beside the roster's own costs.

    Args:
        path: A ``.ros``, ``.rosz`` or ``.test`` roster.
        datasheets, models, options: :func:`~praetor_analysis.catalog.load_datasheets`,
            ``load_datasheet_models`` and ``load_wargear_options``.

    Returns:
        One row per unit selection (see :data:`ROSTER_PRICE_COLUMNS`); ``unmatched`` names costed
        selections the datasheet does not list. Units whose entry is not a datasheet are left out.
    """
    path = Path(path)
    data = path.read_bytes()
    roster = read_roster_bytes(data, path.name)  # validates the file (bounds, XML safety, root, game system)
    require_edition(roster.edition, "hh2", path.name, "the 2nd edition's datasheets price 2nd-edition rosters only")
    root = parse_xml_bytes(unzip_roster(data, path.name), path.name)
    by_entry = datasheets.drop_duplicates("entry_id").set_index("entry_id")
    rows = []
    for unit in _units(root):
        entry = _ids(unit)[-1]
        if entry not in by_entry.index:
            continue
        sheet = by_entry.loc[entry].to_dict()
        mine_models = models[models["datasheet"] == sheet["name"]]
        mine_models = mine_models[mine_models["faction"] == sheet["faction"]]
        slot_points = dict(zip(mine_models["model_id"], mine_models["points"], strict=True))
        slot_min = float((mine_models["min"] * mine_models["points"]).sum())
        mine_opts = options[(options["datasheet"] == sheet["name"]) & (options["faction"] == sheet["faction"])]
        opt_points = dict(zip(mine_opts["option_id"], mine_opts["points"], strict=True))
        opt_inc = dict(
            zip(
                mine_opts["option_id"],
                zip(mine_opts["points_per_model"], mine_opts["per_model_of"], strict=True),
                strict=True,
            )
        )
        unit_wide = float(sheet["base_points"]) - float(sheet["unit_points"]) - slot_min
        total = float(sheet["unit_points"]) + unit_wide
        roster_total = selection_points(unit)
        unmatched = []
        found: list[Element] = []
        _walk(unit, found)
        for sel in found:
            roster_total += selection_points(sel)
            n = selection_number(sel)
            ids = _ids(sel)
            table = slot_points
            hit = next((i for i in reversed(ids[1:]) if i in table), None)
            if hit is None:
                table = opt_points
                hit = next((i for i in reversed(ids[1:]) if i in table), None)
            if hit is not None:
                total += float(table[hit]) * n
                inc, of = opt_inc.get(hit, (0.0, "")) if table is opt_points else (0.0, "")
                if of:
                    total += float(inc) * n * _count(found, of)
            elif selection_points(sel):
                unmatched.append((sel.get("name") or "").strip())
        rows.append(
            {
                "unit": (unit.get("name") or "").strip(),
                "datasheet": sheet["name"],
                "faction": sheet["faction"],
                "number": selection_number(unit),
                "roster_points": roster_total,
                "datasheet_points": total,
                "unmatched": "; ".join(unmatched),
            }
        )
    return pd.DataFrame(rows, columns=ROSTER_PRICE_COLUMNS)
