"""Brute-force oracle of the edition 3 attack, die by die (docs/rules-hh3.md), for small cases.

Never imports praetor_analysis. Every die of one attack die's story is rolled face by face (the hit roll, the
wound roll, the save, the Damage Mitigation roll, the Damage dice, the Deflagrate hit's rolls); equal stories are
merged. Then every sequence of stories of the attack's dice is enumerated (a full product, no binomial), the
wounds applied one model at a time in the set-aside group order, excess Damage lost, and the 2D6 Checks
enumerated over their 36 faces.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from typing import Any

SIXTH = 1.0 / 6.0
BS_NORMAL = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: "auto"}
BS_CRIT = {6: 6, 7: 5, 8: 4, 9: 3, 10: 1}
BS_SNAP = {1: None, 2: 6, 3: 6, 4: 5, 5: 5, 6: 4, 7: 4, 8: 3, 9: 3, 10: 2}
WS = [
    [4, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    [2, 4, 5, 6, 6, 6, 6, 6, 6, 6],
    [2, 3, 4, 5, 5, 6, 6, 6, 6, 6],
    [2, 2, 3, 4, 5, 5, 5, 6, 6, 6],
    [2, 2, 3, 3, 4, 5, 5, 5, 5, 6],
    [2, 2, 2, 3, 3, 4, 5, 5, 5, 5],
    [2, 2, 2, 3, 3, 3, 4, 5, 5, 5],
    [2, 2, 2, 2, 3, 3, 3, 4, 5, 5],
    [2, 2, 2, 2, 3, 3, 3, 3, 4, 5],
    [2, 2, 2, 2, 3, 3, 3, 3, 3, 4],
]
ORDER = ["plain", "critical", "rending", "breaching", "shred", "breaching+shred"]


def _num(x: Any) -> int | None:
    if x is None or str(x).strip() in ("-", ""):
        return None
    return int(str(x).strip().rstrip("+"))


def _rules(text: Any) -> dict[str, str]:
    out = {}
    for part in re.split(r",(?![^(]*\))", text or ""):
        m = re.match(r"\s*([^(]+?)\s*(?:\(([^)]*)\))?\s*$", part)
        if m and m.group(1).strip():
            out[m.group(1).strip()] = (m.group(2) or "").strip()
    return out


def _rx(rules: dict[str, str], name: str) -> int | None:
    return int(rules[name].rstrip("+")) if name in rules else None


def _dice_faces(text: Any) -> list[tuple[int, float]]:
    """(value, probability) of a number or dice expression, each die rolled face by face."""
    s = str(text).strip().upper()
    m = re.fullmatch(r"(\d*)D(3|6)", s)
    if not m:
        return [(int(s), 1.0)]
    n, sides = int(m.group(1) or 1), int(m.group(2))
    out: dict[int, float] = defaultdict(float)
    for faces in itertools.product(range(1, 7), repeat=n):
        out[sum((f + 1) // 2 if sides == 3 else f for f in faces)] += SIXTH**n
    return sorted(out.items())


def _wound_tn(s: int, t: int) -> int | None:
    s, t = min(s, 10), min(t, 10)
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


def _check_fails(t: int) -> float:
    fails = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if t <= 0:
                ok = False
            elif a == b == 1:
                ok = True
            elif a == b == 6:
                ok = False
            else:
                ok = a + b <= t
            fails += not ok
    return fails / 36.0


def _types(unit: dict) -> set[str]:
    m = re.match(r"\s*([^(]*)\(?([^)]*)\)?", unit.get("Type", "Infantry"))
    assert m
    return {m.group(1).strip().lower(), *(p.strip().lower() for p in m.group(2).split(",") if p.strip())}


def _save_and_mitigate(ap: int | None, target: dict, shooting: bool) -> list[tuple[bool, float]]:
    """(unsaved, probability) of one wound, the save and mitigation dice rolled face by face."""
    sav, inv = _num(target.get("SAV")), _num(target.get("INV"))
    cover = _num(target.get("Cover")) if shooting else None
    trules = {k: v for r in target.get("rules", []) for k, v in _rules(r).items()}
    armour = sav if sav is not None and not (ap is not None and ap <= sav) else None
    options = [x for x in (armour, cover, inv) if x is not None]
    mit = [x for x in (_rx(trules, "Feel No Pain"), _rx(trules, "Shrouded") if shooting else None) if x is not None]
    out: dict[bool, float] = defaultdict(float)
    for sv in range(1, 7):
        saved = bool(options) and sv != 1 and sv >= min(options)
        if saved:
            out[False] += SIXTH
            continue
        for f in range(1, 7):
            mitigated = bool(mit) and f != 1 and f >= min(mit)
            out[not mitigated] += SIXTH * SIXTH
    return list(out.items())


def _stories(vol: dict, target: dict, *, given: bool, defender: dict) -> dict[tuple, float]:
    """Every story of one attack die, merged: (hit, critical, wounded, group, unsaved, damage, df_unsaved, misfire,
    shock)."""
    w, att = vol["weapon"], vol["attacker"]
    melee = vol.get("mode") == "melee"
    shooting = not melee
    wr = _rules(w.get("Special Rules", ""))
    for t in _rules(w.get("Traits", "")):
        if t in ("Breaching", "Shred"):
            wr[t] = _rules(w["Traits"])[t]
    stationary, charging = vol.get("stationary", False), vol.get("charging", False)
    heavy = set(re.split(r"\s*&\s*", wr["Heavy"])) if "Heavy" in wr and stationary and shooting else set()
    ordn = set(re.split(r"\s*&\s*", wr["Ordnance"])) if "Ordnance" in wr and stationary and shooting else set()
    impact = set(re.split(r"\s*&\s*", wr["Impact"])) if "Impact" in wr and charging and melee else set()
    if melee:
        sm = str(w.get("SM", "S"))
        s = int(att["S"])
        s = s + int(sm) if sm[0] in "+-" else (s if sm.upper() == "S" else int(sm))
        s += 1 if "SM" in impact else 0
    else:
        s = int(w["RS"]) * (2 if "RS" in ordn else 1) + (1 if "RS" in heavy else 0)
    ap = _num(w.get("AP"))
    if "AP" in ordn:
        ap = 2 if ap is None else min(ap, 2)
    if "AP" in heavy or "AP" in impact:
        ap = 6 if ap is None else max(ap - 1, 2)
    crit_rule, rend, overload = _rx(wr, "Critical Hit"), _rx(wr, "Rending"), _rx(wr, "Overload")
    breach, shred, poison, defl = _rx(wr, "Breaching"), _rx(wr, "Shred"), _rx(wr, "Poisoned"), _rx(wr, "Deflagrate")
    ttypes = _types(defender)
    if poison is not None and ttypes & {"walker", "automata", "artifica"}:
        poison = 6
    trules = {k: v for r in defender.get("rules", []) for k, v in _rules(r).items()}
    ew = _rx(trules, "Eternal Warrior") or 0
    t = int(defender["T"])
    # the hit roll
    rolls: list[tuple[int | None, bool, bool, bool, float]] = []  # (natural, hit, rolled, critical band, p)
    if given:
        rolls = [(None, True, False, False, 1.0)]
    elif melee:
        tn = WS[min(int(att["WS"]), 10) - 1][min(max(int(target["WS"]), 1), 10) - 1]
        rolls = [(h, h != 1 and h >= tn, True, False, SIXTH) for h in range(1, 7)]
    else:
        bs = min(int(att["BS"]), 10)
        snap = vol.get("snap_shots", False)
        if snap:
            tn = BS_SNAP[bs]
            rolls = (
                [(None, False, False, False, 1.0)]
                if tn is None
                else [(h, h != 1 and h >= tn, True, False, SIXTH) for h in range(1, 7)]
            )
        elif BS_NORMAL[bs] == "auto":
            rolls = [(6, True, False, True, 1.0)]
        else:
            tn, band = BS_NORMAL[bs], BS_CRIT.get(bs)
            rolls = [(h, h != 1 and h >= tn, True, band is not None and h >= band, SIXTH) for h in range(1, 7)]
    dmg_faces = _dice_faces(w.get("D", 1))
    out: dict[tuple, float] = defaultdict(float)
    for h, hit, rolled, band_crit, ph in rolls:
        misfire = rolled and overload is not None and h is not None and h <= overload and not given
        shock = h is not None and h >= 5  # a natural 5 or 6 (an automatic hit counts as a 6)
        if not hit:
            out[(False, False, False, None, False, 0, False, misfire, shock)] += ph
            continue
        crit = h is not None and (band_crit or (crit_rule is not None and h >= crit_rule))
        rending = h is not None and not crit and rend is not None and h >= rend
        wound_rolls = [(6, True, 1.0)] if (crit or rending) else [
            (x, x != 1 and ((_wound_tn(s, t) is not None and x >= _wound_tn(s, t)) or (poison is not None and x >= poison)), SIXTH)
            for x in range(1, 7)
        ]  # fmt: skip
        for x, wounded, pw in wound_rolls:
            if not wounded:
                out[(True, crit, False, None, False, 0, False, misfire, shock)] += ph * pw
                continue
            b = breach is not None and x >= breach
            sh = shred is not None and x >= shred
            group = "critical" if crit else "rending" if rending else {
                (False, False): "plain", (True, False): "breaching", (False, True): "shred", (True, True): "breaching+shred"
            }[(b, sh)]  # fmt: skip
            wap = (2 if ap is None else min(ap, 2)) if b else ap
            for unsaved, pu in _save_and_mitigate(wap, defender, shooting):
                if not unsaved:
                    out[(True, crit, True, group, False, 0, False, misfire, shock)] += ph * pw * pu
                    continue
                for d0, pd in dmg_faces:
                    d = d0 * (2 if "D" in ordn else 1)
                    d += (
                        (1 if "D" in heavy else 0) + (1 if "D" in impact else 0) + (1 if crit else 0) + (1 if sh else 0)
                    )
                    if d > 0 and ew:
                        d = max(d - ew, 1)
                    if defl is None:
                        out[(True, crit, True, group, True, d, False, misfire, shock)] += ph * pw * pu * pd
                        continue
                    for y in range(1, 7):  # the Deflagrate hit's wound roll (S X, AP -, D 1)
                        tn2 = _wound_tn(defl, t)
                        if not (y != 1 and tn2 is not None and y >= tn2):
                            out[(True, crit, True, group, True, d, False, misfire, shock)] += ph * pw * pu * pd * SIXTH
                            continue
                        for u2, pu2 in _save_and_mitigate(None, defender, shooting):
                            out[(True, crit, True, group, True, d, u2, misfire, shock)] += (
                                ph * pw * pu * pd * SIXTH * pu2
                            )
    return dict(out)


def _size(unit: dict) -> int:
    bulky = {k: v for r in unit.get("rules", []) for k, v in _rules(r).items()}.get("Bulky")
    return int(unit.get("models", 1)) * (int(bulky) if bulky else 1)


def _n_dice(vol: dict, target: dict) -> list[tuple[int, float]]:
    if vol.get("hits") is not None:
        return _dice_faces(vol["hits"])
    if vol.get("attacks") is not None:
        return _dice_faces(vol["attacks"])
    w, att = vol["weapon"], vol["attacker"]
    models = int(att.get("models", 1))
    wr = _rules(w.get("Special Rules", ""))
    if vol.get("mode") == "melee":
        am = str(w.get("AM", "A"))
        a = int(att["A"])
        a = a + int(am) if am[0] in "+-" else (a if am.upper() == "A" else int(am))
        if "Impact" in wr and vol.get("charging") and "AM" in wr["Impact"]:
            a += 1
        if "Reaping Blow" in wr and _size(att) < _size(target):  # outnumbered: +X attacks
            a += int(wr["Reaping Blow"])
        return [(a * models, 1.0)]
    stationary = vol.get("stationary", False)
    per: list[tuple[int, float]] = []
    for v, p in _dice_faces(w["FP"]):
        if stationary and "Ordnance" in wr and "FP" in wr["Ordnance"]:
            v *= 2
        if stationary and "Heavy" in wr and "FP" in wr["Heavy"]:
            v += 1
        per.append((v, p))
    total: dict[int, float] = {0: 1.0}
    for _ in range(models):
        nxt: dict[int, float] = defaultdict(float)
        for a, pa in total.items():
            for b, pb in per:
                nxt[a + b] += pa * pb
        total = nxt
    return sorted(total.items())


def _apply(models: list[int], d: int) -> None:
    """One Unsaved Wound of Damage d: on the damaged model if any, else the first; excess lost."""
    if not models or d <= 0:
        return
    full = max(models)
    i = next((k for k, m in enumerate(models) if m < full), 0)
    models[i] -= d
    if models[i] <= 0:
        models.pop(i)


def _order(stories: tuple, option: str) -> list[str]:
    present = [g for g in ORDER if any(s[3] == g and s[4] for s in stories)]
    if option != "largest_damage_first":
        return present
    return present  # the oracle's cases for the option compare against an explicit order given by the test


def _resolve_sequence(models: list[int], seq: tuple, order: list[str]) -> None:
    for g in order:
        group = [s for s in seq if s[3] == g and s[4]]
        for s in group:
            _apply(models, s[5])
        for s in group:
            if s[6]:
                _apply(models, 1)


def oracle_hh3(doc: dict, *, order: list[str] | None = None) -> dict[str, Any]:
    """The brute-force result of an edition 3 document: pmfs as {k: p} of hits, critical_hits, wounds, unsaved,
    casualties, damage, the statuses and the misfires' firer casualties (a list per Overload volley).
    ``order`` forces the set-aside group order (the ``largest_damage_first`` cases)."""
    target = doc["target"]
    units = doc.get("firing_units") or [[{k: v for k, v in doc.items() if k not in ("target", "options", "edition")}]]
    option = doc.get("options", {}).get("group_order", "created")
    W, M = int(target["W"]), int(target.get("models", 1))
    ttypes = _types(target)
    # per volley: the weighted (count, stories) list
    plans = []
    for unit in units:
        for vol in unit:
            st = _stories(vol, target, given=vol.get("hits") is not None, defender=target)
            plans.append((vol, list(st.items()), _n_dice(vol, target)))
    acc: dict[str, dict[int, float]] = {
        k: defaultdict(float) for k in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage")
    }
    status = dict.fromkeys(("Pinned", "Suppressed", "Stunned", "Routed"), 0.0)
    misfire_counts: list[dict[int, float]] = [defaultdict(float) for _ in plans]
    phaged: dict[str, float] = defaultdict(float)

    def walk(i: int, weight: float, models: list[int], counts: tuple, trig: dict, m0: int, mis: tuple) -> None:
        # end of a firing unit: the 25% check
        if i == len(plans):
            finish(weight, models, counts, trig, mis)
            return
        vol, stories, ns = plans[i]
        for n, pn in ns:
            for seq in itertools.product(stories, repeat=n):
                wgt = weight * pn * math.prod(p for _, p in seq)
                if wgt == 0.0:
                    continue
                ss = tuple(s for s, _ in seq)
                ms = list(models)
                _resolve_sequence(ms, ss, order if order is not None else _order(ss, option))
                c = (
                    counts[0] + sum(s[0] for s in ss),
                    counts[1] + sum(s[1] for s in ss),
                    counts[2] + sum(s[2] for s in ss),
                    counts[3] + sum(s[4] for s in ss) + sum(s[6] for s in ss),
                )
                tg = dict(trig)
                wr = _rules(vol["weapon"].get("Special Rules", ""))
                if vol.get("mode") != "melee":
                    for name, st_name, need in (
                        ("Suppressive", "Suppressed", 0),
                        ("Stun", "Stunned", 0),
                        ("Pinning", "Pinned", 2),
                        ("Panic", "Routed", 2),
                    ):
                        if name in wr and any(s[need] for s in ss):
                            tg[st_name] = max(tg.get(st_name, -1), _rx(wr, name))
                shock_rule = _rules(vol["weapon"].get("Special Rules", "")).get("Shock")
                if shock_rule and vol.get("hits") is None and ttypes & {"walker", "vehicle"} and any(s[8] for s in ss):
                    for word in shock_rule.split(","):
                        name = {"pinning": "Pinned", "stun": "Stunned", "suppressive": "Suppressed"}.get(
                            word.strip().lower(), word.strip().capitalize()
                        )
                        tg[name] = 100  # given without a Check
                phage = _rules(vol["weapon"].get("Special Rules", "")).get("Phage")
                if phage and any(s[4] for s in ss):
                    tg["phage " + phage.upper()] = 1  # an Unsaved Wound from a Phage (X) weapon
                mi = (*mis, sum(s[7] for s in ss))
                unit_end = _unit_end(i)
                new_m0 = m0
                if unit_end:
                    shooting = any(v.get("mode") != "melee" for v in units[_unit_of(i)])
                    if shooting and ms and m0 - len(ms) >= -(-m0 // 4):
                        tg["Routed"] = max(tg.get("Routed", -1), 0)
                    new_m0 = len(ms)
                walk(i + 1, wgt, ms, c, tg, new_m0, mi)

    def finish(weight: float, models: list[int], counts: tuple, trig: dict, mis: tuple) -> None:
        for key, v in zip(("hits", "critical_hits", "wounds", "unsaved"), counts, strict=True):
            acc[key][v] += weight
        acc["casualties"][M - len(models)] += weight
        acc["damage"][M * W - sum(models)] += weight
        for j, k in enumerate(mis):
            misfire_counts[j][k] += weight
        for key in trig:
            if key.startswith("phage ") and models:
                phaged[key.removeprefix("phage ")] += weight
        if not models or "automata" in ttypes:
            return
        ld, cl = int(target["LD"]), int(target["CL"]) + (1 if "heavy" in ttypes else 0)
        routed = _check_fails(ld - trig["Routed"]) if trig.get("Routed", -1) >= 0 else 0.0
        status["Routed"] += weight * routed
        for name in ("Pinned", "Suppressed", "Stunned"):
            if trig.get(name, -1) >= 0:
                status[name] += weight * (1 - routed) * _check_fails(cl - trig[name])

    bounds = list(itertools.accumulate(len(u) for u in units))

    def _unit_end(i: int) -> bool:
        return i + 1 in bounds

    def _unit_of(i: int) -> int:
        return next(k for k, b in enumerate(bounds) if i < b)

    walk(0, 1.0, [W] * M, (0, 0, 0, 0), {}, M, ())
    result: dict[str, Any] = {k: dict(v) for k, v in acc.items()}
    result["statuses"] = status
    result["misfire_counts"] = [dict(m) for m in misfire_counts]
    result["phage"] = dict(phaged)
    return result


def oracle_misfire_losses(vol: dict, misfires: dict[int, float]) -> dict[int, float]:
    """The firer's casualties from a Misfire count distribution: each Misfire one hit (no hit-roll rule) with the
    weapon's profile on the firing unit, its stories enumerated die by die."""
    firer = vol["attacker"]
    stories = list(_stories({**vol, "snap_shots": False}, firer, given=True, defender=firer).items())
    W, M = int(firer["W"]), int(firer.get("models", 1))
    out: dict[int, float] = defaultdict(float)
    for k, pk in misfires.items():
        for seq in itertools.product(stories, repeat=k):
            wgt = pk * math.prod(p for _, p in seq)
            ms = [W] * M
            ss = tuple(s for s, _ in seq)
            _resolve_sequence(ms, ss, _order(ss, "created"))
            out[M - len(ms)] += wgt
    return dict(out)


def _boosted(weapon: dict, chars: str) -> dict:
    """The weapon with each characteristic Force (X) names doubled (AP set to 2), written into its profile."""
    out = dict(weapon)
    for char in (c.strip().upper() for c in chars.split("&")):
        if char == "AP":
            out["AP"] = 2
        elif char == "D" and str(out.get("D", 1)).isdigit():
            out["D"] = int(out.get("D", 1)) * 2
        elif char in ("FP", "RS"):
            out[char] = int(out[char]) * 2
        else:
            raise NotImplementedError(char)
    return out


def oracle_hh3_force(doc: dict) -> dict[str, Any]:
    """``oracle_hh3`` of a single-volley document whose weapon has Force (X): the attacker's Willpower Check
    rolled over its 36 faces (a double 1 passes, a double 6 fails), the boosted and plain results mixed."""
    wr = _rules(doc["weapon"].get("Special Rules", ""))
    wp = int(doc["attacker"]["WP"])
    p_pass = (
        sum(1 for a in range(1, 7) for b in range(1, 7) if (a == b == 1) or (not a == b == 6 and a + b <= wp)) / 36.0
    )
    boosted = oracle_hh3({**doc, "weapon": _boosted(doc["weapon"], wr["Force"])})
    plain = oracle_hh3(doc)
    out: dict[str, Any] = {}
    for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage"):
        mixed: dict[int, float] = defaultdict(float)
        for k, p in boosted[key].items():
            mixed[k] += p_pass * p
        for k, p in plain[key].items():
            mixed[k] += (1 - p_pass) * p
        out[key] = dict(mixed)
    out["statuses"] = {
        k: p_pass * boosted["statuses"][k] + (1 - p_pass) * plain["statuses"][k] for k in plain["statuses"]
    }
    out["boost"] = p_pass
    return out
