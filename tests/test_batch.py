"""The batch engine (engine/batch.py) equals the exact path (exact.resolve_exact) on every cell of the shipped
catalog against the standard targets and a sample of unit profiles, to 1e-12: hits, wounds, unsaved,
casualties, P(pinned), the rule lists, Gets Hot and the Psychic check."""

from __future__ import annotations

import numpy as np
import pytest
from oracle import oracle_calc

from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.engine.allocation import UnitSpace
from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.exact import resolve_exact as resolve
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob.dist import Dist
from praetor_analysis.scenario.calc import parse_target, parse_volley
from praetor_analysis.views.cell_documents import scenario_for

TOL = 1e-12


def _sample_units(units, per_wounds: int = 1):
    """An infantry-like unit profile for every Wounds value (the first ones of the catalog, in order)."""
    rows = units[~units["Unit Type"].astype(str).str.contains("Vehicle|Fortification|Building", case=False)]
    rows = rows[rows["W"].astype(str).str.fullmatch(r"\d+")]
    return rows.groupby(rows["W"].astype(int), group_keys=False).head(per_wounds)


def _cells(every: int = 1):
    """The cells of every ``every``-th weapon of the catalog against the standard targets and the sample units."""
    weapons = load_weapons().iloc[::every]
    targets = load_targets()
    rows = [t for _, t in targets.iterrows()] + [u for _, u in _sample_units(load_units()).iterrows()]
    cells = []
    for _, w in weapons.iterrows():
        for t in rows:
            scenario = scenario_for(w, t)
            try:
                cells.append((parse_volley(scenario), parse_target(scenario)))
            except PraetorError:
                continue
    return [(v, t) for v, t in cells if not t.is_vehicle]


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    n = max(a.size, b.size)
    return float(np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))))


def _check_against_resolve(cells, *, keep_state: bool = False) -> tuple[float, int]:
    """Every cell of ``resolve_many(cells)`` against ``exact.resolve_exact``: hits, wounds, unsaved, casualties,
    P(pinned), the rule lists, Gets Hot and the Psychic check (or the same error), and with ``keep_state`` the
    final state (Pinning flags included); (the largest difference, how many results the batch computed itself:
    without the one-cell engine's state; with ``keep_state``, how many results have a state)."""
    worst, batched = 0.0, 0
    for (volley, target), got in zip(cells, resolve_many(cells, keep_state=keep_state), strict=True):
        where = (volley.weapon.name, volley.weapon.type.signature, target.name, volley.attacks)
        try:
            want = resolve(volley, target)
        except PraetorError as exc:
            assert isinstance(got, PraetorError) and str(got) == str(exc), where
            continue
        assert not isinstance(got, Exception), (where, got)
        batched += got.state is None if not keep_state else got.state is not None
        if keep_state:
            assert got.state is not None and want.state is not None, where
            assert got.state.shell_shocks == want.state.shell_shocks, where
            assert got.state.space == want.state.space, where  # the unit states the probabilities are of
            assert got.state.probs.shape == want.state.probs.shape, where
            gap = float(np.max(np.abs(got.state.probs - want.state.probs)))
            assert gap <= TOL, (where, "state")
            worst = max(worst, gap)
        for key in ("hits", "wounds", "unsaved", "casualties"):
            gap = _gap(getattr(got, key).probabilities, getattr(want, key).probabilities)
            assert gap <= TOL, (where, key)
            worst = max(worst, gap)
        assert (got.pinned is None) == (want.pinned is None), where
        if want.pinned is not None:
            assert got.pinned == pytest.approx(want.pinned, abs=TOL), where
        assert (got.applied, got.no_effect, got.not_modelled) == (want.applied, want.no_effect, want.not_modelled)
        assert (got.gets_hot is None) == (want.gets_hot is None), where
        if want.gets_hot is not None:
            assert _gap(got.gets_hot.probabilities, want.gets_hot.probabilities) <= TOL, where
        assert got.attack_happens == want.attack_happens and got.perils == want.perils, where
    return worst, batched


@pytest.mark.slow
def test_batch_equals_the_one_cell_engine_on_the_catalog():
    cells = _cells()
    assert len(cells) > 10000
    worst, _ = _check_against_resolve(cells)
    assert worst <= TOL


def test_batch_equals_the_one_cell_engine_on_a_slice_of_the_catalog():
    """Every 12th weapon of the catalog (the whole catalog is the slow tier's)."""
    cells = _cells(12)
    assert len(cells) > 800
    worst, _ = _check_against_resolve(cells)
    assert worst <= TOL


def test_batch_keeps_each_cells_error_and_order():
    scenario = scenario_for(load_weapons().iloc[0], load_targets().iloc[0])
    good = (parse_volley(scenario), parse_target(scenario))
    bad_target = parse_target({"target": {"models": 2, "T": 4, "W": 2, "Save": "3+", "wounds_taken": 3}})
    results = resolve_many([good, (good[0], bad_target), good])
    assert isinstance(results[1], PraetorError) and "wounds_taken" in str(results[1])
    assert results[0].casualties == results[2].casualties
    assert results[0].casualties.isclose(resolve(*good).casualties, atol=TOL)


def _numbers_close(a, b, where: str) -> None:
    """Two result mappings equal, numbers to 1e-12 (pmfs may differ in trailing zeros)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (where, sorted(a), sorted(b))
        for key in a:
            _numbers_close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and a and isinstance(a[0], float):
        assert _gap(np.asarray(a), np.asarray(b)) <= TOL, where
    elif isinstance(a, float):
        assert b == pytest.approx(a, abs=TOL), where
    else:
        assert a == b, where


def test_calc_array_goes_through_the_batch_with_the_same_results():
    import json

    from praetor_analysis.scenario.calc import calc, calc_json

    weapons, targets = load_weapons(), load_targets()
    items = [scenario_for(w, t) for _, w in weapons.iloc[::40].iterrows() for _, t in targets.iterrows()]
    items.append({"weapon": "Bolter", "target": "Legionary (Tactical Squad)", "attacker": {"BS": 4}})  # names
    items.append({**items[0], "firing_units": []})  # an error, reported with its index
    with pytest.raises(Exception, match=rf"^\[{len(items) - 1}\] "):
        calc_json(json.dumps(items))
    got = calc_json(json.dumps(items[:-1]))
    assert len(got) == len(items) - 1
    for i, (item, result) in enumerate(zip(items, got, strict=False)):
        _numbers_close(calc(item), result, f"[{i}]")


def test_calc_many_gives_the_same_results_cold_and_from_its_memos():
    # the documents memoised by their text, the batch's caches kept, the echoes and reasons built once: the
    # second array (everything found made) prints exactly what the first (memos cleared) printed
    import json

    from praetor_analysis.prob.memo import clear_memos
    from praetor_analysis.scenario.calc import calc_many

    weapons, targets = load_weapons(), load_targets()
    items = [scenario_for(w, t) for _, w in weapons.iloc[::30].iterrows() for _, t in targets.iterrows()]
    items += [{**items[0], "hits": 3}, {**items[1], "attacker": {**items[1]["attacker"], "modifiers": {"to_hit": 1}}}]
    clear_memos()
    first = calc_many(items)
    cold = [json.dumps(r if isinstance(r, dict) else str(r), sort_keys=True) for r in first]
    for r in first:  # a caller changing its results changes nothing the next array gets
        if isinstance(r, dict):
            r["target"]["rules"].append("changed")
            r["attacker"]["name"] = "changed"
            r["reasons"]["changed"] = "changed"
    warm = [json.dumps(r if isinstance(r, dict) else str(r), sort_keys=True) for r in calc_many(items)]
    assert cold == warm and sum(c.startswith("{") for c in cold) > len(items) // 2


def test_batch_keeps_volleys_that_differ_only_in_their_zone_hits_apart():
    from dataclasses import replace

    scenario = {
        "attacker": {"BS": 4},
        "weapon": {
            "name": "mega",
            "Range": '48"',
            "Strength": "8",
            "AP": "3",
            "Type": "Ordnance 1, Apocalyptic Mega-blast",
        },
        "target": {"models": 3, "T": 4, "W": 2, "Save": "3+"},
    }
    volley, target = parse_volley(scenario), parse_target(scenario)
    one, two = np.zeros((2, 2, 1)), np.zeros((3, 1, 1))
    one[1, 1, 0] = 1.0  # an inner and a middle hit
    two[2, 0, 0] = 1.0  # two inner hits
    a = replace(volley, hits=Dist.point(2), zone_hits=one)
    b = replace(volley, hits=Dist.point(2), zone_hits=two)
    assert a == b  # zone hits are not compared: the batch must not merge the two
    got = resolve_many([(a, target), (b, target)])
    for volley_, result in zip((a, b), got, strict=True):
        want = resolve(volley_, target)
        assert _gap(result.casualties.probabilities, want.casualties.probabilities) <= TOL
    assert got[0].casualties != got[1].casualties


def _chain_cells():
    """Brutal, Murderous Strike and Instant Death (with Rending's AP 2 group, Pinning and Shell Shock) against
    units of two, three and six wounds, a damaged model, a Pinning-exempt type and single-wound models, all in
    one batch: cells of several unit spaces and numbers of priority groups mixed."""
    rule_sets = [
        "Brutal (2)",
        "Brutal (3), Rending (6+)",
        "Murderous Strike (6+)",
        "Murderous Strike (5+), Rending (6+), Pinning",
        "Instant Death, Brutal (2)",
        "Brutal (2), Pinning, Shell Shock (1)",
        "Murderous Strike (4+), Brutal (2), Pinning",
    ]
    targets = [
        {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "4+", "Ld": 9},
        {"models": 3, "T": 5, "W": 3, "Save": "3+", "Ld": 8},
        {"models": 1, "T": 6, "W": 6, "Save": "2+", "Invulnerable": "5+", "Ld": 10, "Unit Type": "Dreadnought"},
        {"models": 4, "T": 4, "W": 2, "Save": "3+", "Ld": 8, "wounds_taken": 1},
        {"models": 2, "T": 4, "W": 3, "Save": "4+", "Ld": 7, "Unit Type": "Cavalry"},
        {"models": 10, "T": 3, "W": 1, "Save": "5+", "Ld": 7},
    ]
    cells = []
    for rules in rule_sets:
        for s, ap in ((4, "5"), (8, "2")):
            for n in (1, 3, 12, 25):
                for target in targets:
                    weapon = {"name": "w", "Range": '24"', "Strength": str(s), "AP": ap, "Type": f"Heavy 1, {rules}"}
                    scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": n, "weapon": weapon, "target": target}
                    cells.append((parse_volley(scenario), parse_target(scenario)))
    return cells


def test_batched_allocation_chain_equals_the_one_cell_chain():
    cells = _chain_cells()
    _, batched = _check_against_resolve(cells)
    assert batched == len(cells)  # every cell computed by the batch, none handed to the one-cell engine


def _counts_by_enumeration(hits: np.ndarray, rates: np.ndarray, cap: int) -> np.ndarray:
    """The joint pmf of the capped counts of each group, every hit's group (or none) taken in turn; past the
    cap the unit is gone, so the later counts are lumped at 0 (``effective_counts`` gives them all, below)."""
    import itertools

    groups = rates.size
    want = np.zeros((cap + 1,) * groups)
    for r, p_r in enumerate(hits):
        outcomes = [*((g, rates[g]) for g in range(groups)), (None, 1.0 - rates.sum())]
        for each in itertools.product(outcomes, repeat=r):
            p = p_r * float(np.prod([q for _, q in each]))
            counts, total = [], 0
            for g in range(groups):
                b = sum(h == g for h, _ in each) if total < cap else 0
                counts.append(min(b, cap - total) if total < cap else 0)
                total += counts[-1]
            want[tuple(counts)] += p
    return want


def _lumped(joint: np.ndarray, cap: int) -> np.ndarray:
    """``effective_counts``' pmf with every count after the one that reaches the cap moved to 0 (the unit is
    gone then: those counts change nothing), and the capped count of each group at ``cap`` minus the earlier."""
    out = np.zeros_like(joint)
    for index, p in np.ndenumerate(joint):
        counts, total = [], 0
        for b in index:
            counts.append(min(b, cap - total) if total < cap else 0)
            total += counts[-1]
        out[tuple(counts)] += p
    return out


@pytest.mark.parametrize("groups", [1, 2, 3])
def test_effective_counts_against_enumeration(groups):
    # three groups (Instant Death, AP 2, the rest: Brutal with Breaching and Murderous Strike) once broadcast
    # the binomial table against the wrong axis of the joint pmf (issue 22)
    from praetor_analysis.engine.allocation_many import effective_counts

    hits = np.array([[0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 1.0], [0.5, 0.0, 0.5, 0.0], [0.0, 1.0, 0.0, 0.0]])
    rates = np.array([[0.2, 0.3, 0.1], [0.5, 0.5, 0.0], [0.0, 0.7, 0.2], [0.1, 0.2, 0.3]])[:, :groups]
    for cap in (1, 2, 3):
        got = effective_counts(hits, rates, cap)
        for k in range(hits.shape[0]):
            want = _counts_by_enumeration(hits[k], rates[k], cap)
            got_k = _lumped(np.pad(got[k], [(0, cap + 1 - n) for n in got[k].shape]), cap)
            assert np.max(np.abs(got_k - want)) <= TOL, (groups, cap, k)


@pytest.mark.parametrize("groups", [0, 1, 2])
def test_count_maps_equal_the_stepwise_counts(groups):
    """``effective_counts`` from the count maps of each distinct rates (up to two groups) against the counts
    computed group by group over the cells (``_stepwise``, checked against enumeration above), on random hits,
    rates shared by several cells, caps below and beyond the hits, and rates 0 and 1."""
    from praetor_analysis.engine.allocation_many import _stepwise, effective_counts

    rng = np.random.default_rng(groups)
    for size, cap in ((1, 3), (6, 2), (6, 10), (30, 7), (64, 10)):
        hits = rng.random((12, size)) * (rng.random((12, size)) < 0.8)
        hits[:, -1] += 0.01
        hits[0] = 0.0
        hits[0, -1] = 1.0
        hits /= hits.sum(axis=1, keepdims=True)
        distinct = rng.random((4, groups)) / max(groups, 1)
        distinct[1, :1] = 1.0 if groups else distinct[1, :1]
        distinct[2, -1:] = 0.0 if groups else distinct[2, -1:]
        rates = distinct[rng.integers(0, 4, size=12)]
        got, want = effective_counts(hits, rates, cap), _stepwise(hits, rates, cap)
        assert got.shape == want.shape
        assert np.max(np.abs(got - want), initial=0.0) <= 1e-15, (size, cap)


def test_batch_equals_the_one_cell_engine_across_unit_types_and_rules():
    """Targets that differ in Unit Type, Strength, rules and name share per-hit tables when no rule of the volley
    or the target reads them (wound_stage.reads_target_profile): weapons against one unit profile per Unit Type."""
    units = load_units()
    rows = units[~units["Unit Type"].astype(str).str.contains("Vehicle|Fortification|Building", case=False)]
    rows = rows.groupby(rows["Unit Type"].astype(str), group_keys=False).head(1)
    assert len(rows) > 60
    cells = []
    for _, w in load_weapons().iloc[::25].iterrows():
        for _, t in rows.iterrows():
            scenario = scenario_for(w, t)
            try:
                cells.append((parse_volley(scenario), parse_target(scenario)))
            except PraetorError:
                continue
    assert len(cells) > 1000
    _check_against_resolve(cells)


def test_batch_reads_the_target_ws_for_melee_sixes_and_the_name_for_preferred_enemy():
    # Two sharing keys that once lost what they depend on: a melee rule reading the To Hit sixes (Molecular
    # Dissonance) depends on the target's WS; Preferred Enemy (X) classifies by the target's name.
    from praetor_analysis.engine.volley import Volley
    from praetor_analysis.profiles.records import Weapon, unit_from_mapping

    attacker = unit_from_mapping(
        {"models": 3, "WS": 5, "S": 4, "A": 2, "BS": 4, "Ld": 8, "rules": ["Preferred Enemy (Legionaries)"]},
        field_name="attacker",
    )
    cells = []
    for mode, type_ in (("melee", "Melee, Molecular Dissonance"), ("shooting", "Assault 3, Molecular Dissonance")):
        rng = "-" if mode == "melee" else '12"'
        weapon = Weapon.from_mapping({"name": "x", "Range": rng, "Strength": "4", "AP": "5", "Type": type_})
        for ws, name in ((2, "Legionaries"), (4, "Others"), (9, "Legionaries"), (2, "Others")):
            row = {"name": name, "models": 5, "WS": ws, "T": 4, "W": 1, "Save": "3+", "Ld": 7}
            cells.append((Volley(weapon, attacker, mode=mode), unit_from_mapping(row, field_name="target")))
    worst, _ = _check_against_resolve(cells)
    assert worst <= TOL


def test_batch_pads_hits_of_many_lengths_into_one_block():
    # Cells whose hits have 9 to 64 entries share one block (padded with zeros to 64), 65 to 128 the next,
    # up to 8 their own length: thinnings, Brutal's compound sum, the allocation chain (Brutal and Instant Death
    # against W2 and W3 units, the one-cell bound checked on the cell's own hits) and Pinning, each cell
    # against exact.resolve_exact; every cell computed by the batch itself.
    from praetor_analysis.engine.batch import block_width

    assert [block_width(n) for n in (1, 8, 9, 40, 64, 65, 128, 129)] == [1, 8, 64, 64, 64, 128, 128, 256]
    targets = [
        {"models": 10, "T": 4, "W": 1, "Save": "3+"},
        {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "4+"},
        {"models": 3, "T": 5, "W": 3, "Save": "3+"},
    ]
    cells = []
    for rules in ("", ", Brutal (2), Rending (6+)", ", Instant Death, Pinning", ", Shred, Pinning, Shell Shock (1)"):
        weapon = {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Heavy 1{rules}"}
        for attacks in (1, 3, 7, 8, 9, 17, 33, 63, 64, 65, 90):
            for target in targets:
                scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": attacks, "weapon": weapon, "target": target}
                cells.append((parse_volley(scenario), parse_target(scenario)))
    _, batched = _check_against_resolve(cells)
    assert batched == len(cells)


def test_short_blocks_join_the_narrowest_wide_one():
    # the blocks of short hits (up to THIN_MANY_TERMS entries) are computed with the narrowest wider block, or
    # together when there is none; every cell kept once (its results: the test above)
    from praetor_analysis.engine.batch_cell import Block, merge_short

    def block(*cells: int) -> Block:
        out = Block()
        out.indices.extend(cells)
        out.entries.extend((None, None) for _ in cells)  # type: ignore[misc]
        return out

    merged = merge_short({6: block(0, 1), 128: block(2), 1: block(3), 64: block(4, 5)})
    assert sorted(merged) == [64, 128] and sorted(merged[64].indices) == [0, 1, 3, 4, 5]
    assert merged[128].indices == [2] and len(merged[64].entries) == 5
    merged = merge_short({2: block(0), 6: block(1, 2)})
    assert list(merged) == [6] and sorted(merged[6].indices) == [0, 1, 2]
    single = {6: block(0)}
    assert merge_short(single) == single
    assert merge_short({64: block(0), 128: block(1)}).keys() == {64, 128}


def test_one_block_of_many_brutal_tables_rates_and_lengths():
    """Short and long hits in one block (merge_short) with many per-hit tables at once: Brutal (2) and (3) at
    several Strengths and APs (Brutal's powers of every table built together), Murderous Strike and Instant
    Death (the chain's count maps of many distinct rates, one and two groups), Pinning and Deflagrate, against
    one-, two- and three-wound units: each cell against exact.resolve_exact, every cell computed by the batch,
    cold (memos cleared) and again from the memos."""
    from praetor_analysis.prob.memo import clear_memos

    targets = [
        {"models": 10, "T": 4, "W": 1, "Save": "3+", "Ld": 8},
        {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "5+", "Ld": 9},
        {"models": 3, "T": 5, "W": 3, "Save": "3+", "Ld": 8},
    ]
    rule_sets = (
        ", Brutal (2)",
        ", Brutal (3), Rending (5+)",
        ", Brutal (2), Murderous Strike (6+), Pinning",
        ", Murderous Strike (5+), Shred",
        ", Instant Death, Brutal (3)",
        ", Deflagrate, Pinning",
    )
    cells = []
    for strength, ap in (("4", "5"), ("6", "3"), ("8", "2")):
        for rules in rule_sets:
            weapon = {"name": "gun", "Range": '24"', "Strength": strength, "AP": ap, "Type": f"Heavy 1{rules}"}
            for attacks in (1, 4, 7, 12, 30):
                for target in targets:
                    scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": attacks, "weapon": weapon, "target": target}
                    cells.append((parse_volley(scenario), parse_target(scenario)))
    clear_memos()
    worst, batched = _check_against_resolve(cells)
    assert worst <= TOL and batched == len(cells)
    worst, batched = _check_against_resolve(cells)
    assert worst <= TOL and batched == len(cells)


def _padded_cells():
    targets = [
        {"models": 10, "T": 4, "W": 1, "Save": "3+"},
        {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "4+"},
        {"models": 3, "T": 5, "W": 3, "Save": "3+"},
        {"models": 3, "T": 4, "W": 2, "Save": "3+", "Unit Type": "Cavalry"},
    ]
    cells = []
    rule_sets = ("", ", Brutal (2), Rending (6+)", ", Instant Death, Pinning", ", Shred, Pinning, Shell Shock (1)")
    for rules in (*rule_sets, ", Deflagrate", ", Deflagrate, Pinning"):
        weapon = {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Heavy 1{rules}"}
        for attacks in (1, 3, 9, 33, 65):
            for target in targets:
                scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": attacks, "weapon": weapon, "target": target}
                cells.append((parse_volley(scenario), parse_target(scenario)))
    return cells


def test_batch_keeps_the_exact_paths_final_state_when_asked():
    # keep_state: every cell's final state (by its counts of state-changing wounds, by the allocation chain's
    # maps, Deflagrate's, a Pinning-exempt type's, the Pinning test taken) equals exact.resolve_exact's
    cells = _padded_cells() + _chain_cells()
    worst, kept = _check_against_resolve(cells, keep_state=True)
    assert kept == len(cells) and worst <= TOL
    _, batched = _check_against_resolve(cells)
    assert batched > len(cells) // 2  # most computed by the batch itself


def test_a_sequence_asks_the_vectorised_path_for_its_first_volley():
    # chain.resolve_sequence: one volley is a batch of one (with its state); several without Pinning take the
    # first from the batch and the rest on the exact path; with Pinning all on the exact path; all equal
    # exact.resolve_sequence to 1e-12, the final state included
    from praetor_analysis.engine import chain, exact

    cells = _padded_cells()
    targets = {id(t): t for _, t in cells}
    for target in targets.values():
        mine = [v for v, t in cells if t is target]
        for units in ([[mine[0]]], [[mine[2]]], [[mine[1], mine[7]], [mine[12]]], [[mine[5], mine[11], mine[16]]]):
            got, want = chain.resolve_sequence(target, units), exact.resolve_sequence(target, units)
            for key in ("hits", "wounds", "unsaved", "casualties"):
                assert _gap(getattr(got, key).probabilities, getattr(want, key).probabilities) <= TOL, key
            assert got.pinned == pytest.approx(want.pinned, abs=TOL)
            assert (got.applied, got.no_effect, got.not_modelled) == (want.applied, want.no_effect, want.not_modelled)
            assert got.state.probs.shape == want.state.probs.shape
            assert float(np.max(np.abs(got.state.probs - want.state.probs))) <= TOL


def test_batch_tables_memoised_across_batches_give_the_same_results():
    # the per-hit tables are memoised by value across batches (engine.batch_facts.TABLES), with their small chain
    # steps and count maps; large ones (10 models of W3: 31^2 counts x 31 states) kept for one batch only.
    # Cold, then warm in another batch mixed with other cells, against exact.resolve_exact each time.
    from praetor_analysis.engine import batch_facts
    from praetor_analysis.prob.memo import clear_memos

    big = {"models": 10, "T": 4, "W": 3, "Save": "3+"}
    small = {"models": 2, "T": 6, "W": 2, "Save": "2+"}
    cells = []
    for rules in (", Brutal (2), Rending (6+)", ", Murderous Strike (5+), Pinning"):
        weapon = {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Heavy 1{rules}"}
        for attacks in (4, 12, 40):
            for target in (big, small):
                scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": attacks, "weapon": weapon, "target": target}
                cells.append((parse_volley(scenario), parse_target(scenario)))
    clear_memos()
    _, batched = _check_against_resolve(cells)
    assert batched == len(cells) and len(batch_facts.TABLES) > 0
    kept = {id(w) for w in batch_facts.TABLES.values()}
    _, batched = _check_against_resolve(cells[::-1] + _chain_cells()[:40])
    assert batched == len(cells) + 40
    assert kept <= {id(w) for w in batch_facts.TABLES.values()}  # the same records found again
    for w in batch_facts.TABLES.values():  # only small count maps kept (the big unit's 31 x 31 x 31: per batch)
        for space, _, width in w.maps:
            assert width ** len(w.steps[space][1]) * space.size <= batch_facts.KEPT_ENTRIES
    assert (UnitSpace(10, 3), 2, 31) not in {key for w in batch_facts.TABLES.values() for key in w.maps}


def test_batch_mixes_the_psychic_checks_of_one_psyker_or_one_unit_check():
    """Force, Achean Force and Divine Guidance weapons of the catalog, by one psyker and by three (each with
    a check: through the one-cell engine; one check for the unit: mixed by the batch), with and without
    Pinning, against the standard targets (a Pinning-exempt one among them), equal ``exact.resolve_exact``; the
    batch computes every cell whose outcomes are each one volley at one Strength itself."""
    from dataclasses import replace

    from praetor_analysis.engine.checks import check_boost, single_strength_branches

    weapons = load_weapons()
    checked = weapons[weapons["Type"].astype(str).str.contains("Force|Divine Guidance", case=False)]
    assert len(checked) > 5
    cells, expect_batched = [], 0
    for _, w in checked.iterrows():
        for _, t in load_targets().iterrows():
            scenario = scenario_for(w, t)
            pinning = {**scenario, "weapon": {**scenario["weapon"], "Type": scenario["weapon"]["Type"] + ", Pinning"}}
            for s in (scenario, pinning):
                try:
                    volley, target = parse_volley(s), parse_target(s)
                except PraetorError:
                    continue
                if target.is_vehicle or check_boost(volley) is None:
                    continue
                for v in (volley, replace(volley, attacker=replace(volley.attacker, models=3, Ld=9))):
                    cells.append((v, target))
                    expect_batched += single_strength_branches(v) is not None
    assert len(cells) > 50 and expect_batched > 30
    worst, batched = _check_against_resolve(cells)
    assert worst <= TOL
    _, kept = _check_against_resolve(cells, keep_state=True)  # the mixed states of the outcomes
    assert kept == len(cells)
    assert batched >= expect_batched


CATAPHRACTII = {"name": "Cataphractii", "models": 3, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "5+", "Ld": 8}


def test_brutal_breaching_murderous_strike_in_an_array_against_cataphractii():
    # issue 22: Brutal with Breaching (or Rending) and Murderous Strike makes three allocation groups (Instant
    # Death, AP 2, the rest); against multi-wound models in a JSON array the batch's allocation chain crashed
    # (ValueError: operands could not be broadcast) or, with one attack, answered 0.124546.
    import json
    from fractions import Fraction

    from praetor_analysis.scenario.calc import calc, calc_json

    def scenario(type_: str, target: dict, attacks: int | None = None) -> dict:
        weapon = {"name": "w", "Range": '24"', "Strength": "4", "AP": "3", "Type": type_}
        out = {"attacker": {"BS": 4}, "weapon": weapon, "target": target}
        return out if attacks is None else {**out, "attacks": attacks}

    one = scenario("Heavy 1, Brutal (2), Breaching (5+), Murderous Strike (6+)", {**CATAPHRACTII, "models": 1}, 1)
    items = [one]
    for rule in ("Breaching (5+)", "Rending (5+)"):
        for target in (CATAPHRACTII, {**CATAPHRACTII, "W": 3}, {**CATAPHRACTII, "rules": ["Feel No Pain (5+)"]}):
            for attacks in (None, 2, 40):
                items.append(scenario(f"Heavy 6, Brutal (2), {rule}, Murderous Strike (6+)", target, attacks))
    got = calc_json(json.dumps(items))
    # By hand (the issue): a hit on 4+ (2/3), a wound roll of 4 (1/6) at AP 3 against 2+ armour (both of
    # Brutal's two wounds fail on 1/6: 1/36), of 5 at AP 2 by Breaching against the 5+ invulnerable (both fail:
    # (2/3)^2 = 4/9), of 6 by Murderous Strike, Instant Death at AP 2 (either fails: 1 - (1/3)^2 = 8/9):
    # P(the W2 model dies) = 2/3 x 1/6 x (1/36 + 4/9 + 8/9) = 49/324.
    assert got[0]["casualties"]["pmf"][1] == pytest.approx(float(Fraction(49, 324)), abs=TOL)
    for i, (item, result) in enumerate(zip(items, got, strict=True)):
        _numbers_close(calc(item), result, f"[{i}]")
    want = oracle_calc(items[4])  # 2 attacks against three W2 models, die by die
    for key in ("hits", "wounds", "unsaved", "casualties"):
        assert _gap(np.asarray(got[4][key]["pmf"]), np.asarray(want[key])) <= TOL, key


def test_the_batch_caches_kept_between_batches_never_mix_records_up():
    # engine.batch.SHARED keeps the batch's caches (keyed by record ids) from one batch to the next: records
    # made and dropped one batch after another (their ids free for new records) each get their own results,
    # equal to exact.resolve_exact; the caches are dropped once they hold more than SHARED_RECORDS records
    import gc

    from praetor_analysis.engine import batch

    for i in range(24):
        strength, ap = 3 + i % 6, 2 + i % 5
        rules = ("", ", Pinning", ", Brutal (2)", ", Rending (6+)")[i % 4]
        scenario = {"attacker": {"BS": 4, "S": 4}, "attacks": 3 + i % 4,
                    "weapon": {"Range": '24"', "Strength": str(strength), "AP": str(ap), "Type": f"Heavy 1{rules}"},
                    "target": {"models": 2 + i % 3, "T": 4, "W": 1 + i % 2, "Save": "3+", "Ld": 8}}  # fmt: skip
        cell = (parse_volley(scenario), parse_target(scenario))
        _, batched = _check_against_resolve([cell])
        assert batched == 1
        del cell
        gc.collect()
    assert len(batch.SHARED) == 1
    held = batch.SHARED_RECORDS
    try:
        batch.SHARED_RECORDS = 0
        _check_against_resolve(_padded_cells()[:3])
        assert len(batch.SHARED) == 0  # too many records: dropped after the batch
    finally:
        batch.SHARED_RECORDS = held


def test_a_result_built_of_its_fields_is_the_dataclass_record():
    # the batch builds its results with VolleyResult.of_fields (no frozen __setattr__ per field): the same record
    # as the dataclass's constructor (equal, same repr, state kept though not compared), and still frozen
    import dataclasses

    from praetor_analysis.engine.volley import TargetState, VolleyResult

    doc = {"attacker": {"BS": 4}, "attacks": 12, "target": {"T": 4, "W": 1, "Save": "3+", "models": 5},
           "weapon": {"Range": '24"', "Strength": "5", "AP": "4", "Type": "Heavy 1, Pinning"}}  # fmt: skip
    (made,) = resolve_many([(parse_volley(doc), parse_target(doc))], keep_state=True)
    assert isinstance(made, VolleyResult) and isinstance(made.state, TargetState)
    values = {f.name: getattr(made, f.name) for f in dataclasses.fields(VolleyResult)}
    built = VolleyResult(**values)
    assert made == built and repr(made) == repr(built) and made.state is built.state
    assert vars(made) == vars(built) and list(vars(made)) == list(vars(built))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.pinned = 1.0  # type: ignore[misc]


def test_count_states_many_are_each_tables_powers():
    """Row (t, b_1 * size + b_2) of ``count_states_many`` is ``starts[t] T_1^b_1 T_2^b_2`` of table t's own
    matrices, each power made by repeated products here (random stochastic matrices; one and two groups)."""
    import itertools

    from praetor_analysis.engine.allocation_many import count_states_many

    rng = np.random.default_rng(7)
    for groups in (1, 2):
        tables, states, size = 3, 5, 4
        starts = rng.random((tables, states))
        starts /= starts.sum(axis=1, keepdims=True)
        matrices = []
        for _ in range(groups):
            m = rng.random((tables, states, states))
            matrices.append(m / m.sum(axis=2, keepdims=True))
        got = count_states_many(starts, matrices, size)
        assert got.shape == (tables, size**groups, states)
        for t in range(tables):
            for flat, counts in enumerate(itertools.product(range(size), repeat=groups)):
                want = starts[t]
                for m, b in zip(matrices, counts, strict=True):
                    for _ in range(b):
                        want = want @ m[t]
                assert np.max(np.abs(got[t, flat] - want)) <= 1e-15, (groups, t, counts)
