"""Which rules of an edition 3 volley act, which have no effect here and which are not modelled, with the
reason for each (docs/rules-hh3.md): nothing in a profile is dropped without a word."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from praetor_analysis.engine.hh3.statuses import FLYER_IMMUNE
from praetor_analysis.engine.hh3.volley import (
    Hh3Volley,
    combat_size,
    outnumbered,
    shock_positions,
    shock_reaches,
    snap_forced,
)
from praetor_analysis.errors import counted_noun
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import RuleRef, declaration

__all__ = ["RuleReport", "stationary_verdict", "target_report", "volley_report"]


@dataclass
class RuleReport:
    """Rule labels by verdict, and the reason of each label that does not act."""

    applied: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    no_effect: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    def add(self, verdict: str, label: str, reason: str = "") -> None:
        """File ``label`` under ``verdict`` once (``applied``, ``not_modelled`` or ``no_effect``)."""
        bucket = getattr(self, verdict)
        if label not in bucket:
            bucket.append(label)
        if reason and verdict != "applied":
            self.reasons.setdefault(label, reason)

    def to_dict(self) -> dict[str, Any]:
        """The four lists as the contract's result writes them (fresh copies)."""
        return {
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
            "no_effect": list(self.no_effect),
            "reasons": dict(self.reasons),
        }

    def merge(self, other: RuleReport) -> None:
        """Add every label of ``other``."""
        for verdict in ("applied", "not_modelled", "no_effect"):
            for label in getattr(other, verdict):
                self.add(verdict, label, other.reasons.get(label, ""))


_STATUS_MELEE = "Tactical Status Checks follow Shooting Attacks only; no effect in melee"
_HITS_GIVEN = "the hits are given: no Hit Test is rolled, so no hit-roll rule triggers"


def _weapon_rule(rule: RuleRef, volley: Hh3Volley, target: Hh3Unit, out: RuleReport) -> None:
    ctx, label = volley.context, rule.label
    decl = declaration(rule.name)
    kind = decl.kind
    if kind == "hit":
        if ctx.hits is not None and rule.name != "Overload":
            out.add("no_effect", label, _HITS_GIVEN)
        elif rule.name == "Precision" and snap_forced(volley, target) and not ctx.melee:
            out.add("no_effect", label, "never on Snap Shots")
        elif rule.name == "Precision" and any(
            volley.weapon.rule(n) is not None for n in ("Blast", "Barrage", "Template", "Reaping Blow")
        ):
            out.add("no_effect", label, "never for Blast, Barrage, Template or Reaping Blow weapons")
        elif rule.name == "Overload" and ctx.melee:
            out.add("no_effect", label, "Misfires come from ranged Hit Tests")
        elif rule.name == "Overload" and (volley.attacker.t is None or volley.attacker.w is None):
            out.add("not_modelled", label, "the firer's losses need the attacker's T, W and saves")
        else:
            out.add("applied", label)
    elif kind == "wound" or kind == "after":
        out.add("applied", label)
    elif kind == "profile":
        on = ctx.charging and ctx.melee if rule.name == "Impact" else ctx.stationary and not ctx.melee
        if on:
            out.add("applied", label)
        else:
            why = "acts after a successful charge in melee" if rule.name == "Impact" else "acts only when Stationary"
            out.add("no_effect", label, why)
    elif kind == "status" and target.has_type("Flyer"):
        out.add("no_effect", label, FLYER_IMMUNE)
    elif kind == "status":
        out.add("no_effect" if ctx.melee else "applied", label, _STATUS_MELEE if ctx.melee else "")
    elif kind == "snap":
        if ctx.melee or not snap_forced(volley, target) or ctx.snap_shots:
            out.add("no_effect", label, "does not force Snap Shots here")
        else:
            out.add("applied", label)
    elif kind == "marker":
        if ctx.hits is not None:
            out.add("applied", label)
        else:
            out.add("not_modelled", label, "markers and templates: give `hits` (the markers stage is not wired yet)")
    elif kind == "shock":
        if shock_positions(volley, target):
            out.add("applied", label)
        elif target.has_type("Flyer"):
            out.add("no_effect", label, FLYER_IMMUNE)
        elif ctx.hits is not None and shock_reaches(target):
            out.add("no_effect", label, _HITS_GIVEN)
        elif shock_reaches(target):
            out.add("not_modelled", label, "names no status the engine knows (Pinned, Suppressed, Stunned)")
        else:
            out.add("no_effect", label, decl.reason)
    elif kind == "force":
        if not rule.value:
            out.add("not_modelled", label, "names no characteristic to double")
        elif volley.attacker.wp is None:
            out.add("not_modelled", label, "the Willpower Check needs the attacker's WP")
        else:
            out.add("applied", label)
            out.reasons.setdefault("perils", "Perils of the Warp is given as probabilities under force, not resolved")
    elif kind == "melee":
        if not ctx.melee:
            out.add("no_effect", label, "acts in melee only")
        elif outnumbered(volley, target):
            out.add("applied", label)
        else:
            size = combat_size(volley.attacker), combat_size(target)
            out.add(
                "no_effect",
                label,
                f"the attacking unit is not outnumbered ({counted_noun(size[0], 'model')} against {size[1]})",
            )
    elif kind in ("vehicle", "no_effect"):
        out.add("no_effect", label, decl.reason)
    elif kind == "defence":
        out.add("no_effect", label, "a rule of the target, not of a weapon")
    else:
        out.add("not_modelled", label, decl.reason)


def _bulky(rule: RuleRef, melee: bool, out: RuleReport) -> None:
    if melee:
        out.add("applied", rule.label)  # each model counts X when outnumbering (Reaping Blow)
    else:
        out.add("no_effect", rule.label, "counts only for outnumbering in melee")


def volley_report(volley: Hh3Volley, target: Hh3Unit) -> RuleReport:
    """The verdict on every rule and trait of the volley's weapon and attacker."""
    out = RuleReport()
    for rule in volley.weapon.rules:
        _weapon_rule(rule, volley, target, out)
    for trait in volley.weapon.traits:
        out.add("no_effect", trait.label, declaration(trait.name, trait=True).reason)
    for rule in volley.attacker.rules:
        if rule.name == "Bulky":
            _bulky(rule, volley.context.melee, out)
        elif rule.name in ("Feel No Pain", "Eternal Warrior", "Shrouded"):
            if (
                volley.weapon.rule("Overload") is not None
                and not volley.context.melee
                and volley.attacker.t is not None
            ):
                out.add("applied", rule.label)  # the firer's own defence against its Misfires
            else:
                out.add("no_effect", rule.label, "the attacker's defence: it acts only against its own Misfires")
        else:
            out.add("not_modelled", rule.label, "an attacker's special rule: not read by the edition 3 engine yet")
    if volley.context.range is not None and volley.weapon.range is not None and not volley.weapon.melee:
        out.add("applied", f'range {volley.context.range}"')
    stationary_verdict(volley, out)
    return out


#: Why ``"stationary": true`` changes nothing for a weapon without Heavy or Ordnance.
STATIONARY_NO_EFFECT = "the weapon has no Heavy or Ordnance rule: firers that stood still fire as if they had moved"


def stationary_verdict(volley: Hh3Volley, out: RuleReport) -> None:
    """Name the scenario's ``stationary`` flag of a shooting volley: ``applied`` when the weapon has Heavy or
    Ordnance (the rules it switches on), else ``no_effect`` with its reason (nothing dropped without a word)."""
    if not volley.context.stationary or volley.context.melee:
        return
    if any(volley.weapon.rule(name) is not None for name in ("Heavy", "Ordnance")):
        out.add("applied", "stationary")
    else:
        out.add("no_effect", "stationary", STATIONARY_NO_EFFECT)


def target_report(target: Hh3Unit, *, shooting: bool) -> RuleReport:
    """The verdict on the target's rules (Feel No Pain, Shrouded, Eternal Warrior act; others are named)."""
    out = RuleReport()
    for rule in target.rules:
        if rule.name in ("Feel No Pain", "Eternal Warrior") or (rule.name == "Shrouded" and shooting):
            out.add("applied", rule.label)
        elif rule.name == "Bulky":
            _bulky(rule, not shooting, out)
        elif rule.name == "Shrouded":
            out.add("no_effect", rule.label, "Shrouded acts against shooting only")
        else:
            out.add("not_modelled", rule.label, "a target's special rule: not read by the edition 3 engine yet")
    if target.cover is not None and not shooting:
        out.add("no_effect", f"Cover {target.cover}+", "no cover saves in melee")
    return out
