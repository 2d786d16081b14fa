"""One hit against a Vehicle: the armour penetration roll, saves, and what the hit does (docs/rules.md#vehicles).

A hit becomes a short sequence of *impacts*: each impact is ``(hull_points, result)``, ``result`` being None
for a Glancing Hit or the Vehicle Damage table result of a Penetrating Hit. Most hits give zero or one
impact; an Exoshock hit can give two (the Penetrating Hit, then the extra one). :func:`hit_outcome` returns
the exact distribution of these sequences; :mod:`praetor_analysis.vehicles.hull_points` chains them over hull points.

Readings where the rules leave room (each has a test):

- Facing: Barrage and Apocalyptic Mega-blast hits use Side armour, other hits (melee too: HH2 resolves them
  against the facing the attacker touches) the target's ``facing`` (docs/rules.md#vehicles-in-melee).
- Destroyer, as the rule's text reads: three dice for penetration, the lowest dropped and the two kept added
  to S (Rending counts a kept die; Ordnance's "best of two" is not applied as well: the three dice replace
  the roll), and D3 hull points per Glancing or Penetrating Hit. ``destroyer_one_die=True`` asks for the
  earlier reading (the usual one-die roll, only the D3 hull points).
- Armourbane adds one more D6 to whatever the roll is; Rending adds its D3 once when any counted die (the
  kept Ordnance die, the two kept Destroyer dice, the Armourbane die) shows its value or more.
- Armourbane (Melta): ``melta=True`` makes the extra die depend on ``half_range`` alone.
- Sunder re-rolls every failed roll, and a Glancing Hit when the expected hull points of one fresh roll
  (after saves, Exoshock and Explodes included, counting only the hull points the vehicle still has) beat
  those of the glance, so a glance that wrecks the vehicle is kept. The decision depends on the hull points
  left when the hit lands (``hp_left``); the hull-point chain makes it state by state.
- Exoshock (X) triggers on every Penetrating Hit scored by the roll (before saves). Its extra Penetrating
  Hit, as the rule's text reads, allows no cover and no Shrouded (invulnerable saves, Reinforced Structure
  and an Ion Shield still), gains none of the weapon's other rules (1 hull point, never Destroyer's D3) and
  rolls on the damage table at the weapon's AP; it never triggers Exoshock again.
  ``exoshock_like_any_hit=True`` asks for the earlier reading (saved like any hit, cover and Shrouded
  included, and D3 hull points with Destroyer).
- Haywire replaces the roll; Strength, AP (for the roll), Rending, Armourbane, Ordnance, Lance, Sunder and
  Destroyer's dice then do nothing. Its Glancing and Penetrating Hits allow only invulnerable saves and
  damage mitigation (no cover), roll the damage table at the weapon's AP, and Destroyer's D3
  hull points still apply.
- Saves: one save per hit, the best of invulnerable (per facing if given), Reinforced Structure (an
  invulnerable 5+ against shooting, as the rules reference reads "Reinforced"), an Ion Shield (shooting
  only: 4+ Front, 5+ Side) and cover (shooting only, not Ignores Cover, Template or Haywire); then Shrouded
  (not melee, Ignores Cover or Template, since Templates have Ignores Cover). A save of 2+ fails only on a 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from praetor_analysis.prob import p_at_least
from praetor_analysis.vehicles.damage_table import DEFAULT_DAMAGE_TABLE, DamageTable

Facing = Literal["Front", "Side", "Rear"]
HitKind = Literal["glancing", "penetrating"]
"""What a count of unsaved hits counts: Glancing or Penetrating Hits."""
FACINGS: tuple[str, ...] = ("Front", "Side", "Rear")

Impact = tuple[int, "str | None"]
"""``(hull_points, result)``: result None is a Glancing Hit, otherwise the damage table result."""
Impacts = tuple[Impact, ...]


def _check_int(name: str, value: object, low: int, high: int, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError(f"{name}: expected an integer {low}..{high}{' or None' if optional else ''}, got {value!r}")


@dataclass(frozen=True)
class PenetratingWeapon:
    """A weapon's profile as it matters against a Vehicle.

    Attributes:
        strength: Strength after User/+N/xN are resolved, 1..20 (Titan weapons print Strengths above 10).
        ap: AP 1..6, or None for "-".
        rending: X of Rending (X), or None.
        armourbane: Armourbane: one more D6 for penetration.
        melta: the Armourbane is the Melta variant: the extra D6 only at half range or less.
        ordnance: two dice, keep the highest.
        lance: armour above 12 counts as 12.
        sunder: re-roll failed penetration rolls, and Glancing Hits when that pays.
        haywire: a D6 instead of the penetration roll (1 nothing, 2-5 Glancing, 6 Penetrating).
        exoshock: X of Exoshock (X), or None.
        destroyer: D3 hull points per Glancing or Penetrating Hit.
        destroyer_one_die: with Destroyer, the earlier reading: one die for penetration (the rule's text, the
            default, rolls three and drops the lowest: docs/rules.md#destroyer).
        exoshock_like_any_hit: the earlier reading of Exoshock's extra hit: saved like any hit (cover and
            Shrouded) and D3 hull points with Destroyer (the default follows the rule's text:
            docs/rules.md#exoshock).
        barrage_or_megablast: Barrage or Apocalyptic Mega-blast: hits use Side armour.
        is_melee: a close combat attack: the target's facing, no cover, no Shrouded.
        gets_hot: Gets Hot (only affects the firer; see ``vehicles.gets_hot_on_vehicle``).
        ignores_cover: Ignores Cover: no cover save, no Shrouded.
        template: a Template weapon (has Ignores Cover).
        no_shrouded: the attacker's rules deny Shrouded (Night Vision); cover stays.
        twin_linked: Twin-linked; on a Template weapon it re-rolls failed penetration rolls.
        collapse: Graviton Collapse: four dice for penetration and no Strength added.
        harmless: its hits roll no penetration at all (Entangle, or no Strength and no rule that replaces it).
        name: a label for reports.
    """

    strength: int
    ap: int | None = None
    rending: int | None = None
    armourbane: bool = False
    melta: bool = False
    ordnance: bool = False
    lance: bool = False
    sunder: bool = False
    haywire: bool = False
    exoshock: int | None = None
    destroyer: bool = False
    destroyer_one_die: bool = False
    exoshock_like_any_hit: bool = False
    barrage_or_megablast: bool = False
    is_melee: bool = False
    gets_hot: bool = False
    ignores_cover: bool = False
    template: bool = False
    no_shrouded: bool = False
    twin_linked: bool = False
    collapse: bool = False
    harmless: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        _check_int("strength", self.strength, 1, 20)
        _check_int("ap", self.ap, 1, 6, optional=True)
        _check_int("rending", self.rending, 2, 6, optional=True)
        _check_int("exoshock", self.exoshock, 2, 6, optional=True)
        if self.is_melee and self.barrage_or_megablast:
            raise ValueError("is_melee: a Barrage or Mega-blast weapon cannot attack in melee")


@dataclass(frozen=True)
class VehicleTarget:
    """A Vehicle (or Knight) target.

    Attributes:
        front: Front armour value.
        side: Side armour value.
        rear: Rear armour value.
        hp: Hull Points on the profile.
        hp_left: Hull Points left now (default ``hp``).
        facing: the facing hits resolve against, in melee too (Barrage/Mega-blast use Side).
        invulnerable: an invulnerable save X+, or a dict of them by facing, or None.
        cover: a cover save X+, or None.
        shrouded: X of Shrouded (X), or None.
        slow: a Slow Vehicle (two dice on the damage table, discard the highest). A ``Slow`` sub-type in
            ``unit_type`` (e.g. ``"Vehicle (Transport, Slow)"``) counts too.
        reinforced: Reinforced Structure: an invulnerable 5+ against shooting attacks.
        ion_shield: an Ion Shield: an invulnerable save against shooting only, 4+ on the Front, 5+ on the Side
            (none on the Rear or in melee).
        unit_type: the unit type as printed.
        name: a label for reports.
    """

    front: int
    side: int
    rear: int
    hp: int
    hp_left: int | None = None
    facing: Facing = "Front"
    invulnerable: int | Mapping[str, int] | None = None
    cover: int | None = None
    shrouded: int | None = None
    slow: bool = False
    reinforced: bool = False
    ion_shield: bool = False
    unit_type: str = "Vehicle"
    name: str = ""

    def __post_init__(self) -> None:
        for side in ("front", "side", "rear"):
            _check_int(side, getattr(self, side), 1, 20)
        _check_int("hp", self.hp, 1, 1000)
        if self.hp_left is None:
            object.__setattr__(self, "hp_left", self.hp)
        _check_int("hp_left", self.hp_left, 0, self.hp)
        if self.facing not in FACINGS:
            raise ValueError(f"facing: expected one of {FACINGS}, got {self.facing!r}")
        if isinstance(self.invulnerable, Mapping):
            for key, val in self.invulnerable.items():
                if key not in FACINGS:
                    raise ValueError(f"invulnerable: facing must be one of {FACINGS}, got {key!r}")
                _check_int(f"invulnerable[{key!r}]", val, 2, 6)
        else:
            _check_int("invulnerable", self.invulnerable, 2, 6, optional=True)
        _check_int("cover", self.cover, 2, 6, optional=True)
        _check_int("shrouded", self.shrouded, 2, 6, optional=True)

    @property
    def left(self) -> int:
        """Hull Points left now (``hp_left``, which defaults to ``hp``)."""
        return self.hp if self.hp_left is None else self.hp_left

    @property
    def is_slow(self) -> bool:
        """True for a Slow Vehicle (the flag, or ``Slow`` among the sub-types of ``unit_type``)."""
        if self.slow:
            return True
        inner = self.unit_type.partition("(")[2].rpartition(")")[0]
        return any(part.strip().lower() == "slow" for part in inner.split(","))

    def armour(self, facing: str) -> int:
        """The armour value of a facing."""
        return {"Front": self.front, "Side": self.side, "Rear": self.rear}[facing]

    def invulnerable_for(self, facing: str) -> int | None:
        """The invulnerable save against hits on ``facing`` (None when there is none)."""
        if isinstance(self.invulnerable, Mapping):
            return self.invulnerable.get(facing)
        return self.invulnerable


@dataclass(frozen=True)
class HitOutcome:
    """What one hit does, exactly.

    Attributes:
        facing: the facing the hit resolves against.
        armour: the armour value used (after Lance).
        roll: P(nothing), P(Glancing), P(Penetrating) of the penetration roll (after Sunder), before saves.
        unsaved: P(a Glancing or Penetrating Hit of the roll is neither saved nor ignored).
        unsaved_exoshock: the same for an Exoshock extra Penetrating Hit (invulnerable saves only; 0.0 without
            Exoshock).
        sunder_rerolls_glancing: whether Sunder re-rolls Glancing Hits for this weapon and target.
        sequences: probability of each sequence of impacts the hit causes (``()`` is nothing).
        applied: rule names that were applied.
        not_modelled: rule names in the profile that had no effect or are not modelled here.
    """

    facing: str
    armour: int
    roll: tuple[float, float, float]
    unsaved: float
    unsaved_exoshock: float
    sunder_rerolls_glancing: bool
    sequences: Mapping[Impacts, float]
    applied: tuple[str, ...] = ()
    not_modelled: tuple[str, ...] = ()

    def count_pmf(self, kind: HitKind) -> np.ndarray:
        """pmf of the unsaved Glancing (or Penetrating) Hits this one hit causes."""
        out = np.zeros(3)
        for seq, p in self.sequences.items():
            n = sum(1 for _, r in seq if (r is None) == (kind == "glancing"))
            out[n] += p
        return out

    def expected_hull_points(self) -> float:
        """Expected hull points the hit removes, not capped by the hull points left."""
        return float(sum(p * sum(hp for hp, _ in seq) for seq, p in self.sequences.items()))


# --- the penetration dice -----------------------------------------------------------------------------
@cache
def _group(kind: str, rend: int) -> tuple[np.ndarray, np.ndarray]:
    """pmf over the counted total of one group of dice, split by whether a counted die shows ``rend``+.

    ``kind``: ``"one"`` (a D6), ``"best2"`` (Ordnance: the higher of two), ``"top2of3"`` (Destroyer: three
    dice, the lowest dropped), ``"sum4"`` (Graviton Collapse: four dice added). Returns ``(plain, rending)``
    arrays indexed by total.
    """
    n_dice = {"one": 1, "best2": 2, "top2of3": 3, "sum4": 4}[kind]
    plain = np.zeros(25)
    rending = np.zeros(25)
    weight = 6.0**-n_dice
    for faces in itertools.product(range(1, 7), repeat=n_dice):
        if kind == "sum4":
            kept = list(faces)
        else:
            kept = sorted(faces)[-2:] if kind == "top2of3" else [max(faces)]
        target = rending if max(kept) >= rend else plain
        target[sum(kept)] += weight
    return plain, rending


def three_dice(weapon: PenetratingWeapon) -> bool:
    """Whether the penetration roll is Destroyer's three dice, the lowest dropped (docs/rules.md#destroyer)."""
    return weapon.destroyer and not weapon.destroyer_one_die and not weapon.collapse


def _dice_total(weapon: PenetratingWeapon, armourbane: bool) -> tuple[np.ndarray, np.ndarray]:
    """pmf of the dice total of one penetration roll, split by whether Rending triggers."""
    rend = weapon.rending if weapon.rending is not None else 7
    if weapon.collapse:
        kind = "sum4"
    elif three_dice(weapon):
        kind = "top2of3"
    elif weapon.ordnance:
        kind = "best2"
    else:
        kind = "one"
    plain, rending = _group(kind, rend)
    if armourbane:
        d_plain, d_rend = _group("one", rend)
        total = np.convolve(plain + rending, d_plain + d_rend)
        plain = np.convolve(plain, d_plain)
        rending = total - plain
    return plain, rending


def _roll(weapon: PenetratingWeapon, armour: int, armourbane: bool) -> np.ndarray:
    """P(nothing), P(Glancing), P(Penetrating) of one penetration roll."""
    plain, rending = _dice_total(weapon, armourbane)
    total = np.zeros(plain.size + 3)
    total[: plain.size] += plain
    total += np.convolve(rending, np.array([0.0, 1.0, 1.0, 1.0]) / 3.0)  # Rending's D3, added once
    k = np.arange(total.size) + (0 if weapon.collapse else weapon.strength)
    return np.array([total[k < armour].sum(), total[k == armour].sum(), total[k > armour].sum()])


# --- saves --------------------------------------------------------------------------------------------
#: An Ion Shield's invulnerable save by facing, against shooting only (docs/rules.md#ion-shield).
ION_SHIELD: Mapping[str, int] = {"Front": 4, "Side": 5}


def _fail(threshold: int | None) -> float:
    return 1.0 if threshold is None else 1.0 - p_at_least(threshold)


def denies_shrouded(weapon: PenetratingWeapon) -> bool:
    """Whether the weapon's hits on a vehicle allow no Shrouded roll: melee, Ignores Cover, a template (none
    of which allows cover either), or the attacker's Night Vision."""
    return _denies_cover(weapon) or weapon.no_shrouded


def _denies_cover(weapon: PenetratingWeapon) -> bool:
    return weapon.is_melee or weapon.ignores_cover or weapon.template


def denies_cover(weapon: PenetratingWeapon) -> bool:
    """Whether no hit of the weapon on a vehicle allows a cover save: melee, Ignores Cover, a template, or
    Haywire (whose results allow invulnerable saves and damage mitigation only)."""
    return _denies_cover(weapon) or weapon.haywire


def _unsaved(weapon: PenetratingWeapon, target: VehicleTarget, facing: str) -> tuple[float, float, list[str]]:
    """P(a Glancing or Penetrating Hit is unsaved), P(unsaved with invulnerable saves alone: Exoshock's extra
    hit), and the rules used."""
    used = [name for name, on in (("Ignores Cover", weapon.ignores_cover), ("Template", weapon.template)) if on]
    own = target.invulnerable_for(facing)
    invuln: list[int] = [] if own is None else [own]
    if target.reinforced and not weapon.is_melee:
        invuln.append(5)
        used.append("Reinforced Structure")
    shield = ION_SHIELD.get(facing) if target.ion_shield and not weapon.is_melee else None
    if shield is not None:
        invuln.append(shield)
        used.append(f"Ion Shield ({shield}+ on the {facing})")
    unshielded = _denies_cover(weapon)  # no cover, no Shrouded
    mitigation = 1.0
    if target.shrouded is not None and not denies_shrouded(weapon):
        used.append(f"Shrouded ({target.shrouded}+)")
        mitigation = _fail(target.shrouded)
    best_invuln = min(invuln) if invuln else None
    # Haywire results allow only invulnerable saves and damage mitigation (docs/rules.md#haywire): no cover
    cover = None if unshielded or weapon.haywire else target.cover
    with_cover = best_invuln if cover is None else min([*invuln, cover])
    return _fail(with_cover) * mitigation, _fail(best_invuln), used


# --- one hit ------------------------------------------------------------------------------------------
_GLANCE_ROWS = [(1.0, None, np.ones(1))]


def _impacts(base_hp: np.ndarray, rows: Sequence[tuple[float, str | None, np.ndarray]]) -> dict[Impacts, float]:
    """Distribution of a single impact: ``rows`` are the damage table's outcomes, or ``_GLANCE_ROWS``."""
    out: dict[Impacts, float] = {}
    for q, res, extra in rows:
        hp = np.convolve(base_hp, extra)
        for k, p in enumerate(hp):
            if p > 0.0:
                key = ((k, res),)
                out[key] = out.get(key, 0.0) + q * p
    return out


def _then(first: dict[Impacts, float], second: dict[Impacts, float]) -> dict[Impacts, float]:
    """Sequences of ``first`` followed independently by ``second``."""
    out: dict[Impacts, float] = {}
    for s1, p1 in first.items():
        for s2, p2 in second.items():
            out[s1 + s2] = out.get(s1 + s2, 0.0) + p1 * p2
    return out


def _maybe(p: float, branch: dict[Impacts, float]) -> dict[Impacts, float]:
    """``branch`` with probability ``p``, nothing otherwise."""
    out = {seq: p * q for seq, q in branch.items()}
    out[()] = out.get((), 0.0) + 1.0 - p
    return out


def _mix(*parts: tuple[float, dict[Impacts, float]]) -> dict[Impacts, float]:
    out: dict[Impacts, float] = {}
    for w, branch in parts:
        if w > 0.0:
            for seq, q in branch.items():
                out[seq] = out.get(seq, 0.0) + w * q
    return out


def _mean_hp(branch: Mapping[Impacts, float], cap: int | None = None) -> float:
    """Expected hull points of ``branch``, counting at most ``cap`` (the hull points left) when given."""
    if cap is None:
        return sum(p * sum(hp for hp, _ in seq) for seq, p in branch.items())
    return sum(p * min(cap, sum(hp for hp, _ in seq)) for seq, p in branch.items())


_DEFAULT_OUTCOMES: dict[tuple[int | None, bool], list[tuple[float, str, np.ndarray]]] = {}


def _outcomes(table: DamageTable, ap: int | None, slow: bool) -> list[tuple[float, str, np.ndarray]]:
    """``table.outcomes(ap, slow=slow)``, kept for the default table (which nothing changes); read only."""
    if table is not DEFAULT_DAMAGE_TABLE:
        return table.outcomes(ap, slow=slow)
    if (ap, slow) not in _DEFAULT_OUTCOMES:
        rows = table.outcomes(ap, slow=slow)
        for _, _, extra in rows:
            extra.flags.writeable = False
        _DEFAULT_OUTCOMES[(ap, slow)] = rows
    return _DEFAULT_OUTCOMES[(ap, slow)]


def resolve_facing(weapon: PenetratingWeapon, target: VehicleTarget) -> str:
    """The facing a hit resolves against: Side for Barrage/Mega-blast, else the target's (melee too)."""
    if weapon.barrage_or_megablast:
        return "Side"
    return target.facing


def hit_outcome(
    weapon: PenetratingWeapon,
    target: VehicleTarget,
    *,
    half_range: bool = False,
    table: DamageTable = DEFAULT_DAMAGE_TABLE,
    hp_left: int | None = None,
) -> HitOutcome:
    """The exact outcome of one hit of ``weapon`` on ``target``.

    Args:
        weapon: the weapon profile.
        target: the vehicle.
        half_range: the target is at half the weapon's range or less (for Armourbane (Melta)).
        table: the Vehicle Damage table.
        hp_left: the hull points the vehicle has when the hit lands; Sunder's choice counts only those
            (None: uncapped).
    """
    applied: list[str] = []
    skipped: list[str] = []
    facing = resolve_facing(weapon, target)
    if weapon.is_melee:
        applied.append(f"Melee ({facing} armour)")
    if weapon.barrage_or_megablast:
        applied.append("Barrage/Mega-blast (Side armour)")
    armour = target.armour(facing)
    roll_rules = []
    if weapon.lance:
        roll_rules.append("Lance")
        armour = min(armour, 12)
    armourbane = (weapon.melta and half_range) or (weapon.armourbane and not weapon.melta)
    if weapon.melta:
        roll_rules.append("Armourbane (Melta)")
    elif weapon.armourbane:
        roll_rules.append("Armourbane")
    if three_dice(weapon):
        roll_rules.append("Destroyer (three dice, lowest dropped)")
    if weapon.ordnance and not three_dice(weapon):
        roll_rules.append("Ordnance")
    elif weapon.ordnance:
        skipped.append("Ordnance (Destroyer's three dice replace the roll)")
    if weapon.rending is not None:
        roll_rules.append(f"Rending ({weapon.rending}+)")

    if weapon.harmless:
        first = np.array([1.0, 0.0, 0.0])
    elif weapon.haywire:
        applied.append("Haywire")
        skipped.extend(roll_rules)
        if weapon.sunder:
            skipped.append("Sunder")
        first = np.array([1.0, 4.0, 1.0]) / 6.0
    else:
        if weapon.collapse:
            applied.append("Graviton Collapse (4D6)")
        applied.extend(roll_rules)
        first = _roll(weapon, armour, armourbane)

    u_cover, u_invulnerable, save_rules = _unsaved(weapon, target, facing)
    applied.extend(save_rules)
    rows = _outcomes(table, weapon.ap, target.is_slow)
    if target.is_slow:
        applied.append("Slow Vehicle")
    base_hp = np.array([0.0, 1.0 / 3, 1.0 / 3, 1.0 / 3]) if weapon.destroyer else np.array([0.0, 1.0])
    if weapon.destroyer:
        applied.append("Destroyer")

    glance = _maybe(u_cover, _impacts(base_hp, _GLANCE_ROWS))
    pen = _maybe(u_cover, _impacts(base_hp, rows))
    u_extra = 0.0
    if weapon.exoshock is not None:
        applied.append(f"Exoshock ({weapon.exoshock}+)")
        if weapon.exoshock_like_any_hit:
            u_extra, extra_hp = u_cover, base_hp
        else:  # no cover, no Shrouded, none of the weapon's other rules: 1 hull point
            u_extra, extra_hp = u_invulnerable, np.array([0.0, 1.0])
        extra = _maybe(u_extra, _impacts(extra_hp, rows))
        pen = _then(pen, _maybe(p_at_least(weapon.exoshock), extra))

    nothing: dict[Impacts, float] = {(): 1.0}
    rerolls_glancing = False
    p_none, p_glance, p_pen = (float(x) for x in first)
    if weapon.twin_linked and weapon.template and not weapon.sunder and not weapon.haywire:
        # Twin-linked Template weapons re-roll failed penetration rolls (docs/rules.md#twin-linked)
        applied.append("Twin-linked (Template: re-roll failed penetration)")
        p_none, p_glance, p_pen = p_none * p_none, p_glance + p_none * p_glance, p_pen + p_none * p_pen
    if weapon.sunder and not weapon.haywire:
        applied.append("Sunder")
        fresh = _mix((p_none, nothing), (p_glance, glance), (p_pen, pen))
        # re-roll the glance only when a fresh roll removes more of the hull points left (a glance that
        # already wrecks the vehicle is kept); a tie (to rounding) keeps the glance
        rerolls_glancing = _mean_hp(fresh, hp_left) > _mean_hp(glance, hp_left) + 1e-12
        again = p_none + (p_glance if rerolls_glancing else 0.0)
        kept_glance = 0.0 if rerolls_glancing else p_glance
        p_none, p_glance, p_pen = again * p_none, kept_glance + again * p_glance, p_pen + again * p_pen
    sequences = _mix((p_none, nothing), (p_glance, glance), (p_pen, pen))
    if weapon.gets_hot:
        skipped.append("Gets Hot")
    return HitOutcome(
        facing=facing,
        armour=armour,
        roll=(p_none, p_glance, p_pen),
        unsaved=u_cover,
        unsaved_exoshock=u_extra,
        sunder_rerolls_glancing=rerolls_glancing,
        sequences=sequences,
        applied=tuple(applied),
        not_modelled=tuple(skipped),
    )
