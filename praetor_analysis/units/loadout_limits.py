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
from praetor_analysis.units.catalog_rows import OptionRow

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Limits", "cap", "defaults_due", "option_chain", "refuse_if_hidden", "tied_groups"]


class _Part(Protocol):
    count: int
    picks: tuple[int, ...]
    wargear: tuple[str, ...]


class _Slot(Protocol):
    row: Mapping[str, Any]
    parts: list[Any]

    @property
    def count(self) -> int: ...


class _Build(Protocol):
    @property
    def sheet(self) -> Mapping[str, Any] | pd.Series: ...

    rows: tuple[OptionRow, ...]
    slots: list[Any]
    unit_picks: list[int]

    def counted(self, child: str) -> int | None: ...

    def picks_of(self, rows: set[int]) -> int: ...

    def hidden(self, i: int) -> bool: ...

    def hidden_why(self, i: int) -> str: ...


def cap(text: Any, build: _Build, held: tuple[str, ...] | None = None) -> int | None:
    """The number a limit of the table (``"N"`` or ``"N+K/E:CHILD"``, CHILD one id or several joined by ``|``,
    their selections counted together) allows now; None when unbounded. ``held``: the wargear of the one
    model a per-model limit is for, where a CHILD that is a piece of wargear is counted (its default wargear
    too: a Contemptor's in-built combi-bolter comes with each Gravis Power Fist it holds)."""
    text = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text).strip()
    if not text:
        return None
    base, _, step = text.partition("+")
    if not step:
        return int(float(base))
    rate, _, kids = step.partition(":")
    inc, _, every = rate.partition("/")
    counts = [_held_count(build, child, held) if held is not None else None for child in kids.split("|")]
    counts = [c if c is not None else build.counted(child) for c, child in zip(counts, kids.split("|"), strict=True)]
    if all(c is None for c in counts):
        return None
    n = sum(c or 0 for c in counts)
    return int(float(base)) + int(float(inc) * (n // max(float(every or 1), 1.0)))


def _held_count(build: _Build, child: str, held: tuple[str, ...]) -> int | None:
    """How many of one model's wargear ``held`` are the entry ``child`` (by the option rows' names of it);
    None when no option row names it (a model, a group: counted on the unit)."""
    names = {str(r.option).casefold() for r in build.rows if child in (r.entry_id, r.option_id)}
    if not names:
        return None
    return sum(1 for n in held if n.casefold() in names)


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
    while build.rows[chain[0]].parent and len(chain) < 8:
        child = build.rows[chain[0]]
        parents = [
            i
            for i, r in enumerate(build.rows)
            if r.option == child.parent and r.model == child.model and i not in chain
        ]
        if not parents:
            break
        best = min(parents, key=lambda i: (build.hidden(i), bool(build.rows[i].parent), i))
        if build.hidden(best):
            raise ScenarioError(
                f"{field}: {option!r} needs {child.parent!r}, hidden in {build.sheet['name']}'s data "
                f"({build.hidden_why(best)}); not taken"
            )
        chain.insert(0, best)
    return chain


class Limits:
    """The limits of one datasheet being fielded."""

    def __init__(self, build: _Build):
        self.build = build

    def _in_group(self, picks: tuple[int, ...] | list[int], gid: str) -> int:
        return sum(1 for j in picks if gid and self.build.rows[j].group_id == gid)

    def _unit_room(self, i: int) -> tuple[int | None, str]:
        """How many more selections of option row ``i`` the whole unit allows, and why (None: unbounded)."""
        b, r = self.build, self.build.rows[i]
        rooms: list[tuple[int, str]] = []
        most = cap(r.unit_max, b)
        if most is not None:
            same = {j for j, o in enumerate(b.rows) if o.entry_id == r.entry_id}
            rooms.append((most - b.picks_of(same), f"at most {most} in the unit"))
        most = cap(r.group_unit_max, b)
        if most is not None and r.group_id:
            group = {j for j, o in enumerate(b.rows) if o.group_id == r.group_id}
            rooms.append((most - b.picks_of(group), f"at most {most} of {r.group!r} in the unit"))
        if not rooms:
            return None, ""
        return min(rooms)

    def _owner_block(
        self, picks: tuple[int, ...] | list[int], chain: list[int], per: str, held: tuple[str, ...] | None = None
    ) -> str:
        """Why an owner holding ``picks`` (a model: with the wargear ``held``) cannot take ``chain`` (``""`` when
        it can)."""
        b = self.build
        for i in chain:
            if i in picks and i != chain[-1]:
                continue
            r = b.rows[i]
            most = cap(r.group_max, b, held)
            have = self._in_group(picks, str(r.group_id))
            if most is not None and r.group_id and have + 1 > most:
                return f"has {have} of {r.group!r} (at most {most} {per})"
            own = _most(r.max)
            if own is not None and picks.count(i) + 1 > own:
                return f"has {r.option!r} already (at most {own} {per})"
        return ""

    def room_of(self, model: str) -> int:
        """Models that could take an option offered to ``model`` (an option row's): the whole unit for
        ``(unit)``, else its slot and the rest of its group."""
        slots = self.build.slots
        if model == "(unit)":
            return sum(s.count for s in slots)
        slot = next((s for s in slots if s.row["model"] == model), None)
        if slot is None:
            return 0
        gid = slot.row["group_id"]
        return slot.count + sum(o.count for o in slots if gid and o.row["group_id"] == gid and o is not slot)

    def models_with_room(self, slot: _Slot, part: _Part, chain: list[int]) -> int:
        """How many models of ``part`` may take the options of ``chain`` now."""
        if self._owner_block(part.picks, chain, "per model", tuple(part.wargear)):
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
        part = next((p for p in slot.parts if self._owner_block(p.picks, chain, "per model", tuple(p.wargear))), None)
        why = (
            self._owner_block(part.picks, chain, "per model", tuple(part.wargear))
            if part is not None
            else "has no room"
        )
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


def tied_groups(build: _Build) -> dict[str, tuple[str, str, str]]:
    """The groups the data ties to their default: group id -> (the default, the model, the group's limit).

    A group is tied when its per-model limit grows with other wargear (``"0+1/1:FIST|CHAINFIST|MAUL"``) and,
    on the model as the data fields it, that limit counted on the model's wargear equals the defaults it holds:
    a Contemptor's in-built combi-bolters, one per Gravis Power Fist, Chainfist or Graviton Maul (the group of
    what may replace one allows as many). Its defaults then follow the limit (:func:`defaults_due`)."""
    out: dict[str, tuple[str, str, str]] = {}
    for r in build.rows:
        gid, default, limit = str(r.group_id), str(r.replaces), str(r.group_max or "")
        slot = next((s for s in build.slots if s.row["model"] == r.model), None)
        if not gid or gid in out or "+" not in limit or not default or slot is None:
            continue
        defaults = tuple(n.strip() for n in str(slot.row["default_wargear"]).split(";") if n.strip())
        held = sum(1 for n in defaults if n.casefold() == default.casefold())
        if held and cap(limit, build, defaults) == held:
            out[gid] = (default, str(r.model), limit)
    return out


def defaults_due(
    build: _Build, ties: Mapping[str, tuple[str, str, str]], wargear: tuple[str, ...], picks: tuple[int, ...]
) -> list[tuple[str, str, int]]:
    """(default, model, how many it should hold) of each tied group a model with ``wargear`` and ``picks`` is off
    balance with: its limit now, less the group's options it took (a fist replaced: none; a fist taken: one)."""
    out = []
    for gid, (default, model, limit) in ties.items():
        held = sum(1 for n in wargear if n.casefold() == default.casefold())
        taken = sum(1 for i in picks if build.rows[i].group_id == gid)
        most = cap(limit, build, wargear)
        if most is not None and held + taken != most and (held or most - taken > 0):
            out.append((default, model, max(most - taken, 0)))
    return out
