"""The variants of a datasheet that a sweep fields: its default loadout, then each single option it offers
(a weapon option taken alone), as typed records that write the ``praetor calc`` datasheet block fielding them
(the 2nd edition) or field it themselves (the 3rd edition)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from praetor_analysis.units import FieldedUnit, hh3_datasheet_row, hh3_fielded_datasheet, hh3_options, shown_options

__all__ = ["Variant", "hh3_variants", "variants"]


@dataclass(frozen=True)
class Variant:
    """One variant of a datasheet in a sweep: its ``label``, the datasheet and the one option it takes (none:
    the default loadout; ``model`` None: an option of the whole unit)."""

    label: str
    datasheet: str
    faction: str
    legion: str = ""
    option: str | None = None
    model: str | None = None

    def to_block(self) -> dict[str, Any]:
        """The ``praetor calc`` datasheet block that fields it."""
        block: dict[str, Any] = {"name": self.datasheet, "faction": self.faction}
        if self.legion:
            block["legion"] = self.legion
        if self.option is not None:
            block["loadout"] = [{"option": self.option, **({"model": self.model} if self.model is not None else {})}]
        return block


def variants(datasheet: str, faction: str, legion: str = "") -> list[Variant]:
    """The default loadout, then each single visible weapon option (for the force's ``legion``: the options
    every Legion may take and its own)."""
    default = Variant("default", datasheet, faction, legion)
    out = [default]
    opts = shown_options(default.to_block())
    opts = opts[opts["weapons"].astype(str) != ""]
    for _, o in opts.drop_duplicates(["option", "model"]).iterrows():
        option, model = str(o["option"]), str(o["model"])
        if model == "(unit)":
            out.append(Variant(option, datasheet, faction, legion, option))
        else:
            out.append(Variant(f"{option} ({model})", datasheet, faction, legion, option, model))
    return out


def hh3_variants(datasheet: str, faction: str) -> list[tuple[str, Callable[[], FieldedUnit]]]:
    """``(variant, how to field it)`` of a 3rd-edition datasheet: as fielded, then each option with a weapon that
    the datasheet offers (not hidden, its link resolved, not part of the default loadout) taken alone."""
    block = {"name": datasheet, "faction": faction}
    out: list[tuple[str, Callable[[], FieldedUnit]]] = [("default", partial(hh3_fielded_datasheet, block))]
    seen: set[str] = set()
    for o in hh3_options(hh3_datasheet_row(block)):
        if o.in_default_loadout or o.hidden or not o.resolved or not o.weapons:
            continue
        label = o.label if o.label not in seen else f"{o.label} [{o.group}]"  # a second group offering it
        if label in seen:
            continue
        seen.add(label)
        out.append((label, partial(hh3_fielded_datasheet, block, option=o)))
    return out
