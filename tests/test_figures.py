"""Figures: titles, labelled axes, hover text, and data equal to the input."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

go = pytest.importorskip("plotly.graph_objects")

from praetor_analysis.prob.dist import Dist
from praetor_analysis.views.figures import plots as F

XSS = "<script>alert(1)</script>"


def comparison(weapons=("Bolter", "Lascannon", XSS), targets=("Legionary", "Rhino")) -> pd.DataFrame:
    """A small comparison table in the compare.COLUMNS shape, with known numbers."""
    rows = []
    for i, w in enumerate(weapons):
        for j, t in enumerate(targets):
            vehicle = t == "Rhino"
            rows.append(
                {
                    "weapon": w,
                    "weapon_id": f"w{i}",
                    "faction": "Horus Heresy",
                    "Range": '24"',
                    "Strength": "4",
                    "AP": "5",
                    "Type": "Rapid Fire",
                    "target": t,
                    "target_id": f"t{j}",
                    "models": 1 if vehicle else 10,
                    "measure": "hull_points" if vehicle else "casualties",
                    "mean": 0.1 * (i + 1) + j,
                    "std": 0.5,
                    "p_any": 0.05 * (i + 1),
                    "p_all": 0.001,
                    "p_pinned": np.nan,
                    "points": 10.0 * (i + 1) if i != 1 else np.nan,
                    "mean_per_100pts": (0.1 * (i + 1) + j) / (10.0 * (i + 1)) * 100 if i != 1 else np.nan,
                    "not_modelled": "",
                    "error": "",
                }
            )
    return pd.DataFrame(rows)


def titled(fig: go.Figure) -> None:
    assert fig.layout.title.text
    assert fig.layout.xaxis.title.text and "(" in fig.layout.xaxis.title.text  # a unit in brackets
    assert fig.layout.yaxis.title.text
    for trace in fig.data:
        assert trace.hovertemplate, f"trace {trace.name!r} has no hover template"


def test_distribution_bars_and_at_least_line():
    d = Dist([0.1, 0.2, 0.3, 0.4])
    fig = F.distribution_figure(d, F.DistributionOptions(title="Bolter vs Legionary"))
    titled(fig)
    bars, line = fig.data
    np.testing.assert_array_equal(bars.y, d.probabilities)
    np.testing.assert_array_equal(bars.x, [0, 1, 2, 3])
    np.testing.assert_allclose(line.y, [1.0, 0.9, 0.7, 0.4], rtol=1e-15)
    assert line.yaxis == "y2" and fig.layout.yaxis2.overlaying == "y"
    assert "mean 2" in fig.layout.title.text
    assert ".1%" in bars.hovertemplate  # chances as percentages


def test_distribution_accepts_result_mapping_and_keeps_tiny_tails():
    pmf = [1 - 1e-20, 0.0, 1e-20]
    fig = F.distribution_figure({"pmf": pmf, "mean": 2e-20})
    assert fig.data[1].y[2] == 1e-20  # reverse cumulative sum, not 1 - cdf


def test_heatmap_matches_table_and_escapes_names():
    df = comparison()
    fig = F.efficiency_heatmap(df)
    titled(fig)
    hm = fig.data[0]
    assert list(hm.x) == ["Legionary", "Rhino"]
    assert list(hm.y) == ["Bolter", "Lascannon", "&lt;script&gt;alert(1)&lt;/script&gt;"]
    z = np.asarray(hm.z, dtype=float)
    np.testing.assert_allclose(z, df.pivot_table(index="weapon_id", columns="target_id", values="mean").to_numpy())
    assert "mean = 1.1 hull points" in hm.customdata[0][1]
    assert all(XSS not in str(v) for v in (hm.y, hm.customdata, fig.layout.title.text))


def test_heatmap_blank_cell_for_error_and_metric_check():
    df = comparison()
    df.loc[0, ["mean", "p_any"]] = np.nan
    df.loc[0, "error"] = "Range: <bad>"
    fig = F.efficiency_heatmap(df, F.HeatmapOptions(metric="p_any"))
    assert np.isnan(np.asarray(fig.data[0].z, dtype=float)[0, 0])
    assert "error: Range: &lt;bad&gt;" in fig.data[0].customdata[0][0]
    assert "P(at least one)" in fig.data[0].colorbar.title.text
    with pytest.raises(ValueError, match="metric"):
        F.efficiency_heatmap(df, F.HeatmapOptions(metric="nope"))


def test_weapon_labels_disambiguate_same_name():
    df = comparison(weapons=("Bolter", "Bolter"))
    df.loc[df["weapon_id"] == "w1", "faction"] = "Solar Auxilia"
    labels = set(F.weapon_labels(df))
    assert labels == {"Bolter [Horus Heresy]", "Bolter [Solar Auxilia]"}


def test_at_least_curves_one_line_per_weapon():
    pmfs = {"Bolter": [0.5, 0.5], "Lascannon": np.array([0.2, 0.3, 0.5]), XSS: Dist([0.0, 1.0])}
    fig = F.at_least_curves(pmfs, F.AtLeastOptions(target="Terminators"))
    titled(fig)
    assert [t.name for t in fig.data] == ["Bolter", "Lascannon", "&lt;script&gt;alert(1)&lt;/script&gt;"]
    np.testing.assert_allclose(fig.data[1].y, [0.8, 0.5])
    assert list(fig.data[1].x) == [1, 2]
    assert "Terminators" in fig.layout.title.text


def test_points_bars_skip_uncosted_weapons():
    df = comparison()
    fig = F.points_efficiency_bars(df)
    titled(fig)
    assert len(fig.data) == 2  # one trace per target
    for trace in fig.data:
        assert "Lascannon" not in list(trace.y)  # no points cost
    assert "no points cost: Lascannon" in fig.layout.title.text
    legion = fig.data[0]
    expected = df[(df.target == "Legionary") & df.mean_per_100pts.notna()]["mean_per_100pts"].to_numpy()
    np.testing.assert_allclose(legion.x, expected)


def test_formation_picture():
    pos = np.array([[0.0, 0.0], [2.0, 0.0], [10.0, 0.0]])
    fig = F.formation_figure(pos, 0.5, 3.0, (0.0, 0.0), F.FormationOptions(scatter_max=8.0))
    titled(fig)
    assert len(fig.layout.shapes) == 3
    assert [s.fillcolor for s in fig.layout.shapes] == ["#E45756", "#E45756", "#9ECAE9"]  # 2.0 <= 1.5 + 0.5
    models = fig.data[0]
    np.testing.assert_array_equal(models.x, pos[:, 0])
    ring = next(t for t in fig.data if t.name.startswith("scatter range"))
    np.testing.assert_allclose(np.hypot(ring.x, ring.y), 8.0)
    marker = next(t for t in fig.data if t.name.startswith("marker"))
    np.testing.assert_allclose(np.hypot(marker.x, marker.y), 1.5)
    assert fig.layout.yaxis.scaleanchor == "x"
    assert "2 under the marker" in fig.layout.title.text


def test_vehicle_outcome_bars():
    results = {
        "Lascannon": {
            "glancing": {"pmf": [0.8, 0.2]},
            "penetrating": {"pmf": [0.6, 0.4]},
            "wrecked": 0.1,
            "hull_points": {"pmf": [0.5, 0.5]},
        },
        "Bolter": {"glancing": {"pmf": [1.0]}, "penetrating": {"pmf": [1.0]}, "wrecked": 0.0},
    }
    fig = F.vehicle_outcome_bars(results, F.VehicleOptions(target="Rhino"))
    assert fig.layout.title.text == "Vehicle outcomes against Rhino"
    assert fig.layout.yaxis.title.text and fig.layout.xaxis.title.text
    glance, pen, wreck = fig.data
    np.testing.assert_allclose(glance.y, [0.2, 0.0])
    np.testing.assert_allclose(pen.y, [0.4, 0.0])
    np.testing.assert_allclose(wreck.y, [0.1, 0.0])
    assert all(t.hovertemplate for t in fig.data)


def test_figures_never_show(monkeypatch):
    monkeypatch.setattr(go.Figure, "show", lambda *a, **k: pytest.fail("show() called"))
    F.distribution_figure([1.0])
    F.efficiency_heatmap(comparison())
    F.at_least_curves({"a": [1.0]})
    F.points_efficiency_bars(comparison())
    F.formation_figure([[0, 0]], 0.5, 3, (0, 0))
    F.vehicle_outcome_bars({})


def test_engine_does_not_import_plotly_or_widgets():
    code = (
        "import sys, praetor_analysis.analysis.compare, praetor_analysis.scenario.calc, praetor_analysis.catalog; "
        "bad = [m for m in ('plotly', 'ipywidgets') if m in sys.modules]; print(bad); sys.exit(bool(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
