"""Strength-raising checks (Force, Achean Force, Divine Guidance) in the batch engine.

When each outcome of the checks is the whole volley at one Strength (one psyker, or one check for the unit),
``resolve_checked``'s result is the mixture of single volleys from a fresh unit: the batch computes those
volleys as cells of their own and mixes their results here. Several psykers with a check each make
sequences (the ones that passed, then the others, on the state they leave): those stay with the one-cell
engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from praetor_analysis.engine.allocation import TooLarge
from praetor_analysis.engine.checks import check_can_be_taken, check_outcomes, mix_outcomes, single_strength_branches
from praetor_analysis.engine.volley import Casualties, TargetState, Volley, VolleyResult
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import CHECK, stage_hooks

Result = VolleyResult | Casualties | ProfileError | TooLarge


@dataclass(frozen=True)
class CheckMixture:
    """A checked cell: the weights of its outcomes, the rows of the cells computing them, P(Perils)."""

    weights: tuple[float, ...]
    rows: tuple[int, ...]
    perils: float | None

    def mix(self, results: list[Result]) -> Result:
        """``resolve_checked``'s mixture of the outcomes' results (or the first error among them). P(pinned)
        mixes too: the Pinning test acts on each state of the unit alone."""
        done: list[VolleyResult | Casualties] = []
        for r in results:
            if isinstance(r, (ProfileError, TooLarge)):
                return r
            done.append(r)
        pins = [r.pinned for r in done]
        pinned = None if None in pins else float(np.dot(self.weights, pins))  # type: ignore[arg-type]
        first = done[0]
        if isinstance(first, Casualties):
            rows = [r.casualties for r in done if isinstance(r, Casualties)]
            size = max(row.size for row in rows)
            kills = sum(w * np.pad(row, (0, size - row.size)) for w, row in zip(self.weights, rows, strict=True))
            return Casualties(np.asarray(kills), pinned, first.not_modelled)
        full = [r for r in done if isinstance(r, VolleyResult)]
        casualties = Dist.mixture(self.weights, [r.casualties for r in full])
        states = [r.state for r in full if r.state is not None]
        state = None
        if len(states) == len(full):  # kept (``keep_state``): the outcomes' final states mixed
            probs = np.sum([w * st.probs for w, st in zip(self.weights, states, strict=True)], axis=0)
            state = TargetState(states[0].space, probs, states[0].shell_shocks)
        return mix_outcomes(self.weights, full, self.perils, casualties=casualties, pinned=pinned, state=state)


def expand_checks(cells: list[tuple[Volley, Unit]]) -> dict[int, CheckMixture]:
    """For every cell (not a vehicle, no Mega-blast zones) whose volley has a check with single-Strength
    outcomes: its outcomes appended to ``cells`` as cells of their own, and its ``CheckMixture`` by index. A
    cell whose check cannot be taken (``check_can_be_taken``: no Leadership...) is left to the exact path, which
    raises."""
    out: dict[int, CheckMixture] = {}
    checks: dict[int, bool] = {}  # by weapon (the cells hold them): whether its rules have a check at all
    for i in range(len(cells)):
        volley, target = cells[i]
        weapon = volley.weapon
        has = checks.get(id(weapon))
        if has is None:
            has = checks[id(weapon)] = next(stage_hooks(CHECK, weapon.rules), None) is not None
        if not has or target.is_vehicle or volley.zone_hits is not None or not check_can_be_taken(volley):
            continue
        branches = single_strength_branches(volley)
        if branches is None:
            continue
        rows = tuple(range(len(cells), len(cells) + len(branches)))
        cells.extend((v, target) for _, v in branches)
        out[i] = CheckMixture(tuple(w for w, _ in branches), rows, check_outcomes(volley).perils)
    return out
