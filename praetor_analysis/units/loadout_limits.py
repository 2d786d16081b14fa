"""The data's own limits on a loadout: what a model, or the whole unit, may take.

The option table (:func:`~praetor_analysis.catalog.load_wargear_options`) gives each option its group and
the most selections of the group per owner (``group_max``: per model for a model's option, per unit for
the unit's), of the group in the whole unit (``group_unit_max``), of the option per owner (``max``) and
in the whole unit (``unit_max``); a limit may grow with the unit (``"0+1/10:model"``: one more for every
ten models). An option that refines another (``parent``) takes its parent's place in the parent's group,
unless the model already has the parent. A limit counted on something the tables do not hold is not
enforced. :class:`Limits` answers for one datasheet being fielded (``units.datasheet``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from praetor_analysis.errors import ScenarioError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Limits", "cap", "option_chain", "refuse_if_hidden"]


class _Part(Protocol):
    count: int
    picks: tuple[int, ...]


class _Slot(Protocol):
    row: Mapping[str, Any]
    parts: list[Any]

    @property
    def count(self) -> int: ...


class _Build(Protocol):
    @property
    def sheet(self) -> Mapping[str, Any] | pd.Series: ...

    rows: tuple[dict[str, Any], ...]
    slots: list[Any]
    unit_picks: list[int]

    def counted(self, child: str) -> int | None: ...

    def picks_of(self, rows: set[int]) -> int: ...

    def hidden(self, i: int) -> bool: ...

    def hidden_why(self, i: int) -> str: ...


def cap(text: Any, build: _Build) -> int | None:
    """The number a limit of the table (``"N"`` or ``"N+K/E:CHILD"``) allows now; None when unbounded."""
    text = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text).strip()
    if not text:
        return None
    base, _, step = text.partition("+")
    if not step:
        return int(float(base))
    rate, _, child = step.partition(":")
    inc, _, every = rate.partition("/")
    n = build.counted(child)
    if n is None:
        return None
    return int(float(base)) + int(float(inc) * (n // max(float(every or 1), 1.0)))


def _most(value: Any) -> int | None:
    """An option's own ``max`` (a float; NaN when unbounded)."""
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return None
    return int(value)


def refuse_if_hidden(build: _Build, found: list[int], field: str, option: str) -> None:
    """Refuse an option every row of which the data hides for this force (offered only to some Legions or under
    a condition: the one-line refusal says which)."""
    if all(build.hidden(i) for i in found):
        why = build.hidden_why(found[0])
        raise ScenarioError(f"{field}: {option!r} is hidden in {build.sheet['name']}'s data ({why}); not taken")


def option_chain(build: _Build, row: int, field: str, option: str) -> list[int]:
    """The option rows ``row`` needs, outermost parent first and ``row`` last (``Power Weapon``, ``Power Axe``)."""
    chain = [row]
    while build.rows[chain[0]]["parent"] and len(chain) < 8:
        child = build.rows[chain[0]]
        parents = [
            i
            for i, r in enumerate(build.rows)
            if r["option"] == child["parent"] and r["model"] == child["model"] and i not in chain
        ]
        if not parents:
            break
        best = min(parents, key=lambda i: (build.hidden(i), bool(build.rows[i]["parent"]), i))
        if build.hidden(best):
            raise ScenarioError(
                f"{field}: {option!r} needs {child['parent']!r}, hidden in {build.sheet['name']}'s data "
                f"({build.hidden_why(best)}); not taken"
            )
        chain.insert(0, best)
    return chain


class Limits:
    """The limits of one datasheet being fielded."""

    def __init__(self, build: _Build):
        self.build = build

    def _in_group(self, picks: tuple[int, ...] | list[int], gid: str) -> int:
        return sum(1 for j in picks if gid and self.build.rows[j]["group_id"] == gid)

    def _unit_room(self, i: int) -> tuple[int | None, str]:
        """How many more selections of option row ``i`` the whole unit allows, and why (None: unbounded)."""
        b, r = self.build, self.build.rows[i]
        rooms: list[tuple[int, str]] = []
        most = cap(r["unit_max"], b)
        if most is not None:
            same = {j for j, o in enumerate(b.rows) if o["entry_id"] == r["entry_id"]}
            rooms.append((most - b.picks_of(same), f"at most {most} in the unit"))
        most = cap(r["group_unit_max"], b)
        if most is not None and r["group_id"]:
            group = {j for j, o in enumerate(b.rows) if o["group_id"] == r["group_id"]}
            rooms.append((most - b.picks_of(group), f"at most {most} of {r['group']!r} in the unit"))
        if not rooms:
            return None, ""
        return min(rooms)

    def _owner_block(self, picks: tuple[int, ...] | list[int], chain: list[int], per: str) -> str:
        """Why an owner holding ``picks`` cannot take ``chain`` (``""`` when it can)."""
        b = self.build
        for i in chain:
            if i in picks and i != chain[-1]:
                continue
            r = b.rows[i]
            most = cap(r["group_max"], b)
            have = self._in_group(picks, str(r["group_id"]))
            if most is not None and r["group_id"] and have + 1 > most:
                return f"has {have} of {r['group']!r} (at most {most} {per})"
            own = _most(r["max"])
            if own is not None and picks.count(i) + 1 > own:
                return f"has {r['option']!r} already (at most {own} {per})"
        return ""

    def room_of(self, r: Mapping[str, Any]) -> int:
        """Models that could take an option row: the whole unit, or its slot and the rest of its group."""
        slots = self.build.slots
        if r["model"] == "(unit)":
            return sum(s.count for s in slots)
        slot = next((s for s in slots if s.row["model"] == r["model"]), None)
        if slot is None:
            return 0
        gid = slot.row["group_id"]
        return slot.count + sum(o.count for o in slots if gid and o.row["group_id"] == gid and o is not slot)

    def models_with_room(self, slot: _Slot, part: _Part, chain: list[int]) -> int:
        """How many models of ``part`` may take the options of ``chain`` now."""
        if self._owner_block(part.picks, chain, "per model"):
            return 0
        n = part.count
        for i in chain:
            if i in part.picks:
                continue
            room, _ = self._unit_room(i)
            if room is not None:
                n = min(n, max(room, 0))
        return n

    def refuse_models(self, slot: _Slot, chain: list[int], count: int, field: str, option: str) -> None:
        """Raise the one-line refusal of giving ``count`` models of ``slot`` the options of ``chain``."""
        model = slot.row["model"]
        for i in chain:
            room, why = self._unit_room(i)
            if room is not None and room < count:
                raise ScenarioError(f"{field}: {option!r}: {why}, got {count} more")
        part = next((p for p in slot.parts if self._owner_block(p.picks, chain, "per model")), None)
        why = self._owner_block(part.picks, chain, "per model") if part is not None else "has no room"
        raise ScenarioError(
            f"{field}: {option!r}: not enough {model} models may take it (of {slot.count}, each {why}), got {count}"
        )

    def check_unit(self, chain: list[int], count: int, field: str, option: str) -> None:
        """Refuse ``count`` selections of a unit-wide option beyond the unit's limits."""
        b = self.build
        picks = list(b.unit_picks)
        for _ in range(count):
            why = self._owner_block(picks, chain, "per unit")
            if why:
                raise ScenarioError(f"{field}: {option!r}: {b.sheet['name']} {why}")
            picks.extend(i for i in chain if i not in picks or i == chain[-1])
        for i in chain:
            room, why = self._unit_room(i)
            if room is not None and room < count:
                raise ScenarioError(f"{field}: {option!r}: {why}, got {count} more")
