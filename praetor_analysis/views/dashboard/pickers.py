"""The shooting tab's pickers, shared by both editions' dashboards: the weapon list filtered by the search text,
and the focus target and weapon kept among the chosen ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import ipywidgets as W
import pandas as pd

__all__ = ["PickerHost", "update_focus_options", "update_weapon_options", "weapons_named"]


class PickerHost(Protocol):
    """What the pickers read of their dashboard: its weapon catalog and labels, the search box, the weapon and
    target pickers, the focus pickers and the ``_quiet`` flag (no refresh while options are set)."""

    @property
    def weapons(self) -> pd.DataFrame: ...

    @property
    def _labels(self) -> Mapping[Any, str]: ...

    _quiet: bool

    @property
    def search(self) -> W.Text: ...

    @property
    def weapon_select(self) -> W.SelectMultiple: ...

    @property
    def target_select(self) -> W.SelectMultiple: ...

    @property
    def focus_target(self) -> W.Dropdown: ...

    @property
    def focus_weapon(self) -> W.Dropdown: ...


def weapons_named(weapons: pd.DataFrame, names: Sequence[str]) -> list[Any]:
    """The rows of the weapons named (the first row of each name, case aside; a name not in the catalog left out)."""
    lower = weapons["name"].str.lower()
    return [weapons.index[lower == n.lower()][0] for n in names if (lower == n.lower()).any()]


def update_weapon_options(host: PickerHost, selected: Sequence[Any]) -> None:
    """Options: the chosen weapons first, then up to 200 matches of the search text."""
    text = host.search.value.strip().lower()
    names = host.weapons["name"].str.lower()
    matches = host.weapons.index[names.str.contains(text, regex=False)] if text else host.weapons.index
    keep = list(dict.fromkeys([*selected, *list(matches[:200])]))
    host._quiet = True
    try:
        host.weapon_select.options = [(host._labels[i], i) for i in keep]
        host.weapon_select.value = tuple(selected)
    finally:
        host._quiet = False


def update_focus_options(host: PickerHost) -> None:
    """The focus pickers offer the chosen targets and weapons, keeping their value while it is offered."""
    targets = list(host.target_select.value)
    weapons = [(host._labels[i], i) for i in host.weapon_select.value]
    for dd, opts in ((host.focus_target, targets), (host.focus_weapon, weapons)):
        values = [o[1] if isinstance(o, tuple) else o for o in opts]
        current = dd.value if dd.value in values else (values[0] if values else None)
        host._quiet = True
        try:
            dd.options = opts
            dd.value = current
        finally:
            host._quiet = False
