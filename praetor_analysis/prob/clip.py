"""A probability as a result reports it: a float in [0, 1].

Sums and differences of exact probabilities in floating point can stray an ulp or so beyond the interval
(1.0000000000000002, -1.2e-16); the result records pass their scalar probabilities through ``probability``
when they are built, so no result ever reports one outside it (docs/rules.md#what-a-result-reports).
"""

from __future__ import annotations

from typing import overload


@overload
def probability(p: float) -> float: ...
@overload
def probability(p: None) -> None: ...
@overload
def probability(p: float | None) -> float | None: ...
def probability(p: float | None) -> float | None:
    """``p`` clipped to [0, 1] (None stays None: a probability that does not apply)."""
    if p is None:
        return None
    return min(1.0, max(0.0, float(p)))
