"""An interactive dashboard: ipywidgets on top of :mod:`praetor_analysis.views.figures`.

The widgets are thin. Each figure is a ``go.FigureWidget`` built once; a change of any input calls
:meth:`Dashboard.refresh`, which reads the inputs into a :class:`DashboardState`, asks the pure function
:func:`compute_view` for the new figures, and copies their traces and layout into the FigureWidgets inside
``batch_update()``. No probability is computed in a callback.

Run it in a notebook (``Dashboard().widget``) or as a web app: ``voila notebooks/dashboard.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.markers.kinds import MARKER_DIAMETERS
from praetor_analysis.views import figures as F

__all__ = [
    "COVER_CHOICES",
    "DEFAULT_SELECTION",
    "FNP_CHOICES",
    "Dashboard",
    "DashboardState",
    "MarkerState",
    "View",
    "adjust_targets",
    "attacker_for",
    "compute_view",
    "marker_view",
    "weapon_catalog",
]

#: Weapons chosen when the dashboard opens (names in the shipped catalog).
DEFAULT_SELECTION: tuple[str, ...] = (
    "Bolter",
    "Heavy Bolter",
    "Autocannon",
    "Lascannon",
    "Plasma Gun",
    "Volkite Culverin",
)
COVER_CHOICES: tuple[str, ...] = ("-", "6+", "5+", "4+", "3+")
FNP_CHOICES: tuple[str, ...] = ("-", "6+", "5+", "4+", "3+")
_PROFILE_KEY = ["name", "Range", "Strength", "AP", "Type"]
_MARKERS = {f'{name} ({d:g}")': d for name, d in MARKER_DIAMETERS.items() if name != "Apocalyptic Mega-blast"}
"""The marker choices (one round marker each; the Mega-blast's zones are not offered)."""

CompareFn = Callable[..., pd.DataFrame]
DistFn = Callable[..., Mapping[tuple[str, str], np.ndarray]]


# ------------------------------------------------------------------------------------------ pure part
@dataclass(frozen=True)
class DashboardState:
    """Everything the figures depend on (the dashboard's inputs as plain values).

    Attributes:
        weapons: Row labels of the chosen weapons in the weapon catalog.
        targets: Archetype labels of the chosen targets.
        bs: Attacker's Ballistic Skill.
        attacker_models: Models firing each weapon.
        target_models: Models in each target unit (0: the archetype's default).
        cover: Cover save of the targets (``"-"`` for none).
        fnp: Feel No Pain of the targets (``"-"`` for none).
        half_range: Fire at half range (Rapid Fire twice, Melta).
        metric: Column of the heatmap.
        focus_target: Target of the curves and the distribution (default: the first chosen).
        focus_weapon: Weapon of the distribution (default: the first chosen).
    """

    weapons: tuple[Any, ...]
    targets: tuple[str, ...]
    bs: int = 4
    attacker_models: int = 1
    target_models: int = 0
    cover: str = "-"
    fnp: str = "-"
    half_range: bool = False
    metric: str = "mean"
    focus_target: str | None = None
    focus_weapon: Any = None


@dataclass(frozen=True)
class MarkerState:
    """Inputs of the marker tab: a grid formation and a blast marker.

    Attributes:
        models, base_mm, gap, columns: The grid (docs/scenario.md ``formation``).
        marker: A key of the marker sizes (``'Blast (3")'``...).
        bs: Firer's BS (subtracted from the scatter); ignored when ``indirect``.
        indirect: Barrage without line of sight (full 2D6 scatter).
        aim: Model the hole is placed over.
    """

    models: int = 10
    base_mm: float = 32.0
    gap: float = 2.0
    columns: int = 5
    marker: str = 'Blast (3")'
    bs: int = 4
    indirect: bool = False
    aim: int = 0


@dataclass(frozen=True)
class View:
    """What the dashboard shows for one state: the table and the figures."""

    table: pd.DataFrame
    heatmap: go.Figure
    curves: go.Figure
    distribution: go.Figure
    messages: tuple[str, ...] = field(default_factory=tuple)


def weapon_catalog(weapons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Distinct ranged and melee profiles of the weapon catalog (first definition kept), index kept."""
    if weapons is None:
        from praetor_analysis.catalog import load_weapons

        weapons = load_weapons()
    return weapons.drop_duplicates(_PROFILE_KEY)


def attacker_for(bs: int, models: int) -> dict[str, Any]:
    """The attacker block: the comparison's default Legionary with ``BS`` and ``models`` changed."""
    from praetor_analysis.analysis.compare import DEFAULT_ATTACKER

    return {**DEFAULT_ATTACKER, "BS": int(bs), "models": int(models)}


def adjust_targets(targets: pd.DataFrame, *, models: int = 0, cover: str = "-", fnp: str = "-") -> pd.DataFrame:
    """A copy of target rows with a model count (0 keeps each row's), a Cover save and Feel No Pain.

    Vehicles keep one model; Feel No Pain is added to a ``rules`` column (``;``-separated), which the
    comparison reads.
    """
    out = targets.copy()
    vehicle = out.get("Unit Type", pd.Series("", index=out.index)).astype(str).str.contains("Vehicle")
    if models > 0:
        out.loc[~vehicle, "models"] = int(models)
    out["Cover"] = "" if cover in ("", "-") else cover
    rules = out["rules"].astype(str) if "rules" in out else pd.Series("", index=out.index)
    if fnp not in ("", "-"):
        extra = f"Feel No Pain ({fnp})"
        with_fnp = rules.where(rules == "", rules + ";") + extra
        rules = with_fnp.where(~vehicle, rules)
    out["rules"] = rules
    return out


def _label(row: Mapping[str, Any]) -> str:
    where = f"{row['name']} ({row.get('faction', '')})"
    return f"{where} {row.get('Range', '')} S{row.get('Strength', '')} AP{row.get('AP', '')}"


def compute_view(
    state: DashboardState,
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    compare_fn: CompareFn | None = None,
    distributions_fn: DistFn | None = None,
) -> View:
    """The table and figures for a state (pure: the catalogs and the engine in, figures out).

    Args:
        state: The inputs.
        weapons: The weapon catalog the state's ``weapons`` labels index.
        targets: The target catalog (``archetype`` labels).
        compare_fn, distributions_fn: :func:`compare.compare` and :func:`compare.compare_distributions`
            (injectable for tests).
    """
    one_pass: dict[tuple[str, str], np.ndarray] | None = None
    if compare_fn is None and distributions_fn is None:
        from praetor_analysis.analysis.compare import compare_with_distributions

        def compare_fn(w: pd.DataFrame, t: pd.DataFrame, **kw: Any) -> pd.DataFrame:
            nonlocal one_pass
            table, one_pass = compare_with_distributions(w, t, **kw)
            return table

        def distributions_fn(w: pd.DataFrame, t: pd.DataFrame, **kw: Any) -> Mapping[tuple[str, str], np.ndarray]:
            return one_pass or {}  # every cell's pmf, from the same pass as the table
    elif compare_fn is None or distributions_fn is None:
        from praetor_analysis.analysis.compare import compare, compare_distributions

        compare_fn = compare_fn or compare
        distributions_fn = distributions_fn or compare_distributions
    w = weapons.loc[[i for i in state.weapons if i in weapons.index]]
    t = targets[targets["archetype"].isin(state.targets)]
    t = adjust_targets(t, models=state.target_models, cover=state.cover, fnp=state.fnp)
    attacker = attacker_for(state.bs, state.attacker_models)
    messages: list[str] = []
    if w.empty or t.empty:
        table = pd.DataFrame(
            columns=[
                "weapon",
                "weapon_id",
                "target",
                "target_id",
                "measure",
                "mean",
                "std",
                "p_any",
                "p_all",
                "p_pinned",
                "mean_per_100pts",
                "error",
                "faction",
            ]
        )
        messages.append("Choose at least one weapon and one target.")
    else:
        table = compare_fn(w, t, attacker=attacker, half_range=state.half_range)
    heatmap = F.efficiency_heatmap(table, F.HeatmapOptions(metric=state.metric))
    focus_t = (
        state.focus_target
        if state.focus_target in set(t["archetype"])
        else (t["archetype"].iloc[0] if len(t) else None)
    )
    pmfs: dict[str, np.ndarray] = {}
    dist_fig: go.Figure | None = None
    measure = "casualties"
    if focus_t is not None and not w.empty:
        one = t[t["archetype"] == focus_t]
        dists = distributions_fn(w, one, attacker=attacker, half_range=state.half_range)
        part = table[table["target"] == focus_t]
        if len(part):
            measure = str(part["measure"].iloc[0])
        labels = F.weapon_labels(part) if len(part) else pd.Series(dtype=str)
        tid = part["target_id"].iloc[0] if len(part) else next(iter({k[1] for k in dists}), None)
        for idx, rec in part.iterrows():
            pmf = dists.get((rec["weapon_id"], tid))
            if pmf is None:
                messages.append(f"{rec['weapon']} vs {focus_t}: {rec['error'] or 'no distribution'}")
                continue
            pmfs[_unescape(labels[idx])] = pmf
        unit = "hull points" if measure == "hull_points" else "models"
        wanted = state.focus_weapon if state.focus_weapon in set(w.index) else w.index[0]
        pos = list(w.index).index(wanted)
        wid_rows = part.iloc[pos : pos + 1] if pos < len(part) else part.iloc[0:0]
        if len(wid_rows) and (wid_rows["weapon_id"].iloc[0], tid) in dists:
            rec = wid_rows.iloc[0]
            dist_fig = F.distribution_figure(
                dists[(rec["weapon_id"], tid)],
                F.DistributionOptions(
                    title=f"{rec['weapon']} vs {focus_t}", outcome=measure.replace("_", " "), unit=unit, name="P(X = k)"
                ),
            )
    if dist_fig is None:
        dist_fig = F.distribution_figure([1.0], F.DistributionOptions(title="No weapon chosen"))
    curves = F.at_least_curves(
        pmfs,
        F.AtLeastOptions(
            target=focus_t,
            outcome=measure.replace("_", " "),
            unit="hull points" if measure == "hull_points" else "models",
        ),
    )
    return View(table=table, heatmap=heatmap, curves=curves, distribution=dist_fig, messages=tuple(messages))


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)


def marker_view(state: MarkerState) -> tuple[go.Figure, go.Figure]:
    """The formation picture and the distribution of models hit by one marker (exact, :mod:`markers`)."""
    from praetor_analysis.markers.blasts import marker_pmf
    from praetor_analysis.markers.formation import Formation

    formation = Formation.grid(state.models, state.base_mm, state.gap, max(1, state.columns))
    diameter = _MARKERS.get(state.marker, 3.0)
    aim = min(max(state.aim, 0), max(state.models - 1, 0))
    pmf = marker_pmf(formation, diameter, bs=0 if state.indirect else state.bs, indirect=state.indirect, aim=aim)
    centre = formation.positions[aim] if state.models else np.zeros(2)
    reach = 12.0 if state.indirect else float(max(12 - state.bs, 0))
    picture = F.formation_figure(
        formation.positions,
        formation.base_radius,
        diameter,
        centre,
        F.FormationOptions(title=f"{state.marker} over model {aim}", scatter_max=reach),
    )
    dist = F.distribution_figure(
        pmf, F.DistributionOptions(title=f"Models hit by one {state.marker}", outcome="models hit", unit="models")
    )
    return picture, dist


def _sync(widget: go.FigureWidget, fig: go.Figure) -> None:
    """Copy a figure's traces and layout into a FigureWidget (same traces updated in place; only the
    properties that changed are sent, and the layout only when it changed)."""
    layout = fig.layout.to_plotly_json()
    with widget.batch_update():
        same = len(widget.data) == len(fig.data) and all(
            a.type == b.type for a, b in zip(widget.data, fig.data, strict=False)
        )
        if same:
            for old, new in zip(widget.data, fig.data, strict=False):
                new_json = new.to_plotly_json()
                old_json = old.to_plotly_json()
                changed = {k: v for k, v in new_json.items() if not _equal(old_json.get(k), v)}
                if changed:
                    old.update(changed, overwrite=True)
        else:
            widget.data = ()
            if fig.data:
                widget.add_traces(list(fig.data))
        if getattr(widget, "_praetor_layout", None) != layout:
            widget.layout.shapes = ()
            widget.layout.update(layout, overwrite=True)
            widget._praetor_layout = layout  # what this widget shows now (private attribute)


def _equal(a: Any, b: Any) -> bool:
    """Plotly property equality that copes with numpy arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            a is not None
            and b is not None
            and np.shape(a) == np.shape(b)
            and bool(np.all(np.asarray(a) == np.asarray(b)))
        )
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return False


# -------------------------------------------------------------------------------------------- widgets
class Dashboard:
    """The dashboard. ``widget`` is the root ipywidget; the figures are ``heatmap``, ``curves``,
    ``distribution``, ``formation`` and ``marker_distribution`` (FigureWidgets).

    Args:
        weapons: Weapon catalog (default :func:`catalog.load_weapons`, distinct profiles).
        targets: Target catalog (default :func:`catalog.load_targets`).
        selection: Weapon names chosen at start.
        compare_fn, distributions_fn: The engine functions (injectable for tests).
    """

    def __init__(
        self,
        weapons: pd.DataFrame | None = None,
        targets: pd.DataFrame | None = None,
        *,
        selection: Sequence[str] = DEFAULT_SELECTION,
        compare_fn: CompareFn | None = None,
        distributions_fn: DistFn | None = None,
    ) -> None:
        if targets is None:
            from praetor_analysis.catalog import load_targets

            targets = load_targets()
        self.weapons = weapon_catalog(weapons)
        self.targets = targets
        self._compare_fn, self._dist_fn = compare_fn, distributions_fn
        self._quiet = False
        self._labels = {i: _label(r) for i, r in zip(self.weapons.index, self.weapons.to_dict("records"), strict=False)}
        names = self.weapons["name"].str.lower()
        chosen = [int(self.weapons.index[names == n.lower()][0]) for n in selection if (names == n.lower()).any()]
        arche = list(targets["archetype"])

        self.search = W.Text(description="Search", placeholder="weapon name, e.g. melta")
        self.weapon_select = W.SelectMultiple(description="Weapons", rows=10, layout=W.Layout(width="98%"))
        self.target_select = W.SelectMultiple(options=arche, value=tuple(arche[:6]), description="Targets", rows=8)
        self.bs = W.IntSlider(value=4, min=1, max=10, description="BS")
        self.attacker_models = W.IntSlider(value=1, min=1, max=20, description="Firing models")
        self.target_models = W.IntSlider(
            value=0, min=0, max=30, description="Target models", tooltip="0 keeps each target's own count"
        )
        self.cover = W.Dropdown(options=COVER_CHOICES, value="-", description="Cover")
        self.fnp = W.Dropdown(options=FNP_CHOICES, value="-", description="Feel No Pain")
        self.half_range = W.Checkbox(value=False, description="Half range")
        self.metric = W.Dropdown(
            options=[(v, k) for k, v in F.METRIC_LABELS.items()], value="mean", description="Colour by"
        )
        self.focus_target = W.Dropdown(description="Focus target")
        self.focus_weapon = W.Dropdown(description="Focus weapon")
        wide = {"description_width": "initial"}
        for w in (self.attacker_models, self.target_models, self.focus_target, self.focus_weapon, self.metric):
            w.style = wide
        self.status = W.HTML()
        self.table = W.HTML()
        self._update_weapon_options(selected=chosen)
        self._update_focus_options()

        view = self._view()
        self.heatmap = go.FigureWidget(view.heatmap)
        self.curves = go.FigureWidget(view.curves)
        self.distribution = go.FigureWidget(view.distribution)
        for widget, fig in (
            (self.heatmap, view.heatmap),
            (self.curves, view.curves),
            (self.distribution, view.distribution),
        ):
            widget._praetor_layout = fig.layout.to_plotly_json()  # what _sync compares with
        self._show_table(view)

        self.marker_inputs = {
            "models": W.IntSlider(value=10, min=1, max=30, description="Models"),
            "base_mm": W.Dropdown(options=[25.0, 32.0, 40.0, 60.0], value=32.0, description="Base (mm)"),
            "gap": W.FloatSlider(value=2.0, min=0.0, max=4.0, step=0.5, description='Gap (")'),
            "columns": W.IntSlider(value=5, min=1, max=10, description="Columns"),
            "marker": W.Dropdown(options=list(_MARKERS), value='Blast (3")', description="Marker"),
            "bs": W.IntSlider(value=4, min=1, max=10, description="BS"),
            "indirect": W.Checkbox(value=False, description="Indirect barrage"),
            "aim": W.IntSlider(
                value=0, min=0, max=29, description="Aim at model", style={"description_width": "initial"}
            ),
        }
        picture, mdist = marker_view(self.marker_state())
        self.formation = go.FigureWidget(picture)
        self.marker_distribution = go.FigureWidget(mdist)

        for w in (
            self.weapon_select,
            self.target_select,
            self.bs,
            self.attacker_models,
            self.target_models,
            self.cover,
            self.fnp,
            self.half_range,
            self.metric,
            self.focus_target,
            self.focus_weapon,
        ):
            w.observe(self._on_change, names="value")
        self.search.observe(self._on_search, names="value")
        for w in self.marker_inputs.values():
            w.observe(self._on_marker, names="value")

        inputs = W.VBox(
            [
                self.search,
                self.weapon_select,
                self.target_select,
                W.HBox(
                    [
                        W.VBox([self.bs, self.attacker_models, self.half_range]),
                        W.VBox([self.target_models, self.cover, self.fnp]),
                    ]
                ),
                W.HBox([self.metric, self.focus_target, self.focus_weapon]),
                self.status,
            ]
        )
        compare_tab = W.VBox([inputs, self.heatmap, W.HBox([self.curves, self.distribution]), self.table])
        marker_tab = W.VBox(
            [
                W.HBox([W.VBox(list(self.marker_inputs.values())[:4]), W.VBox(list(self.marker_inputs.values())[4:])]),
                W.HBox([self.formation, self.marker_distribution]),
            ]
        )
        self.widget = W.Tab(children=[compare_tab, marker_tab])
        self.widget.set_title(0, "Weapons x targets")
        self.widget.set_title(1, "Marker scatter")

    # --- reading the inputs ----------------------------------------------------------------------
    def state(self) -> DashboardState:
        """The current inputs as a :class:`DashboardState`."""
        return DashboardState(
            weapons=tuple(self.weapon_select.value),
            targets=tuple(self.target_select.value),
            bs=self.bs.value,
            attacker_models=self.attacker_models.value,
            target_models=self.target_models.value,
            cover=self.cover.value,
            fnp=self.fnp.value,
            half_range=self.half_range.value,
            metric=self.metric.value,
            focus_target=self.focus_target.value,
            focus_weapon=self.focus_weapon.value,
        )

    def marker_state(self) -> MarkerState:
        """The marker tab's inputs as a :class:`MarkerState`."""
        return MarkerState(**{k: w.value for k, w in self.marker_inputs.items()})

    # --- callbacks: read, call the pure functions, assign ---------------------------------------------
    def _view(self) -> View:
        return compute_view(
            self.state(), self.weapons, self.targets, compare_fn=self._compare_fn, distributions_fn=self._dist_fn
        )

    def refresh(self) -> View:
        """Recompute the view from the inputs and update every figure in place."""
        view = self._view()
        _sync(self.heatmap, view.heatmap)
        _sync(self.curves, view.curves)
        _sync(self.distribution, view.distribution)
        self._show_table(view)
        return view

    def _show_table(self, view: View) -> None:
        from praetor_analysis.views.report import table_html

        shown = ["weapon", "target", "measure", "mean", "std", "p_any", "p_all", "p_pinned", "not_modelled", "error"]
        self.table.value = table_html(view.table, shown)
        from html import escape

        self.status.value = "<br>".join(escape(m) for m in view.messages)

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] in (self.weapon_select, self.target_select):
            self._update_focus_options()
        self.refresh()

    def _on_search(self, change: dict[str, Any]) -> None:
        self._update_weapon_options(selected=list(self.weapon_select.value))

    def _on_marker(self, change: dict[str, Any]) -> None:
        picture, dist = marker_view(self.marker_state())
        _sync(self.formation, picture)
        _sync(self.marker_distribution, dist)

    def _update_weapon_options(self, selected: Sequence[Any]) -> None:
        """Options: the chosen weapons first, then up to 200 matches of the search text."""
        text = self.search.value.strip().lower()
        names = self.weapons["name"].str.lower()
        matches = self.weapons.index[names.str.contains(text, regex=False)] if text else self.weapons.index
        keep = list(dict.fromkeys([*selected, *list(matches[:200])]))
        self._quiet = True
        try:
            self.weapon_select.options = [(self._labels[i], i) for i in keep]
            self.weapon_select.value = tuple(selected)
        finally:
            self._quiet = False

    def _update_focus_options(self) -> None:
        targets = list(self.target_select.value)
        weapons = [(self._labels[i], i) for i in self.weapon_select.value]
        for dd, opts in ((self.focus_target, targets), (self.focus_weapon, weapons)):
            values = [o[1] if isinstance(o, tuple) else o for o in opts]
            current = dd.value if dd.value in values else (values[0] if values else None)
            self._quiet = True
            try:
                dd.options = opts
                dd.value = current
            finally:
                self._quiet = False
