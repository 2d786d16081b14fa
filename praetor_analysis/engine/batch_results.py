"""The batch engine's results as arrays over cells (``engine.batch.resolve_batch``).

A batch's vectorised cells come in blocks (cells whose hits fit one width, ``batch_block.resolve_block``); a block's
distributions are matrices over its cells (``TrustedRows``: the pmfs padded with zeros, each row's length and
mean), its scalars and rule lists lists over them. The other cells (the one-cell engine's, the refused, the
checked cells' mixtures) keep their own result record. ``BatchResult.results`` gives one ``VolleyResult`` (or
error) a cell, as ``resolve_many`` returns them; the analysts' frame and the contract's mappings read the
arrays directly (``scenario.frame``, ``scenario.calc.result_mappings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from praetor_analysis.engine.allocation import TooLarge
from praetor_analysis.engine.volley import TargetState, VolleyResult
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist, TrustedRows, probability

__all__ = ["BatchResult", "BlockResult", "RuleLists"]

Failure = ProfileError | TooLarge
RuleLists = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""(applied, no_effect, not_modelled) of a cell, as ``VolleyResult`` holds them."""


@dataclass(frozen=True)
class BlockResult:
    """The results of a block's cells: ``cells`` their indices in the batch; ``hits`` each cell's hit
    distribution (shared by the cells of one hit stage); the wounds, unsaved wounds and casualties as rows
    over the cells; P(pinned) (None: the target cannot be pinned), the rule lists, the Gets Hot distribution
    (None without Gets Hot), P(the attack happens) (None without a check) and the final state (None unless
    kept) of each cell. Every number is the one ``VolleyResult`` reports (its probabilities clipped to [0, 1])."""

    cells: list[int]
    hits: list[Dist]
    wounds: TrustedRows
    unsaved: TrustedRows
    casualties: TrustedRows
    pinned: list[float | None]
    rules: list[RuleLists]
    gets_hot: list[Dist | None]
    attack_happens: list[float | None]
    states: list[TargetState | None]

    def take(self, rows: list[int]) -> BlockResult:
        """The block's rows listed (positions in the block), in that order."""
        return BlockResult(
            [self.cells[j] for j in rows],
            [self.hits[j] for j in rows],
            self.wounds.take(rows),
            self.unsaved.take(rows),
            self.casualties.take(rows),
            [self.pinned[j] for j in rows],
            [self.rules[j] for j in rows],
            [self.gets_hot[j] for j in rows],
            [self.attack_happens[j] for j in rows],
            [self.states[j] for j in rows],
        )

    def to_dicts(self) -> list[dict[str, object]]:
        """Each cell's ``VolleyResult.to_dict()`` (the docs/scenario.md form), built together: each hit
        distribution listed once (each cell a copy of the list), each row of the matrices listed from its view."""
        hit_lists: dict[int, tuple[Dist, list[float], float]] = {}  # by hit distribution (held): listed once
        rows = (self.wounds, self.unsaved, self.casualties)
        listed = [[pmfs[j, :end].tolist() for j, end in enumerate(r.ends)] for r in rows for pmfs in (r.pmfs,)]
        out: list[dict[str, object]] = []
        for j, (hits, rules) in enumerate(zip(self.hits, self.rules, strict=True)):
            found = hit_lists.get(id(hits))
            if found is None:
                found = hit_lists[id(hits)] = (hits, hits.probabilities.tolist(), hits.mean())
            done: dict[str, object] = {
                "hits": {"pmf": found[1][:], "mean": found[2]},
                "wounds": {"pmf": listed[0][j], "mean": rows[0].means[j]},
                "unsaved": {"pmf": listed[1][j], "mean": rows[1].means[j]},
                "casualties": {"pmf": listed[2][j], "mean": rows[2].means[j]},
                "pinned": self.pinned[j],
                "applied": list(rules[0]),
                "not_modelled": list(rules[2]),
                "no_effect": list(rules[1]),
            }
            gets_hot, passed = self.gets_hot[j], self.attack_happens[j]
            if gets_hot is not None:
                done["gets_hot"] = gets_hot.to_dict()
            if passed is not None:
                done["attack_happens"], done["perils"] = passed, probability(1.0 - passed)
            out.append(done)
        return out

    def volley_results(self) -> list[VolleyResult]:
        """One ``VolleyResult`` a cell (its distributions views of the block's matrices)."""
        wounds, unsaved, kills = Dist.of_rows(self.wounds), Dist.of_rows(self.unsaved), Dist.of_rows(self.casualties)
        return [
            VolleyResult.of_fields(
                hits=self.hits[j],
                wounds=wounds[j],
                unsaved=unsaved[j],
                casualties=kills[j],
                pinned=self.pinned[j],
                applied=rules[0],
                not_modelled=rules[2],
                no_effect=rules[1],
                gets_hot=self.gets_hot[j],
                attack_happens=passed,
                perils=None if passed is None else 1.0 - passed,
                state=self.states[j],
            )
            for j, (rules, passed) in enumerate(zip(self.rules, self.attack_happens, strict=True))
        ]


@dataclass(frozen=True)
class BatchResult:
    """The results of a batch of ``size`` cells: the vectorised cells by block (``blocks``), the others by
    index (``others``: a ``VolleyResult`` from the one-cell engine or a checked cell's mixture, or the error the
    cell raises). Every index below ``size`` is in exactly one of them."""

    size: int
    blocks: list[BlockResult]
    others: dict[int, VolleyResult | Failure]

    def results(self) -> list[VolleyResult | Failure]:
        """One result (or error) a cell, in the batch's order: what ``resolve_many`` returns."""
        out: list[VolleyResult | Failure | None] = [None] * self.size
        for block in self.blocks:
            for i, result in zip(block.cells, block.volley_results(), strict=True):
                out[i] = result
        for i, other in self.others.items():
            out[i] = other
        return out  # type: ignore[return-value]
