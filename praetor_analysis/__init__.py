"""praetor_analysis: exact probabilities for Warhammer: The Horus Heresy (2nd edition).

Every distribution is an immutable value object: each operation returns a new one.
The engine imports numpy, scipy and pandas only; plotly and ipywidgets stay in the figure, dashboard
and report modules.
"""

from .chain import TargetState, Volley, VolleyResult, resolve, resolve_sequence, resolve_volley, unsaved_distribution
from .dice import DiceExpr, parse_dice
from .dist import Dist
from .profiles import ProfileError, Rule, Unit, Weapon, parse_weapon_type, unit_from_mapping
from .scenario import ScenarioError, calc, calc_json

__all__ = [
    "DiceExpr",
    "Dist",
    "ProfileError",
    "Rule",
    "ScenarioError",
    "TargetState",
    "Unit",
    "Volley",
    "VolleyResult",
    "Weapon",
    "calc",
    "calc_json",
    "parse_dice",
    "parse_weapon_type",
    "resolve",
    "resolve_sequence",
    "resolve_volley",
    "unit_from_mapping",
    "unsaved_distribution",
]
