"""The cost model: the work an input asks for, bounded before any of it is done (docs/limits.md).

One measure for every entry point: a unit's work is its **attacks x models x weapon profiles**; a list
against a list is the sum over its **pairs** (attacker, target, phase); an array of documents counts every
document as computed (equal documents are computed once, and counted once); local worker processes are
capped at the cores this process may run on. Each limit here refuses what exceeds it in one line that names
the input and the limit (:class:`~praetor_analysis.errors.PraetorError`).
"""

from __future__ import annotations

import math
import os

from praetor_analysis.errors import PraetorError

__all__ = [
    "MAX_COST",
    "MAX_NAME_CHARS",
    "cap_workers",
    "check_cost",
    "check_finite_cost",
    "cores",
    "unit_cost",
]

#: Most characters in a unit's or a selection's name read from a file (a longer one is refused).
MAX_NAME_CHARS = 1_000

#: Most work (sum of attacks x models x weapon profiles over pairs) one matchup is given: 200 Tactical Squads
#: against 2 units is 26,800, against 200 Tactical Squads 3.5 million (equal pairs are computed once).
MAX_COST = 5_000_000


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count; at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


def cap_workers(requested: int, tasks: int | None = None) -> tuple[int, str]:
    """``requested`` local worker processes capped at :func:`cores` (and at ``tasks`` when given), with a
    one-line note when it was capped ("" otherwise)."""
    most = cores() if tasks is None else max(1, min(cores(), tasks))
    if requested <= most:
        return requested, ""
    why = f"{most} cores" if tasks is None or most == cores() else f"{most} tasks"
    return most, f"capped at {most} worker processes ({why}): more would only share the same cores"


def unit_cost(attacks: int, models: int, weapons: int) -> int:
    """The work of one unit attacking once: attacks x models x weapon profiles (each at least 1)."""
    return max(1, attacks) * max(1, models) * max(1, weapons)


def check_cost(total: float, what: str, *, limit: float = MAX_COST) -> None:
    """Refuse ``what`` when its cost ``total`` exceeds ``limit``."""
    if total > limit:
        raise PraetorError(
            f"{what}: about {total:,.0f} units of work (attacks x models x weapons x pairs), above the limit of "
            f"{limit:,.0f}; split it into smaller inputs",
            field=what,
            value=total,
        )


def check_finite_cost(value: object, where: str) -> float:
    """``value`` as a points cost: a finite number of 0 or more, else refused naming ``where``."""
    try:
        cost = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise PraetorError(f"{where}: cost {value!r} is not a number", field=where, value=value) from None
    except OverflowError:  # pragma: no cover - an integer too large for a float
        raise PraetorError(f"{where}: cost {value!r} is too large", field=where, value=value) from None
    if not math.isfinite(cost) or cost < 0 or cost > 1e6:
        raise PraetorError(
            f"{where}: cost {value!r} is not a points cost (a finite number from 0 to 1,000,000)",
            field=where,
            value=value,
        )
    return cost
