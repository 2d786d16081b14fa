"""The cells of the batch engine (``engine.batch``): ``BatchCell`` (one vectorised volley and target: its
records, per-hit tables and facts, kept from one batch to the next), ``Block`` (the cells of one hit width) and
``merge_short`` (which blocks are computed together).
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.batch_facts import TargetFacts, VolleyFacts, Wounds
from praetor_analysis.engine.batch_results import RuleLists
from praetor_analysis.engine.volley import TargetState, Volley
from praetor_analysis.prob import THIN_MANY_TERMS
from praetor_analysis.profiles import Unit

__all__ = ["BatchCell", "Block", "merge_short"]


class BatchCell:
    """One vectorised (volley, target): its records, fresh state, per-hit tables and the facts of its volley and
    target; ``steps``: the allocation chain's (rates, matrices) when it needs the chain; ``exempt``: whether the
    target takes no Pinning test (its own exemptions, or locked in combat by a melee volley); ``rules``: its
    rule lists once asked (``cell_rules``). Kept from one batch to the next (``BatchShared.plans``)."""

    __slots__ = ("exempt", "fresh", "rules", "steps", "target", "target_facts", "volley", "volley_facts", "wounds")

    def __init__(
        self,
        volley: Volley,
        target: Unit,
        fresh: TargetState,
        wounds: Wounds,
        facts: tuple[VolleyFacts, TargetFacts],
        steps: tuple[np.ndarray, list[np.ndarray]] | None = None,
    ) -> None:
        self.volley, self.target, self.fresh, self.wounds = volley, target, fresh, wounds
        self.steps = steps
        self.rules: RuleLists | None = None
        self.volley_facts, self.target_facts = facts
        self.exempt = facts[1].exempt or facts[0].locks


class Block:
    """Cells whose hits fit one block width: their indices in the batch, each with its cell and hit stage."""

    __slots__ = ("entries", "indices")

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.entries: list[tuple[BatchCell, tuple]] = []


def merge_short(blocks: dict[int, Block]) -> dict[int, Block]:
    """The blocks to compute: those of short hits (up to ``THIN_MANY_TERMS`` entries, each its own width) joined
    to the narrowest wider block, or to one another when there is none: a block's numpy calls cost about the
    same for 60 cells as for 600. Their rows keep their own thinning (``BlockCore``: by the binomial terms of
    their length, as the one-cell engine's)."""
    short = [width for width in blocks if width <= THIN_MANY_TERMS]
    if len(short) < 2 and (not short or len(blocks) == 1):
        return blocks
    wide = [width for width in blocks if width > THIN_MANY_TERMS]
    into = min(wide) if wide else max(short)
    out = {width: block for width, block in blocks.items() if width not in short}
    joined = out[into] = Block()
    for width in sorted(blocks):
        if width in short or width == into:
            joined.indices.extend(blocks[width].indices)
            joined.entries.extend(blocks[width].entries)
    return out
