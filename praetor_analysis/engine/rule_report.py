"""Which rules of a volley were applied, had no effect, or are not modelled (see ``rules.classify``)."""

from __future__ import annotations

import re

from praetor_analysis.engine.set_aside import set_aside
from praetor_analysis.engine.volley import Volley, weapon_strength
from praetor_analysis.engine.wound_stage import save_context
from praetor_analysis.errors import ProfileError
from praetor_analysis.profiles import Unit, parse_rule
from praetor_analysis.rules import (
    NO_READS,
    PINNING_IMMUNE_TYPES,
    TOXIN_RESISTANT_TYPES,
    Role,
    RuleReport,
    Situation,
    Stage,
    TargetReads,
    lookup,
    reads,
    reads_of,
    wound_chain,
)
from praetor_analysis.rules.classify import classify


def shot_label(volley: Volley) -> str | None:
    """The weapon's kind and shots as applied (``Heavy 2``, ``Rapid Fire``), or None for a melee weapon."""
    t = volley.weapon.type
    if not t.kind or t.kind == "Melee":
        return None
    return f"{t.kind} {t.shots}" if t.shots and t.kind != "Rapid Fire" else t.kind


def fresh_single_wound(target: Unit) -> bool:
    """Whether no model of the target can have lost a wound: a unit of one-wound models (a damaged first
    model needs ``wounds_taken`` < W, so it has none; a unit asking for more is refused before any rule)."""
    return target.W == 1


def situation_of(volley: Volley, target: Unit) -> Situation:
    """What the conditions of the rules of a volley against a target read."""
    a = volley.attacker
    fresh = fresh_single_wound(target)
    return Situation(
        melee=volley.mode == "melee",
        half_range=volley.half_range,
        target_type=target.unit_type,
        target_name=target.name,
        target_wounds=target.W,
        placement=volley.placement,
        target_fresh_single_wound=fresh,
        charging=volley.mode == "melee" and a.charging and not a.disordered,
    )


def classification_reads(volley: Volley, target: Unit) -> TargetReads:
    """What ``classify_rules`` reads of the target's Unit Type and name besides its rules and whether it is
    fresh: what the rules of the weapon, the attacker and the target declare (``RuleDecl.reads``: their unit
    types and conditions), and the Unit Types never Pinned for a Pinning weapon."""
    return volley_classification_reads(volley) | reads_of(t.name for t in target.rules)


def volley_classification_reads(volley: Volley) -> TargetReads:
    """The part of ``classification_reads`` that the volley decides."""
    w = volley.weapon
    pinning = reads(PINNING_IMMUNE_TYPES) if w.plays(Role.PINNING) else NO_READS
    return pinning | reads_of(t.name for t in (*w.rules, *w.stage_rules, *volley.attacker.rules))


def classify_rules(volley: Volley, target: Unit, notes: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for every rule in the weapon, target and attacker, in the wound
    chain; ``notes`` (charging, Snap Shots...) are added to the applied ones."""
    report = RuleReport()
    label = shot_label(volley)
    if label is not None:
        report.add("applied", label)
    for note in volley.taken:  # the options taken, which rewrote the profile (docs/scenario.md#options)
        report.add("applied", note)
    if volley.weapon.strength.kind == "unknown" and weapon_strength(volley) is None:
        text = volley.weapon.strength.text
        report.add("no_effect" if text == "-" else "not_modelled", f"Strength {text}")
    situation = situation_of(volley, target)
    resolution = wound_chain(melee=situation.melee, marker_hits=volley.hits is not None, placement=volley.placement)
    classify(
        resolution, situation, volley.weapon.rules, {"target": target.rules, "attacker": volley.attacker.rules}, report
    )
    # a higher-ranked rule sets the same roll (docs/rules.md#rules-that-set-the-same-roll)
    for entry, by in set_aside(volley, target, resolution).items():
        if entry in report.applied:
            report.applied.remove(entry)
            report.add("no_effect", f"{entry} (set aside by {by})")
    w = volley.weapon
    saves = save_context(volley, target) if target.T is not None else None
    if saves is not None and saves.heavy_reroll:
        # the Heavy sub-type's rule, which the marker's save hook reads (docs/rules.md#unit-types)
        report.add("applied", "target: Heavy (re-rolls failed armour saves against Blast and Template)")
    if saves is not None and saves.shrouded_denied:
        demote_mitigation_roll(target, report)
    if saves is not None and saves.cover_denied and target.cover is not None:
        report.add("no_effect", f"target: Cover {target.cover}+")  # the field acts on nothing: say so
    if w.plays(Role.TOXIN):  # the unit types' rule, which those wound hooks read
        for word in TOXIN_RESISTANT_TYPES:
            if target.has_type(word):
                report.add("applied", f"target: {word} (re-rolls successful Poisoned and Fleshbane wounds)")
    if w.plays(Role.PINNING) and volley.mode != "melee":  # a unit type never Pinned (docs/rules.md#unit-types)
        for word in PINNING_IMMUNE_TYPES:
            if target.has_type(word):
                report.add("applied", f"target: {word} (never Pinned)")
    report.applied.extend(notes)
    return report.lists()


def demote_mitigation_roll(target: Unit, report: RuleReport) -> None:
    """Report the target's Shrouded under ``no_effect`` when the attack denies it (melee, Ignores Cover or a
    template, a Fearless target, Night Vision): the save context the numbers use takes it away
    (docs/rules.md#shrouded)."""
    roll = target.with_role(Role.MITIGATION_ROLL)
    if roll is not None:
        report.demote(f"target: {roll.text}")


#: Why an entry that is not a rule of the weapon or a unit is listed (the weapon's own characteristics).
ENTRY_REASONS = {
    "Strength -": "no Strength: the weapon makes no wound roll and no armour penetration, only its rules act",
    "Strength": "a Strength the engine cannot read, and no rule of the weapon gives one",
    "Cover": "no cover save in melee, against Ignores Cover or a template (nor against Haywire on a vehicle)",
    # the markers' geometry, where it falls back (markers/attack.py, units/marker_volley.py)
    "Multiple Barrages against a hull (each marker scatters on its own)": (
        "the placement of the other markers beside the first is computed for formations of bases only"
    ),
    "Multiple Barrages of Mega-blast markers (each marker scatters on its own)": (
        "the placement of the other markers beside the first is computed for blast markers only"
    ),
    'Apocalyptic Mega-blast zones against a hull (one 10" marker at the outer Strength)': (
        "the zones are computed for formations of bases only"
    ),
    "Twin-linked's scatter re-roll for Multiple Barrages": "the markers are placed as if none re-rolled its scatter",
    "Twin-linked's scatter re-roll for the Apocalyptic Barrage clover": "the clover scatters as if not re-rolled",
}
#: Rules the data names in weapon profiles without giving their text anywhere.
UNDESCRIBED = frozenset({"Thunderstrike", "Sundering", "Harrower", "Hammerhand"})


def reason_of(entry: str) -> str:
    """Why an entry of a result's ``no_effect`` or ``not_modelled`` list is there, in one line (the rule's
    summary in our own words; a rule without a declaration is one the engine does not know)."""
    text = entry.split(": ", 1)[1] if entry.startswith(("target: ", "attacker: ")) else entry
    text = re.sub(r" \(from [^()]+\)$", "", text)  # a rule granted by the Unit Type
    by = re.search(r" \(set aside by (.+)\)$", text)
    if by is not None:
        return f"set aside by {by.group(1)}, which sets the same roll (the higher-ranked rule's roll stands)"
    first = text.split(" ", 1)[0]
    if text in ENTRY_REASONS:
        return ENTRY_REASONS[text]
    if first in ENTRY_REASONS and text != first:
        return ENTRY_REASONS[first]
    try:
        token = parse_rule(text)
    except ProfileError:
        return "not a rule the engine knows"
    decl = lookup(token.name)
    if decl is None or not token.known:
        if token.name in UNDESCRIBED:
            return "the data names this rule but gives no text for it anywhere: not modelled"
        return "not a rule the engine knows"
    if not decl.modelled:
        if "not computed" not in decl.summary and "no text" not in decl.summary:
            return f"known by name, not computed yet ({', '.join(sorted(s.value for s in decl.stages))})"
        return decl.summary
    if decl.pending:
        pending = ", ".join(sorted(s.value for s in decl.pending))
        return f"{decl.summary}; not computed yet: its effect on {pending}"
    return decl.summary


#: Why a rule of the Pinning test does nothing to a target struck in melee (docs/rules.md#pinning-test).
LOCKED_REASON = "the target is locked in combat (a melee attack strikes it), so it takes no Pinning test"


def reasons(
    no_effect: list[str], not_modelled: list[str], *, hits_given: bool = False, locked: bool = False
) -> dict[str, str]:
    """``{entry: why}`` for every entry of the two lists (docs/scenario.md ``reasons``); ``hits_given``: the
    scenario gives the hits, so a unit's To Hit rule under ``no_effect`` says that no To Hit roll is made;
    ``locked``: a melee attack strikes the target, so a rule of the Pinning test under ``no_effect`` says
    that the target, locked in combat, takes none."""
    out = {entry: reason_of(entry) for entry in (*no_effect, *not_modelled)}
    if locked:
        for entry in no_effect:
            if morale_only(entry):
                out[entry] = f"{LOCKED_REASON} ({out[entry]})"
    if hits_given:
        for entry in no_effect:
            if entry.startswith(("target: ", "attacker: ")) and _to_hit_only(entry.split(": ", 1)[1]):
                out[entry] = f"the hits are given, so no To Hit roll is made for it to change ({out[entry]})"
    return out


def _to_hit_only(text: str) -> bool:
    """Whether the rule ``text`` acts on the To Hit roll alone."""
    try:
        decl = lookup(parse_rule(text).name)
    except ProfileError:
        return False
    return decl is not None and decl.stages == {Stage.TO_HIT}


def morale_only(entry: str) -> bool:
    """Whether the rule of a result's entry (``"target: "`` and the like stripped) acts on the Pinning and
    Leadership tests alone (``Stage.MORALE``): Pinning, Shell Shock, Stubborn, Locked in Combat..."""
    text = entry.split(": ", 1)[1] if entry.startswith(("target: ", "attacker: ")) else entry
    try:
        decl = lookup(parse_rule(text).name)
    except ProfileError:
        return False
    return decl is not None and decl.stages == {Stage.MORALE}


def locked_lists(applied: list[str], no_effect: list[str]) -> tuple[list[str], list[str]]:
    """(applied, no_effect) of a sequence whose target is locked in combat (a volley of it is a melee attack):
    the rules of the Pinning test that a shooting volley applied move to ``no_effect``, as one-way melee
    classifies them (``wound_chain``)."""
    moved = [e for e in applied if morale_only(e)]
    return [e for e in applied if e not in moved], [*no_effect, *(e for e in moved if e not in no_effect)]
