"""Many volleys against many units at once: the engine's sweep path (``resolve_batch``, ``resolve_many``).

Each cell is one volley fired alone at a fresh unit, and its result is ``exact.resolve_exact(volley, target)``'s;
a single volley is a batch of one (``resolve``). ``resolve_batch`` returns the results as arrays over the cells
(``batch_results.BatchResult``: per block, the pmfs as matrices with each row's length and mean); ``resolve_many``
builds one ``VolleyResult`` a cell from them.
The stages are the engine's own (``hit_stage``, ``wound_groups``, ``count_damage``, ``pinning_test``,
``classify_rules``); the batch shares and vectorises them:

- what the batch reads of each distinct volley and target is computed once (``VolleyFacts``, ``TargetFacts``),
  what a cell needs beyond its records once per (volley facts, target) (``_pair_of``), and what each
  (volley, target) needs (its tables, hit stage, block width, or the exact path) once and kept (``_plan_of``,
  ``BatchShared.plans``): a repeated batch finds each cell's with one look-up;
- the per-hit tables are computed once per distinct wound-stage key (``wound_stage_target``: what of the target
  those stages and the volley's rules read, as the rules' declarations say; ``volley_wound_key``: what they read
  of the volley, its weapon's rules that act there included, so volleys of one weapon with other attack counts,
  or of weapons differing in other rules, share them);
- cells with the same hits (a shooting volley against every target) share one hit stage, and volleys of one
  To Hit roll, hooks and shots share its hits (``hit_stage.hits_from_shots_key``); the cells whose hits
  fit one block width (``block_width``: padded with zeros) are stacked, so the binomial thinnings to wounds
  and to state-changing wounds are one array computation for the whole block (``thin_many``), and Brutal's
  compound sums one matrix product per per-hit table (its n-fold powers, memoised: ``batch_block``);
- when the unit's state is a function of the number of state-changing wounds (each does one damage, or takes
  the whole model: ``count_damage``), the casualties of the block come from one ``bincount``, and P(pinned)
  from the linear map ``pinning_test`` makes of the final state;
- otherwise (Brutal, Instant Death or Murderous Strike against multi-wound models) the capped allocation chain
  is split (``allocation_many``): the joint pmf of the state-changing wounds of each group from the hits, for
  the whole block in one array computation, and the unit states those counts lead to once per per-hit table;
- the rest (Mega-blast zones, Force and the other Psychic checks, an unread Strength, Deflagrate with Brutal,
  units too large for dense transitions) goes through the exact path (``exact.resolve_exact``), chosen by the
  facts of the volley and the target (``_prepare``), never by an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from praetor_analysis.engine.allocation import DENSE_STATES, TooLarge, UnitSpace
from praetor_analysis.engine.allocation_many import MAX_COUNT_STATES, chain_steps
from praetor_analysis.engine.batch_block import resolve_block, resolve_casualties
from praetor_analysis.engine.batch_cell import BatchCell, Block, merge_short
from praetor_analysis.engine.batch_facts import KEPT_ENTRIES, TABLES, TargetFacts, VolleyFacts, Wounds, tables_of
from praetor_analysis.engine.batch_results import BatchResult, BlockResult
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.checks_many import CheckMixture, expand_checks
from praetor_analysis.engine.exact import resolve_exact
from praetor_analysis.engine.hit_stage import hit_stage_target_part
from praetor_analysis.engine.volley import Casualties, TargetState, Volley, VolleyResult
from praetor_analysis.engine.wound_stage import hit_six_share
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import THIN_MANY_TERMS, BoundedMemo
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import tables

__all__ = ["BatchResult", "BlockResult", "Casualties", "resolve", "resolve_batch", "resolve_many"]

Cell = tuple[Volley, Unit]
Failure = ProfileError | TooLarge


SHARED: BoundedMemo[BatchShared] = BoundedMemo(1)
"""The caches of the batches (one ``BatchShared``), emptied by ``clear_memos``."""

SHARED_RECORDS = 20_000
"""The most records (volleys, targets, weapons, attackers) the caches hold after a batch."""


def resolve_many(
    cells: Sequence[Cell], *, casualties_only: bool = False, keep_state: bool = False
) -> list[VolleyResult | Casualties | Failure]:
    """``exact.resolve_exact(volley, target)`` for every (volley, target) cell, or the error it raises
    (``ProfileError``, ``TooLarge``), computed together.

    The results equal the one-cell engine's to rounding (tests/test_batch.py); ``state`` is None in the results
    of the vectorised cells unless ``keep_state`` (then it is the unit's final state, its Pinning test taken, as
    the exact path's). With ``casualties_only`` each result is a ``Casualties`` (hits, wounds and unsaved
    wounds are not built: what a catalog sweep needs). The records of ``resolve_batch``'s arrays.
    """
    if not casualties_only:
        return resolve_batch(cells, keep_state=keep_state).results()  # type: ignore[return-value]
    with _batch(keep_state=False) as shared:
        out, blocks, checked, asked = _plan(cells, shared, casualties_only=True)
        for width, block in merge_short(blocks).items():
            for i, result in resolve_casualties(block, width, shared):
                out[i] = result
        for i, mixture in checked.items():
            out[i] = mixture.mix([out[j] for j in mixture.rows])
        return [out[i] for i in range(asked)]


def resolve_batch(cells: Sequence[Cell], *, keep_state: bool = False) -> BatchResult:
    """``resolve_many``'s results as arrays over cells: the vectorised cells by block, their distributions
    matrices over the block's cells (``batch_results.BlockResult``), the others one record each."""
    with _batch(keep_state=keep_state) as shared:
        out, blocks, checked, asked = _plan(cells, shared)
        done: list[BlockResult] = []
        for width, block in merge_short(blocks).items():
            result, failures = resolve_block(block, width, shared)
            out.update(failures)
            if result is not None:
                done.append(result)
        if checked:  # the outcomes' results (cells past ``asked``) mixed, then dropped from the blocks
            where = {i: (b, j) for b, block in enumerate(done) for j, i in enumerate(block.cells) if i >= asked}
            for i, mixture in checked.items():
                rows = [out[j] if j in out else _one_of(done, *where[j]) for j in mixture.rows]
                out[i] = mixture.mix(rows)
            done = [block.take([j for j, i in enumerate(block.cells) if i < asked]) for block in done]
        others = {i: r for i, r in out.items() if i < asked}
        return BatchResult(asked, [block for block in done if block.cells], others)  # type: ignore[arg-type]


def _one_of(blocks: list[BlockResult], b: int, j: int) -> VolleyResult:
    """The ``VolleyResult`` of row j of block b."""
    return blocks[b].take([j]).volley_results()[0]


@contextmanager
def _batch(*, keep_state: bool) -> Iterator[BatchShared]:
    """The batch's caches (``SHARED``) for one batch: its own large maps, every cache dropped after it when they
    hold more than ``SHARED_RECORDS`` records."""
    shared = SHARED.get("batch", BatchShared)
    shared.begin(keep_state, (tables.MELEE_CHART,))  # what the kept plans read beyond their records
    try:
        yield shared
    finally:
        shared.end()
        if shared.records > SHARED_RECORDS:
            SHARED.clear()


_UNSEEN = object()
"""A (volley facts, target) not yet prepared (``_pair_of``: None is the one-cell engine's answer)."""

_EXACT, _VECTOR, _ERROR = 0, 1, 2
"""How a (volley, target) is resolved (``_plan_of``): the one-cell engine, the batch's arrays, or its error."""


def _plan(
    cells: Sequence[Cell], shared: BatchShared, casualties_only: bool = False
) -> tuple[dict[int, VolleyResult | Casualties | Failure], dict[int, Block], dict[int, CheckMixture], int]:
    """(the results of the cells not vectorised: the one-cell engine's or their errors, by index; the vectorised
    cells by block width, with their hit stages; the checked cells' mixtures; the number of cells asked). The
    checked cells' outcomes are cells of their own, past the cells asked. What a cell needs is found once per
    (volley, target) records and kept (``BatchShared.plans``): a repeated batch looks each cell up once."""
    asked = len(cells)
    cells = list(cells)
    checked = expand_checks(cells)  # a Psychic check's outcomes: cells of their own, mixed at the end
    out: dict[int, VolleyResult | Casualties | Failure] = {}
    blocks: dict[int, Block] = {}  # cells of one block width: one array computation
    plans = shared.plans
    for i, (v, t) in enumerate(cells):
        if i in checked:
            continue
        plan = plans.get((id(v), id(t)))
        if plan is None or plan[0] is not v or plan[1] is not t:
            plan = _plan_of(v, t, shared)
        kind, found = plan[2], plan[3]
        if kind == _VECTOR:
            block = blocks.get(found[2])
            if block is None:
                block = blocks[found[2]] = Block()
            block.indices.append(i)
            block.entries.append(found[:2])
        elif kind == _EXACT:
            out[i] = _one_cell(found[0], found[1], casualties_only)
        else:
            out[i] = found
    return out, blocks, checked, asked


def _plan_of(v: Volley, t: Unit, shared: BatchShared) -> tuple:
    """(v, t, how it is resolved, what with): ``_VECTOR`` with (its cell, its hit stage, its block width),
    ``_EXACT`` with the (volley, target) of the one-cell engine, ``_ERROR`` with the error; kept in
    ``shared.plans`` unless its cell holds this batch's large chain steps."""
    volley, target = shared.same(v), shared.same(t)
    try:
        found = _pair_of(volley, target, shared)  # type: ignore[arg-type]
        if found is None:
            plan: tuple = (v, t, _EXACT, (volley, target))
        else:
            fresh, wounds, facts, steps, part = found
            cell = BatchCell(volley, target, fresh, wounds, facts, steps)  # type: ignore[arg-type]
            stage = shared.hit(volley, target, part)  # type: ignore[arg-type]
            plan = (v, t, _VECTOR, (cell, stage, block_width(stage[0].probabilities.size)))
            if steps is not None and fresh.space not in wounds.steps:  # this batch's large steps: not kept
                return plan
    except (ProfileError, TooLarge) as exc:
        plan = (v, t, _ERROR, exc)
    shared.keep_plan(plan)
    return plan


Pieces = tuple[
    TargetState, Wounds, tuple[VolleyFacts, TargetFacts], tuple[np.ndarray, list[np.ndarray]] | None, tuple | None
]
"""What a vectorised cell needs beyond its records: the target's fresh state, the per-hit tables, the facts of
the volley and the target, the chain steps (or None) and what its hit stage reads of the target."""


def _pair_of(volley: Volley, target: Unit, shared: BatchShared) -> Pieces | None:
    """``_prepare``'s pieces of a (volley, target), or None for the one-cell engine: once per volley facts and
    target (``BatchShared.pairs``: what ``_prepare`` and the hit stage read of the volley is in its facts; a
    volley whose rules read the To Hit sixes reads its roll too, and is prepared each time)."""
    tf = shared.target_facts(target)
    if tf.vehicle:
        return None
    vf = shared.volley_facts(volley)
    if vf.reads_six:
        return _prepare(volley, target, vf, tf, shared)
    key = (id(vf), id(target))  # both records are held by the caches (``_facts``, ``same``)
    found = shared.pairs.get(key, _UNSEEN)
    if found is not _UNSEEN:
        return found  # type: ignore[return-value]
    found = _prepare(volley, target, vf, tf, shared)
    if found is None or found[3] is None or found[0].space in found[1].steps:  # not this batch's large steps
        shared.keep_pair(key, found)
    return found


def resolve(volley: Volley, target: Unit, *, keep_state: bool = False) -> VolleyResult:
    """One volley fired at a fresh unit, with its Pinning test: a batch of one cell (``state`` is None when the
    cell is vectorised, unless ``keep_state``). Raises the ``ProfileError`` or ``TooLarge`` of the cell."""
    (result,) = resolve_many([(volley, target)], keep_state=keep_state)
    if isinstance(result, (ProfileError, TooLarge)):
        raise result
    return result  # type: ignore[return-value]


def _one_cell(volley: Volley, target: Unit, casualties_only: bool) -> VolleyResult | Casualties | Failure:
    try:
        result = resolve_exact(volley, target)
    except (ProfileError, TooLarge) as exc:
        return exc
    if casualties_only:
        return Casualties(result.casualties.probabilities, result.pinned, result.not_modelled)
    return result


def _prepare(volley: Volley, target: Unit, vf: VolleyFacts, tf: TargetFacts, shared: BatchShared) -> Pieces | None:
    """The cell's pieces (``Pieces``), or None when it goes through the one-cell engine."""
    strength = vf.strength
    if strength is None or vf.extra_apart:  # Deflagrate's extra hits with tables of their own: exact.py
        return None
    fresh = tf.fresh
    if isinstance(fresh, ProfileError):
        raise fresh
    keep_ws = vf.reads_six and volley.mode == "melee"  # the sixes' share reads the target's WS
    canonical = shared.canonical_target(target, vf.reads, keep_ws=keep_ws)
    space = fresh.space
    six = hit_six_share(volley, canonical) if vf.reads_six else None  # as wound_groups_key reads it
    key = (vf.wound, id(canonical), space.wounds, six)
    wounds = shared.tables.get(key)
    if wounds is None:  # by value across batches (what wound_groups_key holds), then by the tokens above
        value = (vf.wound_key, canonical, space.wounds, six)
        wounds = shared.tables[key] = TABLES.get(value, lambda: tables_of(volley, canonical, strength, space.wounds))
    if tf.left is None or (vf.deflagrate and wounds.unsaved_each.size > 2):
        return None
    # the hit stage reads the volley's mode, weapon and attacker (its facts) and this part of the target
    part = None if vf.part_free else hit_stage_target_part(volley, target)
    if wounds.damage is not None:
        return fresh, wounds, (vf, tf), None, part
    if vf.deflagrate or space.size > DENSE_STATES:
        return None
    steps = _steps_of(wounds, space, shared)
    if steps is None or (space.models * space.wounds + 1) ** len(steps[1]) * space.size > MAX_COUNT_STATES:
        return None
    return fresh, wounds, (vf, tf), steps, part


def _steps_of(wounds: Wounds, space: UnitSpace, shared: BatchShared) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """``chain_steps`` of a table against a unit space: kept in the table when small, else for this batch."""
    store = wounds.steps if space in wounds.steps else shared.batch_only(wounds)
    if space not in store:
        steps = chain_steps(list(wounds.groups), space)
        small = steps is None or sum(m.size for m in steps[1]) <= KEPT_ENTRIES
        store = wounds.steps if small else shared.batch_only(wounds)
        store[space] = steps
    return store[space]


BLOCK_WIDTH = 64
"""The hits of a block are padded with zeros to the next power of two, at least this: short arrays cost their
numpy calls rather than their length, so cells of many lengths are computed together."""


def block_width(size: int) -> int:
    """The width of the block of cells whose hit pmf has ``size`` entries: ``size`` itself up to
    ``THIN_MANY_TERMS`` (thinned by the binomial terms the one-cell engine uses too), else padded."""
    return size if size <= THIN_MANY_TERMS else max(BLOCK_WIDTH, 1 << (size - 1).bit_length())
