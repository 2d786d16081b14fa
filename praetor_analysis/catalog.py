"""Shipped catalogs as tidy pandas DataFrames.

The CSV files in ``praetor_analysis.data`` are derived from the BattleScribe data of BSData/horus-heresy
by :func:`praetor_analysis.bsdata.importer.build_catalog` (figures only; see ``provenance.json``). Characteristics
are kept as strings exactly as the data writes them (``"72\\""``, ``"-"``, ``"User"``, ``"3+"``), since
parsing them is the job of :mod:`praetor_analysis.profiles.records`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported by the first load, not by the import of this module
    import pandas as pd

from praetor_analysis.errors import PraetorError

__all__ = [
    "frame_rows",
    "load_datasheet_models",
    "load_datasheets",
    "load_provenance",
    "load_rule_names",
    "load_targets",
    "load_token_corrections",
    "load_units",
    "load_wargear_options",
    "load_weapons",
]

_PACKAGE = "praetor_analysis.data"
_EDITION_PACKAGES = {"hh2": _PACKAGE, "hh3": "praetor_analysis.data.hh3"}


def _package(edition: str) -> str:
    if edition not in _EDITION_PACKAGES:
        raise PraetorError(f"edition: expected one of {sorted(_EDITION_PACKAGES)}, got {edition!r}", field="edition")
    return _EDITION_PACKAGES[edition]


def _read(name: str, numeric: tuple[str, ...] = (), edition: str = "hh2") -> pd.DataFrame:
    import pandas as pd

    with resources.files(_package(edition)).joinpath(name).open("r", encoding="utf-8") as fh:
        frame = pd.read_csv(fh, dtype=str, keep_default_na=False)
    for col in numeric:
        frame[col] = pd.to_numeric(frame[col].replace("", None))
    return frame


def load_weapons(edition: str = "hh2") -> pd.DataFrame:
    """Weapon profiles from every catalogue, one row per profile definition.

    ``edition="hh3"``: the 3rd edition's (:data:`~praetor_analysis.bsdata.importer_hh3.HH3_WEAPON_COLUMNS`:
    name, profile_type ``Ranged Weapon``/``Melee Weapon``/psychic ones, R, FP, RS, IM, AM, SM, AP, D,
    Special Rules, Traits as written, entry, points, source, profile_id, faction). The rest describes ``hh2``.

    Columns:
        name: Profile name (whitespace normalised).
        Range, Strength, AP: As written (``"24\\""``, ``"User"``, ``"-"``); strings.
        Type: The raw Type string (cut at a newline: pasted rules text is not shipped).
        Type_clean: Type after :func:`praetor_analysis.profiles.vocabulary.clean_type`.
        corrections: Number of corrections made by the cleaning (int).
        profile_type: ``Weapon`` or ``Psychic Weapon``.
        entry: Name of the selection entry defining the profile.
        points: Pts cost on that entry (float; NaN if none, links may override it).
        source: Catalogue file stem (e.g. ``2022 - Legiones Astartes``).
        profile_id: BattleScribe profile id in that file.
        faction: Faction label derived from the file name.

    The same weapon appears once per catalogue that defines it; one row per distinct profile (Range, Strength, AP
    and Type, the name aside): :func:`~praetor_analysis.bsdata.columns.distinct_profiles`.
    """
    if edition == "hh3":
        return _read("weapons.csv", numeric=("points",), edition=edition)
    return _read("weapons.csv", numeric=("corrections", "points"), edition=edition)


def load_units(edition: str = "hh2") -> pd.DataFrame:
    """Unit, vehicle, knight/titan and fortification profiles, one row per profile definition.

    ``edition="hh3"``: the 3rd edition's (:data:`~praetor_analysis.bsdata.importer_hh3.HH3_UNIT_COLUMNS`: name,
    profile_type, Type, M, WS, BS, S, T, W, I, A, LD, CL, WP, IN, SAV, INV, Front, Side, Rear, HP, Transport
    Capacity, Access Points, extra (other characteristics, ``name=value``), entry, unit, points, unit_points,
    source, profile_id, faction). The rest describes ``hh2``.

    Columns:
        name, profile_type (``Unit``, ``Vehicle``, ``Knights and Titans``, ``Fortification``).
        Unit Type, Move, WS, BS, S, T, W, I, A, Ld, Save: statline strings (``""`` if not in the profile).
        Invulnerable: the best invulnerable save the model's rules and mandatory wargear grant outright, read
            clause by clause (``"4+"`` or ``""``; docs/rosters.md); the number only.
        Front, Side, Rear, HP: armour values and hull points of vehicles and knights.
        rules: the unit rules the engine declares that the model holds, ``;``-separated: mandatory wargear named
            as one (``"Ion Shield"``, whose save is this rule, not part of ``Invulnerable``), saves of one phase
            (``"Invulnerable Save in Melee (3+)"``), save rules by their names (``"Adamantium Will (3+)"``) and
            rules a Wargear Item grants outright (``"Feel No Pain (5+)"``).
        not_modelled: what those texts grant that the engine does not apply, one line per item, figures and
            names only (``"The Armour Elavagar: 3+ Invulnerable Save under a condition"``), ``;``-separated.
        entry, unit: Names of the entry defining the profile and of the enclosing unit entry.
        points, unit_points: Pts costs on those entries (float; NaN if none; modifiers not applied).
        source, profile_id, faction: As in :func:`load_weapons`.
    """
    return _read("units.csv", numeric=("points", "unit_points"), edition=edition)


def load_targets(edition: str = "hh2") -> pd.DataFrame:
    """Standard target archetypes (Legionary, Terminators, Militia, Contemptor, Rhino, Land Raiders,
    Knight Questoris, Custodian Guard, Veletarii), copied from the unit profiles they name.

    ``edition="hh3"``: the 3rd edition's (Legionaries, Cataphractii and Tartaros Terminators, Lesser Daemons, a
    Rhino, a Spartan, a Questoris Knight): archetype, models, then the 3rd edition's characteristics under the
    data's names (``Type``, ``M``, ``WS``... ``SAV``, ``INV``; ``Front Armour``, ``Side Armour``, ``Rear Armour``
    or a Knight's ``Front``, ``Rear``; ``HP``), and ``source``: the roster or catalog row each statline was copied
    from (the shipped data lacks the generic Legion catalogue, so the Legion statlines come from public rosters).

    Columns:
        archetype: Label of the target.
        models: Default model count (int).
        then every column of :func:`load_units` (``source`` and ``profile_id`` trace the profile),
        note: Caveat on the row, in our own words (e.g. the ion shield only covers one facing).
    """
    if edition == "hh3":
        return _read("targets.csv", numeric=("models",), edition=edition)
    return _read("targets.csv", numeric=("models", "points", "unit_points"), edition=edition)


def load_rule_names() -> pd.DataFrame:
    """Canonical weapon rule names found in the cleaned data.

    Columns: name, value (``"(X)"`` takes a parenthesised value, ``"N"`` a bare number such as a shot
    count, ``""`` none), profiles (number of weapon rows using the rule, int).
    """
    return _read("rule_names.csv", numeric=("profiles",))


def load_token_corrections() -> pd.DataFrame:
    """The curated corrections table used by :func:`~praetor_analysis.profiles.vocabulary.clean_type`.

    Columns: wrong, right, reason.
    """
    return _read("token_corrections.csv")


def load_provenance(edition: str = "hh2") -> dict[str, Any]:
    """Where the shipped catalogs of an edition come from: repository, commit, file hashes, counts (and for
    ``hh3`` the files the data set lacks and what that leaves out)."""
    text = resources.files(_package(edition)).joinpath("provenance.json").read_text(encoding="utf-8")
    return json.loads(text)


def load_datasheets(edition: str = "hh2") -> pd.DataFrame:
    """Datasheets: every unit entry of the data, with its model counts and points.

    ``edition="hh3"``: the 3rd edition's (name, faction, min_models, max_models, base_points, points_per_model,
    unit_points, points_modified: a modifier of the data changes the unit's or a model's cost (not applied),
    models, hidden, dangling: the links of the datasheet that resolve nowhere, source, entry_id).

    Columns:
        name: The unit entry's name (``Tactical Squad``).
        faction: Faction of the file defining the entry (shared entries live in ``Legiones Astartes``).
        min_models, max_models: Models in the unit at its smallest and largest (int).
        base_points: Points at the smallest size with the default wargear (float).
        points_per_model: Points of each model added beyond the minimum (float; 0 if it cannot grow).
        unit_points: The cost written on the unit entry itself (part of ``base_points``).
        unit_wargear: Wargear taken for the whole unit (``"; "``-joined names).
        unit_weapons, unit_weapon_ids: Its weapon profiles (names; ``source:profile_id`` keys of
            :func:`load_weapons`), carried by the models that are not Characters (all, if every model is).
        models: The model slots, ``"min-max name"`` joined by ``"; "``.
        hidden: The entry is hidden unless some condition of the army shows it (bool).
        source, entry_id: Catalogue file stem and BattleScribe id of the unit entry.

    Conditional cost modifiers are not applied; per-model increments of options are in
    :func:`load_wargear_options`.
    """
    frame = _read(
        "datasheets.csv",
        numeric=("min_models", "max_models", "base_points", "points_per_model", "unit_points"),
        edition=edition,
    )
    frame["hidden"] = frame["hidden"] == "True"
    if edition == "hh3":
        frame["points_modified"] = frame["points_modified"] == "True"
    return frame


def load_datasheet_models(edition: str = "hh2") -> pd.DataFrame:
    """Model slots of each datasheet, one row per slot.

    ``edition="hh3"``: datasheet, faction, model, min, max, points, points_modified (a modifier of the data
    changes the cost; not applied), group, profile_id, model_id, entry_id.

    Columns:
        datasheet, faction: The datasheet (as in :func:`load_datasheets`).
        model: Name of the model entry.
        min, max: How many of this model the unit has at least and may have (int).
        points: Cost per model (float), including its costed default wargear.
        default_wargear: Wargear the model has unless an option replaces it (its own, then the unit's).
        default_weapons: The weapon profile names of the model's own default wargear (``"; "``-joined).
        default_weapon_ids: The same as ``source:profile_id`` keys of :func:`load_weapons` (``";"``-joined).
        default_within: The defaults that come inside another default (``"Power Sword<Power Weapon"``,
            ``"; "``-joined): an option replacing the outer one replaces them too.
        profile_source, profile_id: The model's statline in :func:`load_units`.
        group, group_id: The selection group holding the slot (``""`` for none).
        model_id, entry_id: BattleScribe ids of the slot as written (a link or the entry) and of its entry.
    """
    frame = _read("datasheet_models.csv", numeric=("min", "max", "points"), edition=edition)
    if edition == "hh3":
        frame["points_modified"] = frame["points_modified"] == "True"
    return frame


def load_wargear_options(edition: str = "hh2") -> pd.DataFrame:
    """Wargear options of each datasheet, one row per option.

    ``edition="hh3"``: datasheet, faction, model, group, option, points, min, max, weapons, resolved (False: its
    link resolves nowhere in the shipped data), hidden, default (the option its group gives unless another is
    chosen), points_modified (the data changes its cost by a modifier, not applied: by unit size, by a condition),
    option_id, entry_id.

    Columns:
        datasheet, faction: The datasheet.
        model: The model slot that may take it, or ``"(unit)"`` for the whole unit.
        group: The option group (e.g. ``3) Melee Weapon``).
        option: The option's name (``Power Fist``).
        replaces: The default wargear it replaces, ``""`` when it is taken in addition.
        parent: The option it refines (e.g. ``Power Weapon`` for ``Power Axe``), or ``""``.
        points: Its cost per selection (float).
        points_per_model, per_model_of: A cost added per model counted (``model`` for every model,
            else the id of a group or entry), for options priced by unit size; 0 and ``""`` otherwise.
        max: Most selections of it per model or unit (float; NaN when unbounded).
        weapons, weapon_ids: The weapon profiles it brings (names; ``source:profile_id`` keys).
        hidden: Shown only under some condition (bool).
        option_id, entry_id: BattleScribe ids of the option as written and of its entry.
        group_id, group_min: The id of the option's group and its least selections (per owner).
        group_max, group_unit_max, unit_max: The most selections of its group per owner (a model, or the
            unit for ``(unit)``), of its group in the whole unit, and of the option in the whole unit: ``"N"``,
            ``"N+K/E:CHILD"`` (K more for every E selections of CHILD, ``model`` or an id), ``""`` for none.
        save, invulnerable: The armour and invulnerable saves the option's wargear text grants outright
            (``"2+"``; ``""`` for none or a save under a condition): figures only.
        rules: The unit rule the option is, when the engine declares one under its name (``Iron Halo``), else the
            saves of one phase and the declared rules its wargear text grants outright, ``;``-separated.
        not_modelled: What the option's wargear grants that the engine does not apply (as :func:`load_units`).
        shown_when: The data's ``set hidden`` modifiers of the option with their conditions, as JSON
            (:mod:`praetor_analysis.bsdata.visibility`); ``""`` for none.
    """
    if edition == "hh3":
        frame = _read("wargear_options.csv", numeric=("points", "min", "max"), edition=edition)
        frame["resolved"] = frame["resolved"] == "True"
        frame["default"] = frame["default"] == "True"
        frame["points_modified"] = frame["points_modified"] == "True"
    else:
        frame = _read("wargear_options.csv", numeric=("points", "points_per_model", "max", "group_min"))
    frame["hidden"] = frame["hidden"] == "True"
    return frame


def frame_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A DataFrame's rows as dicts of Python values: ``frame.to_dict("records")``, column by column (faster)."""
    columns = list(frame.columns)
    if not columns:
        return [{} for _ in range(len(frame))]
    values = zip(*(frame[c].tolist() for c in columns), strict=True)
    return [dict(zip(columns, row, strict=True)) for row in values]
