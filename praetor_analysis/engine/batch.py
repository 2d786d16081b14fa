"""Many volleys against many units at once: the engine's sweep path (``resolve_many``).

Each cell is one volley fired alone at a fresh unit, and its result is ``exact.resolve_exact(volley, target)``'s;
a single volley is a batch of one (``resolve``).
The stages are the engine's own (``hit_stage``, ``wound_groups``, ``count_damage``, ``pinning_test``,
``classify_rules``); the batch shares and vectorises them:

- what the batch reads of each distinct volley and target is computed once (``VolleyFacts``, ``TargetFacts``);
- the per-hit tables are computed once per distinct wound-stage key (``wound_stage_target``: what of the target
  those stages and the volley's rules read, as the rules' declarations say; ``volley_wound_key``: what they read
  of the volley, so volleys of one weapon with other attack counts share them);
- cells with the same hits (a shooting volley against every target) share one hit stage; the cells whose hits
  fit one block width (``block_width``: padded with zeros) are stacked, so the binomial thinnings to wounds
  and to state-changing wounds are one array computation for the whole block (``thin_many``), and Brutal's
  compound sums one per per-hit length (``compound_many``);
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
from functools import partial

import numpy as np

from praetor_analysis.engine.allocation import (
    DENSE_STATES,
    TooLarge,
    UnitSpace,
    after_count,
    check_work,
)
from praetor_analysis.engine.allocation_many import MAX_COUNT_STATES, chain_steps, count_states, effective_counts
from praetor_analysis.engine.batch_facts import (
    KEPT_ENTRIES,
    TABLES,
    TargetFacts,
    VolleyFacts,
    Wounds,
    tables_of,
)
from praetor_analysis.engine.batch_results import BatchResult, BlockResult, RuleLists
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.checks_many import CheckMixture, expand_checks
from praetor_analysis.engine.exact import resolve_exact, unsaved_pmf
from praetor_analysis.engine.hit_stage import hit_stage_target_part
from praetor_analysis.engine.pinning import pinning_test
from praetor_analysis.engine.rule_report import classify_rules
from praetor_analysis.engine.volley import Casualties, TargetState, Volley, VolleyResult
from praetor_analysis.engine.wound_stage import gets_hot_unsaved, hit_six_share
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import (
    THIN_MANY_TERMS,
    BoundedMemo,
    Dist,
    TrustedRows,
    convolve_powers,
    probability,
    thin,
    thin_many,
)
from praetor_analysis.profiles import Unit

__all__ = ["BatchResult", "BlockResult", "Casualties", "resolve", "resolve_batch", "resolve_many"]

Cell = tuple[Volley, Unit]
Failure = ProfileError | TooLarge


class _Cell:
    """One vectorised (volley, target): its records, fresh state, per-hit tables and the facts of its volley and
    target; ``steps``: the allocation chain's (rates, matrices) when it needs the chain; ``exempt``: whether the
    target takes no Pinning test (its own exemptions, or locked in combat by a melee volley); ``rules``: its
    rule lists once asked (``_rules``). Kept from one batch to the next (``BatchShared.plans``)."""

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
        for width, block in blocks.items():
            for i, result in _resolve_casualties(block, width, shared):
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
        for width, block in blocks.items():
            result, failures = _resolve_block(block, width, shared)
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
    shared.begin(keep_state)
    try:
        yield shared
    finally:
        shared.end()
        if shared.records > SHARED_RECORDS:
            SHARED.clear()


class Block:
    """Cells whose hits fit one block width: their indices in the batch, each with its cell and hit stage."""

    __slots__ = ("entries", "indices")

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.entries: list[tuple[_Cell, tuple]] = []


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
        cell = _prepare(volley, target, shared)  # type: ignore[arg-type]
        if cell is None:
            plan: tuple = (v, t, _EXACT, (volley, target))
        else:
            # the hit stage reads the volley's mode, weapon and attacker (its facts) and this part of the target
            seen = (id(cell.volley_facts), id(target))
            part = shared.target_parts.get(seen)
            if part is None:
                part = shared.target_parts[seen] = (hit_stage_target_part(cell.volley, cell.target),)
            stage = shared.hit(cell.volley, cell.target, part[0])
            plan = (v, t, _VECTOR, (cell, stage, block_width(stage[0].probabilities.size)))
    except (ProfileError, TooLarge) as exc:
        plan = (v, t, _ERROR, exc)
    kept = plan[3][0] if plan[2] == _VECTOR else None  # a cell holding this batch's large steps is not kept
    if kept is None or kept.steps is None or kept.fresh.space in kept.wounds.steps:
        shared.keep_plan(plan)
    return plan


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


def _prepare(volley: Volley, target: Unit, shared: BatchShared) -> _Cell | None:
    """The cell's per-hit data, or None when it goes through the one-cell engine."""
    tf = shared.target_facts(target)
    if tf.vehicle:
        return None
    vf = shared.volley_facts(volley)
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
    if wounds.damage is not None:
        return _Cell(volley, target, fresh, wounds, (vf, tf))
    if vf.deflagrate or space.size > DENSE_STATES:
        return None
    steps = _steps_of(wounds, space, shared)
    if steps is None or (space.models * space.wounds + 1) ** len(steps[1]) * space.size > MAX_COUNT_STATES:
        return None
    return _Cell(volley, target, fresh, wounds, (vf, tf), steps)


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


class _Core:
    """The array computation of a block: its hits (padded), the wounds (None for a sweep) and the state-changing
    wounds of every cell thinned together, the casualties, the allocation chain's cells (``_chain``) and
    Deflagrate's state-changing wounds (``flamed``: with one save per wound, the unsaved ones)."""

    __slots__ = ("casualties", "chained", "change_rows", "flamed", "h", "members", "wounds_rows")

    def __init__(
        self, entries: list[tuple[_Cell, tuple]], width: int, shared: BatchShared, casualties_only: bool
    ) -> None:
        block = entries
        members = self.members = [c for c, _ in block]
        h = self.h = np.zeros((len(block), width))
        for j, (_, stage) in enumerate(block):
            hits = stage[0].probabilities
            h[j, : hits.size] = hits
        self.wounds_rows: np.ndarray | None = None
        if casualties_only:
            self.change_rows = thin_many(h, np.array([c.wounds.p_change for c in members]))
        else:
            ps = np.empty(2 * len(members))
            ps[0::2], ps[1::2] = [c.wounds.p_wound for c in members], [c.wounds.p_change for c in members]
            thinned = thin_many(np.repeat(h, 2, axis=0), ps)
            self.wounds_rows, self.change_rows = thinned[0::2], thinned[1::2]
        casualties = self.casualties = _casualties(members, self.change_rows, shared)  # chain, Deflagrate: below
        self.chained = _chain(block, h, shared)
        self.flamed: dict[int, np.ndarray] = {}
        for j, (c, (hits, _, _, _)) in enumerate(block):
            if c.volley_facts.deflagrate:
                flamed = self.flamed[j] = unsaved_pmf(hits.probabilities, c.wounds.unsaved_each, deflagrate=True)
                _put_row(casualties, j, _casualties([c], flamed[None], shared)[0])
        for j, found in self.chained.items():
            if not isinstance(found, TooLarge):
                _put_row(casualties, j, found[0])

    def counts(self, j: int) -> np.ndarray:
        """The pmf of cell j's state-changing wounds."""
        flamed = self.flamed.get(j)
        return self.change_rows[j] if flamed is None else flamed

    def pinned(self, j: int, shared: BatchShared) -> float | None:
        """P(pinned) of cell j (its chain's, or from its state-changing wounds)."""
        chain = self.chained.get(j)
        if chain is not None:
            return chain[1]  # type: ignore[index]
        return _pinned(self.members[j], self.counts(j), shared) if self.members[j].volley_facts.pinning else 0.0


def _resolve_casualties(block: Block, width: int, shared: BatchShared) -> list[tuple[int, Casualties | Failure]]:
    """A sweep's results of a block's cells (``Casualties``: no hits, wounds or unsaved wounds built)."""
    core = _Core(block.entries, width, shared, casualties_only=True)
    out: list[tuple[int, Casualties | Failure]] = []
    for j, (index, (c, stage)) in enumerate(zip(block.indices, block.entries, strict=True)):
        chain = core.chained.get(j)
        if isinstance(chain, TooLarge):
            out.append((index, chain))
            continue
        missing = _rules(c, stage[3], shared)[2]
        out.append((index, Casualties(core.casualties[j, : c.fresh.space.models + 1], core.pinned(j, shared), missing)))
    return out


def _resolve_block(
    block: Block, width: int, shared: BatchShared
) -> tuple[BlockResult | None, list[tuple[int, Failure]]]:
    """The results of a block's cells as arrays over them (``BlockResult``; None when every cell failed), and
    the errors of the cells the allocation chain refuses (``TooLarge``)."""
    indices, entries = block.indices, block.entries
    core = _Core(entries, width, shared, casualties_only=False)
    members = core.members
    several = _several_saves(members, core.h)  # Brutal's unsaved wounds, and Deflagrate's
    several.update(core.flamed)
    unsaved = core.change_rows  # the unsaved wounds of cells with one save per wound
    if several:
        unsaved = np.zeros((len(members), max(unsaved.shape[1], *(row.size for row in several.values()))))
        unsaved[:, : core.change_rows.shape[1]] = core.change_rows
        for j, row in several.items():
            _put_row(unsaved, j, row)
    failures: list[tuple[int, Failure]] = [(j, x) for j, x in core.chained.items() if isinstance(x, TooLarge)]
    refused = {j for j, _ in failures} if failures else ()
    chained, pin, k = core.chained, core.pinned, len(members)
    # each a list over the block's cells (a refused cell's row is dropped below)
    pinned: list[float | None] = [
        (None if j in refused else probability(pin(j, shared))) if c.volley_facts.pinning else 0.0
        for j, c in enumerate(members)
    ]
    rules = [c.rules or _rules(c, stage[3], shared) for c, stage in entries]
    gets_hot = [_gets_hot(c.volley, stage[1], shared) if c.volley_facts.gets_hot else None for c, stage in entries]
    passed = [None if stage[2] is None else probability(stage[2]) for _, stage in entries]
    states: list[TargetState | None] = [None] * k
    if shared.keep_state:
        for j, c in enumerate(members):
            chain = chained.get(j)
            if j not in refused:
                states[j] = _state(c, core.counts(j), None if chain is None else chain[2], shared)  # type: ignore[index]
    result = BlockResult(
        cells=indices,
        hits=[stage[0] for _, stage in entries],
        wounds=TrustedRows.of(core.wounds_rows),  # type: ignore[arg-type]
        unsaved=TrustedRows.of(unsaved),
        casualties=TrustedRows.of(core.casualties),
        pinned=pinned,
        rules=rules,
        gets_hot=gets_hot,
        attack_happens=passed,
        states=states,
    )
    if failures:
        kept = [j for j in range(k) if j not in refused]
        return (result.take(kept) if kept else None), [(indices[j], x) for j, x in failures]
    return result, failures


def _put_row(rows: np.ndarray, j: int, row: np.ndarray) -> None:
    """Row j of ``rows`` replaced by ``row`` (no longer), zeros after it."""
    rows[j] = 0.0
    rows[j, : row.size] = row


def _several_saves(members: list[_Cell], h: np.ndarray) -> dict[int, np.ndarray]:
    """The unsaved wounds of the cells whose hits can each make several (Brutal), row by row: the compound
    sum of ``sum_of_iid``, ``sum_n P(n hits) E^n`` with ``E^n`` the n-fold convolution of the per-hit unsaved
    pmf (``_each_powers``, once per per-hit table and block width): one matrix product for the cells of each
    table (direct sums of non-negative products, as ``compound`` makes)."""
    by_table: dict[int, list[int]] = {}
    for j, c in enumerate(members):
        if c.wounds.unsaved_each.size > 2 and not c.volley_facts.deflagrate:
            by_table.setdefault(id(c.wounds), []).append(j)
    out: dict[int, np.ndarray] = {}
    width = h.shape[1]
    for rows in by_table.values():
        each = members[rows[0]].wounds.unsaved_each
        powers = POWERS.get((each.tobytes(), width), partial(_each_powers, each, width))
        out.update(zip(rows, h[rows] @ powers, strict=True))
    return out


POWERS: BoundedMemo[np.ndarray] = BoundedMemo(128)
"""``_each_powers`` by (per-hit unsaved pmf, block width), across batches."""


def _each_powers(each: np.ndarray, width: int) -> np.ndarray:
    """Row n: the pmf of the sum of n independent copies of ``each`` (n below ``width``), padded with zeros to
    the longest; read-only."""
    out = np.zeros((width, (width - 1) * (each.size - 1) + 1))
    for n, power in enumerate(convolve_powers(each, width - 1)):
        out[n, : power.size] = power
    out.flags.writeable = False
    return out


def _kills(cell: _Cell, size: int, shared: BatchShared) -> tuple[np.ndarray, np.ndarray]:
    """Models removed and wounds left after 0..size-1 state-changing wounds of the cell."""
    key = (id(cell.target), size, cell.wounds.damage)
    if key not in shared.kills:
        space = cell.fresh.space
        left = cell.target_facts.left or 1
        shared.kills[key] = after_count(np.arange(size), left, space.wounds, space.models, cell.wounds.damage or 1)
    return shared.kills[key]


def _casualties(members: list[_Cell], change_rows: np.ndarray, shared: BatchShared) -> np.ndarray:
    """Row j: the pmf of models removed in cell j (padded to the largest unit of the group)."""
    k, size = change_rows.shape
    kills = np.array([_kills(c, size, shared)[0] for c in members]).reshape(k, size)
    width = int(kills.max(initial=0)) + 1
    width = max(width, max(c.fresh.space.models for c in members) + 1)
    flat = (np.arange(k)[:, None] * width + kills).ravel()
    return np.bincount(flat, weights=change_rows.ravel(), minlength=k * width).reshape(k, width)


def _pinned(cell: _Cell, counts: np.ndarray, shared: BatchShared) -> float | None:
    """``resolve``'s P(pinned) for a Pinning weapon: None for an exempt target, else the Pinning test of the
    final state (a linear map of the state: its value from each state reached is computed once per target)."""
    target = cell.target
    if cell.exempt or cell.steps is not None:  # the chain's cells: see _chain
        return None
    shock = cell.volley_facts.shock
    key = (id(target), shock, counts.size, cell.wounds.damage)
    if key not in shared.pinning:
        space = cell.fresh.space
        index = space.indices(*_kills(cell, counts.size, shared))
        flag = np.where(np.arange(counts.size) >= 1, 1, 0)  # level 1: the volley's own Shell Shock
        shared.pinning[key] = _pin_vector(target, shock, shared)[flag, index]
    return float(counts @ shared.pinning[key])


def _state(cell: _Cell, counts: np.ndarray, pre: np.ndarray | None, shared: BatchShared) -> TargetState:
    """The unit's final state after the cell, its Pinning test taken (the exact path's): from the unit state each
    count of state-changing wounds leads to, or the chain's state before the test (``pre``); the Pinning flags
    those of a firing unit with this one weapon (row 1: its trigger raised, by any such wound)."""
    space = cell.fresh.space
    if pre is None:
        index = space.indices(*_kills(cell, counts.size, shared))
        flag = np.arange(counts.size) >= 1
        pre = np.bincount(flag * space.size + index, weights=counts, minlength=2 * space.size).reshape(2, -1)
    if not cell.volley_facts.pinning:
        return TargetState(space, pre.sum(axis=0)[None])
    state = TargetState(space, np.concatenate((pre, np.zeros_like(pre))), (0, cell.volley_facts.shock))
    return state if cell.exempt else pinning_test(state, cell.target)


def _pin_vector(target: Unit, shock: int, shared: BatchShared) -> np.ndarray:
    """P(pinned) after ``pinning_test`` from each (trigger, unit state) of a target hit by one Pinning weapon
    of Shell Shock ``shock``: row 0 no unsaved wound, row 1 the volley's trigger raised. The test acts on each
    unit state alone, so one probe per trigger gives every state's value."""
    key = (id(target), shock)
    if key not in shared.pin_vectors:
        base = TargetState.fresh(target, shell_shocks=(shock,))
        out = np.zeros((2, base.space.size))
        for flag in (0, 1):
            probe = np.zeros_like(base.probs)
            probe[flag] = 1.0
            tested = pinning_test(TargetState(base.space, probe, base.shell_shocks), target).probs
            out[flag] = tested[tested.shape[0] // 2 :].sum(axis=0)
        shared.pin_vectors[key] = out
    return shared.pin_vectors[key]


def _chain(
    block: list[tuple[_Cell, tuple]], h: np.ndarray, shared: BatchShared
) -> dict[int, tuple[np.ndarray, float | None, np.ndarray | None] | TooLarge]:
    """Casualties, P(pinned) and (with ``keep_state``) the unit state before the Pinning test, without and with
    the trigger raised, of the block's cells that need the allocation chain (``allocation_many``), by unit
    space and number of groups: their capped counts in one computation, then each cell's per-table maps (or
    the ``TooLarge`` the one-cell chain raises)."""
    out: dict[int, tuple[np.ndarray, float | None, np.ndarray | None] | TooLarge] = {}
    by_shape: dict[tuple[UnitSpace, int], list[int]] = {}
    members = [c for c, _ in block]
    checked: dict[tuple, TooLarge | None] = {}  # the bound of each distinct shape, asked once
    for j, (c, stage) in enumerate(block):
        if c.steps is None:
            continue
        space, groups = c.fresh.space, len(c.steps[1])
        cap = space.models * space.wounds
        size = stage[0].probabilities.size  # the cell's own hits, not the block's padding
        shape = ((size, 4 if c.volley_facts.pinning else 1, space.size), min(cap, size - 1) + 1, groups)
        if shape not in checked:
            try:  # the one-cell chain's bound, on its state tensor (hits, Pinning flags, unit states)
                check_work(*shape, factored=True)
                checked[shape] = None
            except TooLarge as exc:
                checked[shape] = exc
        refused = checked[shape]
        if refused is not None:
            out[j] = refused
            continue
        by_shape.setdefault((space, groups), []).append(j)
    for (space, groups), rows in by_shape.items():
        rates = np.array([members[j].steps[0] for j in rows]).reshape(len(rows), groups)  # type: ignore[index]
        counts = effective_counts(h[rows], rates, space.models * space.wounds)
        width = counts.shape[1] if groups else 1
        flat = counts.reshape(len(rows), -1)
        by_map: dict[tuple, list[int]] = {}  # the rows of one table and target share their maps: one product
        for p, j in enumerate(rows):
            c = members[j]
            vf = c.volley_facts
            by_map.setdefault((id(c.wounds), id(c.target), vf.pinning, vf.shock, c.exempt), []).append(p)
        for (_, _, pinning, _, exempt), at in by_map.items():
            c = members[rows[at[0]]]
            kills, states = _chain_maps(c, width, shared)
            sub = flat[at]
            pins: list[float | None]
            if pinning and not exempt:  # the trigger is raised once any count is not zero
                pins = (sub @ _chain_pins(c, states, width, shared)).tolist()
            else:
                pins = [None if pinning else 0.0] * len(at)
            for p, removed, pinned in zip(at, sub @ kills, pins, strict=True):
                row = flat[p]
                pre = np.array([row[0] * states[0], row[1:] @ states[1:]]) if shared.keep_state else None
                out[rows[p]] = (removed, pinned, pre)
    return out


def _chain_pins(cell: _Cell, states: np.ndarray, width: int, shared: BatchShared) -> np.ndarray:
    """P(pinned) after each capped count of a chain cell's (the Pinning test of the state it leads to, the
    trigger raised by any count but zero): a vector over the counts, once per table, target and Shell Shock."""
    shock = cell.volley_facts.shock
    key = ("chain", id(cell.wounds), id(cell.target), shock, width)
    found = shared.pinning.get(key)
    if found is None:
        pv = _pin_vector(cell.target, shock, shared)
        found = shared.pinning[key] = np.concatenate(([states[0] @ pv[0]], states[1:] @ pv[1]))
    return found


def _chain_maps(cell: _Cell, width: int, shared: BatchShared) -> tuple[np.ndarray, np.ndarray]:
    """(models removed, unit state) after every capped count of the cell's chain (counts flattened, each below
    ``width``): once per per-hit table, unit space and start."""
    space = cell.fresh.space
    start = cell.fresh.probs[0]
    key = (space, int(np.flatnonzero(start)[0]), width)
    small = width ** len(cell.steps[1]) * space.size <= KEPT_ENTRIES  # type: ignore[index]
    maps = cell.wounds.maps if small else shared.batch_only(cell.wounds)
    if key not in maps:
        matrices = cell.steps[1]  # type: ignore[index]
        states = count_states(start, matrices, width).reshape(-1, space.size)
        kills = np.zeros((space.size, space.models + 1))
        kills[np.arange(space.size), space.kills_of()] = 1.0
        maps[key] = (states @ kills, states)
    return maps[key]


def _gets_hot(volley: Volley, ones: Dist, shared: BatchShared) -> Dist:
    key = (id(volley), id(ones))  # the ones of its hit stage (a target may change its To Hit roll)
    if key not in shared.gets_hot:
        shared.gets_hot[key] = Dist.from_trusted(thin(ones.probabilities, gets_hot_unsaved(volley)))
    return shared.gets_hot[key]


def _rules(cell: _Cell, notes: list[str], shared: BatchShared) -> RuleLists:
    """(applied, no_effect, not_modelled) as ``resolve_sequence`` reports them for one volley (deduplicated)."""
    if cell.rules is not None:
        return cell.rules
    vf = cell.volley_facts
    key = (vf.rules, cell.target_facts.rules_token(vf.class_reads, shared), *notes)  # see VolleyFacts, TargetFacts
    lists = shared.rules.get(key)
    if lists is None:
        found = classify_rules(cell.volley, cell.target, list(notes))
        lists = shared.rules[key] = tuple(tuple(dict.fromkeys(x)) for x in found)  # type: ignore[assignment]
    cell.rules = lists
    return lists  # type: ignore[return-value]
