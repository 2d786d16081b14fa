"""Scatter of blast markers: the scatter die, the 2D6 distance, and twin-linked re-rolls.

The scatter die shows Hit on 2 faces in 6 (the marker stays where it was aimed) and an arrow on 4;
an arrow gives a direction uniform on the circle and a distance of 2D6 minus the firer's BS, minimum 0
(an indirect Barrage scatters the full 2D6). See docs/rules.md#markers-and-templates.

Outcome tables here are plain numpy arrays: a pmf over whatever the caller counts (models hit, or a
joint table of hits per zone). Scatter distances are whole inches 0..12, index = inches.
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.prob import two_d6

__all__ = [
    "MAX_SCATTER",
    "P_HIT",
    "arrow_distance_pmf",
    "resolve_scatter",
    "scatter_distance_pmf",
]

#: Probability that the scatter die shows Hit (2 faces of 6).
P_HIT = 2.0 / 6.0
#: Largest scatter distance, inches (a 2D6 roll of 12).
MAX_SCATTER = 12


def arrow_distance_pmf(bs: int = 0, indirect: bool = False) -> np.ndarray:
    """Distance an arrow moves the marker, given an arrow was rolled.

    Args:
        bs: the firer's Ballistic Skill, subtracted from the 2D6 roll (minimum 0").
        indirect: an indirect Barrage: the full 2D6, BS ignored.

    Returns:
        Array of length 13: ``pmf[d]`` = P(scatter distance = d inches | arrow).
    """
    if bs < 0:
        raise ValueError(f"bs must be >= 0, got {bs}")
    sub = 0 if indirect else int(bs)
    roll = two_d6()
    out = np.zeros(MAX_SCATTER + 1)
    for total, p in enumerate(roll):
        out[max(total - sub, 0)] += p
    return out


def scatter_distance_pmf(bs: int = 0, indirect: bool = False) -> np.ndarray:
    """Unconditional distance moved, Hit faces included (a Hit moves 0")."""
    out = (1.0 - P_HIT) * arrow_distance_pmf(bs, indirect)
    out[0] += P_HIT
    return out


def _value_table(shape: tuple[int, ...]) -> np.ndarray:
    """Default value of an outcome: the sum of its indices (models hit over all zones)."""
    grids = np.indices(shape)
    return grids.sum(axis=0).astype(np.float64)


def resolve_scatter(
    at_aim: np.ndarray,
    arrow: np.ndarray,
    dist_pmf: np.ndarray,
    *,
    twin_linked: bool = False,
    value: np.ndarray | None = None,
) -> np.ndarray:
    """Combine the scatter die and the distance with the outcome at each place.

    Args:
        at_aim: outcome pmf (any shape ``S``) when the marker stays on the aim point (Hit faces).
        arrow: array ``(13, *S)``: ``arrow[d]`` is the outcome pmf given an arrow and distance ``d``
            (direction uniform). Rows whose ``dist_pmf`` is 0 are ignored.
        dist_pmf: :func:`arrow_distance_pmf`.
        twin_linked: the attacker may re-roll both the scatter die and the 2D6 when no Hit was rolled.
            The attacker sees where the marker landed and re-rolls exactly when that outcome's value
            is *strictly* below the expected value of a fresh roll (ties keep). This maximises the
            expected value; the re-roll stands.
        value: the value the attacker maximises for each outcome (shape ``S``); default the sum of
            the indices, i.e. the number of models hit (all zones together for a Mega-blast).

    Returns:
        Outcome pmf of shape ``S``.
    """
    at_aim = np.asarray(at_aim, dtype=np.float64)
    arrow = np.asarray(arrow, dtype=np.float64)
    w = np.asarray(dist_pmf, dtype=np.float64)
    arrow_mix = np.tensordot(w, arrow, axes=(0, 0))
    fresh = P_HIT * at_aim + (1.0 - P_HIT) * arrow_mix
    if not twin_linked:
        return fresh
    if value is None:
        value = _value_table(at_aim.shape)
    e_fresh = float((fresh * value).sum())
    reroll = value < e_fresh
    kept = np.where(reroll, 0.0, arrow_mix)
    moved = float(np.where(reroll, arrow_mix, 0.0).sum())
    return P_HIT * at_aim + (1.0 - P_HIT) * (kept + moved * fresh)
