"""A second, plainer oracle for tiny HH3 documents: every die of the attack at once over itertools.product.

Each attack owns a fixed row of dice (hit, wound, save, mitigation, Damage, Armour-breaker, Damage Table,
and Deflagrate's wound/save/mitigation dice); `play` reads one full vector of faces and follows the attack
step by step as a player would, with no merging and no state machine.  A die the attack does not need is
still enumerated, which changes no probability.  Only for a handful of dice (6^k vectors); it checks the
staged enumeration of enumerate.py (set-aside groups, damaged model first, excess lost, Deflagrate order).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from .profiles import Strike, Unit, dice_count, strike, unit
from .rules import DAMAGE_TABLE, FACES, test_passes, wound_need


def slots(sk: Strike, tg: Unit) -> list[str]:
    """The dice one attack may need, in the order `play` reads them."""
    out = ["hit"]
    out.append("apt" if tg.vehicle else "wound")
    if tg.inv is not None or tg.cover is not None or (tg.sav is not None and not tg.vehicle):
        out.append("save")
    if "Feel No Pain" in tg.rules or ("Shrouded" in tg.rules and sk.shooting):
        out.append("mit")
    out += ["dmg"] * sk.damage.n
    if tg.vehicle and sk.armour_breaker is not None:
        out.append("ab")
    if tg.vehicle and not tg.glances_cost_hp:
        out.append("table")
    if sk.deflagrate is not None:
        out += ["dwound"] + [f"d{name}" for name in ("save", "mit") if name in out]
    return out


def best(values) -> int | None:
    return min((v for v in values if isinstance(v, int)), default=None)


def play(sk: Strike, tg: Unit, rows: list[dict], order: str, facing: str, one_fails: bool) -> dict:
    """One full roll of every die: the outcome counts of the attack."""
    hits = crits = wounds = unsaved = 0
    kinds = []  # per attack: None (miss), "normal", "crit", "rend"
    for row in rows:
        f = row["hit"]
        if sk.hit_need == 0:
            kinds.append("crit")
        elif sk.hit_need is not None and test_passes(f, sk.hit_need):
            if sk.crit_from is not None and f >= sk.crit_from:
                kinds.append("crit")
            elif sk.rending is not None and f >= sk.rending:
                kinds.append("rend")
            else:
                kinds.append("normal")
        else:
            kinds.append(None)
    hits = sum(k is not None for k in kinds)
    crits = kinds.count("crit")
    out = {"hits": hits, "crits": crits}
    if tg.vehicle:
        return {**out, **play_vehicle(sk, tg, rows, kinds, facing, one_fails)}
    # wound tests, then the wounds in their set-aside groups (section 7): (group rank, attack index)
    need = sk.wound_need(tg.T)
    made = []  # (created group number, attack index, ap, bonus)
    for i, (row, kind) in enumerate(zip(rows, kinds, strict=True)):
        if kind is None:
            continue
        if kind == "normal":
            f = row["wound"]
            poisoned = sk.poisoned is not None and f != 1 and f >= sk.poisoned
            if not (test_passes(f, need) or poisoned):
                continue
        else:
            f = 6
        b = sk.breaching is not None and f >= sk.breaching
        s = sk.shred is not None and f >= sk.shred
        if kind == "crit":
            group = 1
        elif kind == "rend":
            group = 2
        else:
            group = {(False, False): 0, (True, False): 3, (False, True): 4, (True, True): 5}[(b, s)]
        made.append((group, i, 2 if b else sk.ap, (kind == "crit") + s))
    wounds = len(made)
    # the group order (section 7): unmodified first; then Critical 1, Rending 2, Breaching 3, Shred 4, both 5,
    # or those five by their Damage bonus, largest first, ties in that order
    six_shred = sk.shred is not None
    bonus_of = {1: 1 + six_shred, 2: six_shred, 3: 0, 4: 1, 5: 1}
    later = [1, 2, 3, 4, 5]
    if order == "largest_damage_first":
        later.sort(key=lambda g: -bonus_of[g])
    rank = {0: 0, **{g: r + 1 for r, g in enumerate(later)}}
    made.sort(key=lambda m: (rank[m[0]], m[1]))
    models, wleft, damage = tg.models, tg.W, 0
    eternal = tg.rules.get("Eternal Warrior") or 0

    def wound(save_face, mit_face, ap, d):
        nonlocal models, wleft, damage
        saves = [tg.inv, tg.cover if sk.shooting else None]
        if tg.sav is not None and (ap is None or ap > tg.sav):
            saves.append(tg.sav)
        if test_passes(save_face, best(saves)):
            return False
        mits = [tg.rules.get("Feel No Pain"), tg.rules.get("Shrouded") if sk.shooting else None]
        if test_passes(mit_face, best(mits)):
            return False
        if eternal and d > 0:
            d = max(d - eternal, 1)
        if models and d > 0:
            lost = min(d, wleft)
            damage += lost
            wleft -= lost
            if wleft == 0:
                models, wleft = models - 1, tg.W
        return True

    groups = sorted({rank[m[0]] for m in made})
    for r in groups:
        group_unsaved = []
        for g, i, ap, bonus in (m for m in made if rank[m[0]] == r):
            row = rows[i]
            d = sk.damage.plus + sum((f + 1) // 2 if sk.damage.faces == 3 else f for f in row["dmg"])
            d = d * sk.damage_times + sk.damage_plus + bonus
            if wound(row["save"], row["mit"], ap, d):
                unsaved += 1
                group_unsaved.append(i)
        if sk.deflagrate is not None:
            dneed = wound_need(sk.deflagrate, tg.T)
            for i in group_unsaved:
                row = rows[i]
                if test_passes(row["dwound"], dneed) and wound(row["dsave"], row["dmit"], None, 1):
                    unsaved += 1
    return {**out, "wounds": wounds, "unsaved": unsaved, "casualties": tg.models - models, "damage": damage}


def play_vehicle(sk: Strike, tg: Unit, rows: list[dict], kinds: list, facing: str, one_fails: bool) -> dict:
    glancing = penetrating = hp = 0
    table = set()
    av = tg.armour[facing]
    for row, kind in zip(rows, kinds, strict=True):
        if kind is None:
            continue
        f = row["apt"]
        if (one_fails and f == 1) or f + sk.strength < av:
            continue
        if f + sk.strength == av and not sk.armourbane:
            glancing += 1
            if tg.glances_cost_hp:
                hp += 1
            else:
                table.add(DAMAGE_TABLE[row["table"]])
            continue
        penetrating += 1
        if test_passes(row["save"], best([tg.inv, tg.cover if sk.shooting else None])):
            continue
        mits = [tg.rules.get("Feel No Pain"), tg.rules.get("Shrouded") if sk.shooting else None]
        if test_passes(row["mit"], best(mits)):
            continue
        d = sk.damage.plus + sum((f + 1) // 2 if sk.damage.faces == 3 else f for f in row["dmg"])
        d = d * sk.damage_times * (2 if sk.melta else 1) + sk.damage_plus + (kind == "crit")
        if sk.armour_breaker is not None and row["ab"] >= sk.armour_breaker:
            d += 1
        hp += d
    return {"glancing": glancing, "penetrating": penetrating, "hull_points": min(hp, tg.HP), "table": table}


def replay_oracle(doc: dict) -> dict:
    """The distributions of a tiny document, every die of the attack rolled at once (see the module)."""
    melee = doc.get("mode", "shooting") == "melee"
    options = doc.get("options") or {}
    attacker, target = unit(doc["attacker"]), unit(doc["target"], melee=melee)
    sk = strike(doc["weapon"], attacker, target, doc, melee=melee)
    names = slots(sk, target)
    dists: dict[str, dict] = {}
    for n, pn in dice_count(doc["weapon"], attacker, doc, melee=melee).items():
        width = len(names) * n
        if width > 8:
            raise ValueError(f"{width} dice: too many for the replay oracle")
        facing = "Rear" if melee else target.facing
        one_fails = options.get("apt_natural_one_fails", True)
        tally: dict[str, dict] = {}  # how many of the 6^width face vectors give each value
        for faces in product(FACES, repeat=width):
            rows = []
            for i in range(n):
                chunk = faces[i * len(names) : (i + 1) * len(names)]
                row: dict = {"dmg": [], "save": 1, "mit": 1, "dsave": 1, "dmit": 1}  # 1: no such die
                for name, f in zip(names, chunk, strict=True):
                    if name == "dmg":
                        row["dmg"].append(f)
                    else:
                        row[name] = f
                rows.append(row)
            outcome = play(sk, target, rows, options.get("group_order", "created"), facing, one_fails)
            for key, value in outcome.items():
                bucket = tally.setdefault(key, {})
                value = frozenset(value) if key == "table" else value
                bucket[value] = bucket.get(value, 0) + 1
        for key, bucket in tally.items():
            into = dists.setdefault(key, {})
            for value, count in bucket.items():
                into[value] = into.get(value, Fraction(0)) + pn * Fraction(count, 6**width)
    out = {}
    for key, bucket in dists.items():
        if key == "table":
            out[key] = bucket
            continue
        top = max(k for k, p in bucket.items() if p)
        out[key] = [bucket.get(k, Fraction(0)) for k in range(top + 1)]
    return out
