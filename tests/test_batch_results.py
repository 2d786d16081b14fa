"""The batch's results as arrays over cells (``engine.resolve_batch``, ``engine/batch_results.py``) against the
one-cell engine (``exact.resolve_exact``), cell by cell, on generated combinations of rules, attack counts and
targets: each block row's pmf (a view of the block's matrix, trimmed), its mean, P(pinned), the rule lists,
Gets Hot and the check's P(attack), to 1e-12; every cell found exactly once; ``resolve_many``'s records built
from the same arrays; the contract's mappings and the analysts' frame read from them give the same numbers."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from praetor_analysis.engine import BatchResult, resolve_batch, resolve_many
from praetor_analysis.engine.exact import resolve_exact
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob import Dist, TrustedRows
from praetor_analysis.scenario.calc import calc, calc_many, parse_target, parse_volley
from praetor_analysis.scenario.frame import calc_frame

TOL = 1e-12

RULES = [
    "Rending (6+)",
    "Rending (5+)",
    "Shred",
    "Brutal (2)",
    "Brutal (3)",
    "Breaching (5+)",
    "Murderous Strike (6+)",
    "Instant Death",
    "Pinning",
    "Shell Shock (1)",
    "Gets Hot",
    "Deflagrate",
    "Force",
    "Sniper",
    "Rad-phage",
    "Fleshbane",
]
TARGETS = [
    {"models": 10, "T": 4, "W": 1, "Save": "3+", "Ld": 8},
    {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "5+", "Ld": 9},
    {"models": 3, "T": 5, "W": 3, "Save": "3+", "Ld": 8},
    {"models": 4, "T": 4, "W": 2, "Save": "3+", "Ld": 8, "wounds_taken": 1},
    {"models": 3, "T": 4, "W": 2, "Save": "3+", "Ld": 7, "Unit Type": "Cavalry"},
    {"models": 1, "T": 6, "W": 6, "Save": "2+", "Ld": 10, "Unit Type": "Dreadnought"},
    {"models": 2, "T": 4, "W": 2, "Save": "3+", "wounds_taken": 9},  # refused: more wounds taken than it has
]


def _documents(seed: int, count: int) -> list[dict]:
    """``count`` single-volley documents: random sets of up to three rules, Strength, AP, attacks and target."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        picked = {r.split(" (")[0]: r for r in rng.sample(RULES, rng.randint(0, 3))}  # one of each rule
        rules = "".join(f", {r}" for r in picked.values())
        weapon = {
            "name": "w",
            "Range": '24"',
            "Strength": str(rng.randint(3, 9)),
            "AP": str(rng.choice([2, 3, 4, 5, 6])),
            "Type": f"Heavy 1{rules}",
        }
        attacker = {"BS": rng.randint(2, 5), "S": 4, "Ld": 9}
        out.append(
            {
                "attacker": attacker,
                "attacks": rng.choice([1, 2, 5, 9, 17, 40]),
                "weapon": weapon,
                "target": rng.choice(TARGETS),
            }
        )
    return out


def _cells(documents: list[dict]) -> list:
    return [(parse_volley(d), parse_target(d)) for d in documents]


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    n = max(a.size, b.size)
    return float(np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_block_rows_equal_the_one_cell_engine_on_generated_rules(seed):
    cells = _cells(_documents(seed, 160))
    batch = resolve_batch(cells)
    assert isinstance(batch, BatchResult) and batch.size == len(cells)
    seen = [i for block in batch.blocks for i in block.cells] + list(batch.others)
    assert sorted(seen) == list(range(len(cells)))  # every cell exactly once
    rows = 0
    for block in batch.blocks:
        for j, i in enumerate(block.cells):
            want = resolve_exact(*cells[i])
            for name in ("wounds", "unsaved", "casualties"):
                got = getattr(block, name)
                pmf = got.row(j)
                assert not pmf.flags.writeable and pmf.size == got.ends[j] and pmf[-1] > 0.0, (i, name)
                assert _gap(pmf, getattr(want, name).probabilities) <= TOL, (i, name)
                assert got.means[j] == pytest.approx(getattr(want, name).mean(), abs=1e-9), (i, name)
            assert _gap(block.hits[j].probabilities, want.hits.probabilities) <= TOL, i
            assert (block.pinned[j] is None) == (want.pinned is None), i
            if want.pinned is not None:
                assert block.pinned[j] == pytest.approx(want.pinned, abs=TOL), i
            assert block.rules[j] == (want.applied, want.no_effect, want.not_modelled), i
            assert (block.gets_hot[j] is None) == (want.gets_hot is None), i
            if want.gets_hot is not None:
                assert _gap(block.gets_hot[j].probabilities, want.gets_hot.probabilities) <= TOL, i
            assert block.attack_happens[j] == want.attack_happens, i
            rows += 1
    for i, other in batch.others.items():
        try:
            want = resolve_exact(*cells[i])
        except PraetorError as exc:
            assert isinstance(other, PraetorError) and str(other) == str(exc), i
            continue
        assert other.casualties.isclose(want.casualties, atol=TOL), i
    assert rows > len(cells) // 2  # most cells are rows of the arrays
    assert any(isinstance(r, PraetorError) for r in batch.others.values())  # the refused target is among them


def test_resolve_many_builds_its_records_from_the_same_arrays():
    cells = _cells(_documents(4, 120))
    batch = resolve_batch(cells)
    records = resolve_many(cells)
    assert len(batch.results()) == len(records) == len(cells)
    for block in batch.blocks:
        for j, i in enumerate(block.cells):
            record = records[i]
            for name in ("wounds", "unsaved", "casualties"):
                assert np.array_equal(getattr(record, name).probabilities, getattr(block, name).row(j)), (i, name)
                assert getattr(record, name).mean() == getattr(block, name).means[j], (i, name)
            assert record.pinned == block.pinned[j] and record.hits is block.hits[j]


def test_mappings_and_frame_read_the_arrays_with_calcs_numbers():
    # calc_many's mappings (BlockResult.to_dicts) and calc_frame's columns (views of the matrices) against calc
    # document by document (the one-cell door)
    documents = _documents(5, 80)
    many = calc_many(documents)
    frame = calc_frame(pd.DataFrame(documents))
    for i, (document, got) in enumerate(zip(documents, many, strict=True)):
        try:
            want = calc(document)
        except PraetorError as exc:
            assert isinstance(got, PraetorError) and str(got) == str(exc), i
            assert frame["error"].iloc[i] == str(exc)
            continue
        assert set(got) == set(want), i
        for key, value in want.items():
            if isinstance(value, dict) and set(value) == {"pmf", "mean"}:
                assert _gap(np.asarray(got[key]["pmf"]), np.asarray(value["pmf"])) <= TOL, (i, key)
                assert got[key]["mean"] == pytest.approx(value["mean"], abs=1e-9), (i, key)
                column = frame[key].iloc[i]
                assert _gap(column, np.asarray(got[key]["pmf"])) == 0.0 and not column.flags.writeable, (i, key)
                assert frame[f"{key}_mean"].iloc[i] == got[key]["mean"], (i, key)
            elif isinstance(value, float):
                assert got[key] == pytest.approx(value, abs=TOL), (i, key)
                assert frame[key].iloc[i] == got[key], (i, key)
            else:
                assert got[key] == value, (i, key)
        assert frame["error"].iloc[i] == ""


def test_trusted_rows_are_from_trusted_row_by_row():
    rows = np.array([[0.5, 0.5, 0.0, 0.0], [0.2, 0.3, 0.5 + 1e-13, 0.0], [-1e-18, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    got = TrustedRows.of(rows)
    assert got.ends == [2, 3, 1, 4]
    for j, row in enumerate(rows):
        want = Dist.from_trusted(row)
        assert np.array_equal(got.row(j), want.probabilities) and got.means[j] == pytest.approx(want.mean(), abs=1e-15)
    mine = TrustedRows.of(rows.copy(), owned=True)  # the caller's own array, clipped and normalised in place
    assert np.array_equal(mine.pmfs, got.pmfs) and mine.ends == got.ends and mine.means == got.means
    strided = TrustedRows.of(np.asfortranarray(rows), owned=True)  # not one it can write in place: copied
    assert np.array_equal(strided.pmfs, got.pmfs) and strided.ends == got.ends
    picked = got.take([3, 0])
    assert picked.ends == [4, 2] and np.array_equal(picked.row(1), got.row(0))
    empty = TrustedRows.of(np.zeros((0, 3)))
    assert empty.ends == [] and empty.means == []
