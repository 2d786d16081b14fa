"""The 2nd edition's shooting inputs as one record of widgets: built in groups (the pickers, the attacker, its
modifiers, the targets, the view), read as a :class:`~praetor_analysis.views.dashboard.view.DashboardState`,
laid out as the shooting tab's panel. The :class:`~praetor_analysis.views.dashboard.app.Dashboard` holds it as
``inputs`` (``dashboard.bs`` reads ``dashboard.inputs.bs``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import ipywidgets as W

from praetor_analysis.views.controls import labelled
from praetor_analysis.views.dashboard.modifiers import REROLL_CHOICES
from praetor_analysis.views.dashboard.view import COVER_CHOICES, FNP_CHOICES, DashboardState
from praetor_analysis.views.figures import plots as F

__all__ = ["SHOOTING_INPUTS", "TARGET_MODEL_CHOICES", "ShootingInputs", "observed_inputs", "state_of_inputs"]

S = TypeVar("S")
_OUTPUTS = ("search", "status", "table")

_MODS = [("-1", -1), ("0", 0), ("+1", 1)]
_OWN_MODELS = "each target's own"
#: Target models: 0 keeps each target's own count (shown as words, not as a bare 0).
TARGET_MODEL_CHOICES: tuple[tuple[str, int], ...] = ((_OWN_MODELS, 0), *((str(n), n) for n in range(1, 31)))


def _pickers(targets: list[str]) -> dict[str, W.Widget]:
    """The search box, the weapon and target pickers."""
    return {
        "search": W.Text(
            description="Search",
            placeholder="weapon name, e.g. melta",
            tooltip="Type part of a weapon's name: its profiles join the list below (the chosen ones stay)",
        ),
        "weapon_select": W.SelectMultiple(
            description="Weapons",
            rows=10,
            layout=W.Layout(width="98%"),
            tooltip="The weapons compared (Ctrl- or Shift-click to choose several)",
        ),
        "target_select": W.SelectMultiple(
            options=targets,
            value=tuple(targets[:6]),
            description="Targets",
            rows=8,
            layout=W.Layout(width="98%"),
            tooltip="The target units (add any unit of the catalog or a statline in the 'Targets, setup' tab)",
        ),
    }


def _attacker() -> dict[str, W.Widget]:
    """The firing models: their BS and number, half range, charging."""
    return {
        "bs": labelled(W.IntSlider, "BS", "Ballistic Skill of the firing models", value=4, min=1, max=10),
        "attacker_models": labelled(
            W.IntSlider, "Firing models", "Models firing each weapon (one volley)", value=1, min=1, max=20
        ),
        "half_range": labelled(
            W.Checkbox, "Half range", "Within half range: Rapid Fire fires twice, Melta applies", value=False
        ),
        "charging": labelled(W.Checkbox, "Charging", "The attacker charged (melee: +1 Attack)", value=False),
    }


def _modifiers() -> dict[str, W.Widget]:
    """The attacker's re-rolls, +/-1 to hit and to wound, Preferred Enemy and Furious Charge."""
    reroll = "Re-roll failed {} rolls: none, rolls of 1, or every {}"
    return {
        "reroll_hits": labelled(W.Dropdown, "Re-roll hits", reroll.format("hit", "miss"), options=REROLL_CHOICES,
                                value="none"),
        "reroll_wounds": labelled(W.Dropdown, "Re-roll wounds", reroll.format("wound", "failure"),
                                  options=REROLL_CHOICES, value="none"),
        "to_hit": labelled(W.Dropdown, "To hit", "+1 or -1 to the hit roll", options=_MODS, value=0),
        "to_wound": labelled(W.Dropdown, "To wound", "+1 or -1 to the wound roll", options=_MODS, value=0),
        "preferred_enemy": labelled(
            W.Checkbox, "Preferred Enemy", "Re-roll hit and wound rolls of 1 against every target", value=False
        ),
        "furious_charge": labelled(W.Checkbox, "Furious Charge", "+1 Strength on the charge (melee)", value=False),
    }  # fmt: skip


def _targets() -> dict[str, W.Widget]:
    """The targets' models, cover and Feel No Pain."""
    return {
        "target_models": labelled(
            W.Dropdown,
            "Target models",
            "Models in each target unit: 'each target's own' keeps the count of the target list (a vehicle is one)",
            options=TARGET_MODEL_CHOICES,
            value=0,
        ),
        "cover": labelled(W.Dropdown, "Cover", "The targets' cover save", options=COVER_CHOICES, value="-"),
        "fnp": labelled(
            W.Dropdown, "Feel No Pain", "Feel No Pain given to every target that is not a vehicle", options=FNP_CHOICES
        ),
    }


def _view() -> dict[str, W.Widget]:
    """What the heatmap is coloured by, the focus pair, the status line and the table."""
    return {
        "metric": labelled(
            W.Dropdown,
            "Colour by",
            "What the heatmap's colours show",
            options=[(v, k) for k, v in F.METRIC_LABELS.items()],
            value="mean",
        ),
        "focus_target": labelled(W.Dropdown, "Focus target", "The target of the curves and the distribution"),
        "focus_weapon": labelled(W.Dropdown, "Focus weapon", "The weapon of the distribution on the right"),
        "status": W.HTML(),
        "table": W.HTML(),
    }


def state_of_inputs(inputs: Any, state: type[S]) -> S:
    """The ``state`` record (a dataclass) of a record of widgets named as its fields: each field the widget's
    value, ``weapons`` and ``targets`` the chosen ones of the pickers (both editions' shooting tabs)."""
    names = [f.name for f in fields(state) if f.name not in ("weapons", "targets")]  # type: ignore[arg-type]
    make: Callable[..., S] = state
    chosen = {"weapons": tuple(inputs.weapon_select.value), "targets": tuple(inputs.target_select.value)}
    return make(**chosen, **{name: getattr(inputs, name).value for name in names})


def observed_inputs(inputs: Any) -> tuple[W.ValueWidget, ...]:
    """The widgets of a record of shooting inputs whose change refreshes the view: all but the search box and
    the outputs (the status line, the table)."""
    return tuple(getattr(inputs, f.name) for f in fields(inputs) if f.name not in _OUTPUTS)


@dataclass(frozen=True, eq=False)
class ShootingInputs:
    """The shooting tab's widgets, one field each (the fields of :class:`DashboardState` among them, by name)."""

    search: W.Text
    weapon_select: W.SelectMultiple
    target_select: W.SelectMultiple
    bs: W.IntSlider
    attacker_models: W.IntSlider
    half_range: W.Checkbox
    charging: W.Checkbox
    reroll_hits: W.Dropdown
    reroll_wounds: W.Dropdown
    to_hit: W.Dropdown
    to_wound: W.Dropdown
    preferred_enemy: W.Checkbox
    furious_charge: W.Checkbox
    target_models: W.Dropdown
    cover: W.Dropdown
    fnp: W.Dropdown
    metric: W.Dropdown
    focus_target: W.Dropdown
    focus_weapon: W.Dropdown
    status: W.HTML
    table: W.HTML

    @classmethod
    def build(cls, targets: list[str]) -> ShootingInputs:
        """The widgets at their start values; ``targets`` are the target labels offered (the first six chosen)."""
        return cls(**_pickers(targets), **_attacker(), **_modifiers(), **_targets(), **_view())

    def state(self) -> DashboardState:
        """The inputs as a :class:`DashboardState`."""
        return state_of_inputs(self, DashboardState)

    def observed(self) -> tuple[W.ValueWidget, ...]:
        """The inputs a change of which refreshes the view (all but the search box and the outputs)."""
        return observed_inputs(self)

    def melee_modifiers(self) -> tuple[W.ValueWidget, ...]:
        """The inputs the melee tab reads too (the attacker's modifiers and charging)."""
        return (self.charging, self.furious_charge, self.preferred_enemy, self.reroll_hits, self.reroll_wounds,
                self.to_hit, self.to_wound)  # fmt: skip

    def panel(self) -> W.VBox:
        """The inputs laid out: the pickers, three columns of options, the view's pickers and the status line."""
        mods = W.HBox(
            [
                W.VBox([self.bs, self.attacker_models, self.half_range, self.charging]),
                W.VBox([self.reroll_hits, self.reroll_wounds, self.to_hit, self.to_wound]),
                W.VBox([self.target_models, self.cover, self.fnp, self.preferred_enemy, self.furious_charge]),
            ]
        )
        view = W.HBox([self.metric, self.focus_target, self.focus_weapon], layout=W.Layout(flex_flow="row wrap"))
        return W.VBox([self.search, self.weapon_select, self.target_select, mods, view, self.status])


SHOOTING_INPUTS = frozenset(f.name for f in fields(ShootingInputs))
"""The names of the shooting inputs (a dashboard reads each as an attribute of its own)."""
