"""Typed 3rd-edition records -> the engine's records: a roster's or catalog's statline
(:class:`~praetor_analysis.bsdata.Hh3Statline`) to an :class:`~praetor_analysis.profiles.Hh3Unit` of some models,
a weapon profile (:class:`~praetor_analysis.bsdata.Hh3RangedProfile`, :class:`~praetor_analysis.bsdata.Hh3MeleeProfile`)
to an :class:`~praetor_analysis.profiles.Hh3Weapon`, directly (no block between them).

The readings and refusals are the door's (``profiles.read_unit``/``read_weapon`` read a block through the same
typed halves, :func:`~praetor_analysis.profiles.unit_of_statline` and
:func:`~praetor_analysis.profiles.weapon_of_profile`). Records are immutable, so each is built once (a bounded
memo keyed by the frozen records).
"""

from __future__ import annotations

from functools import lru_cache

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.profiles import Hh3Unit, Hh3Weapon, unit_of_statline, weapon_of_profile
from praetor_analysis.units.hh3_target import Hh3Target, printed
from praetor_analysis.vehicles import Hh3VehicleTarget, vehicle_of_profile

__all__ = [
    "attacker_stats",
    "hh3_record_of_target",
    "hh3_unit_of_statline",
    "hh3_unit_of_target",
    "hh3_weapon_of_profile",
    "profile_marks_text",
]

_UNIT_STATS = {
    "Type": "unit_type", "M": "move", "WS": "ws", "BS": "bs", "S": "strength", "T": "toughness", "W": "wounds",
    "I": "initiative", "A": "attacks", "LD": "leadership", "CL": "cool", "WP": "willpower", "IN": "intelligence",
    "SAV": "save", "INV": "invulnerable",
}  # fmt: skip


def attacker_stats(statline: Hh3Statline) -> dict[str, str]:
    """The unit characteristics ``statline`` prints (``Type``, ``M``, ``WS``... ``INV``), by their names, empty ones
    left out; a vehicle's WS (no T, no WS) counts as ``"1"`` (it cannot strike: see
    :func:`~praetor_analysis.units.hh3_attack.hh3_one_way`)."""
    out = _stats(statline)
    if "T" not in out and "WS" not in out:
        out["WS"] = "1"
    return out


def _stats(statline: Hh3Statline) -> dict[str, str]:
    return {key: text for key, attr in _UNIT_STATS.items() if (text := str(getattr(statline, attr)))}


@lru_cache(maxsize=4096)
def hh3_unit_of_statline(statline: Hh3Statline, models: int, field: str = "attacker") -> Hh3Unit:
    """``models`` models of ``statline`` as an attacker (its name the statline's; its special rules are not read:
    a roster's rule texts are not in the statline), refusals named under ``field``.

    Raises:
        ProfileError: naming ``field.<characteristic>`` for an unreadable value.
    """
    stats = attacker_stats(statline)
    return unit_of_statline(statline.name, stats.pop("Type", None), stats, models=models, field=field)


@lru_cache(maxsize=4096)
def hh3_weapon_of_profile(profile: Hh3RangedProfile | Hh3MeleeProfile, field: str = "weapon") -> Hh3Weapon:
    """The weapon of a profile as printed (melee when it prints an ``IM``, ``AM`` or ``SM``), refusals named under
    ``field``.

    Raises:
        ProfileError: naming ``field.<characteristic>`` for an unknown or unreadable one.
    """
    rules = ", ".join(profile.special_rules) or None
    traits = ", ".join(profile.traits) or None
    extra = [key for key, _ in profile.extra]
    ap, d = profile.ap or None, profile.damage or 1
    if isinstance(profile, Hh3MeleeProfile):
        im, am, sm = profile.initiative_modifier or None, profile.attacks_modifier or None, profile.strength_modifier
        melee = bool(im or am or sm)
        return weapon_of_profile(
            profile.name, melee=melee, IM=im, AM=am, SM=sm or None, AP=ap, D=d, special_rules=rules, traits=traits,
            extra=extra, field=field,
        )  # fmt: skip
    return weapon_of_profile(
        profile.name, melee=False, R=profile.range or None, FP=profile.fire_power or None,
        RS=profile.ranged_strength or None, AP=ap, D=d, special_rules=rules, traits=traits, extra=extra, field=field,
    )  # fmt: skip


def profile_marks_text(profile: Hh3RangedProfile | Hh3MeleeProfile) -> str:
    """The text that names a marker, if any: its Special Rules, Traits and range as printed."""
    return " ".join((", ".join(profile.special_rules), ", ".join(profile.traits), getattr(profile, "range", "")))


@lru_cache(maxsize=4096)
def hh3_unit_of_target(target: Hh3Target, field: str = "target") -> Hh3Unit:
    """A target that is not a vehicle as a unit (its ``Cover`` and ``rules`` read when its statline prints them),
    refusals named under ``field``.

    Raises:
        ProfileError: naming ``field.<characteristic>`` for an unknown or unreadable one.
    """
    statline = target.statline
    stats = _stats(statline)
    more = dict(statline.extra)
    return unit_of_statline(
        statline.name, stats.pop("Type", None), stats, models=target.models, rules=more.get("rules"),
        cover=more.get("Cover"), target=True, extra=tuple(printed(statline)), field=field,
    )  # fmt: skip


@lru_cache(maxsize=4096)
def hh3_record_of_target(target: Hh3Target, field: str = "target") -> Hh3Unit | Hh3VehicleTarget:
    """The engine's record of ``target``: a vehicle's (:func:`~praetor_analysis.vehicles.vehicle_of_profile`) when
    it is one, else a unit's (:func:`hh3_unit_of_target`).

    Raises:
        ProfileError: naming ``field.<characteristic>`` for an unknown or unreadable one.
    """
    if target.given is not None:
        return target.given
    if not target.is_vehicle:
        return hh3_unit_of_target(target, field)
    st = target.statline
    more = dict(st.extra)
    return vehicle_of_profile(
        st.name, st.unit_type or None, front=st.front or more.get("Front"), side=st.side or more.get("Side"),
        rear=st.rear or more.get("Rear"),
        hp=st.hull_points or None, ws=st.ws or None, inv=st.invulnerable or None, cover=more.get("Cover"),
        rules=more.get("rules"), models=target.models, printed=(*printed(st), "models"), field=field,
    )  # fmt: skip
