"""Apocalyptic Mega-blast: each zone is its own wound pool with its own Strength (docs/rules.md#apocalyptic-mega-blast).

The geometry gives the joint distribution of models hit per zone (inner, middle, outer); each zone's hits
roll to wound at that zone's Strength (``10/8/6`` on the datasheet) and the weapon's AP. Pools are
allocated inner first, then middle, then outer, the unit's state carried between them; the joint hit
counts are kept as batch axes of the allocation, so the result is exact.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from praetor_analysis.engine.allocation import Allocator
from praetor_analysis.engine.pinning import shell_shock_of
from praetor_analysis.engine.rule_report import classify_rules
from praetor_analysis.engine.volley import TargetState, Volley, VolleyResult
from praetor_analysis.engine.wound_stage import wound_groups
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist, binomial_pmf, convolve_powers
from praetor_analysis.profiles import StrengthSpec, Unit
from praetor_analysis.rules import Role


def zone_strengths(volley: Volley) -> tuple[int, int, int]:
    """The inner, middle and outer Strengths (a single Strength serves every zone)."""
    spec = volley.weapon.strength
    if spec.kind == "zones":
        z = spec.zones
        return (z + (z[-1],) * 3)[:3] if len(z) < 3 else z[:3]  # type: ignore[return-value]
    s = spec.resolve(volley.attacker.S)
    if s is None:
        raise ProfileError(f"weapon.Strength: {spec.text!r} cannot wound")
    return (s, s, s)


def _sum_over_zones(joint: np.ndarray, per_hit: list[np.ndarray]) -> np.ndarray:
    """pmf of the total over all hits, each zone's hits iid with its own per-hit pmf."""
    a_n, b_n, c_n = joint.shape
    pa, pb, pc = (list(convolve_powers(p, n - 1)) for p, n in zip(per_hit, joint.shape, strict=True))
    size = (a_n - 1) * (per_hit[0].size - 1) + (b_n - 1) * (per_hit[1].size - 1) + (c_n - 1) * (per_hit[2].size - 1) + 1
    out = np.zeros(size)
    for a, b, c in zip(*np.nonzero(joint), strict=False):
        term = np.convolve(np.convolve(pa[a], pb[b]), pc[c])
        out[: term.size] += joint[a, b, c] * term
    return out


def resolve_zoned_volley(volley: Volley, target: Unit, state: TargetState | None = None) -> VolleyResult:
    """Resolve a Mega-blast whose hits per zone have the joint pmf ``volley.zone_hits``."""
    joint = np.asarray(volley.zone_hits, dtype=float)
    w = volley.weapon
    if w.plays(Role.EXTRA_HITS):
        raise ProfileError("weapon.Type: Deflagrate with Apocalyptic Mega-blast zones is not modelled")
    if state is None:
        state = TargetState.fresh(target, shell_shocks=(shell_shock_of(w),) if w.plays(Role.PINNING) else None)
    strengths = zone_strengths(volley)
    tracks = w.plays(Role.PINNING) and state.probs.shape[0] > 1
    level = state.shell_shocks.index(shell_shock_of(w), 1) if tracks else 0
    alloc = Allocator(state.space, pinning=tracks, level=level)
    zones = []
    for s in strengths:
        zoned = replace(volley, weapon=replace(w, strength=StrengthSpec("fixed", s, str(s))))
        zones.append(wound_groups(zoned, target, s, state.space.wounds))
    # inner pool: R = a, batch (b, c); then middle: R = b, batch c; then outer: R = c
    x = joint[..., None, None] * state.probs
    x = alloc.resolve(x, zones[0][0], track=False)[..., 0, :, :]
    x = alloc.resolve(x, zones[1][0], track=False)[..., 0, :, :]
    final = alloc.resolve(x, zones[2][0], track=False)[0]
    new_state = TargetState(state.space, final, state.shell_shocks)
    hits_pmf = _sum_over_zones(joint, [np.array([0.0, 1.0])] * 3)
    wounds_pmf = _sum_over_zones(joint, [binomial_pmf(1, z[1]) for z in zones])
    unsaved_pmf = _sum_over_zones(joint, [z[2] for z in zones])
    applied, no_effect, missing = classify_rules(
        volley, target, [f"Mega-blast zones at Strength {'/'.join(map(str, strengths))}"]
    )
    return VolleyResult(
        hits=Dist.from_trusted(hits_pmf),
        wounds=Dist.from_trusted(wounds_pmf),
        unsaved=Dist.from_trusted(unsaved_pmf),
        casualties=new_state.kills(),
        pinned=None,
        applied=tuple(applied),
        not_modelled=tuple(missing),
        no_effect=tuple(no_effect),
        state=new_state,
    )
