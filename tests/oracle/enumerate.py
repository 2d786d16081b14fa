"""Brute-force oracle: the game procedure of MECHANICS.md followed die by die, exactly.

Independent of praetor_analysis (never imported).  Every D6 is rolled explicitly: a distribution is a dict
{state: probability}, and each step replaces every state by its six faces (1/6 each) or leaves it alone when no
die is needed; equal states are merged.  No binomial or convolution shortcut is used anywhere.

Readings chosen where MECHANICS.md leaves room (one per line, for comparison with the engine):
- Saves and Feel No Pain / Shrouded rolls: a natural 1 always fails (a "1+" value acts as 2+).
- Master-crafted: one re-roll per attacking model for its own shots (never pooled across the unit), taken
  after that model's first dice are rolled.
- Master-crafted, BS 1-5 and melee: the re-roll goes to a failed die showing a natural 1 if there is one
  (same chance to hit, and it may avoid a Gets Hot), else to any other failed die.
- Master-crafted, BS 6-10: the re-roll is spent on one natural 1 at the first target (2+), never worse than
  the BS re-roll at 12-BS; every other 1 takes the BS re-roll.  A failed re-roll is never re-rolled again.
- Twin-linked re-rolls every failed To Hit roll at the first target (BS 6+: a 1 is re-rolled on 2+, replacing
  the BS re-roll); it applies in melee too; Master-crafted then has nothing left to re-roll.
- Re-rolls of 1 (Preferred Enemy, "Re-roll To Hit 1s" / "Re-roll To Wound 1s"): a natural 1 is rolled again
  at the first target (at BS 6+ instead of the BS re-roll); never a die already re-rolled (Twin-linked,
  Shred). With them, or at BS 6+ when another die failed, Master-crafted goes to a failure not yet re-rolled.
  Preferred Enemy (X): the target's name or Unit Type contains X; bare, every target.
- To Hit / To Wound modifiers: added to the natural face (a natural 1 still fails); Rending, Breaching and
  Murderous Strike read the natural face.
- Melee To Hit (HH2's chart): WS more than twice the defender's 2+, higher 3+, the defender's more than twice
  the attacker's 5+, else 4+.
- BS above 10 counts as 10; BS 0 never hits.  Snap shots use BS 1 (6+), re-rolls still allowed.
- Gets Hot only in shooting.  With `hits` given, one Gets Hot D6 per shot (the weapon's shots times the
  models, or `attacks`), the hits dealt round-robin among the shots; a 1 loses that shot's hits.  The die
  is not a To Hit roll, so it is never re-rolled (not by Twin-linked, Master-crafted or a re-roll of 1s), and `hits` reports the hits left after it.  The firer saves with the best of armour (unless AP negates it) and invulnerable,
  then his Feel No Pain; Gets Hot is never Instant Death.
- Psychic Focus: the shots (or `hits`) are dealt round-robin among attacker.models (after rolling a dice
  expression for the total); each model with at least one shot takes its own check; "perils" is P(at least
  one failed check), "attack_happens" is P(at least one model passed).
- Default shots given by dice (Heavy D3): each attacking model rolls its own.
- Melee default attacks: two_weapons adds 1 unless the weapon is Two-handed (Specialist Weapon is taken as
  the user's statement that both weapons qualify).
- Rending sets AP 2 in shooting and min(weapon AP, 2) in melee; Breaching sets AP 2; AP 1 and AP 2 wounds
  form one allocation class.
- Allocation classes inside one batch: Instant Death wounds, then AP 1/2 wounds, then the rest; within a
  class wounds are iid, taken one at a time in random order (each wound of the class alike to come next).
- Every wound (and every Brutal sub-wound) rolls its save and mitigation even once no model is left;
  those that get through count in `unsaved` (and feed Deflagrate) without being allocated.
- Brutal sub-wounds of one wound all go to the model the wound was allocated to; once it dies the rest
  are lost (still rolled and counted in `unsaved`).
- Eternal Warrior turns every Instant Death wound (weapon rule, Murderous Strike, S >= 2T) into one wound
  keeping its AP; Feel No Pain is still not allowed against it (issue 13).  Shrouded is allowed against Instant Death wounds.
- Save choice: the option with the best chance to save (the Heavy sub-type re-roll counted, for armour
  only, against Blast/Template/Barrage).  Cover: shooting only, not against Ignores Cover or Template.
- Shrouded is denied in melee, by Ignores Cover and Template (templates have Ignores Cover), and to Fearless
  targets.
- Battle-Hardened (X): the Strength's Instant Death needs S >= 2 x (T + X); the wound roll keeps T.
- Swarm: an unsaved wound of a Blast or Template weapon does 2 wounds to its model (the excess lost, as
  for Destroyer); `unsaved` still counts it once.
- Deflagrate: the extra hits are a second batch after the whole attack (own allocation order), with no
  To Hit roll and no Gets Hot die; they can Rend, Breach, Murderous Strike and Brutal like the attack, but
  none of the attacker's own rules acts on them (Preferred Enemy, re-rolls of 1, To Wound modifiers, Night
  Vision).
- Pinning: pinned is None whenever the target is exempt (Fearless, Pinned, Locked in combat, Embarked;
  struck in melee, by the scenario or a volley of the sequence, it is locked in combat), even if no weapon
  has Pinning; else 0.0 without a Pinning weapon.  Shell Shock counts only with Pinning;
  if several Pinning weapons of one firing unit wound, the largest Shell Shock applies.  A unit already
  Pinned by an earlier firing unit does not test again; no test when no model is left.
- Blast/Template/Barrage weapons in shooting need `hits` (the oracle has no geometry).
- Graviton Pulse: the model avoids the wound on a D6 under its Strength (a 6 never avoids it, a 1 always
  does); not on Dreadnoughts or Automata; it replaces the To Wound roll, so Fleshbane, Poisoned and Sanctic do
  not change it (Entangle's wounds stay discarded).  Graviton Collapse: two dice, avoided on a total at most S; no
  Shrouded.  Data-djinn: no wound unless Automata or Dreadnought.  Immaterial Blades: a 6 to wound at the
  better of the bracket's AP and its own.  Synaptic Disruptor: a 6 wounds with no save or mitigation.
  Sanctic: Daemons wounded on 2+.  Curse of Dead Worlds: invulnerable one worse (6+ at worst).
  Destructor: a D6 rolled per unsaved wound (2D6 on large targets), that many wounds on the model, the rest
  lost; Moonsilver: two wounds on a Daemon or Psyker; Destroyer: a D3 (a D6 halved up) per unsaved wound.
  Sanctic: a Daemon re-rolls its passed invulnerable saves (once).
- Haywire against a Dreadnought, Automata or Mechanised target: one D6 instead of the wound roll (never
  re-rolled): 1 nothing, 2-5 a wound allowing only the invulnerable save and mitigation, 6 a wound allowing
  neither.  Neutron-flux: Instant Death against Automata.
- Entangle: the wound roll compares S with the target's S; its wounds count in `wounds` and are discarded
  (no save rolled, never unsaved).
- Molecular Dissonance: a hit whose standing To Hit die shows 6 wounds without a roll, as the weapon's plain
  wound (not Primarchs); Deflagrate's extra hits have no To Hit die.
- Force, Achean Force, Divine Guidance (one attacking model only): a Psychic check (Leadership test) first;
  a pass doubles S (Force) or adds 2 (10 at most); a failure of Force or Divine Guidance is Perils and the
  plain S; Force and Achean Force are Instant Death on Daemons.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from . import dice as _dice
from .dice import (
    arithmetic,
    certain,
    chance_saved,
    d6,
    d6_faces,
    dice_total,
    each_state,
    leadership_test,
    marginal,
    merge_paths,
    pmf_list,
    probability,
    save_outcomes,
    stay,
    succeeds,
)
from .parse import Attacker, Target, Weapon, dice_expr, parse_attacker, parse_target, parse_weapon


# ---------------------------------------------------------------------------------------------- state
class St(NamedTuple):
    """Everything the rest of the procedure still needs.  Fields left at their defaults merge."""

    models: int  # models left in the target unit
    wleft: int  # wounds left on the model being worked on
    casualties: int = 0
    unsaved: int = 0  # unsaved wounds so far, whole sequence
    pin_ss: int = -1  # this firing unit: -1 = no unsaved Pinning wound yet, else largest Shell Shock
    pinned: bool = False
    # one volley
    todo: tuple = ()  # shots (or automatic hits) of each attacking model, before Psychic checks
    queue: tuple = ()  # shots of each model that fires, awaiting its To Hit dice
    shots: int = 0  # shots awaiting the first To Hit die (or automatic hits awaiting Gets Hot)
    hits: int = 0
    sixes: int = 0  # of the hits, those whose standing To Hit die shows 6 (Molecular Dissonance only)
    ones: int = 0  # failed To Hit dice showing a natural 1, not yet re-rolled
    misses: int = 0  # other failed To Hit dice, not yet re-rolled
    mc: bool = False  # Master-crafted re-roll still unused
    hot: int = 0  # Gets Hot wounds awaiting the firer's save
    self_wounds: int = 0
    perils: bool = False
    happens: bool = False
    to_wound: int = 0  # hits awaiting their To Wound roll
    wounds: int = 0  # successful To Wound rolls of the attack itself
    pool: tuple = ()  # wounds awaiting saves, sorted in allocation order: (class, instant, ap)
    current: tuple | None = None  # the wound being saved (Brutal: its sub-wounds)
    sub_left: int = 0
    alive: bool = False  # the model that wound went to still stands
    volley_unsaved: int = 0
    extra: bool = False  # Deflagrate's extra hits being saved (their own save plans)


def forget(dist: dict, **defaults) -> dict:
    """Reset fields nothing later needs, so that states merge."""
    return each_state(dist, lambda s: stay(s._replace(**defaults)))


def run_until_done(dist: dict, has_work, step) -> dict:
    """Apply `step` (one die, or one wound's dice) to every state that `has_work`, until none has."""
    while any(has_work(s) for s in dist):
        dist = each_state(dist, lambda s: step(s) if has_work(s) else stay(s))
    return dist


# ---------------------------------------------------------------------------------------------- volley
@dataclass(frozen=True)
class Volley:
    melee: bool
    snap_shots: bool
    weapon: Weapon
    attacker: Attacker
    counts: dict  # {sorted tuple of per-model shots or hits: probability}
    automatic: bool  # `hits` given: no To Hit roll
    shots: dict | None = None  # with `hits` and Gets Hot: {number of shots: probability}, one Gets Hot die each
    half_range: bool = False


def round_robin(total: int, models: int) -> tuple:
    models = max(models, 1)
    return tuple(sorted(total // models + (1 if i < total % models else 0) for i in range(models)))


def parse_volley(v: dict) -> Volley:
    for field in ("target_weapon", "formation", "positions"):
        if field in v:
            raise NotImplementedError(f"the oracle does not model {field!r}")
    melee = v.get("mode", "shooting") == "melee"
    if v.get("mode", "shooting") not in ("shooting", "melee"):
        raise ValueError(f"mode {v.get('mode')!r}")
    weapon = parse_weapon(v["weapon"], v["attacker"])
    attacker = parse_attacker(v["attacker"], weapon)
    automatic = v.get("hits") is not None
    if not automatic and not melee and (weapon.blast or weapon.template):
        raise NotImplementedError("Blast/Template weapons need `hits` in the oracle")
    if automatic or v.get("attacks") is not None:
        total = dice_total(dice_expr(v["hits"] if automatic else v["attacks"]))
        counts = {}
        for t, p in total.items():
            key = round_robin(t, attacker.models)
            counts[key] = counts.get(key, 0) + p
    elif melee:
        counts = certain(round_robin(attacker.attacks * attacker.models, attacker.models))
    else:
        if weapon.shots is None:
            raise ValueError("no shot count in the weapon Type and no `attacks`")
        per_model = dice_total(weapon.shots)
        counts = certain(())
        for _ in range(attacker.models):  # each model rolls its own shots
            counts = each_state(counts, lambda c: [(p, tuple(sorted((*c, n)))) for n, p in per_model.items()])
    shots = None
    if automatic and weapon.gets_hot and not melee:
        if weapon.psychic_focus:
            raise NotImplementedError("the oracle does not combine `hits`, Gets Hot and Psychic Focus")
        if v.get("attacks") is not None:
            shots = dice_total(dice_expr(v["attacks"]))
        else:
            per_model = dice_total(weapon.shots) if weapon.shots is not None else certain(1)
            shots = certain(0)
            for _ in range(attacker.models):
                shots = each_state(shots, lambda n: [(p, n + k) for k, p in per_model.items()])
    return Volley(
        melee, bool(v.get("snap_shots")), weapon, attacker, counts, automatic, shots, bool(v.get("half_range"))
    )


def to_hit_needs(v: Volley, t: Target) -> tuple[int | None, int | None]:
    """(first target, BS 6+ second target or None)."""
    if v.melee:
        a, d = v.attacker.ws, t.ws
        return (2 if a > 2 * d else 3 if a > d else 5 if d > 2 * a else 4), None
    bs = 1 if v.snap_shots else min(v.attacker.bs, 10)
    if bs <= 0:
        return None, None
    if bs <= 5:
        return 7 - bs, None
    return 2, 12 - bs


def preferred(v: Volley, t: Target) -> bool:
    """The target is the attacker's Preferred Enemy: any target for a bare rule, else one whose name or Unit
    Type contains X (case-insensitive)."""
    x = v.attacker.preferred_enemy
    return x is not None and (x == "" or x.lower() in t.name.lower() or x.lower() in t.unit_type.lower())


def modified_success(face: int, need: int | None, modifier: int) -> bool:
    """A roll of `need`+ with `modifier` added to the face; a natural 1 always fails."""
    return need is not None and face != 1 and face + modifier >= need


def armourbane_acts(v: Volley) -> bool:
    """Armourbane (Melta) acts at half range only, (Melee) in melee only, (Ranged) when shooting only."""
    variant = v.weapon.armourbane_variant
    return (
        variant == ""
        or (variant == "melta" and v.half_range)
        or (variant == "melee" and v.melee)
        or (variant == "ranged" and not v.melee)
    )


def wound_need(s: int, toughness: int) -> int | None:
    if s >= toughness + 2:
        return 2
    if s == toughness + 1:
        return 3
    if s == toughness:
        return 4
    if s == toughness - 1:
        return 5
    if s >= toughness - 3:
        return 6
    return None


def plain_wound(v: Volley, t: Target) -> tuple:
    """The wound class of a hit that wounds without a roll (Molecular Dissonance's sixes)."""
    return wound_outcomes(v, t, plain=True)  # type: ignore[return-value]


def wound_outcomes(v: Volley, t: Target, plain: bool = False) -> list[tuple[object, tuple | None]]:
    """One To Wound die (and its re-roll): (probability, wound class or None) for every face path; with
    `plain`, the class of a wound made without a roll."""
    w = v.weapon
    need = wound_need(w.strength, t.toughness)
    if w.entangle:  # the attack's Strength against the target's
        need = wound_need(w.strength, t.strength)
    # Graviton Pulse spares Dreadnoughts and Automata; Graviton Collapse spares only armoured targets
    graviton = w.graviton_collapse or (w.graviton_pulse and not t.dreadnought_or_automata)
    if w.sanctic and t.daemon:
        need = 2
    if w.fleshbane:  # it sets the need of any To Wound roll, Entangle's included
        need = 2
    if w.poisoned is not None:
        need = w.poisoned if need is None else min(need, w.poisoned)
    if w.graviton_pulse and graviton:  # not a To Wound roll: Fleshbane, Poisoned and Sanctic do not change it
        need = min(max(t.strength, 2), 6)
    reroll = (
        w.shred
        or (w.armourbane and armourbane_acts(v) and (t.dreadnought_or_automata or t.mechanised))
        or (w.poisoned is not None and v.melee and w.strength > t.toughness)
        or (w.twin_linked and w.template)  # Twin-linked Template weapons re-roll failed To Wound rolls
    )
    # Dreadnought, Automata and Mechanised models re-roll the successful wounds of Poisoned and Fleshbane
    # attacks (their unit-type rules; not Gargantuan, MECHANICS 4b); a die is still re-rolled at most once
    reroll_success = (w.poisoned is not None or w.fleshbane) and t.toxin_resistant
    reroll_ones = v.attacker.reroll_wound_ones or preferred(v, t)

    def wounds(face):
        if w.six_unsavable and face == 6:
            return True
        return modified_success(face, need, v.attacker.wound_modifier) or (
            w.rending is not None and succeeds(face, w.rending)
        )

    def classify(face, wounded=None):
        if not (wounds(face) if wounded is None else wounded):
            return None
        ap = w.ap
        if w.rending is not None and face >= w.rending:
            ap = min(ap, 2) if v.melee else 2
        if w.breaching is not None and face >= w.breaching:
            ap = 2
        if w.six_ap is not None and face == 6:
            ap = min(ap, w.six_ap)
        instant = w.instant_death or (
            w.strength >= 2 * (t.toughness + t.battle_hardened) and not graviton and not w.entangle
        )
        instant = instant or (w.murderous is not None and face >= w.murderous)
        instant = instant or (w.neutron_flux and t.automata)
        instant = instant or (w.check in ("force", "achean force") and t.daemon)
        no_fnp = instant  # Feel No Pain is never taken against an Instant Death wound, Eternal Warrior or not
        if t.eternal_warrior:
            instant = False
        rank = 0 if instant else 1 if ap <= 2 else 2
        saves = "discarded" if w.entangle else "none" if w.six_unsavable and face == 6 else "all"
        return (rank, instant, ap, no_fnp, saves)

    if plain:
        return classify(0, wounded=True)  # type: ignore[return-value]
    if w.haywire and (t.dreadnought_or_automata or t.mechanised):  # a D6 instead of the wound roll
        return merge_paths(
            (p, None if face == 1 else (2, False, 7, False, "none" if face == 6 else "invulnerable"))
            for p, face in d6_faces()
        )
    if w.data_djinn and not t.dreadnought_or_automata:
        return [(_dice.ONE, None)]
    if w.entangle and (t.primarch or t.wounds >= 6):  # Entangle: such a model rolls no wound at all
        return [(_dice.ONE, None)]
    if w.graviton_collapse and graviton:  # two dice against the model's Strength
        return merge_paths(
            (p * q, classify(0, wounded=a + b > t.strength)) for p, a in d6_faces() for q, b in d6_faces()
        )
    out = []
    for p, face in d6_faces():
        again = reroll or (reroll_ones and face == 1)
        if (not wounds(face) or not reroll_success) and (wounds(face) or not again):
            out.append((p, classify(face)))
        else:
            for q, again in d6_faces():
                out.append((p * q, classify(again)))
    return merge_paths(out)


def damage_outcomes(w: Weapon, t: Target) -> list[tuple[object, int]]:
    """(probability, wounds lost) of one unsaved wound, die by die."""
    if w.destructor:
        if t.large:
            return merge_paths((p * q, a + b) for p, a in d6_faces() for q, b in d6_faces())
        return [(p, face) for p, face in d6_faces()]
    if w.moonsilver and (t.daemon or t.psyker):
        return [(_dice.ONE, 2)]
    if t.swarm and (w.blast or w.template):  # an Instant Death wound removes the model whatever this says
        return [(_dice.ONE, 2)]
    if w.destroyer:  # a D3: a D6 halved, rounded up
        return merge_paths((p, (face + 1) // 2) for p, face in d6_faces())
    return [(_dice.ONE, 1)]


def wound_save_plan(v: Volley, t: Target, instant: bool, ap: int, no_fnp: bool = False, saves: str = "all"):
    """(save need, re-roll failed save, mitigation need, re-roll passed save) for one wound of the given kind;
    `saves` "invulnerable": only the invulnerable save and mitigation (Haywire against a Dreadnought)."""
    w = v.weapon
    options = []
    phase = 0 if v.melee else 1  # a save of one phase: melee attacks, or shooting attacks
    armour = min((x for x in (t.save, t.phase_armour[phase]) if x is not None), default=None)
    if armour is not None and ap > armour and saves == "all":
        options.append((max(armour, 2), t.heavy and (w.blast or w.template), False))
    invulnerables = [x for x in (t.invulnerable, t.aegis, t.phase_invulnerable[phase]) if x is not None]
    if t.adamantium is not None and (w.check == "force" or w.psychic_focus):  # Force and Psychic Focus weapons
        invulnerables.append(t.adamantium)
    if invulnerables:
        best = min(invulnerables)
        need = min(max(best, 2) + int(w.curse), 6) if w.curse else max(best, 2)
        options.append((need, False, w.sanctic and t.daemon))  # Sanctic: a Daemon re-rolls a passed one
    if t.cover is not None and not v.melee and not w.ignores_cover and not w.template and saves == "all":
        options.append((max(t.cover, 2), False, False))
    save, reroll, again = max(options, key=lambda o: chance_saved(*o), default=(None, False, False))
    mitigations = []
    if t.feel_no_pain is not None and not instant and not no_fnp:
        mitigations.append(max(t.feel_no_pain, 2))
    if (
        t.shrouded is not None
        and not v.melee
        and not w.ignores_cover
        and not w.template
        and not t.fearless
        and not w.graviton_collapse
        and not v.attacker.night_vision
    ):
        mitigations.append(max(t.shrouded, 2))
    return save, reroll, min(mitigations, default=None), again


def resolve_volley(dist: dict, v: Volley, t: Target, record: dict | None = None) -> dict:
    """One weapon's attack against the target, every state of `dist` carried through."""
    w, a = v.weapon, v.attacker
    shooting = not v.melee

    # How many shots (or automatic hits) each attacking model has.
    dist = each_state(dist, lambda s: [(p, s._replace(todo=c, mc=w.master_crafted)) for c, p in v.counts.items()])

    # Psychic Focus: one Leadership check per attacking model before To Hit.
    def psychic_check(s):
        n, s = s.todo[0], s._replace(todo=s.todo[1:])
        if n == 0:
            return stay(s)
        return [
            (p, s._replace(shots=s.shots + n, queue=(*s.queue, n), happens=True) if passed else s._replace(perils=True))
            for p, passed in leadership_test(a.ld)
        ]

    if w.psychic_focus:
        dist = run_until_done(dist, lambda s: s.todo, psychic_check)
        if record is not None:
            record["perils"] = probability(dist, lambda s: s.perils)
            record["attack_happens"] = probability(dist, lambda s: s.happens)
        dist = forget(dist, perils=False, happens=False)
    else:
        dist = each_state(dist, lambda s: stay(s._replace(shots=sum(s.todo), queue=s.todo, todo=())))

    gets_hot = w.gets_hot and shooting
    if v.automatic:
        # No To Hit roll; with Gets Hot each shot first rolls a D6 (the hits dealt round-robin among the
        # shots), and a 1 loses that shot with its hits and wounds the firer.
        def deal(s):
            return [(p, s._replace(queue=round_robin(s.shots, n) if n else (), shots=0, hits=0 if n else s.shots))
                    for n, p in v.shots.items()]  # fmt: skip

        def gets_hot_die(s):
            share, s = s.queue[0], s._replace(queue=s.queue[1:])
            return d6(lambda f: s._replace(hot=s.hot + 1) if f == 1 else s._replace(hits=s.hits + share))

        if gets_hot:
            dist = each_state(dist, deal)
            dist = run_until_done(dist, lambda s: s.queue, gets_hot_die)
        else:
            dist = each_state(dist, lambda s: stay(s._replace(hits=s.shots, shots=0)))
    else:
        first, second = to_hit_needs(v, t)
        hit_mod = a.hit_modifier
        six_wounds = w.molecular and not t.primarch  # a To Hit roll of 6 wounds without a roll

        def hit(s, f):
            return s._replace(hits=s.hits + 1, sixes=s.sixes + int(six_wounds and f == 6))

        hit_ones = a.reroll_hit_ones or preferred(v, t)

        def first_die(s):
            s = s._replace(shots=s.shots - 1)

            def face(f):
                if modified_success(f, first, hit_mod):
                    return hit(s, f)
                if f == 1:
                    return s._replace(ones=s.ones + 1)
                return s._replace(misses=s.misses + 1)

            return d6(face)

        def reroll_die(s):
            natural_one = s.ones > 0
            s = s._replace(ones=s.ones - 1) if natural_one else s._replace(misses=s.misses - 1)
            need = None
            if w.twin_linked or (natural_one and hit_ones):  # Twin-linked, or a re-roll of 1s: at the first target
                need = first
            elif second is not None and natural_one:  # BS 6-10
                if s.mc and not s.misses:  # Master-crafted goes to another failure when there is one
                    need, s = first, s._replace(mc=False)  # see the module docstring
                else:
                    need = second
            elif s.mc:
                need, s = first, s._replace(mc=False)
            if need is None:  # the failed die stands
                return stay(s._replace(hot=s.hot + 1) if (natural_one and gets_hot) else s)
            return d6(
                lambda f: (
                    hit(s, f)
                    if modified_success(f, need, hit_mod)
                    else s._replace(hot=s.hot + 1)
                    if (f == 1 and gets_hot)
                    else s
                )
            )

        def hit_step(s):
            # model by model: its first dice, then its re-rolls (natural 1s first: Master-crafted prefers
            # them), then the next model with a fresh Master-crafted re-roll
            if s.shots:
                return first_die(s)
            if s.ones or s.misses:
                return reroll_die(s)
            return stay(s._replace(shots=s.queue[0], queue=s.queue[1:], mc=w.master_crafted))

        dist = each_state(dist, lambda s: stay(s._replace(shots=0)))
        dist = run_until_done(dist, lambda s: s.queue or s.shots or s.ones or s.misses, hit_step)

    # Gets Hot: the firer saves each wound (armour unless AP negates it, invulnerable, then Feel No Pain).
    firer_options = []
    if a.save is not None and w.ap > a.save:
        firer_options.append(max(a.save, 2))
    if a.invulnerable is not None:
        firer_options.append(max(a.invulnerable, 2))
    firer_plan = (min(firer_options, default=None), False, None if a.feel_no_pain is None else max(a.feel_no_pain, 2))

    firer_outcomes = merge_paths(save_outcomes(*firer_plan))

    def firer_save(s):
        s = s._replace(hot=s.hot - 1)
        return [(p, s._replace(self_wounds=s.self_wounds + 1) if unsaved else s) for p, unsaved in firer_outcomes]

    dist = run_until_done(dist, lambda s: s.hot, firer_save)
    if record is not None:
        record["hits"] = marginal(dist, lambda s: s.hits)
        if gets_hot:
            record["gets_hot"] = marginal(dist, lambda s: s.self_wounds)
    dist = forget(dist, self_wounds=0, mc=False, queue=())
    plain = plain_wound(v, t)

    def to_wound(s):
        pool = tuple(sorted((*s.pool, *([plain] * s.sixes))))
        return stay(s._replace(to_wound=s.hits - s.sixes, hits=0, sixes=0, wounds=s.wounds + s.sixes, pool=pool))

    dist = each_state(dist, to_wound)

    # To Wound, hit by hit, then saves and allocation wound by wound.
    per_hit = wound_outcomes(v, t)
    bare = replace(a, preferred_enemy=None, reroll_wound_ones=False, wound_modifier=0, night_vision=False)
    extra_volley = replace(v, attacker=bare)  # Deflagrate's extra hits
    plans = {}
    damage_dice = damage_outcomes(w, t)

    def wound_die(s, count=True, table=per_hit):
        s = s._replace(to_wound=s.to_wound - 1)
        return [
            (p, s if cls is None else s._replace(wounds=s.wounds + int(count), pool=tuple(sorted((*s.pool, cls)))))
            for p, cls in table
        ]

    def save_die(s):
        if s.sub_left == 0:  # the next wound: any of the first allocation class, each alike (in random order)
            first = [c for c in s.pool if c[0] == s.pool[0][0]]
            out = []
            for c in dict.fromkeys(first):
                rest = list(s.pool)
                rest.remove(c)
                taken = s._replace(current=c, pool=tuple(rest), sub_left=w.brutal, alive=s.models > 0)
                out.extend((_dice.ONE * first.count(c) / len(first) * p, new) for p, new in save_die(taken))
            return out
        _, instant, ap, no_fnp, saves = s.current
        sv = extra_volley if s.extra else v
        key = (instant, ap, no_fnp, saves, s.extra)
        if key not in plans:
            if saves == "discarded":  # no save is rolled and the wound is never unsaved
                plans[key] = [(_dice.ONE, False)]
            else:
                plan = (None, False, None) if saves == "none" else wound_save_plan(sv, t, instant, ap, no_fnp, saves)
                plans[key] = merge_paths(save_outcomes(*plan))
        out = []
        for p, unsaved in plans[key]:
            for q, damage in damage_dice if unsaved else ((_dice.ONE, 0),):
                change = {"sub_left": s.sub_left - 1}
                if unsaved:
                    change.update(unsaved=s.unsaved + 1, volley_unsaved=s.volley_unsaved + 1)
                    if s.alive and (instant or s.wleft <= damage):  # the model is removed, the excess lost
                        change.update(models=s.models - 1, casualties=s.casualties + 1, wleft=t.wounds, alive=False)
                    elif s.alive:
                        change.update(wleft=s.wleft - damage)
                if change["sub_left"] == 0:  # this wound is done
                    change.update(current=None, alive=False)
                out.append((p * q, s._replace(**change)))
        return out

    def saves_done(dist):
        return run_until_done(dist, lambda s: s.pool or s.sub_left, save_die)

    dist = run_until_done(dist, lambda s: s.to_wound, wound_die)
    if record is not None:
        record["wounds"] = marginal(dist, lambda s: s.wounds)
    dist = forget(dist, wounds=0)
    dist = saves_done(dist)

    if w.deflagrate:
        # As many automatic hits as unsaved wounds, wounding and saved with the weapon's profile and rules
        # once, none of the attacking model's own rules (Preferred Enemy, its re-rolls and modifiers, Night Vision).
        extra_hits = wound_outcomes(extra_volley, t)
        dist = each_state(dist, lambda s: stay(s._replace(to_wound=s.volley_unsaved, extra=True)))
        dist = run_until_done(dist, lambda s: s.to_wound, lambda s: wound_die(s, count=False, table=extra_hits))
        dist = saves_done(dist)
        dist = each_state(dist, lambda s: stay(s._replace(extra=False)))

    def pinning_trigger(s):
        if w.pinning and s.volley_unsaved > 0:
            s = s._replace(pin_ss=max(s.pin_ss, w.shell_shock))
        return stay(s._replace(volley_unsaved=0))

    return each_state(dist, pinning_trigger)


def pinning_test(dist: dict, t: Target) -> dict:
    """Once the firing unit has finished: a Leadership test if it caused an unsaved Pinning wound."""

    def test(s):
        ss, s = s.pin_ss, s._replace(pin_ss=-1)
        if ss < 0 or s.pinned or s.models == 0:
            return stay(s)
        return [
            (p, s if passed else s._replace(pinned=True))
            for p, passed in leadership_test(t.ld - (0 if t.ignores_ld_penalties else ss))
        ]

    return each_state(dist, test)


# ---------------------------------------------------------------------------------------------- API
def start(t: Target) -> dict:
    if not 0 <= t.wounds_taken < t.wounds:
        raise ValueError(f"wounds_taken {t.wounds_taken} with W {t.wounds}")
    return certain(St(models=t.models, wleft=t.wounds - t.wounds_taken))


def _pinned(dist: dict, t: Target):
    return None if t.exempt_from_pinning else probability(dist, lambda s: s.pinned)


def oracle_calc_exact(scenario: dict) -> dict:
    """oracle_calc with Fraction probabilities (slower)."""
    with arithmetic(exact=True):
        return _calc(scenario)


def oracle_sequence_exact(target: dict, firing_units: list[list[dict]]) -> dict:
    """oracle_sequence with Fraction probabilities (slower)."""
    with arithmetic(exact=True):
        return _sequence(target, firing_units)


def oracle_calc(scenario: dict) -> dict:
    """One scenario (SCENARIO.md format, non-vehicle target, one weapon) -> float pmfs and probabilities:
    {"hits", "wounds", "unsaved", "casualties": pmf lists, "pinned": float or None,
     "gets_hot": pmf (Gets Hot only), "perils", "attack_happens": floats (Psychic Focus only)}."""
    with arithmetic(exact=False):
        return _floats(_calc(scenario))


def oracle_sequence(target: dict, firing_units: list[list[dict]]) -> dict:
    """Several firing units in turn against one target, each a list of volleys (scenario dicts without
    "target"); the damaged model carries over; one Pinning test after each firing unit.
    -> {"casualties": pmf, "pinned": float or None, "unsaved": pmf}, totals over the sequence."""
    with arithmetic(exact=False):
        return _floats(_sequence(target, firing_units))


def _locked(t: Target, volleys: list[dict]) -> Target:
    """A target struck in melee is locked in combat: exempt from Pinning."""
    return replace(t, exempt_from_pinning=True) if any(v.get("mode") == "melee" for v in volleys) else t


def _calc(scenario: dict) -> dict:
    t = _locked(parse_target(scenario["target"]), [scenario])
    v = parse_volley(scenario)
    if v.weapon.check is None:
        return _calc_volley(v, t)
    # Force, Achean Force, Divine Guidance: the psyker's Psychic check (a Leadership test) first; a pass
    # raises the Strength (Force doubles it, the others add 2; 10 at most); a failure of Force or Divine
    # Guidance is Perils of the Warp, and the psyker still attacks at the plain Strength
    if v.attacker.models != 1:
        raise NotImplementedError("the oracle takes a Psychic check rule with one attacking model only")
    s = v.weapon.strength
    boosted = min(2 * s if v.weapon.check == "force" else s + 2, 10)
    outcomes = merge_paths(leadership_test(v.attacker.ld))
    results = []
    for p, passed in outcomes:
        weapon = replace(v.weapon, strength=boosted if passed else s)
        results.append((p, _calc_volley(replace(v, weapon=weapon), t)))
    out: dict = {}
    for key in ("hits", "wounds", "unsaved", "casualties"):
        n = max(len(r[key]) for _, r in results)
        out[key] = [sum((p * (r[key][i] if i < len(r[key]) else 0) for p, r in results), _dice.ZERO) for i in range(n)]
    pins = [(p, r["pinned"]) for p, r in results]
    out["pinned"] = None if any(x is None for _, x in pins) else sum((p * x for p, x in pins), _dice.ZERO)
    if v.weapon.check != "achean force":
        out["perils"] = sum((p for p, passed in outcomes if not passed), _dice.ZERO)
        out["attack_happens"] = _dice.ONE
    return out


def _calc_volley(v: Volley, t: Target) -> dict:
    record: dict = {}
    dist = pinning_test(resolve_volley(start(t), v, t, record), t)
    result = {
        "hits": pmf_list(record["hits"]),
        "wounds": pmf_list(record["wounds"]),
        "unsaved": pmf_list(marginal(dist, lambda s: s.unsaved)),
        "casualties": pmf_list(marginal(dist, lambda s: s.casualties)),
        "pinned": _pinned(dist, t),
    }
    if "gets_hot" in record:
        result["gets_hot"] = pmf_list(record["gets_hot"])
    if "perils" in record:
        result["perils"] = record["perils"]
        result["attack_happens"] = record["attack_happens"]
    return result


def _sequence(target: dict, firing_units: list[list[dict]]) -> dict:
    t = _locked(parse_target(target), [v for unit in firing_units for v in unit])
    dist = start(t)
    for unit in firing_units:
        for volley in unit:
            dist = resolve_volley(dist, parse_volley(volley), t)
        dist = pinning_test(dist, t)
    return {
        "casualties": pmf_list(marginal(dist, lambda s: s.casualties)),
        "pinned": _pinned(dist, t),
        "unsaved": pmf_list(marginal(dist, lambda s: s.unsaved)),
    }


def _floats(result: dict) -> dict:
    return {
        k: (None if x is None else [float(p) for p in x] if isinstance(x, list) else float(x))
        for k, x in result.items()
    }
