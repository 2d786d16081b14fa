"""calc_many pauses the cyclic garbage collector for its batch and leaves it as it found it."""

from __future__ import annotations

import gc

import pytest

from praetor_analysis.scenario import calc as calc_module
from praetor_analysis.scenario.collector import collector_paused

DOC = {"attacker": {"BS": 4}, "attacks": 3, "weapon": {"Strength": "4", "AP": "5", "Type": "Heavy 1"},
       "target": {"T": 4, "W": 1, "Save": "3+", "models": 5}}  # fmt: skip


def test_the_collector_is_paused_inside_and_restored_after_even_on_an_error() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_paused_by_the_caller_stays_paused() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_calc_many_runs_its_batch_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    resolve_batch = calc_module.resolve_batch  # the batch's engine call (its results as arrays)

    def spy(cells):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return resolve_batch(cells)

    monkeypatch.setattr(calc_module, "resolve_batch", spy)
    (result,) = calc_module.calc_many([DOC])
    assert seen == [False] and gc.isenabled() and result["unsaved"]["pmf"]
