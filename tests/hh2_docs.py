"""Scenario documents and field-by-field comparisons for the independent 2nd-edition checks
(``test_hh2_independent*.py``): every distribution at 1e-12, against ``hh2_brute``'s exact fractions."""

from __future__ import annotations

import math
from typing import Any

from praetor_analysis.scenario.calc import calc, calc_many
from tests import hh2_brute as b
from tests import hh2_brute_space as bsp

TOL = 1e-12


def weapon(strength: Any, ap: Any, kind: str, name: str = "W") -> dict[str, Any]:
    return {"name": name, "Range": '24"', "Strength": str(strength), "AP": str(ap), "Type": kind}


def infantry(models: int = 10, t: int = 4, w: int = 1, save: str = "3+", **kw: Any) -> dict[str, Any]:
    base = {
        "name": "T",
        "Unit Type": "Infantry",
        "models": models,
        "WS": 4,
        "T": t,
        "W": w,
        "I": 4,
        "Ld": 7,
        "Save": save,
    }
    base.update(kw)
    return base


def vehicle(front: int, hp: int = 3, **kw: Any) -> dict[str, Any]:
    base = {"name": "V", "Unit Type": "Vehicle", "Front": front, "Side": front, "Rear": front, "HP": hp}
    base.update(kw)
    return base


def shoot(wpn: dict[str, Any], target: dict[str, Any], attacks: Any = None, bs: int = 4, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"attacker": {"BS": bs, "models": 1}, "weapon": wpn, "target": target}
    if attacks is not None:
        d["attacks"] = attacks
    d.update(kw)
    return d


def same_dist(got: dict[str, Any], want: b.Dist, name: str) -> None:
    pmf = b.as_pmf(want)
    assert len(got["pmf"]) == len(pmf), (name, got["pmf"], pmf)
    for k, (g, w) in enumerate(zip(got["pmf"], pmf, strict=True)):
        assert math.isclose(g, w, abs_tol=TOL), (name, k, g, w)
    assert math.isclose(got["mean"], b.mean(want), abs_tol=TOL), (name, got["mean"], b.mean(want))


def same_unit(got: dict[str, Any], want: b.Result, pinned: float | None = 0.0) -> None:
    for key in ("hits", "wounds", "unsaved", "casualties"):
        same_dist(got[key], getattr(want, key), key)
    if pinned is None:
        assert got["pinned"] is None
    else:
        assert math.isclose(got["pinned"], float(want.pinned), abs_tol=TOL), (got["pinned"], float(want.pinned))
    assert got["not_modelled"] == []


def same_vehicle(got: dict[str, Any], want: bsp.VehicleResult) -> None:
    for key in ("hits", "glancing", "penetrating", "hull_points"):
        same_dist(got[key], getattr(want, key), key)
    assert math.isclose(got["wrecked"], float(want.wrecked), abs_tol=TOL)
    assert set(got["damage_results"]) == set(want.damage_results)
    for name, p in want.damage_results.items():
        assert math.isclose(got["damage_results"][name], float(p), abs_tol=TOL), (name, got["damage_results"])
    assert got["not_modelled"] == []
    assert "wounds" not in got and "casualties" not in got


def unit_case(doc: dict[str, Any], want: b.Result, pinned: float | None = 0.0) -> tuple[Any, ...]:
    return ("unit", doc, want, pinned)


S = b.Shooter


WD = b.Wounder


DF = b.Defence


TG = b.Target


F1 = b.fixed


def assert_close(a: Any, b_: Any, where: str) -> None:
    """Equal documents, floats within 1e-12 (calc_many sums in another order: means differ in the last ulp)."""
    if isinstance(a, float) and isinstance(b_, float):
        assert math.isclose(a, b_, abs_tol=TOL), (where, a, b_)
    elif isinstance(a, dict) and isinstance(b_, dict):
        assert a.keys() == b_.keys(), (where, sorted(a), sorted(b_))
        for k in a:
            assert_close(a[k], b_[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b_, list):
        assert len(a) == len(b_), (where, a, b_)
        for i, (x, y) in enumerate(zip(a, b_, strict=True)):
            assert_close(x, y, f"{where}[{i}]")
    else:
        assert a == b_, (where, a, b_)


def melee(wpn: dict[str, Any], target: dict[str, Any], **att: Any) -> dict[str, Any]:
    attacker = {"WS": 4, "S": 4, "I": 4, "A": 1, "models": 1}
    attacker.update(att)
    return {"mode": "melee", "attacker": attacker, "weapon": wpn, "target": target}


def merged(*tables: dict[str, tuple[Any, ...]]) -> dict[str, tuple[Any, ...]]:
    """The case tables as one, their names distinct."""
    out = {name: case for table in tables for name, case in table.items()}
    assert len(out) == sum(len(t) for t in tables)
    return out


def check_case(case: tuple[Any, ...]) -> None:
    """``calc`` of a case's document against its brute-force expectation, field by field."""
    kind, doc, want, pinned = case
    got = calc(doc)
    if kind == "unit":
        same_unit(got, want, pinned)
    else:
        same_vehicle(got, want)


def check_many(cases: dict[str, tuple[Any, ...]]) -> None:
    """``calc_many`` over every case's document gives ``calc``'s documents (floats within 1e-12)."""
    names = sorted(cases)
    docs = [cases[n][1] for n in names]
    for name, one, doc in zip(names, calc_many(docs), docs, strict=True):
        assert_close(one, calc(doc), name)
