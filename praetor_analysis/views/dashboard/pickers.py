"""The shooting tab's pickers, shared by both editions' dashboards (a mixin): the weapon list filtered by the
search text, and the focus target and weapon kept among the chosen ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as W
import pandas as pd

__all__ = ["Pickers"]


class Pickers:
    """What the pickers read of their dashboard: its weapon catalog and labels, the search box, the weapon and
    target pickers, the focus pickers and the ``_quiet`` flag (no refresh while options are set)."""

    weapons: pd.DataFrame
    _labels: Mapping[Any, str]
    _quiet: bool
    search: W.Text
    weapon_select: W.SelectMultiple
    target_select: W.SelectMultiple
    focus_target: W.Dropdown
    focus_weapon: W.Dropdown

    def _update_weapon_options(self, selected: Sequence[Any]) -> None:
        """Options: the chosen weapons first, then up to 200 matches of the search text."""
        text = self.search.value.strip().lower()
        names = self.weapons["name"].str.lower()
        matches = self.weapons.index[names.str.contains(text, regex=False)] if text else self.weapons.index
        keep = list(dict.fromkeys([*selected, *list(matches[:200])]))
        self._quiet = True
        try:
            self.weapon_select.options = [(self._labels[i], i) for i in keep]
            self.weapon_select.value = tuple(selected)
        finally:
            self._quiet = False

    def _update_focus_options(self) -> None:
        """The focus pickers offer the chosen targets and weapons, keeping their value while it is offered."""
        targets = list(self.target_select.value)
        weapons = [(self._labels[i], i) for i in self.weapon_select.value]
        for dd, opts in ((self.focus_target, targets), (self.focus_weapon, weapons)):
            values = [o[1] if isinstance(o, tuple) else o for o in opts]
            current = dd.value if dd.value in values else (values[0] if values else None)
            self._quiet = True
            try:
                dd.options = opts
                dd.value = current
            finally:
                self._quiet = False
