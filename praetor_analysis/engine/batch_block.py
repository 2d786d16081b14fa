"""A block of the batch engine (``engine.batch``): cells whose hits fit one width, computed as arrays over them.

``BlockCore`` sorts the cells in one pass, thins each distinct (hits, probability) to wounds and state-changing
wounds at once, takes the casualties from one product per kill map, Brutal's unsaved wounds from one product
per per-hit table (its powers built for all the block's tables together), and the allocation chain's cells
(``allocation_many``) by unit space; ``resolve_block`` gives the block's results as arrays
(``batch_results.BlockResult``), ``resolve_casualties`` a sweep's ``Casualties`` one a cell.
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.allocation import TooLarge, UnitSpace, check_work
from praetor_analysis.engine.allocation_many import count_states_many, effective_counts
from praetor_analysis.engine.batch_cell import BatchCell, Block
from praetor_analysis.engine.batch_counts import casualties_of, final_state, pin_map, pin_vector
from praetor_analysis.engine.batch_facts import KEPT_ENTRIES
from praetor_analysis.engine.batch_results import BlockResult, RuleLists
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.exact import unsaved_pmf
from praetor_analysis.engine.rule_report import classify_rules
from praetor_analysis.engine.volley import Casualties, TargetState, Volley
from praetor_analysis.engine.wound_stage import gets_hot_unsaved
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import (
    THIN_MANY_TERMS,
    BoundedMemo,
    Dist,
    TrustedRows,
    convolve_powers_many,
    probability,
    thin,
    thin_many,
)

__all__ = ["POWERS", "BlockCore", "cell_rules", "resolve_block", "resolve_casualties"]

Failure = ProfileError | TooLarge


class BlockCore:
    """The array computation of a block: its distinct hit pmfs (``hits``, padded; cell j's is row ``where[j]``:
    the cells of one hit stage, or of equal hits, share theirs), the wounds (None for a sweep) and the
    state-changing wounds of every cell (each distinct hits and probability thinned once, all together:
    ``thinned``, cell j's rows ``wound[j]`` and ``change[j]``), the casualties, the allocation chain's cells
    (``_chain``) and Deflagrate's state-changing wounds (``flamed``: with one save per wound, the unsaved
    ones). One pass over the cells sorts them: by per-hit table for Brutal (``by_table``), by Pinning map
    (``by_pin_map``), by kill map."""

    __slots__ = (
        "by_pin_map",
        "by_table",
        "casualties",
        "chained",
        "change",
        "change_rows",
        "flamed",
        "hits",
        "members",
        "pin_none",
        "thinned",
        "where",
        "wound",
    )

    def __init__(
        self, block: list[tuple[BatchCell, tuple]], width: int, shared: BatchShared, casualties_only: bool
    ) -> None:
        self.members = [c for c, _ in block]
        seen: dict[int, int] = {}  # row of each distinct hit distribution, by identity then by value
        by_value: dict[bytes, int] = {}
        pmfs: list[np.ndarray] = []
        pairs: dict[tuple[int, float], int] = {}  # each distinct (hits, probability): one row to thin
        kill_rows: dict[tuple[int, int | None], int] = {}  # each distinct (target, damage): one kill map
        kill_cells: list[BatchCell] = []
        where: list[int] = []
        change: list[int] = []
        kill_groups: list[list[int]] = []  # the cells of each kill map
        wound: list[int] | None = None if casualties_only else []
        chain_cells: list[int] = []
        flamed_cells: list[int] = []
        by_table: dict[int, list[int]] = {}
        by_pin_map: dict[tuple, list[int]] = {}
        pin_none: list[int] = []
        kinds: dict[tuple[int, int, int], tuple[float, float, list[list[int]]]] = {}
        for j, (c, stage) in enumerate(block):
            row = seen.get(id(stage[0]))
            if row is None:
                pmf = stage[0].probabilities
                row = seen[id(stage[0])] = by_value.setdefault(pmf.tobytes(), len(pmfs))
                if row == len(pmfs):
                    pmfs.append(pmf)
            where.append(row)
            # what the cell's table, target and volley decide: the same for the cells that share them
            kind = kinds.get((id(c.wounds), id(c.target), id(c.volley_facts)))
            if kind is None:
                kind = kinds[id(c.wounds), id(c.target), id(c.volley_facts)] = (
                    c.wounds.p_change,
                    c.wounds.p_wound,
                    _lists_of(
                        c,
                        kill_rows,
                        kill_cells,
                        kill_groups,
                        (chain_cells, pin_none, flamed_cells),
                        by_pin_map,
                        by_table,
                    ),
                )
            change.append(pairs.setdefault((row, kind[0]), len(pairs)))
            if wound is not None:
                wound.append(pairs.setdefault((row, kind[1]), len(pairs)))
            for cells in kind[2]:
                cells.append(j)
        self.where, self.by_table, self.by_pin_map, self.pin_none = where, by_table, by_pin_map, pin_none
        hits = self.hits = np.zeros((len(pmfs), width))
        for row, pmf in enumerate(pmfs):
            hits[row, : pmf.size] = pmf
        thinned = _thin_pairs(hits, pmfs, list(pairs))
        self.thinned, self.change, self.wound = thinned, change, wound
        self.change_rows = thinned[change]
        casualties = self.casualties = casualties_of(self.change_rows, kill_cells, kill_groups, shared)
        self.chained = _chain(block, chain_cells, self, shared)
        self.flamed: dict[int, np.ndarray] = {}
        for j in flamed_cells:
            c, stage = block[j]
            flamed = self.flamed[j] = unsaved_pmf(stage[0].probabilities, c.wounds.unsaved_each, deflagrate=True)
            _put_row(casualties, j, casualties_of(flamed[None], [c], [[0]], shared)[0])
        for j, found in self.chained.items():
            if not isinstance(found, TooLarge):
                _put_row(casualties, j, found[0])

    def hit_rows(self, rows: list[int]) -> np.ndarray:
        """The padded hit pmfs of the cells listed (positions in the block), one row each."""
        where = self.where
        return self.hits[[where[j] for j in rows]]

    def counts(self, j: int) -> np.ndarray:
        """The pmf of cell j's state-changing wounds."""
        flamed = self.flamed.get(j)
        return self.change_rows[j] if flamed is None else flamed

    def pins(self, shared: BatchShared) -> list[float | None]:
        """P(pinned) of every cell (its chain's, or from its state-changing wounds; 0 without Pinning, None for
        an exempt target): the cells of one Pinning map (``pin_map``) in one product."""
        out: list[float | None] = [0.0] * len(self.members)
        for j, chain in self.chained.items():
            out[j] = None if isinstance(chain, TooLarge) else chain[1]
        for j in self.pin_none:
            out[j] = None
        size = self.change_rows.shape[1]
        for rows in self.by_pin_map.values():
            values = self.change_rows[rows] @ pin_map(self.members[rows[0]], size, shared)
            for j, value in zip(rows, values.tolist(), strict=True):
                out[j] = value
        for j, flamed in self.flamed.items():
            c = self.members[j]
            if c.volley_facts.pinning and not c.exempt:
                out[j] = float(flamed @ pin_map(c, flamed.size, shared))
        return out


def _lists_of(
    c: BatchCell,
    kill_rows: dict[tuple[int, int | None], int],
    kill_cells: list[BatchCell],
    kill_groups: list[list[int]],
    flagged: tuple[list[int], list[int], list[int]],
    by_pin_map: dict[tuple, list[int]],
    by_table: dict[int, list[int]],
) -> list[list[int]]:
    """The lists of ``BlockCore``'s pass that a cell of this table, target and volley joins: its kill map's
    (one per target and damage; ``kill_cells`` its first cell), then the chain's cells, the cells of an exempt
    target or of its Pinning map, Deflagrate's or its Brutal table's (``flagged``: chain, exempt, Deflagrate)."""
    w, vf = c.wounds, c.volley_facts
    chain_cells, pin_none, flamed_cells = flagged
    kill = kill_rows.get((id(c.target), w.damage))
    if kill is None:
        kill = kill_rows[id(c.target), w.damage] = len(kill_cells)
        kill_cells.append(c)
        kill_groups.append([])
    out = [kill_groups[kill]]
    if c.steps is not None:  # P(pinned) from the chain
        out.append(chain_cells)
    elif vf.pinning:
        if c.exempt:
            out.append(pin_none)
        elif not vf.deflagrate:
            out.append(by_pin_map.setdefault((id(c.target), vf.shock, w.damage), []))
    if vf.deflagrate:
        out.append(flamed_cells)
    elif w.unsaved_each.size > 2:
        out.append(by_table.setdefault(id(w), []))
    return out


def _thin_pairs(hits: np.ndarray, pmfs: list[np.ndarray], pairs: list[tuple[int, float]]) -> np.ndarray:
    """Row i: the hits of row ``pairs[i][0]`` thinned with probability ``pairs[i][1]`` (``thin_many``), padded
    to the block's width: the rows of short hits (up to ``THIN_MANY_TERMS`` entries) at their own length, by
    the binomial terms the one-cell engine uses too, the others together."""
    width = hits.shape[1]
    by_size: dict[int, list[int]] = {}  # the rows thinned at each length
    for i, (row, _) in enumerate(pairs):
        size = pmfs[row].size
        by_size.setdefault(size if size <= THIN_MANY_TERMS else width, []).append(i)
    if len(by_size) == 1 and width in by_size:
        return thin_many(hits[[row for row, _ in pairs]], np.array([p for _, p in pairs]))
    out = np.zeros((len(pairs), width))
    for size, rows in by_size.items():
        chosen = [pairs[i] for i in rows]
        out[rows, :size] = thin_many(hits[[row for row, _ in chosen], :size], np.array([p for _, p in chosen]))
    return out


def resolve_casualties(block: Block, width: int, shared: BatchShared) -> list[tuple[int, Casualties | Failure]]:
    """A sweep's results of a block's cells (``Casualties``: no hits, wounds or unsaved wounds built)."""
    core = BlockCore(block.entries, width, shared, casualties_only=True)
    pins = core.pins(shared)
    out: list[tuple[int, Casualties | Failure]] = []
    for j, (index, (c, stage)) in enumerate(zip(block.indices, block.entries, strict=True)):
        chain = core.chained.get(j)
        if isinstance(chain, TooLarge):
            out.append((index, chain))
            continue
        missing = cell_rules(c, stage[3], shared)[2]
        out.append((index, Casualties(core.casualties[j, : c.fresh.space.models + 1], pins[j], missing)))
    return out


def resolve_block(
    block: Block, width: int, shared: BatchShared
) -> tuple[BlockResult | None, list[tuple[int, Failure]]]:
    """The results of a block's cells as arrays over them (``BlockResult``; None when every cell failed), and
    the errors of the cells the allocation chain refuses (``TooLarge``)."""
    indices, entries = block.indices, block.entries
    core = BlockCore(entries, width, shared, casualties_only=False)
    members = core.members
    several = _several_saves(core)  # Brutal's unsaved wounds (the cells, their rows), and Deflagrate's
    if core.flamed:
        several.append((list(core.flamed), _padded(list(core.flamed.values()))))
    unsaved = core.change_rows  # the unsaved wounds of cells with one save per wound
    if several:
        unsaved = np.zeros((len(members), max(unsaved.shape[1], *(rows.shape[1] for _, rows in several))))
        unsaved[:, : core.change_rows.shape[1]] = core.change_rows
        for cells, rows in several:
            unsaved[cells] = 0.0
            unsaved[cells, : rows.shape[1]] = rows
    failures: list[tuple[int, Failure]] = [(j, x) for j, x in core.chained.items() if isinstance(x, TooLarge)]
    refused = {j for j, _ in failures} if failures else ()
    chained, k = core.chained, len(members)
    # each a list over the block's cells (a refused cell's row is dropped below)
    pinned = [None if p is None else probability(p) for p in core.pins(shared)]
    hits: list[Dist] = []
    rules: list[RuleLists] = []
    gets_hot: list[Dist | None] = []
    passed: list[float | None] = []
    for c, stage in entries:
        hits.append(stage[0])
        rules.append(c.rules or cell_rules(c, stage[3], shared))
        gets_hot.append(_gets_hot(c.volley, stage[1], shared) if c.volley_facts.gets_hot else None)
        passed.append(None if stage[2] is None else probability(stage[2]))
    states: list[TargetState | None] = [None] * k
    if shared.keep_state:
        for j, c in enumerate(members):
            chain = chained.get(j)
            if j not in refused:
                states[j] = final_state(c, core.counts(j), None if chain is None else chain[2], shared)  # type: ignore[index]
    w_rows = TrustedRows.of(core.thinned, owned=True).take(core.wound)  # type: ignore[arg-type]
    u_rows = TrustedRows.of(unsaved, owned=True)
    c_rows = TrustedRows.of(core.casualties, owned=True)
    result = BlockResult(
        cells=indices,
        hits=hits,
        wounds=w_rows,
        unsaved=u_rows,
        casualties=c_rows,
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


def _padded(rows: list[np.ndarray]) -> np.ndarray:
    """The rows listed, padded with zeros to the longest."""
    out = np.zeros((len(rows), max(row.size for row in rows)))
    for j, row in enumerate(rows):
        out[j, : row.size] = row
    return out


def _put_row(rows: np.ndarray, j: int, row: np.ndarray) -> None:
    """Row j of ``rows`` replaced by ``row`` (no longer), zeros after it."""
    rows[j] = 0.0
    rows[j, : row.size] = row


def _several_saves(core: BlockCore) -> list[tuple[list[int], np.ndarray]]:
    """The unsaved wounds of the cells whose hits can each make several (Brutal), row by row: the compound
    sum of ``sum_of_iid``, ``sum_n P(n hits) E^n`` with ``E^n`` the n-fold convolution of the per-hit unsaved
    pmf (``POWERS``, once per per-hit table and block width; the block's missing ones built together): one
    matrix product for the cells of each table (direct sums of non-negative products, as ``compound`` makes),
    given as (the cells, their rows padded to the longest)."""
    members, by_table = core.members, core.by_table
    if not by_table:
        return []
    width = core.hits.shape[1]
    eaches = [members[rows[0]].wounds.unsaved_each for rows in by_table.values()]
    keys = [(each.tobytes(), width) for each in eaches]
    held = [POWERS.peek(key) for key in keys]
    missing = {key: each for key, each, powers in zip(keys, eaches, held, strict=True) if powers is None}
    built = dict(zip(missing, _each_powers(list(missing.values()), width), strict=True)) if missing else {}
    for key, powers in built.items():
        POWERS.put(key, powers)
    found = [built[key] if powers is None else powers for key, powers in zip(keys, held, strict=True)]
    cells = [j for rows in by_table.values() for j in rows]
    out = np.zeros((len(cells), max(powers.shape[1] for powers in found)))
    done = 0
    for rows, powers in zip(by_table.values(), found, strict=True):
        out[done : done + len(rows), : powers.shape[1]] = core.hit_rows(rows) @ powers
        done += len(rows)
    return [(cells, out)]


POWERS: BoundedMemo[np.ndarray] = BoundedMemo(128)
"""``_each_powers`` by (per-hit unsaved pmf, block width), across batches."""


def _each_powers(eaches: list[np.ndarray], width: int) -> list[np.ndarray]:
    """Of each per-hit pmf: row n the pmf of the sum of n independent copies of it (n below ``width``), padded
    with zeros to the longest; read-only. All computed together (``convolve_powers_many``)."""
    together = convolve_powers_many(eaches, width - 1)
    out = []
    for each, powers in zip(eaches, together, strict=True):
        powers = powers[:, : (width - 1) * (each.size - 1) + 1]
        powers.flags.writeable = False
        out.append(powers)
    return out


def _chain(
    block: list[tuple[BatchCell, tuple]], cells: list[int], core: BlockCore, shared: BatchShared
) -> dict[int, tuple[np.ndarray, float | None, np.ndarray | None] | TooLarge]:
    """Casualties, P(pinned) and (with ``keep_state``) the unit state before the Pinning test, without and with
    the trigger raised, of the block's cells that need the allocation chain (``allocation_many``), by unit
    space and number of groups: their capped counts in one computation, then each cell's per-table maps (the
    missing ones built together, ``_chain_maps``), or the ``TooLarge`` the one-cell chain raises."""
    out: dict[int, tuple[np.ndarray, float | None, np.ndarray | None] | TooLarge] = {}
    by_shape: dict[tuple[UnitSpace, int], list[int]] = {}
    members = core.members
    checked: dict[tuple, TooLarge | None] = {}  # the bound of each distinct shape, asked once
    for j in cells:  # those with chain steps
        c, stage = block[j]
        space, groups = c.fresh.space, len(c.steps[1])  # type: ignore[index]
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
        counts = effective_counts(core.hit_rows(rows), rates, space.models * space.wounds)
        width = counts.shape[1] if groups else 1
        flat = counts.reshape(len(rows), -1)
        by_map: dict[tuple, list[int]] = {}  # the rows of one table and target share their maps: one product
        for p, j in enumerate(rows):
            c = members[j]
            vf = c.volley_facts
            by_map.setdefault((id(c.wounds), id(c.target), vf.pinning, vf.shock, c.exempt), []).append(p)
        maps = _chain_maps([members[rows[at[0]]] for at in by_map.values()], width, shared)
        for (_, _, pinning, _, exempt), at, (kills, states) in zip(by_map, by_map.values(), maps, strict=True):
            c = members[rows[at[0]]]
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


def _chain_pins(cell: BatchCell, states: np.ndarray, width: int, shared: BatchShared) -> np.ndarray:
    """P(pinned) after each capped count of a chain cell's (the Pinning test of the state it leads to, the
    trigger raised by any count but zero): a vector over the counts, once per table, target and Shell Shock."""
    shock = cell.volley_facts.shock
    key = ("chain", id(cell.wounds), id(cell.target), shock, width)
    found = shared.pinning.get(key)
    if found is None:
        pv = pin_vector(cell.target, shock, shared)
        found = shared.pinning[key] = np.concatenate(([states[0] @ pv[0]], states[1:] @ pv[1]))
    return found


def _chain_maps(cells: list[BatchCell], width: int, shared: BatchShared) -> list[tuple[np.ndarray, np.ndarray]]:
    """(models removed, unit state) after every capped count of each cell's chain (counts flattened, each below
    ``width``; the cells of one unit space and number of groups): once per per-hit table, unit space and
    start; the missing ones computed together (``count_states_many``)."""
    found: list[tuple[dict, tuple, tuple[np.ndarray, np.ndarray] | None]] = []
    missing: dict[tuple[int, tuple], tuple[BatchCell, dict, tuple, int]] = {}
    starts: dict[int, int] = {}  # the unit state of each fresh state (a point mass)
    for c in cells:
        start = starts.get(id(c.fresh))
        if start is None:
            start = starts[id(c.fresh)] = int(np.argmax(c.fresh.probs[0]))
        space = c.fresh.space
        key = (space, start, width)
        small = width ** len(c.steps[1]) * space.size <= KEPT_ENTRIES  # type: ignore[index]
        store = c.wounds.maps if small else shared.batch_only(c.wounds)
        maps = store.get(key)
        found.append((store, key, maps))
        if maps is None:
            missing.setdefault((id(c.wounds), key), (c, store, key, start))
    if missing:
        space = cells[0].fresh.space
        starts_of = np.zeros((len(missing), space.size))
        starts_of[np.arange(len(missing)), [start for _, _, _, start in missing.values()]] = 1.0
        steps = [c.steps[1] for c, _, _, _ in missing.values()]  # type: ignore[index]
        matrices = [np.stack(group) for group in zip(*steps, strict=True)]
        states = count_states_many(starts_of, matrices, width)
        kills = np.zeros((space.size, space.models + 1))
        kills[np.arange(space.size), space.kills_of()] = 1.0
        removed = states @ kills
        for t, (_, store, key, _) in enumerate(missing.values()):
            store[key] = (removed[t], states[t])
    return [maps if maps is not None else store[key] for store, key, maps in found]


def _gets_hot(volley: Volley, ones: Dist, shared: BatchShared) -> Dist:
    key = (id(volley), id(ones))  # the ones of its hit stage (a target may change its To Hit roll)
    if key not in shared.gets_hot:
        shared.gets_hot[key] = Dist.from_trusted(thin(ones.probabilities, gets_hot_unsaved(volley)))
    return shared.gets_hot[key]


def cell_rules(cell: BatchCell, notes: list[str], shared: BatchShared) -> RuleLists:
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
