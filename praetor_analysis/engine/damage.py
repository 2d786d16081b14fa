"""The damage packet of one allocated wound: Brutal, Destroyer, Instant Death, overflow lost."""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.allocation import Packet
from praetor_analysis.prob import binomial_pmf, convolve_powers
from praetor_analysis.rules import D3_DAMAGE, WoundKind


def damage_packet(
    kind: WoundKind,
    p_unsaved: float,
    *,
    wounds: int,
    brutal: int = 1,
    destroyer: bool = False,
    per_wound: tuple[float, ...] | None = None,
) -> Packet:
    """The packet of one allocated wound: P(u unsaved wounds doing d damage to the current model).

    Brutal (X) rolls X saves; each unsaved wound does the damage ``per_wound`` (a pmf over wounds lost:
    Destroyer's D3 when ``destroyer``, else one); Instant Death removes the whole model (damage
    ``wounds``). Damage is capped at ``wounds``: overflow is lost.
    """
    if per_wound is None and destroyer:
        per_wound = D3_DAMAGE
    if brutal == 1 and per_wound is None:  # the common case: one save, one damage (or the whole model)
        probs = np.zeros((2, wounds + 1))
        probs[0, 0] = 1.0 - p_unsaved
        probs[1, wounds if kind.instant_death else 1] = p_unsaved
        return Packet(probs)
    unsaved = binomial_pmf(brutal, p_unsaved)
    each = np.array(per_wound if per_wound is not None else (0.0, 1.0))
    probs = np.zeros((brutal + 1, wounds + 1))
    for u, dmg_of_u in enumerate(convolve_powers(each, brutal)):  # pmf of damage from u unsaved wounds
        if unsaved[u] == 0.0:
            continue
        if kind.instant_death and u > 0:
            probs[u, wounds] += unsaved[u]
            continue
        capped = np.zeros(wounds + 1)
        capped[: min(dmg_of_u.size, wounds + 1)] = dmg_of_u[: wounds + 1]
        capped[wounds] += dmg_of_u[wounds + 1 :].sum()
        probs[u] += unsaved[u] * capped
    return Packet(probs)
