"""An independent brute-force reading of MECHANICS.md (2nd edition), written without the engine's code.

Every die is enumerated (``itertools.product`` over D6 faces, ``Fraction`` weights); shots are combined by
enumerating every tuple of per-shot outcomes, then every save die of every wound, then allocation in the
order MECHANICS section 5 gives. Small cases only: this is a test oracle, not a fast path.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

D6 = range(1, 7)
SIXTH = Fraction(1, 6)

Dist = dict[int, Fraction]


def dice(n: int) -> Iterator[tuple[Fraction, tuple[int, ...]]]:
    """Every roll of n D6 with its probability."""
    p = SIXTH**n
    for faces in itertools.product(D6, repeat=n):
        yield p, faces


def d3_of(face: int) -> int:
    return (face + 1) // 2


def add(dist: Dist, k: int, p: Fraction) -> None:
    dist[k] = dist.get(k, Fraction(0)) + p


def as_pmf(dist: Dist) -> list[float]:
    top = max(k for k, p in dist.items() if p) if any(dist.values()) else 0
    return [float(dist.get(k, 0)) for k in range(top + 1)]


def mean(dist: Dist) -> float:
    return float(sum(k * p for k, p in dist.items()))


# --- section 2: To Hit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shooter:
    bs: int = 4
    twin_linked: bool = False
    snap: bool = False
    gets_hot: bool = False
    no_hit_roll: bool = False  # markers/templates with given hits: no To Hit roll
    melee_need: int | None = None  # melee: the WS chart's target number


def ws_need(attacker: int, defender: int) -> int:
    """MECHANICS section 2's melee chart (the HH2 four-band default)."""
    if attacker > 2 * defender:
        return 2
    if attacker > defender:
        return 3
    if defender > 2 * attacker:
        return 5
    return 4


def hit_outcomes(sh: Shooter) -> Dist:
    """0 miss, 1 hit; 2 = miss with Gets Hot (a natural 1 that stands), 3 = no roll (always hit)."""
    out: Dist = {}
    bs = 1 if sh.snap else sh.bs
    first = 7 - bs if bs <= 5 else 2
    if sh.melee_need is not None:
        first, bs = sh.melee_need, 0
    for p, (a, b) in dice(2):
        if a >= first:
            add(out, 1, p)
            continue
        if sh.twin_linked:
            final, need = b, first
        elif bs >= 6 and sh.melee_need is None:
            final, need = b, 12 - bs
        else:
            final, need = a, first
        if final >= need and final != 1:
            add(out, 1, p)
        elif final == 1 and sh.gets_hot:
            add(out, 2, p)
        else:
            add(out, 0, p)
    return out


# --- section 3: To Wound -------------------------------------------------------------------------------------


def wound_target(s: int, t: int) -> int | None:
    if s >= t + 2:
        return 2
    if s == t + 1:
        return 3
    if s == t:
        return 4
    if s == t - 1:
        return 5
    if s in (t - 2, t - 3):
        return 6
    return None


@dataclass(frozen=True)
class Wounder:
    s: int
    t: int
    ap: int | None  # None = "-"
    rending: int | None = None
    breaching: int | None = None
    murderous: int | None = None
    poisoned: int | None = None
    fleshbane: bool = False
    shred: bool = False
    instant_death: bool = False
    melee: bool = False
    reroll_success: bool = False  # Dreadnought/Automata/Mechanised against a Poisoned or Fleshbane attack


@dataclass(frozen=True)
class Wound:
    ap: int | None
    instant_death: bool


def wound_outcomes(w: Wounder) -> dict[Wound | None, Fraction]:
    need = wound_target(w.s, w.t)
    if w.fleshbane:
        need = 2
    if w.poisoned is not None:
        need = w.poisoned if need is None else min(need, w.poisoned)
    melee_poison_reroll = w.melee and w.poisoned is not None and w.s > w.t
    out: dict[Wound | None, Fraction] = defaultdict(Fraction)
    for p, (a, b) in dice(2):

        def success(face: int) -> bool:
            if face == 1:
                return False
            if w.rending is not None and face >= w.rending:
                return True
            return need is not None and face >= need

        face = a
        if (not success(a) and (w.shred or melee_poison_reroll)) or (success(a) and w.reroll_success):
            face = b
        if not success(face):
            out[None] += p
            continue
        ap = w.ap
        if (w.rending is not None and face >= w.rending) or (w.breaching is not None and face >= w.breaching):
            ap = 2 if ap is None else min(ap, 2)
        ident = w.instant_death or w.s >= 2 * w.t or (w.murderous is not None and face >= w.murderous)
        out[Wound(ap, ident)] += p
    return dict(out)


# --- section 4: saves and mitigation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    save: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    fnp: int | None = None
    shrouded: int | None = None
    heavy_reroll: bool = False  # Heavy sub-type against Blast/Template
    eternal_warrior: bool = False


def p_unsaved(wound: Wound, d: Defence) -> Fraction:
    """One save die (the best) then one mitigation die (the best allowed)."""
    armour = d.save if d.save is not None and not (wound.ap is not None and wound.ap <= d.save) else None
    best_fail = Fraction(1)
    for target, reroll in ((armour, d.heavy_reroll), (d.invulnerable, False), (d.cover, False)):
        if target is None:
            continue
        fail = Fraction(target - 1, 6)
        if reroll:
            fail = fail * fail
        best_fail = min(best_fail, fail)
    mitigation = [x for x in (d.shrouded,) if x is not None]
    if d.fnp is not None and not wound.instant_death:
        mitigation.append(d.fnp)
    if mitigation:
        best_fail *= Fraction(min(mitigation) - 1, 6)
    return best_fail


# --- section 5: allocation -----------------------------------------------------------------------------------


@dataclass
class Result:
    hits: Dist = field(default_factory=dict)
    wounds: Dist = field(default_factory=dict)
    unsaved: Dist = field(default_factory=dict)
    casualties: Dist = field(default_factory=dict)
    pinned: Fraction = Fraction(0)
    gets_hot: Dist = field(default_factory=dict)
    joint: dict[tuple[int, int, int], Fraction] = field(default_factory=dict)  # (unsaved, casualties, taken)


@dataclass(frozen=True)
class Target:
    models: int
    w: int
    defence: Defence
    ld: int = 7
    pinning_exempt: bool = False
    stubborn: bool = False
    first_left: int | None = None  # wounds left on the model being worked on (a sequence carries it over)


def two_d6_at_most(x: int) -> Fraction:
    return Fraction(sum(1 for a in D6 for b in D6 if a + b <= x), 36) if x >= 2 else Fraction(0)


def attack(
    shots: Iterable[tuple[Fraction, int]],
    shooter: Shooter,
    wounder: Wounder,
    target: Target,
    *,
    brutal: int = 1,
    destroyer: bool = False,
    pinning: bool = False,
    shell_shock: int = 0,
    hits_given: Dist | None = None,
    deflagrate: bool = False,
) -> Result:
    """The whole attack for a distribution of shot counts (small counts only)."""
    res = Result()
    hit_d = hit_outcomes(shooter) if not shooter.no_hit_roll else {1: Fraction(1)}
    if hits_given is not None:
        shots, hit_d = [(p, k) for k, p in hits_given.items()], {1: Fraction(1)}
    wound_d = wound_outcomes(wounder)
    for p_n, n in shots:
        for combo in itertools.product(hit_d.items(), repeat=n):
            p_hits = p_n
            for _, q in combo:
                p_hits *= q
            hits = sum(1 for k, _ in combo if k == 1)
            hot = sum(1 for k, _ in combo if k == 2)
            add(res.hits, hits, p_hits)
            add(res.gets_hot, hot, p_hits)
            for wcombo in itertools.product(wound_d.items(), repeat=hits):
                p_w = p_hits
                for _, q in wcombo:
                    p_w *= q
                wounds = [w for w, _ in wcombo if w is not None]
                add(res.wounds, len(wounds), p_w)
                if deflagrate:
                    _deflagrate(res, p_w, wounds, wound_d, target, pinning, shell_shock)
                else:
                    _allocate(res, p_w, wounds, target, brutal, destroyer, pinning, shell_shock)
    return res


def _order(w: Wound, ew: bool) -> int:
    if w.instant_death and not ew:
        return 0
    return 1 if w.ap is not None and w.ap <= 2 else 2


def _allocate(
    res: Result,
    p: Fraction,
    wounds: list[Wound],
    target: Target,
    brutal: int,
    destroyer: bool,
    pinning: bool,
    shell_shock: int,
) -> None:
    ew = target.defence.eternal_warrior
    wounds = sorted(wounds, key=lambda w: _order(w, ew))
    # every wound is X sub-wounds (Brutal), each saved separately
    per_wound = [p_unsaved(w, target.defence) for w in wounds]
    subs = [brutal] * len(wounds)
    flat_q = [q for q, k in zip(per_wound, subs, strict=True) for _ in range(k)]
    for p_s, bits in _bits(flat_q):
        unsaved_tokens: list[tuple[Wound, int]] = []
        i = 0
        for w, k in zip(wounds, subs, strict=True):
            unsaved_tokens.append((w, sum(bits[i : i + k])))
            i += k
        if destroyer:
            _destroyer_branch(res, p * p_s, unsaved_tokens, target, ew, pinning, shell_shock)
        else:
            _finish(res, p * p_s, unsaved_tokens, target, ew, pinning, shell_shock)


def _deflagrate(res, p, wounds, wound_d, target, pinning, shell_shock) -> None:  # type: ignore[no-untyped-def]
    """Deflagrate: one automatic hit per unsaved wound of the attack, wounded and saved again (W1 targets)."""
    d = target.defence
    for p_s, bits in _bits([p_unsaved(w, d) for w in wounds]):
        first = [(w, 1 if bit else 0) for w, bit in zip(wounds, bits, strict=True)]
        extra_hits = sum(bits)
        for wcombo in itertools.product(wound_d.items(), repeat=extra_hits):
            p_w = p * p_s
            for _, q in wcombo:
                p_w *= q
            more = [w for w, _ in wcombo if w is not None]
            for p_t, bits2 in _bits([p_unsaved(w, d) for w in more]):
                second = [(w, 1 if bit else 0) for w, bit in zip(more, bits2, strict=True)]
                _finish(res, p_w * p_t, first + second, target, d.eternal_warrior, pinning, shell_shock)


def master_crafted_hits(bs: int, shots_per_model: int, models: int) -> Dist:
    """Each model's weapon re-rolls one failed To Hit die of its own shots."""
    need = 7 - bs
    one: Dist = {}
    for p, faces in dice(shots_per_model + 1):
        rolls = faces[:shots_per_model]
        hits = sum(1 for f in rolls if f >= need)
        if hits < shots_per_model and faces[-1] >= need:
            hits += 1
        add(one, hits, p)
    total: Dist = {0: Fraction(1)}
    for _ in range(models):
        nxt: Dist = {}
        for a, pa in total.items():
            for k, pb in one.items():
                add(nxt, a + k, pa * pb)
        total = nxt
    return total


def _bits(qs: list[Fraction]) -> Iterator[tuple[Fraction, tuple[bool, ...]]]:
    for bits in itertools.product((True, False), repeat=len(qs)):
        p = Fraction(1)
        for b, q in zip(bits, qs, strict=True):
            p *= q if b else 1 - q
        if p:
            yield p, bits


def _destroyer_branch(res, p, tokens, target, ew, pinning, shell_shock) -> None:  # type: ignore[no-untyped-def]
    """Destroyer: each unsaved wound becomes D3 wounds (one D3 each)."""
    live = [(w, k) for w, k in tokens if k]
    for faces in itertools.product(D6, repeat=len(live)):
        q = SIXTH ** len(live)
        mult = iter(d3_of(f) for f in faces)
        expanded = [(w, k * next(mult) if k else 0) for w, k in tokens]
        _finish(res, p * q, expanded, target, ew, pinning, shell_shock, sum(k for _, k in tokens))


def _finish(res, p, tokens, target, ew, pinning, shell_shock, counted=None) -> None:  # type: ignore[no-untyped-def]
    """Allocation; ``counted`` is the unsaved count when it differs from the wounds dealt (Destroyer's D3)."""
    unsaved = sum(k for _, k in tokens) if counted is None else counted
    add(res.unsaved, unsaved, p)
    models, left = target.models, target.first_left or target.w
    dead = taken = 0
    for w, k in tokens:
        if models == 0 or k == 0:
            continue
        if (w.instant_death and not ew) or k >= left:
            dead += 1
            models -= 1
            taken += left
            left = target.w
        else:
            left -= k
            taken += k
    add(res.casualties, dead, p)
    key = (unsaved, dead, taken)
    res.joint[key] = res.joint.get(key, Fraction(0)) + p
    if pinning and unsaved and models and not target.pinning_exempt:
        ld = target.ld - (0 if target.stubborn else shell_shock)
        res.pinned += p * (1 - two_d6_at_most(ld))


def fixed(n: int) -> list[tuple[Fraction, int]]:
    return [(Fraction(1), n)]


def d3_shots(plus: int = 0) -> list[tuple[Fraction, int]]:
    return [(Fraction(1, 3), k + plus) for k in (1, 2, 3)]


# --- section 9: a whole melee round --------------------------------------------------------------------------


@dataclass
class RoundResult:
    first: Result
    attacker_casualties: Dist
    attacker_wins: Fraction
    target_wins: Fraction
    draw: Fraction


def melee_round(
    attacker_strike: Callable[[int], Result],
    target_strike: Callable[[int], Result],
    attacker_models: int,
    target_models: int,
    attacker_i: int,
    target_i: int,
    capped: bool = False,
) -> RoundResult:
    """Both sides strike in Initiative order; a side's models killed before its step do not strike.

    ``*_strike(models)`` is that side's attack with ``models`` models left. The score is unsaved wounds, or
    with ``capped`` the wounds taken off the enemy's models.
    """
    nothing = {(0, 0, ()): Fraction(1)}
    first = attacker_strike(attacker_models)
    cas: Dist = {}
    tally = [Fraction(0)] * 3

    def score(mine: tuple[int, int, int], theirs: tuple[int, int, int], p: Fraction) -> None:
        a, t = (mine[2], theirs[2]) if capped else (mine[0], theirs[0])
        tally[0 if a > t else (1 if t > a else 2)] += p

    if attacker_i > target_i:
        for k1, p1 in first.joint.items():
            left = target_models - k1[1]
            for k2, p2 in (target_strike(left).joint if left else nothing).items():
                add(cas, k2[1], p1 * p2)
                score(k1, k2, p1 * p2)
    elif attacker_i < target_i:
        for k2, p2 in target_strike(target_models).joint.items():
            add(cas, k2[1], p2)
            left = attacker_models - k2[1]
            for k1, p1 in (attacker_strike(left).joint if left else nothing).items():
                score(k1, k2, p1 * p2)
    else:
        back = target_strike(target_models)
        for k1, p1 in first.joint.items():
            for k2, p2 in back.joint.items():
                add(cas, k2[1], p1 * p2)
                score(k1, k2, p1 * p2)
    return RoundResult(first, cas, tally[0], tally[1], tally[2])
