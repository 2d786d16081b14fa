"""The dashboard's fast update path shows exactly what a freshly built view shows.

After every widget change, the three FigureWidgets (updated in place by LiveFigure, from the cells the
ShootingSession computed or remembered) are compared with ``compute_view`` of the same state built from
nothing: same traces, names and order, same layout, numbers equal to 1e-12; the table is the same frame.
The session's cell memory is checked against ``compare_with_distributions`` and for what it sends to the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")
go = pytest.importorskip("plotly.graph_objects")

from praetor_analysis.analysis import AttackerProfile
from praetor_analysis.analysis.compare import compare_with_distributions
from praetor_analysis.analysis.compare_cache import ComparisonCache
from praetor_analysis.catalog import frame_rows, load_targets, load_weapons
from praetor_analysis.views.dashboard import app as D
from praetor_analysis.views.dashboard.shooting_view import ShootingSession, compute_view
from praetor_analysis.views.figures.live import LiveFigure, flatten, same_value
from praetor_analysis.views.figures.plots import figure_of
from praetor_analysis.views.figures.specs import FigureSpec, clean
from praetor_analysis.views.tables import table_html


@pytest.fixture(scope="module")
def catalogs():
    return load_weapons(), load_targets()


def _numeric(a: Any) -> np.ndarray | None:
    try:
        out = np.asarray(a, dtype=float)
    except (TypeError, ValueError):
        return None
    return out


def assert_same(got: Any, want: Any, path: str = "") -> None:
    """Plotly JSON equal: the same keys, strings and order; numbers to 1e-12 (NaN equal to NaN)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), path
        assert set(got) == set(want), f"{path}: keys {sorted(set(got) ^ set(want))}"
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
        return
    if isinstance(want, (list, tuple, np.ndarray)):
        assert isinstance(got, (list, tuple, np.ndarray)), path
        assert len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        g, w = _numeric(got), _numeric(want)
        if g is not None and w is not None and g.dtype.kind == "f" and len(want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-12, err_msg=path)
            return
        for n, (a, b) in enumerate(zip(got, want, strict=True)):
            assert_same(a, b, f"{path}[{n}]")
        return
    if isinstance(want, float) and want != want:
        assert isinstance(got, float) and got != got, path
        return
    assert got == want, f"{path}: {got!r} != {want!r}"


def assert_widget_is(widget: go.FigureWidget, fig: go.Figure) -> None:
    got, want = widget.to_plotly_json(), fig.to_plotly_json()
    for trace in got["data"]:
        trace.pop("uid", None)  # a FigureWidget names its traces for the page
    assert [t.get("type") for t in got["data"]] == [t.get("type") for t in want["data"]]
    assert [t.get("name") for t in got["data"]] == [t.get("name") for t in want["data"]]
    assert_same(got, want)


def assert_dashboard_fresh(d: D.Dashboard) -> None:
    fresh = compute_view(d.state(), d.weapons, d.targets)
    for widget, fig in ((d.heatmap, fresh.heatmap), (d.curves, fresh.curves), (d.distribution, fresh.distribution)):
        assert_widget_is(widget, fig)
    specs = d.refresh()
    pd.testing.assert_frame_equal(specs.table, fresh.table)
    assert specs.messages == fresh.messages


def _name(d: D.Dashboard, label: str) -> Any:
    return next(v for text, v in d.weapon_select.options if text.startswith(label))


CHANGES: list[tuple[str, Any]] = [
    ("bs", 5),
    ("metric", "p_any"),
    ("target_select", ("Rhino", "Cataphractii Terminator", "Militia (Infantry Squad)")),
    ("focus_target", "Rhino"),
    ("reroll_hits", "all"),
    ("to_wound", 1),
    ("fnp", "5+"),
    ("cover", "4+"),
    ("target_models", 3),
    ("half_range", True),
    ("metric", "p_pinned"),
    ("focus_target", "Militia (Infantry Squad)"),
    ("reroll_wounds", "ones"),
    ("preferred_enemy", True),
    ("attacker_models", 4),
    ("metric", "mean_per_100pts"),
    ("bs", 2),
]


def test_every_widget_change_matches_a_fresh_view(catalogs):
    d = D.Dashboard(*catalogs)
    assert_dashboard_fresh(d)
    for name, value in CHANGES:
        getattr(d, name).value = value
        assert_dashboard_fresh(d)


def test_weapon_set_changes_add_and_remove_traces(catalogs):
    d = D.Dashboard(*catalogs)
    chosen = tuple(d.weapon_select.value)
    d.search.value = "melta"
    melta = _name(d, "Meltagun (Horus Heresy)")
    d.weapon_select.value = (*chosen, melta)  # one more row, one more curve
    assert_dashboard_fresh(d)
    assert len(d.curves.data) == len(chosen) + 1
    d.focus_weapon.value = melta
    assert_dashboard_fresh(d)
    d.weapon_select.value = chosen[:2]  # fewer curves
    assert_dashboard_fresh(d)
    assert len(d.curves.data) == 2
    d.weapon_select.value = ()  # nothing chosen: no curve, an empty heatmap
    assert_dashboard_fresh(d)
    d.weapon_select.value = chosen
    assert_dashboard_fresh(d)


def test_annotation_appears_and_goes(catalogs):
    d = D.Dashboard(*catalogs, selection=("Bolter",))
    d.target_select.value = ("Land Raider Proteus", "Legionary (Tactical Squad)")
    d.focus_target.value = "Land Raider Proteus"  # a Bolter cannot hurt it: the curves say so
    assert_dashboard_fresh(d)
    assert len(d.curves.layout.annotations) == 1
    d.focus_target.value = "Legionary (Tactical Squad)"
    assert_dashboard_fresh(d)
    assert len(d.curves.layout.annotations) == 0


def test_added_targets_match(catalogs):
    d = D.Dashboard(*catalogs)
    d.setup.add_custom_target()
    assert_dashboard_fresh(d)
    d.focus_target.value = d.target_select.value[-1]
    assert_dashboard_fresh(d)


def test_update_keeps_trace_objects_and_computes_only_new_cells(catalogs):
    d = D.Dashboard(*catalogs)
    traces = (d.heatmap.data[0], *d.curves.data)
    cells = d.session.cells
    rows, cols = len(d.weapon_select.value), len(d.target_select.value)
    before = cells.computed
    d.metric.value = "std"  # a colour change: no cell computed
    d.focus_target.value = d.target_select.value[1]
    assert cells.computed == before
    d.bs.value = 3  # the attacker changed: every cell
    assert cells.computed == before + rows * cols
    d.bs.value = 4  # back to a state seen before: nothing
    assert cells.computed == before + rows * cols
    extra = next(a for a in d.target_select.options if a not in d.target_select.value)
    d.target_select.value = (*d.target_select.value, extra)  # one more column of cells
    assert cells.computed == before + rows * (cols + 1)
    assert d.heatmap.data[0] is traces[0] and all(a is b for a, b in zip(d.curves.data, traces[1:], strict=False))


def test_cache_equals_compare(catalogs):
    weapons, targets = catalogs
    wc = D.weapon_catalog(weapons)
    cache = ComparisonCache()
    attacker = AttackerProfile(BS=3, S=4, models=2)
    for w, t in (
        (wc.iloc[:12], targets.iloc[:5]),
        (wc.iloc[[3, 40, 0, 11]], targets.iloc[[6, 2, 9]]),
        (wc.iloc[100:130], targets),
        (wc.iloc[:0], targets),
    ):
        for half in (False, True):
            got, got_pmfs = cache.compare_with_distributions(w, t, attacker=attacker, half_range=half)
            want, want_pmfs = compare_with_distributions(w, t, attacker=attacker, half_range=half)
            pd.testing.assert_frame_equal(got, want)
            assert list(got_pmfs) == list(want_pmfs)
            for key, pmf in want_pmfs.items():
                np.testing.assert_array_equal(got_pmfs[key], pmf)
                assert not got_pmfs[key].flags.writeable


def test_session_specs_are_compute_view(catalogs):
    weapons, targets = catalogs
    wc = D.weapon_catalog(weapons)
    session = ShootingSession()
    state = D.DashboardState(weapons=tuple(wc.index[:20]), targets=tuple(targets["archetype"][:8]))
    for change in ({}, {"bs": 2}, {"metric": "p_all", "focus_weapon": wc.index[5]}, {"focus_target": "Rhino"}):
        s = D.DashboardState(**{**state.__dict__, **change})
        specs, fresh = session.specs(s, wc, targets).view(), compute_view(s, wc, targets)
        for name in ("heatmap", "curves", "distribution"):
            assert_same(getattr(specs, name).to_plotly_json(), getattr(fresh, name).to_plotly_json())


def _lines(n: int, size: int = 4, kind: str = "scatter") -> FigureSpec:
    traces = tuple(
        {"type": kind, "x": np.arange(size), "y": np.linspace(0, 1, size) * (i + 1), "name": f"t{i}"} for i in range(n)
    )
    return FigureSpec(traces, {"title": {"text": f"{n} traces"}, "xaxis": {"dtick": 1 if size < 5 else None}})


def test_live_figure_follows_any_spec():
    spec = _lines(3)
    widget = go.FigureWidget(figure_of(spec))
    live = LiveFigure(widget, spec)
    for new in (_lines(5), _lines(2, 7), _lines(2, 7, "bar"), _lines(0), _lines(4), FigureSpec((), {})):
        live.show(FigureSpec(new.traces, clean(new.layout)))
        assert_widget_is(widget, figure_of(live.spec))
    unknown = LiveFigure(go.FigureWidget())
    unknown.show(_lines(2))
    assert_widget_is(unknown.widget, figure_of(_lines(2)))


def test_flatten_and_same_value():
    assert flatten({"a": {"b": 1, "c": {"d": "x"}}, "e": [1, 2], "f": None}) == {"a.b": 1, "a.c.d": "x", "e": [1, 2]}
    assert same_value(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    assert not same_value(np.array([1.0]), np.array([1.0, 2.0]))
    assert not same_value(np.array([1]), [1])
    assert not same_value(np.array([1, 2]), np.array([1.0, 2.0]))  # a dtype change is sent


def test_frame_rows_are_to_dict_records(catalogs):
    weapons, targets = catalogs
    odd = pd.DataFrame({"a": [1, 2], "b": [np.nan, 0.5], "c": ["x", None], "d": [True, False]})
    for frame in (weapons.head(50), targets, odd, odd.iloc[:0], pd.DataFrame(index=[0, 1])):
        got, want = frame_rows(frame), frame.to_dict("records")
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert list(g) == list(w)
            for key in w:
                assert type(g[key]) is type(w[key]) and (g[key] == w[key] or (g[key] != g[key] and w[key] != w[key]))


def test_table_cells_formatted_once_per_value_and_type():
    frame = pd.DataFrame({"v": [True, 1, 1.0, 1.5, True], "p_any": [0.5, 0.5, 0.25, np.nan, 1e-9]}, dtype=object)
    html = table_html(frame)
    cells = [c.split("</td>")[0] for c in html.split("<td")[1:]]
    assert [c.split(">", 1)[1] for c in cells[::2]] == ["True", "1", "1", "1.5", "True"]
    assert [c.split(">", 1)[1] for c in cells[1::2]] == ["50%", "50%", "25%", "", "&lt; 0.01%"]
