"""A datasheet at a size and loadout, checked and priced as the data says: a :class:`FieldedUnit`.

``{"name": "Tactical Squad", "size": 12, "loadout": ["Power Fist", {"option": "Heavy Bolter", "count": 1}]}``
(or the bare name) starts at the datasheet's minimum size with each model's default wargear (the tables
of :func:`~praetor_analysis.catalog.load_datasheets`); ``size`` adds models to the slot that grows. Each
``loadout`` item gives ``count`` models (default 1) of the slot offering the option that option, in
place of the wargear it replaces. Wargear taken for the whole unit goes to the models its per-model cost
counts, else to the models that are not Characters (a squad's heavy weapons, not its Sergeant's).

Every item is checked against the data's own constraints (:mod:`praetor_analysis.units.loadout_limits`)
and refused on one line naming ``loadout[i]`` and the option: an option the datasheet does not have, or
one the data hides for this force (``legion``, by default the datasheet's own Legion:
:mod:`praetor_analysis.units.option_visibility`), the message saying what would show it; a count that
is not a whole number of at least 1, or more models than the slot holds; per model, more than its group
allows (one choice of an exclusive group such as a Sergeant's melee weapon) or a second copy of an option
taken once; in the unit, more than an option or group allows there ("1 in 10 may exchange", "One Legionary may take").

Prices: the datasheet's base cost and per-model cost for the size, then each option's cost per selection;
a refinement (``Power Axe`` of ``Power Weapon``) brings its parent's cost too unless the model already has
the parent; a per-model increment (a Heavy Support Squad's lascannons, 10 + 10 for each Legionary) is
multiplied by the models it counts, at this size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from praetor_analysis.catalog import (
    load_datasheet_models,
    load_datasheets,
    load_units,
    load_wargear_options,
    load_weapons,
)
from praetor_analysis.errors import ScenarioError, counted_noun
from praetor_analysis.units.catalog_rows import OptionRow, UnitRow, WeaponRow
from praetor_analysis.units.limits import check_loadout_length
from praetor_analysis.units.loadout_limits import Limits, defaults_due, option_chain, refuse_if_hidden, tied_groups
from praetor_analysis.units.modifiers import split_modifiers
from praetor_analysis.units.names import UNIT_STAT_KEYS, fold, is_name_block, refuse_hh3_name, split_pick, suggestions
from praetor_analysis.units.option_visibility import Ancestry, legion_names, legion_note, legion_of, visibility
from praetor_analysis.units.records import FieldedUnit, Loadout, ModelGroup, Statline
from praetor_analysis.units.wargear_effects import with_wargear

if TYPE_CHECKING:  # pandas is loaded by the first datasheet look-up, not by this module's import
    import pandas as pd

__all__ = [
    "DATASHEET_FIELDS",
    "Loadout",
    "ModelGroup",
    "build_loadout",
    "datasheet_row",
    "is_datasheet",
    "shown_options",
    "weapon_rows",
]

DATASHEET_FIELDS = frozenset(
    {"name", "faction", "legion", "size", "loadout", "charging", "disordered", "two_weapons", "modifiers"}
)
"""Fields of a datasheet block (``models`` is read as ``size`` when ``size`` is absent)."""
UNIT = "(unit)"
"""The ``model`` of an option taken for the whole unit."""


@cache
def _sheets() -> tuple[pd.DataFrame, dict[str, list[int]]]:
    frame = load_datasheets()
    index: dict[str, list[int]] = {}
    for i, name in enumerate(frame["name"]):
        index.setdefault(fold(name), []).append(i)
    return frame, index


@cache
def _tables() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, WeaponRow], dict[str, UnitRow]]:
    wmap = {f"{r.source}:{r.profile_id}": r for r in WeaponRow.from_frame(load_weapons())}
    umap = {f"{r.source}:{r.profile_id}": r for r in UnitRow.from_frame(load_units())}
    return load_datasheet_models(), load_wargear_options(), wmap, umap


@cache
def _weapon_names() -> dict[str, str]:
    """The name of each weapon profile, by its ``source:profile_id`` key."""
    return {k: r.name for k, r in _tables()[2].items()}


@cache
def _slot_rows(name: str, faction: str) -> tuple[dict[str, Any], ...]:
    """A datasheet's model slot rows (as dicts), in the table's order."""
    models = _tables()[0]
    rows = models[(models["datasheet"] == name) & (models["faction"] == faction)].to_dict("records")
    return tuple(cast(dict[str, Any], r) for r in rows)


@cache
def _options_of(name: str, faction: str) -> tuple[tuple[OptionRow, ...], dict[str, list[int]]]:
    """A datasheet's option rows and their positions by folded option name."""
    opts = _tables()[1]
    rows = tuple(OptionRow.from_frame(opts[(opts["datasheet"] == name) & (opts["faction"] == faction)]))
    index: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        index.setdefault(fold(r.option), []).append(i)
    return rows, index


def weapon_rows(ids: str) -> tuple[WeaponRow, ...]:
    """The weapon profiles of ``;``-joined ``source:profile_id`` keys (the ``weapon_ids`` of the datasheet
    tables)."""
    wmap = _tables()[2]
    return tuple(wmap[k] for k in str(ids).split(";") if k in wmap)


def is_datasheet(value: Any) -> bool:
    """True when ``value`` is a name block (no characteristics) naming a datasheet."""
    if not is_name_block(value, UNIT_STAT_KEYS):
        return False
    name = split_pick(value)[0] if isinstance(value, str) else value.get("name")
    return isinstance(name, str) and fold(name) in _sheets()[1]


def datasheet_row(value: Any, field: str = "attacker") -> pd.Series:
    """The datasheet a name (or ``{"name", "faction"}``) names.

    Raises:
        ScenarioError: Unknown name (with suggestions), or one shared by several factions' datasheets.
    """
    if isinstance(value, str):
        name, picks = split_pick(value)
        value = {"name": name, **{k: v for k, v in picks.items() if k == "faction"}}
    name = value.get("name")
    if not isinstance(name, str):
        raise ScenarioError(f"{field}.name: expected a datasheet name, got {name!r}")
    frame, index = _sheets()
    key = (fold(name), fold(str(value["faction"])) if "faction" in value else None)
    held = _ROWS.get(key)
    if held is None or held[0] is not frame:
        held = _ROWS[key] = (frame, _datasheet_row(frame, index, name, value, field))
    return held[1].copy()  # a copy: the caller may change its own


_ROWS: dict[tuple[str, str | None], tuple[pd.DataFrame, pd.Series]] = {}
"""The datasheet rows found, with the catalog frame they come from, by the folded name and faction (refusals
are not held)."""


def _datasheet_row(
    frame: pd.DataFrame, index: dict[str, list[int]], name: str, value: Mapping[str, Any], field: str
) -> pd.Series:
    rows = index.get(fold(name))
    if not rows:
        refuse_hh3_name(name, field)
        raise ScenarioError(f"{field}: no datasheet named {name!r}{suggestions(name, list(frame['name']))}")
    sub = frame.iloc[rows]
    if isinstance(value, Mapping) and "faction" in value:
        kept = sub[sub["faction"].map(fold) == fold(str(value["faction"]))]
        if kept.empty:
            have = ", ".join(repr(f) for f in sub["faction"])
            raise ScenarioError(f"{field}.faction: {name!r} has no faction {value['faction']!r} (choices: {have})")
        sub = kept
    if len(sub) > 1:
        have = ", ".join(repr(f) for f in sub["faction"])
        raise ScenarioError(
            f"{field}: {name!r} names {len(sub)} datasheets (factions {have}); "
            f'pick one with {{"name": {name!r}, "faction": ...}} or the name {name + "@FACTION"!r}'
        )
    return sub.iloc[0]


def shown_options(value: Any, field: str = "datasheet") -> pd.DataFrame:
    """The option rows of a datasheet (a name or ``{"name", "faction", "legion"}``) that the data shows for the
    force fielding it (``legion``, by default the datasheet's own), in the table's order: a row hidden for it,
    or one whose parent option is (a Blood Angels blade under a hidden 'Perdition Weapon'), is left out, as a
    loadout taking it is refused.

    Raises:
        ScenarioError: An unknown datasheet or Legion.
    """
    sheet = datasheet_row(value, field)
    build = _Build(sheet, int(sheet["min_models"]), field, legion_of(value, str(sheet["faction"]), field))
    opts = _tables()[1]
    mine = opts[(opts["datasheet"] == sheet["name"]) & (opts["faction"] == sheet["faction"])]
    import pandas as pd

    shown = pd.Series([_offered(build, i) for i in range(len(build.rows))], index=mine.index, dtype=bool)
    return mine[shown]  # a boolean Series: a datasheet without options keeps its columns (an empty list would not)


def _offered(build: _Build, i: int) -> bool:
    """Whether option row ``i`` is shown and so is every parent it needs (as a loadout taking it reads them)."""
    if build.hidden(i):
        return False
    try:
        option_chain(build, i, build.field, str(build.rows[i].option))
    except ScenarioError:
        return False
    return True


@dataclass
class _Part:
    """Models of a slot with the same wargear: how many, their weapon keys, item names and options taken."""

    count: int
    weapons: tuple[str, ...]
    wargear: tuple[str, ...]
    picks: tuple[int, ...] = ()


@dataclass(eq=False)
class _Slot:
    row: Mapping[str, Any]
    parts: list[_Part] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(p.count for p in self.parts)

    def ids(self) -> tuple[str, ...]:
        return (str(self.row["group_id"]), str(self.row["model_id"]), str(self.row["entry_id"]))


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip() for n in str(text).split(";") if n.strip()))


class _Build:
    """A datasheet being fielded: its slots, option rows and what has been taken."""

    def __init__(self, sheet: pd.Series, size: int, field: str, legion: str = ""):
        _, _, wmap, umap = _tables()
        self.legion = legion
        self._shown: dict[int, tuple[bool, str]] = {}
        self.sheet, self.field, self.wmap, self.umap = sheet, field, wmap, umap
        self.names = _weapon_names()
        self.rows, self.index = _options_of(str(sheet["name"]), str(sheet["faction"]))
        self.slots = [_Slot(dict(r)) for r in _slot_rows(str(sheet["name"]), str(sheet["faction"]))]
        counts = [int(s.row["min"]) for s in self.slots]
        extra = size - int(sheet["min_models"])
        if extra:
            grow = next(
                (
                    i
                    for i, s in enumerate(self.slots)
                    if s.row["max"] > counts[i] and (counts[i] or not s.row["group_id"])
                ),
                None,
            )
            if grow is None:
                grow = next(i for i, s in enumerate(self.slots) if s.row["max"] > counts[i])
            counts[grow] += extra
        unit_keys = self.keys(sheet["unit_weapon_ids"])
        carriers = self.carriers(counts)
        for s, n in zip(self.slots, counts, strict=True):
            keys = self.keys(s.row["default_weapon_ids"]) + (unit_keys if s in carriers else ())
            if n:
                s.parts = [_Part(n, keys, _names(s.row["default_wargear"]))]
        self.unit_picks: list[int] = []
        self.limits = Limits(self)
        self._ties: dict[str, tuple[str, str, str]] | None = None

    def _visibility(self, i: int) -> tuple[bool, str]:
        if i not in self._shown:
            r = self.rows[i]
            slots = [s for s in self.slots if r.model == UNIT or s.row["model"] == r.model]
            statlines = [self.umap.get(f"{s.row['profile_source']}:{s.row['profile_id']}") for s in slots]
            names = frozenset(fold(n) for n in (self.sheet["name"], *(s.row["model"] for s in slots)))
            character = any(row is not None and row.is_character for row in statlines)
            self._shown[i] = visibility(r, Ancestry(self.legion, names, character))
        return self._shown[i]

    def hidden(self, i: int) -> bool:
        """Whether the data hides option row ``i`` for this force (``units.option_visibility``)."""
        return self._visibility(i)[0]

    def hidden_why(self, i: int) -> str:
        """What would show option row ``i`` (``""`` when it is shown)."""
        return self._visibility(i)[1]

    def keys(self, ids: Any) -> tuple[str, ...]:
        return tuple(k for k in str(ids).split(";") if k in self.wmap)

    def carriers(self, counts: list[int] | None = None) -> list[_Slot]:
        """The slots that carry the unit's own weapons: those that are not Characters (all, when every one is)."""

        def character(s: _Slot) -> bool:
            row = self.umap.get(f"{s.row['profile_source']}:{s.row['profile_id']}")
            return row is not None and row.is_character

        plain = [s for s in self.slots if not character(s)]
        return plain or list(self.slots)

    def counted(self, child: str) -> int | None:
        """Models (or selections) a per-model cost or limit on ``child`` counts now; None when unknown."""
        if child == "model":
            return sum(s.count for s in self.slots)
        slots = [s for s in self.slots if child in s.ids()]
        if slots:
            return sum(s.count for s in slots)
        rows = {i for i, r in enumerate(self.rows) if child in (r.option_id, r.entry_id)}
        if rows:
            return self.picks_of(rows)
        return None

    def picks_of(self, rows: set[int]) -> int:
        """Selections in the whole unit of the option rows ``rows``."""
        n = sum(p.count * sum(1 for i in p.picks if i in rows) for s in self.slots for p in s.parts)
        return n + sum(1 for i in self.unit_picks if i in rows)

    def price(self, i: int) -> float:
        """One selection of option row ``i``: its cost, and its per-model increment times the models counted."""
        r = self.rows[i]
        cost = float(r.points)
        of = str(r.per_model_of)
        if of and r.points_per_model:
            cost += float(r.points_per_model) * (self.counted(of) or 0)
        return cost

    def give(self, part: _Part, chain: list[int]) -> _Part:
        """``part`` with the options of ``chain`` it does not hold yet (each in place of what it replaces)."""
        weapons, wargear, picks = part.weapons, part.wargear, part.picks
        for n, i in enumerate(chain):
            if i in picks and n < len(chain) - 1:  # a parent held already; the option itself may repeat
                continue
            r = self.rows[i]
            replaced = [str(r.replaces), *self.inside(str(r.model), str(r.replaces))]
            for name in replaced:
                weapons = _without(weapons, self.names, name)
            weapons += self.keys(r.weapon_ids)
            gone = {fold(n) for n in replaced}
            wargear = (*tuple(n for n in wargear if fold(n) not in gone), str(r.option))
            picks = (*picks, i)
        return self._shed(_Part(part.count, weapons, wargear, picks))

    def inside(self, model: str, outer: str) -> list[str]:
        """The defaults that come inside the default ``outer`` of ``model``'s slots (the Power Sword of a
        Tartaros's Power Weapon: an option replacing the Power Weapon replaces it too)."""
        if not outer:
            return []
        out: list[str] = []
        for slot in self.slots:
            if model != UNIT and slot.row["model"] != model:
                continue
            for pair in str(slot.row.get("default_within") or "").split(";"):
                inner, _, container = pair.strip().rpartition("<")
                if inner and fold(container) == fold(outer) and inner not in out:
                    out.append(inner)
        return out

    def _shed(self, part: _Part) -> _Part:
        """``part`` with as many of a tied group's default as the group now allows (:func:`defaults_due`: a
        Contemptor's in-built combi-bolter goes with the fist a Gravis Lascannon replaces, comes with one taken)."""
        if self._ties is None:
            self._ties = tied_groups(self)
        for default, model, want in defaults_due(self, self._ties, part.wargear, part.picks):
            slot = next(s for s in self.slots if s.row["model"] == model)
            own = [k for k in self.keys(slot.row["default_weapon_ids"]) if fold(self.names.get(k, "")) == fold(default)]
            weapons = _without(part.weapons, self.names, default) + tuple(own[:1]) * want
            wargear = (*(n for n in part.wargear if fold(n) != fold(default)), *[default] * want)
            part = _Part(part.count, weapons, wargear, part.picks)
        return part


def _without(weapons: tuple[str, ...], names: dict[str, str], replaces: str) -> tuple[str, ...]:
    """The weapon keys left when the wargear ``replaces`` names goes (its profiles: that name, or a mode of it)."""
    if not replaces:
        return weapons
    gone = fold(replaces)
    return tuple(
        k for k in weapons if not (fold(names.get(k, "")) == gone or fold(names.get(k, "")).startswith(gone + " "))
    )


def build_loadout(value: Any, field: str = "attacker") -> FieldedUnit:
    """The :class:`FieldedUnit` of a datasheet block (see the module docstring for the checks and prices).

    Raises:
        ScenarioError: An unknown name or option, a size outside the datasheet's limits, a loadout the data
            does not allow; one line naming the field and the value.
    """
    if isinstance(value, str):
        name, named = split_pick(value)
        value = {"name": name, **{k: v for k, v in named.items() if k == "faction"}}
    block: Mapping[str, Any] = value
    if not isinstance(block, Mapping):
        raise ScenarioError(f"{field}: expected a datasheet name or block, got {block!r}")
    unknown = sorted(set(block) - DATASHEET_FIELDS - {"models"})
    if unknown:
        raise ScenarioError(f"{field}.{unknown[0]}: not a field of a datasheet ({', '.join(sorted(DATASHEET_FIELDS))})")
    if "models" in block and "size" in block:
        raise ScenarioError(
            f"{field}.models: not used beside size (a datasheet's models are its size), got {block['models']!r}"
        )
    sheet = datasheet_row(block, field)
    lo, hi = int(sheet["min_models"]), int(sheet["max_models"])
    size_field = "models" if "models" in block else "size"
    size = block.get(size_field, lo)
    if isinstance(size, bool) or not isinstance(size, int) or not lo <= size <= hi:
        raise ScenarioError(f"{field}.{size_field}: {sheet['name']} takes {lo}-{hi} models, got {size!r}")
    legion = legion_of(block, str(sheet["faction"]), field)
    build = _Build(sheet, size, field, legion)
    points = float(sheet["base_points"]) + (size - lo) * float(sheet["points_per_model"])
    items = block.get("loadout", [])
    if not isinstance(items, list):
        raise ScenarioError(f"{field}.loadout: expected a list of option names, got {items!r}")
    check_loadout_length(items, f"{field}.loadout")
    taken: list[str] = []
    for i, item in enumerate(items):
        points += _take(item, f"{field}.loadout[{i}]", build)
        taken.append(item if isinstance(item, str) else str(item.get("option")))
    groups, notes = [], []
    said = legion_note(block, str(sheet["faction"]))  # a legion that changes nothing is named, not dropped
    if said is not None:
        notes.append(said)
    unit_items = tuple(dict.fromkeys(i for i in build.unit_picks if not build.keys(build.rows[i].weapon_ids)))
    for s in build.slots:
        key = f"{s.row['profile_source']}:{s.row['profile_id']}"
        if key not in build.umap:
            if s.count:
                notes.append(
                    f"{s.row['model']}: {counted_noun(s.count, 'model')} without a statline in the data, left out"
                )
            continue
        statline = build.umap[key]
        if s.count:  # a save the statline's rules or wargear give under a condition the engine does not know
            unread = statline.not_modelled
            notes.extend(f"{s.row['model']}: {line} (not applied)" for line in unread.split(";") if line)
        merged: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[int, tuple[int, ...]]] = {}
        for p in s.parts:
            n, picks = merged.get((p.weapons, p.wargear), (0, p.picks))
            merged[(p.weapons, p.wargear)] = (n + p.count, picks)
        for (keys, wargear), (n, picks) in merged.items():
            if n:
                weapons = tuple(build.wmap[k].as_profile() for k in keys)
                own = Statline.from_row(with_wargear(statline, (build.rows[i].item for i in (*picks, *unit_items))))
                for i in (*picks, *unit_items):  # what an option's wargear gives under a condition, or not modelled
                    unread = build.rows[i].not_modelled
                    notes.extend(f"{line} (not applied)" for line in unread.split(";") if line)
                groups.append(ModelGroup(str(s.row["model"]), n, own, weapons, wargear))
    if not groups:
        raise ScenarioError(f"{field}: {sheet['name']} has no model with a statline")
    unit = FieldedUnit(
        str(sheet["name"]),
        str(sheet["faction"]),
        size,
        points,
        tuple(groups),
        tuple(taken),
        notes=tuple(dict.fromkeys(notes)),
        modifiers=split_modifiers(block, field)[1],
        legion=legion_names()[legion].split(":", 1)[1].strip() if legion else "",
    )
    return unit.with_flags(**{k: block[k] for k in ("charging", "disordered", "two_weapons") if k in block})


def _item(item: Any, field: str) -> tuple[str, int, str | None, bool]:
    """(option, count, model or None, count given) of a loadout item, its shape checked."""
    if isinstance(item, str):
        item = {"option": item}
    if not isinstance(item, Mapping) or not isinstance(item.get("option"), str):
        raise ScenarioError(f'{field}: expected an option name or {{"option", "count", "model"}}, got {item!r}')
    bad = sorted(set(item) - {"option", "count", "model"})
    if bad:
        raise ScenarioError(f"{field}.{bad[0]}: not a field of a loadout item (option, count, model)")
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ScenarioError(f"{field}.count: expected a whole number of models >= 1, got {count!r}")
    model = item.get("model")
    return item["option"], count, None if model is None else str(model), "count" in item


def _take(item: Any, field: str, build: _Build) -> float:
    """Give the item's option to its models (or the unit); returns what it costs."""
    option, count, model, counted = _item(item, field)
    found = build.index.get(fold(option), [])
    if model is not None:
        found = [i for i in found if fold(build.rows[i].model) == fold(model)]
    if not found:
        have = list(dict.fromkeys(r.option for r in build.rows))
        what = f" for model {model!r}" if model is not None else ""
        raise ScenarioError(f"{field}: {build.sheet['name']} has no option {option!r}{what}{suggestions(option, have)}")
    refuse_if_hidden(build, found, field, option)

    def rank(i: int) -> tuple[bool, bool, int, int]:
        r = build.rows[i]
        return bool(r.parent), r.model == UNIT, -build.limits.room_of(r.model), i

    row = min((i for i in found if not build.hidden(i)), key=rank)
    chain = option_chain(build, row, field, option)
    if build.rows[row].model == UNIT:
        return _take_for_unit(build, chain, count, counted, field, option)
    return _take_for_models(build, chain, count, field, option)


def _take_for_unit(build: _Build, chain: list[int], count: int, counted: bool, field: str, option: str) -> float:
    row = build.rows[chain[-1]]
    of = str(row.per_model_of)
    if of and counted:
        raise ScenarioError(f"{field}.count: {option!r} is taken once for the whole unit, got {count}")
    build.limits.check_unit(chain, count, field, option)
    parents = [i for i in chain[:-1] if i not in build.unit_picks]
    cost = sum(build.price(i) for i in parents) + count * build.price(chain[-1])
    if of:
        receivers = [s for s in build.slots if of == "model" or of in s.ids()] or build.carriers()
        for s in receivers:
            s.parts = [build.give(p, chain) for p in s.parts]
    elif any(build.keys(build.rows[i].weapon_ids) for i in chain):
        targets = [s for s in build.carriers() if s.count]
        total = sum(s.count for s in targets)
        if count > total:
            raise ScenarioError(
                f"{field}.count: {build.sheet['name']} has {counted_noun(total, 'model')} to carry {option!r}, "
                f"got {count}"
            )
        left = count
        for s in targets:
            left -= _split(build, s, min(left, s.count), chain)
            if not left:
                break
    build.unit_picks.extend([*parents, *[chain[-1]] * count])
    return cost


def _take_for_models(build: _Build, chain: list[int], count: int, field: str, option: str) -> float:
    row = build.rows[chain[-1]]
    slot = next((s for s in build.slots if fold(s.row["model"]) == fold(row.model)), None)
    if slot is None:
        raise ScenarioError(f"{field}: {option!r} is offered to {row.model!r}, a model {build.sheet['name']} lacks")
    free = sum(min(p.count, build.limits.models_with_room(slot, p, chain)) for p in slot.parts)
    if free < count:
        _borrow(build, slot, build.slots, count - free)
    if slot.count < count:
        raise ScenarioError(
            f"{field}.count: {build.sheet['name']} has {counted_noun(slot.count, f'{row.model} model')}, got {count}"
        )
    cost = 0.0
    left = count
    for part in list(slot.parts):
        if not left:
            break
        k = min(left, part.count, build.limits.models_with_room(slot, part, chain))
        if k:
            cost += k * sum(build.price(i) for n, i in enumerate(chain) if i not in part.picks or n == len(chain) - 1)
            left -= _split(build, slot, k, chain, part)
    if left:
        build.limits.refuse_models(slot, chain, count, field, option)
    return cost


def _split(build: _Build, slot: _Slot, n: int, chain: list[int], only: _Part | None = None) -> int:
    """Give ``n`` models of ``slot`` (of the part ``only``, else the first ones) the options of ``chain``."""
    out: list[_Part] = []
    left = n
    for p in slot.parts:
        k = min(left, p.count) if (only is None or p is only) else 0
        if k:
            out.append(build.give(_Part(k, p.weapons, p.wargear, p.picks), chain))
        if p.count - k:
            out.append(_Part(p.count - k, p.weapons, p.wargear, p.picks))
        left -= k
    slot.parts = out
    return n - left


def _borrow(build: _Build, slot: _Slot, slots: list[_Slot], n: int) -> None:
    """Move up to ``n`` models into ``slot`` from another slot of its group (``Legionary w/ Options``), with the
    options the whole unit took."""
    gid = slot.row["group_id"]
    if not gid:
        return
    for other in slots:
        if other is slot or other.row["group_id"] != gid or not other.count:
            continue
        k = min(n, other.count, int(slot.row["max"]) - slot.count)
        if k <= 0:
            return
        first = other.parts[0]
        taken = min(k, first.count)
        other.parts[0] = _Part(first.count - taken, first.weapons, first.wargear, first.picks)
        other.parts = [p for p in other.parts if p.count]
        own = tuple(x for x in str(slot.row["default_weapon_ids"]).split(";") if x)
        if own:  # its own default wargear, and what the whole unit took (a squad's lascannons): paid for it
            unit_wide = [i for i in first.picks if build.rows[i].model == UNIT]
            slot.parts.append(build.give(_Part(taken, own, _names(slot.row["default_wargear"])), unit_wide))
        else:
            slot.parts.append(_Part(taken, first.weapons, first.wargear, first.picks))
        n -= taken
        if not n:
            return
