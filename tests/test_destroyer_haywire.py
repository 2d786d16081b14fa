"""Destroyer and Haywire against units with Wounds: brute-force enumeration of every die (1e-12).

The oracle in tests/oracle refuses these two rules (MECHANICS.md is silent on them against non-vehicles);
our readings (README, rules/saves.py, rules/wound.py) are enumerated here die by die:
- Destroyer: each unsaved wound does D3 damage to the model it is allocated to; the excess is lost.
- Haywire against a Dreadnought or Automata: a D6 instead of To Wound: 1 nothing, 2-5 a wound that only
  invulnerable saves and damage mitigation may stop, 6 a wound that nothing stops.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from praetor_analysis.scenario.calc import calc

SIXTH = Fraction(1, 6)


def enumerate_hits(hits: int, per_hit, models: int, wounds: int) -> dict[int, Fraction]:
    """Distribution of models removed after ``hits`` automatic hits, each hit's damage from ``per_hit``
    (a list of (probability, damage)), allocated in turn to the current model, excess lost."""
    merged: dict[int, Fraction] = {}
    for prob, damage in per_hit:  # the faces of one hit, merged by the damage they do
        merged[damage] = merged.get(damage, Fraction(0)) + prob
    assert sum(merged.values()) == 1
    out: dict[int, Fraction] = {}
    for combo in itertools.product([(p, d) for d, p in merged.items()], repeat=hits):
        p = Fraction(1)
        kills, left = 0, wounds
        for prob, damage in combo:
            p *= prob
            if damage and kills < models:
                if damage >= left:
                    kills, left = kills + 1, wounds
                else:
                    left -= damage
        out[kills] = out.get(kills, Fraction(0)) + p
    return out


def destroyer_per_hit(wound_on: int, save_on: int | None) -> list[tuple[Fraction, int]]:
    """One hit of a Destroyer weapon, die by die: wound roll, save roll, D3 damage."""
    out: list[tuple[Fraction, int]] = []
    for w in range(1, 7):
        if w == 1 or w < wound_on:
            out.append((SIXTH, 0))
            continue
        for s in range(1, 7):
            if save_on is not None and s >= save_on:
                out.append((SIXTH * SIXTH, 0))
                continue
            for d3 in (1, 2, 3):
                out.append((SIXTH * SIXTH * Fraction(1, 3), d3))
    return out


def haywire_per_hit(invulnerable: int | None, fnp: int | None) -> list[tuple[Fraction, int]]:
    """One Haywire hit on a Dreadnought, die by die: the Haywire D6, then invulnerable save and FNP."""
    out: list[tuple[Fraction, int]] = []
    for h in range(1, 7):
        if h == 1:
            out.append((SIXTH, 0))
        elif h == 6:
            out.append((SIXTH, 1))
        else:
            for s in range(1, 7):
                saved = invulnerable is not None and s >= invulnerable
                for f in range(1, 7):
                    mitigated = not saved and fnp is not None and f >= fnp
                    out.append((SIXTH**3, 0 if saved or mitigated else 1))
    return out


def close(got: list[float], want: dict[int, Fraction]) -> bool:
    n = max(len(got), max(want) + 1)
    return all(abs((got[k] if k < len(got) else 0.0) - float(want.get(k, 0))) <= 1e-12 for k in range(n))


@pytest.mark.parametrize("hits, models, wounds, save", [(1, 2, 3, None), (2, 2, 3, 4), (3, 3, 2, 5), (2, 1, 6, 3)])
def test_destroyer_d3_damage_overflow_lost(hits, models, wounds, save):
    # S6 vs T5 wounds on 3+; AP4 lets a 4+/5+ save stand, not a 3+ (AP 4 <= 3 is false: the 3+ stands too).
    target = {"models": models, "T": 5, "W": wounds, "Save": f"{save}+" if save else "-"}
    r = calc(
        {
            "attacker": {"BS": 4},
            "weapon": {"name": "d", "Range": '24"', "Strength": "6", "AP": "4", "Type": "Destroyer 1"},
            "target": target,
            "hits": hits,
        }
    )
    save_on = save if (save is not None and save < 4) else None
    want = enumerate_hits(hits, destroyer_per_hit(3, save_on), models, wounds)
    assert close(r["casualties"]["pmf"], want), (r["casualties"]["pmf"], want)


@pytest.mark.parametrize("hits, invulnerable, fnp", [(1, None, None), (2, 5, None), (3, 4, 6), (2, None, 5)])
def test_haywire_against_a_dreadnought(hits, invulnerable, fnp):
    target = {
        "Unit Type": "Dreadnought",
        "models": 1,
        "T": 7,
        "W": 2,
        "Save": "2+",
        "Invulnerable": f"{invulnerable}+" if invulnerable else "-",
        "rules": [f"Feel No Pain ({fnp}+)"] if fnp else [],
    }
    r = calc(
        {
            "attacker": {"BS": 4},
            "weapon": {"name": "h", "Range": '24"', "Strength": "3", "AP": "-", "Type": "Assault 1, Haywire"},
            "target": target,
            "hits": hits,
        }
    )
    want = enumerate_hits(hits, haywire_per_hit(invulnerable, fnp), 1, 2)
    assert close(r["casualties"]["pmf"], want), (r["casualties"]["pmf"], want)
    assert "Haywire" in r["applied"]
