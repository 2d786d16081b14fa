"""A scenario document (the `praetor calc` JSON) -> typed records, with every error found here.

:func:`parse_scenario` reads the whole document once: the weapon, attacker and target blocks, the
formation and aim, the firing units and the options (``half_range``, ``snap_shots``, ``indirect``,
``metric``). It refuses unknown or misplaced fields and, through :mod:`praetor_analysis.scenario.limits`,
anything too large to compute, before any work is done. The engine, markers, vehicles and melee then
receive only these records, never a dict.

Names from the catalog (``"weapon": "Lascannon"``) are replaced by their blocks first
(:func:`praetor_analysis.scenario.document_names.resolve_names`); a weapon block is then read by
:func:`~praetor_analysis.units.parse_weapon_block` and a unit block by
:func:`~praetor_analysis.units.parse_unit_block`; a volley's blocks by :func:`~praetor_analysis.units.volley_of_blocks`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from praetor_analysis.engine import Volley, shots_distribution
from praetor_analysis.errors import PraetorError, ScenarioError, as_scenario_error, show_value
from praetor_analysis.markers import Hull, marker_kind, marker_kind_of
from praetor_analysis.melee import Side
from praetor_analysis.prob import BoundedMemo, Unkeyed, token_field, token_key, token_of
from praetor_analysis.profiles import Unit, Weapon, check_text, vehicle_armour
from praetor_analysis.rules import Role
from praetor_analysis.scenario.document_names import names_nothing, resolve_names
from praetor_analysis.scenario.fields import check_scenario_fields, check_unit_fields
from praetor_analysis.scenario.formation import parse_marker_setup
from praetor_analysis.scenario.limits import MAX_PROFILES, check_firing_units, check_melee_round
from praetor_analysis.scenario.melee_round import parse_melee_round
from praetor_analysis.scenario.options import parse_options, take_options, takes_counts
from praetor_analysis.units import (
    MarkerSetup,
    Shooting,
    check_marker_cost,
    check_target,
    default_marker_setup,
    parse_unit_block,
    true_or_false,
    volley_of_blocks,
)

P = ParamSpec("P")
R = TypeVar("R")

SCENARIO_FIELDS = {
    "mode",
    "attacker",
    "weapon",
    "attacks",
    "snap_shots",
    "target",
    "hits",
    "formation",
    "aim",
    "indirect",
    "edges",
    "target_weapon",
    "half_range",
    "name",
    "firing_units",
    "metric",
    "options",
}
_KNOWN = frozenset(SCENARIO_FIELDS)
#: The fields of a shooting scenario that need no other field and act in it (``scenario.fields``): a document of
#: these only has no combination to refuse and no field that does not act.
_PLAIN_FIELDS = frozenset(
    {"attacker", "weapon", "attacks", "target", "hits", "snap_shots", "half_range", "name", "options"}
)
#: Fields that only mean something beside another one: nothing is silently ignored.
_NEEDS = {"aim": "formation", "edges": "formation", "indirect": "formation"}
_SINGLE_VOLLEY_FIELDS = (
    "attacker",
    "weapon",
    "attacks",
    "hits",
    "snap_shots",
    "mode",
    "formation",
    "target_weapon",
    "half_range",
    "options",
)
VOLLEY_FIELDS = {"mode", "attacker", "weapon", "attacks", "snap_shots", "hits", "half_range", "options"}
#: How a list of profiles (Transmutative armaments) may be ranked.
METRIC_NAMES = ("casualties", "unsaved", "p_any", "wipe", "hull_points", "wrecked")


# --- typed records --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MeleeRound:
    """A whole round of combat between two sides."""

    attacker: Side
    target: Side


@dataclass(frozen=True)
class BestProfile:
    """Transmutative armaments: one scenario per profile; the result is the best by ``metric``."""

    choices: tuple[Shooting | MeleeRound, ...]
    names: tuple[Any, ...]
    metric: str


Scenario = Shooting | MeleeRound | BestProfile


# --- blocks ---------------------------------------------------------------------------------------
def _bool(data: Mapping[str, Any], key: str, prefix: str = "") -> bool:
    return true_or_false(data.get(key, False), key, prefix)


def _mode(data: Mapping[str, Any], prefix: str = "") -> str:
    mode = data.get("mode", "shooting")
    if not isinstance(mode, str) or mode not in {"shooting", "melee"}:
        raise ScenarioError(f'{prefix}mode: expected "shooting" or "melee", got {show_value(mode)}')
    return mode


@as_scenario_error
def parse_volley(data: Mapping[str, Any], *, prefix: str = "", kind: str | None = None) -> Volley:
    """Build a Volley from a scenario (or one entry of ``firing_units``); ``kind`` (default the volley's
    mode) says which fields act (``scenario.fields``)."""
    return _volley(data, prefix, kind, None)


_OWN_VOLLEYS: BoundedMemo[Volley] = BoundedMemo(8192)


def _volley_key(key: Hashable | None) -> Hashable | None:
    """The key of a document's own volley: its ``token_key`` without the target (what the volley does not read),
    or None."""
    if type(key) is not tuple or len(key) != 3 or key[0] is not dict:
        return None
    _, names, tokens = key
    if "target" not in names:
        return key
    at = names.index("target")
    return (names, tokens[:at] + tokens[at + 1 :])


def _volley(data: Mapping[str, Any], prefix: str, kind: str | None, key: Hashable | None) -> Volley:
    """:func:`parse_volley` itself; ``key``: the document's ``token_key``, when known (its blocks' tokens are
    read off it, and a document's own volley is made once for the documents that differ in their target
    only)."""
    own = _volley_key(key) if not prefix and kind is None else None
    found = _OWN_VOLLEYS.peek(own) if own is not None else None
    if found is not None:
        return found
    volley = _volley_of(data, prefix, kind, key)
    if own is not None:
        _OWN_VOLLEYS.put(own, volley)
    return volley


def _volley_of(data: Mapping[str, Any], prefix: str, kind: str | None, key: Hashable | None) -> Volley:
    """:func:`_volley` made afresh."""
    mode = _mode(data, prefix)
    if prefix:  # a volley of firing_units: its own fields
        check_scenario_fields(data, mode, prefix=prefix)
    if "weapon" not in data:
        raise ScenarioError(f"{prefix}weapon: required, got nothing")
    weapon: Any = data["weapon"]
    taken: tuple[str, ...] = ()
    if data.get("options") is not None:  # the options of the weapon taken (docs/scenario.md#options)
        weapon, taken = _taken(weapon, data["options"], data.get("attacks"), prefix)
    block_keys = (token_field(key, "weapon") if weapon is data["weapon"] else None, token_field(key, "attacker"))
    return volley_of_blocks(
        weapon,
        data.get("attacker", {}),
        mode=mode,
        attacks=data.get("attacks"),
        hits=data.get("hits"),
        snap_shots=data.get("snap_shots", False),
        half_range=data.get("half_range", False),
        prefix=prefix,
        kind=kind,
        taken=taken,
        block_keys=block_keys,
    )


def _taken(weapon_block: Any, options: Any, attacks: Any, prefix: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The weapon block with the options taken, and their names (:func:`.options.take_options`)."""
    chosen = parse_options(options, f"{prefix}options")
    counted = takes_counts(chosen)
    if counted is not None and attacks is not None:
        raise ScenarioError(
            f"{prefix}attacks: not beside {counted} in options, which sets the attack count itself "
            f"(give the attacks it makes without the option), got {show_value(attacks)}",
            field=f"{prefix}attacks",
            value=attacks,
        )
    if not isinstance(weapon_block, Mapping):
        raise ScenarioError(f"{prefix}weapon: options need one weapon profile, got {show_value(weapon_block)}")
    return take_options(weapon_block, chosen, f"{prefix}options")


def parse_target(data: Mapping[str, Any], kind: str | None = None) -> Unit:
    """Build the target Unit from the scenario's ``target`` block (its fields checked for ``kind``)."""
    if "target" not in data:
        raise ScenarioError("target: required, got nothing")
    return target_of_block(data["target"], kind)


def target_of_block(block: Any, kind: str | None = None) -> Unit:
    """The target Unit of a ``target`` block (its fields checked for ``kind``), with :func:`parse_target`'s
    checks (:func:`~praetor_analysis.units.block_records.check_target`)."""
    target = parse_unit_block(block, "target")
    if kind is not None:
        check_unit_fields(block, kind, "target", "target")
    return check_target(target)


def check_target_state(target: Unit) -> None:
    """A Vehicle's armour values are all given; the wounds (hull points) already lost leave one."""
    if target.is_vehicle:
        vehicle_armour(target)
    elif not target.wounds_taken < (target.W or 1):
        raise ScenarioError(f"target.wounds_taken: must be 0..{(target.W or 1) - 1}, got {target.wounds_taken}")


# --- the document ---------------------------------------------------------------------------------
_SCENARIOS: BoundedMemo[Shooting] = BoundedMemo(8192)


def parse_scenario(data: Any, key: Hashable | None = None) -> Scenario:
    """The typed records of one scenario document (a mapping in the docs/scenario.md form).

    Volleys at a target without a formation are memoised by the document's own key (``key``, its
    :func:`~praetor_analysis.prob.memo.token_key` when the caller has it, else computed: its keys and its
    values' tokens; an ``Unkeyed`` stand-in is no key): the
    records are immutable and depend on the document alone, so a sweep or a dashboard that sends a document
    again finds them parsed and checked. Its blocks are parsed once each (``units.parse_cached``), so a new
    document made of blocks seen before costs its own checks only; their keys are read off the document's
    (``prob.memo.token_field``), and a volley met before with another document is that volley.

    Raises:
        ScenarioError: for any bad, unknown, misplaced or too large field (the message names it).
    """
    if isinstance(key, Unkeyed):  # a document without a key of its own: never memoised
        key = None
    elif key is None and isinstance(data, Mapping):
        key = token_key(data)
    if key is not None:
        found = _SCENARIOS.peek(key)
        if found is not None:
            return found
    scenario = _parse_scenario(data, key)
    if key is not None and isinstance(scenario, Shooting) and scenario.marker is None:
        _SCENARIOS.put(key, scenario)
    return scenario


@as_scenario_error
def _parse_scenario(data: Any, key: Hashable | None = None) -> Scenario:
    """``parse_scenario`` itself; ``key``: the document's ``token_key`` (its blocks' tokens are read off it)."""
    if not (type(data) is dict or isinstance(data, Mapping)):
        raise ScenarioError(f"scenario: expected a JSON object, got {type(data).__name__}")
    plain = _PLAIN_FIELDS.issuperset(data)  # a shooting volley at a target: nothing to combine or refuse by kind
    if not plain:
        unknown = () if _KNOWN.issuperset(data) else sorted(set(data) - SCENARIO_FIELDS, key=str)
        if unknown:
            raise ScenarioError(f"{unknown[0]}: unknown field (allowed: {', '.join(sorted(SCENARIO_FIELDS))})")
        _check_combination(data)
    named = resolve_names(data)  # catalog names -> profile blocks (scenario.document_names)
    if named is not data:  # blocks that are not the document's: keyed afresh
        data, key = named, None
    if "name" in data:
        name = data["name"]
        if name is not None and (
            isinstance(name, bool)
            or not isinstance(name, (str, int, float))
            or (isinstance(name, float) and not math.isfinite(name))
        ):
            raise ScenarioError(f"name: expected text, got {show_value(name)}")
        check_text(name, "name")
    if isinstance(data.get("weapon"), list) and "target_weapon" not in data:
        return _best_profile(data)
    return _single(data, key, plain)


def scenario_kind(data: Mapping[str, Any]) -> str:
    """The kind of a statline scenario (``scenario.fields.KINDS``): which fields act in it."""
    if "firing_units" in data:
        return "sequence"
    if data.get("mode") == "melee" and "target_weapon" in data:
        return "melee round"
    if "formation" in data:
        return "marker"
    return "melee" if data.get("mode") == "melee" else "shooting"


def _single(data: Mapping[str, Any], key: Hashable | None = None, plain: bool = False) -> Shooting | MeleeRound:
    """A scenario of one target; ``key``: the document's ``token_key``, when known; ``plain``: its fields are
    all ``_PLAIN_FIELDS`` (a shooting scenario whose every field acts)."""
    kind = "shooting" if plain else scenario_kind(data)
    if kind == "melee round":
        striker, struck = parse_melee_round(data)
        check_scenario_fields(data, kind)
        check_unit_fields(data.get("attacker"), kind, "attacker", "attacker")
        check_unit_fields(data.get("target"), kind, "target", "target")
        check_melee_round(striker, struck)
        return MeleeRound(striker, struck)
    if not plain:
        check_scenario_fields(data, kind)
    target = _checked_target(data, None if kind == "sequence" else kind, token_field(key, "target"))
    if kind == "marker":
        volley, setup = _marker_volley(data, target)
        return Shooting(target, ((volley,),), setup)
    if kind == "sequence":
        units = _firing_units(data["firing_units"])
        _check_sequence_target(data["target"], units)
    else:
        units = ((_volley(data, "", None, key),),)  # _parse_scenario raises project errors as ScenarioErrors
    for unit in units:
        for volley in unit:
            _check_shots(volley)
    if "firing_units" not in data:
        default = default_marker_setup(units[0][0], target)
        if default is not None:
            return Shooting(target, units, default)
    return Shooting(target, units)


_SHOTS_CHECKED: BoundedMemo[Volley] = BoundedMemo(8192)


def _check_shots(volley: Volley) -> None:
    """The attack count's own checks (and ``MAX_SHOTS``) before any work, once per volley record (held by the
    memo, so that its id names it while held)."""
    if _SHOTS_CHECKED.peek(id(volley)) is not volley:
        shots_distribution(volley)
        _SHOTS_CHECKED.put(id(volley), volley)


_TARGETS: BoundedMemo[Unit] = BoundedMemo(8192)


def _checked_target(data: Mapping[str, Any], kind: str | None, block_key: Hashable | None = None) -> Unit:
    """``parse_target`` with ``check_target_state``, once per distinct target block and kind (its token,
    ``prob.token_of``; ``block_key`` when the caller has it): the Unit is an immutable record of the block
    alone."""
    if "target" in data and block_key is None:
        block_key = token_of(data["target"])
    key = (block_key, kind) if block_key is not None else None
    found = _TARGETS.peek(key) if key is not None else None
    if found is None:
        found = parse_target(data, kind)
        check_target_state(found)
        if key is not None:
            _TARGETS.put(key, found)
    return found


def known_cell(data: Any, key: Hashable | None) -> tuple[Volley, Unit] | None:
    """The (volley, target) :func:`parse_scenario` gives a plain shooting document (only ``_PLAIN_FIELDS``, no
    ``name``, no catalog name, one volley at a unit that is no vehicle, no marker) when its volley and its target
    were parsed and checked before (their memos, by the document's ``key``): what the parse would find, without
    its records made again. None when any of that is not known: then parse it."""
    if type(data) is not dict or "name" in data or not _PLAIN_FIELDS.issuperset(data) or not names_nothing(data):
        return None
    own, block = _volley_key(key), token_field(key, "target")
    volley = _OWN_VOLLEYS.peek(own) if own is not None else None
    if volley is None or block is None or _SHOTS_CHECKED.peek(id(volley)) is not volley:
        return None  # not made, or its attack count not checked
    target = _TARGETS.peek((block, "shooting"))
    if target is None or target.is_vehicle or marker_kind(volley.weapon) is not None:
        return None  # no default marker for a weapon of no marker kind (units.default_marker_setup)
    return volley, target


def _check_sequence_target(block: Any, units: tuple[tuple[Volley, ...], ...]) -> None:
    """The target of a sequence: its fields act when some volley reads them (``moved``: a melee volley)."""
    modes = {v.mode for u in units for v in u}
    check_unit_fields(block, "melee" if "melee" in modes else "shooting", "target", "target")


def _firing_units(units: Any) -> tuple[tuple[Volley, ...], ...]:
    if not isinstance(units, list) or not units or not all(isinstance(u, list) and u for u in units):
        raise ScenarioError(
            f"firing_units: expected a non-empty list of non-empty lists of volleys, got {show_value(units)}"
        )
    check_firing_units(units)  # the counts, before any volley is parsed
    for i, u in enumerate(units):
        for j, v in enumerate(u):
            if not isinstance(v, Mapping):
                raise ScenarioError(f"firing_units[{i}][{j}]: expected a volley object, got {show_value(v)}")
            unknown = sorted(set(v) - VOLLEY_FIELDS, key=str)
            if unknown:
                raise ScenarioError(
                    f"firing_units[{i}][{j}].{unknown[0]}: unknown volley field "
                    f"(allowed: {', '.join(sorted(VOLLEY_FIELDS))})"
                )
    return tuple(
        tuple(parse_volley(v, prefix=f"firing_units[{i}][{j}].") for j, v in enumerate(u)) for i, u in enumerate(units)
    )


def _check_combination(data: Mapping[str, Any]) -> None:
    """Refuse fields that would be silently ignored in this combination."""
    for key, needs in _NEEDS.items():
        if key in data and data[key] is not None and data[key] is not False and needs not in data:
            raise ScenarioError(f"{key}: only used with {needs!r}, which is missing", field=key, value=data[key])
    if "metric" in data and not isinstance(data.get("weapon"), list):
        raise ScenarioError("metric: only used when weapon is a list of profiles (Transmutative armaments)")
    mode = _mode(data)
    if "target_weapon" in data and mode != "melee":
        raise ScenarioError(f'target_weapon: only used with "mode": "melee", got mode {mode!r}')
    if "firing_units" in data:
        both = [k for k in _SINGLE_VOLLEY_FIELDS if k in data]
        if both:
            raise ScenarioError(f"{both[0]}: give the volleys inside firing_units, not beside it")


def _best_profile(data: Mapping[str, Any]) -> BestProfile:
    """Transmutative armaments: several profiles for one weapon; the best for this target by ``metric``."""
    profiles = data["weapon"]
    metric = data.get("metric", "casualties")
    if not isinstance(metric, str) or metric not in METRIC_NAMES:
        raise ScenarioError(f"metric: expected one of {', '.join(METRIC_NAMES)}, got {show_value(metric)}")
    if not profiles:
        raise ScenarioError("weapon: an empty list of profiles")
    if len(profiles) > MAX_PROFILES:
        raise ScenarioError(f"weapon: {len(profiles)} profiles in one list (limit {MAX_PROFILES})")
    choices = []
    for i, profile in enumerate(profiles):
        if isinstance(profile, list):
            raise ScenarioError(f"weapon[{i}]: expected a weapon profile, got a list inside the list")
        try:
            choices.append(_single({**{k: v for k, v in data.items() if k != "metric"}, "weapon": profile}))
        except PraetorError as exc:
            raise ScenarioError(f"weapon[{i}].{str(exc).removeprefix('weapon.')}") from None
    names = tuple(p.get("name", f"profile {i}") if isinstance(p, Mapping) else p for i, p in enumerate(profiles))
    return BestProfile(tuple(choices), names, metric)


def _check_marker_fields(data: Mapping[str, Any], weapon: Weapon, kind: str) -> None:
    """Refuse a marker field the weapon's kind does not read: ``aim`` and ``edges`` beside a template (it is
    turned about the firer, never aimed at a model, and does not scatter), ``formation.firer_distance``
    beside a marker that is not a template (a Blast is placed over the target, wherever the firer stands)."""
    found = marker_kind_of(weapon)
    template = found is not None and found.shape == "template"
    if template:
        for key, why in (
            ("aim", "it is turned about the firer to cover the most models, never aimed at one"),
            ("edges", "it does not scatter, so no battlefield edge changes what it covers"),
        ):
            if data.get(key) is not None:
                raise ScenarioError(f"{key}: not read for {weapon.name!r}, a {kind}: {why}", field=key)
    formation = data.get("formation")
    if not template and isinstance(formation, Mapping) and "firer_distance" in formation:
        raise ScenarioError(
            f"formation.firer_distance: only templates read it; {weapon.name!r} is a {kind} marker placed over "
            "the target wherever the firer stands",
            field="formation.firer_distance",
        )


def _marker_volley(data: Mapping[str, Any], target: Unit) -> tuple[Volley, MarkerSetup]:
    """The volley and marker setup of a scenario with a ``formation``."""
    if data.get("hits") is not None:
        raise ScenarioError('hits: give either "hits" or "formation", not both')
    volley = parse_volley(data, kind="marker")
    if volley.mode != "shooting":
        raise ScenarioError(f"formation: markers and templates are shooting attacks, got mode {volley.mode!r}")
    setup = parse_marker_setup(data, target)
    bs = volley.attacker.BS
    if bs is None or not 1 <= bs <= 10:
        raise ScenarioError(f"attacker.BS: must be 1..10 to fire a marker, got {bs!r}")
    weapon = volley.weapon
    if setup.indirect and not (weapon.plays(Role.BARRAGE) or weapon.plays(Role.CLOVER)):
        raise ScenarioError(f"indirect: only Barrage weapons fire indirectly; {weapon.name!r} has no Barrage")
    kind = marker_kind(weapon)
    if kind is None:
        raise ScenarioError(f"formation: weapon {weapon.name!r} has no Blast, Barrage or Template rule")
    _check_marker_fields(data, weapon, kind)
    if isinstance(setup.shape, Hull) and kind in {"Template", "Hellstorm", "Torrent"}:
        raise ScenarioError("formation.hull: templates against vehicle hulls are not modelled yet")
    if isinstance(setup.shape, Hull) and kind == "Apocalyptic Barrage":
        raise ScenarioError("formation.hull: the Apocalyptic Barrage clover against hulls is not modelled yet")
    check_marker_cost(volley, setup, kind)
    return volley, setup
