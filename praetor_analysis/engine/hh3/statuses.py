"""Edition 3 Tactical Statuses from the Checks of the Morale Sub-Phase (docs/rules-hh3.md).

The Routed Check (Leadership at LD - the harshest modifier triggered) is made first; a unit that fails it is
Routed and makes no other Check. Otherwise each status triggered takes one Cool Check at CL - its harshest
modifier (+1 CL for a unit entirely of Heavy Sub-Type models). Checks are 2D6 with the double-1 and double-6
rules; the triggers come from the chain's state, so the result is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from praetor_analysis.engine.hh3.chain import PINNED, ROUTED, STATUSES, STUNNED, SUPPRESSED, State
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import check_pass

__all__ = ["FLYER_IMMUNE", "CheckValues", "check_values", "statuses"]

FLYER_IMMUNE = "a Flyer never gains a Tactical Status (no Check, no Shock, no Vehicle Damage Table)"


@dataclass(frozen=True)
class CheckValues:
    """The target's values for status Checks (``None``: the unit has no such value: no Check, no status)."""

    leadership: int | None
    cool: int | None


def check_values(target: Hh3Unit) -> tuple[CheckValues, str | None]:
    """The target's values for status Checks and, when it makes none, why: a Flyer never gains a status,
    Automata pass every Check, a unit without LD or CL cannot check; a unit entirely of Heavy Sub-Type models
    checks at CL + 1."""
    if target.has_type("Flyer"):
        return CheckValues(None, None), FLYER_IMMUNE
    if target.has_type("Automata"):
        return CheckValues(None, None), "Automata pass every status Check"
    cool = None if target.cl is None else target.cl + (1 if "Heavy" in target.subtypes else 0)
    why = "the target has no LD or CL: no status Check can be made" if target.ld is None or target.cl is None else None
    return CheckValues(target.ld, cool), why


def statuses(
    states: Mapping[State, float], values: CheckValues, possible: Mapping[str, bool]
) -> dict[str, float | None]:
    """P(each status) after the Morale Sub-Phase; ``None`` for a status ``possible`` says nothing can cause (or
    the unit has no value to check). A unit wiped out holds no status."""
    out: dict[str, float | None] = {}
    ld, cl = values.leadership, values.cool
    totals = dict.fromkeys(STATUSES, 0.0)
    for s, p in states.items():
        if s[0] == 0:
            continue
        routed = 0.0
        if s[ROUTED] >= 0 and ld is not None:
            routed = 1.0 - check_pass(ld - s[ROUTED])
        totals["Routed"] += p * routed
        for name, pos in (("Pinned", PINNED), ("Suppressed", SUPPRESSED), ("Stunned", STUNNED)):
            if s[pos] >= 0 and cl is not None:
                totals[name] += p * (1.0 - routed) * (1.0 - check_pass(cl - s[pos]))
    for name in STATUSES:
        value = values.leadership if name == "Routed" else values.cool
        out[name] = totals[name] if possible.get(name) and value is not None else None
    return out
