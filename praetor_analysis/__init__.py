"""praetor_analysis: exact probabilities for Warhammer: The Horus Heresy (2nd edition).

Every distribution is an immutable value object: each operation returns a new one.
The engine imports numpy, scipy and pandas only; plotly and ipywidgets stay in the figure, dashboard
and report modules.
"""

from praetor_analysis.analysis.unit_attack import calc, calc_json
from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options
from praetor_analysis.engine.chain import resolve, resolve_sequence, resolve_volley, unsaved_distribution
from praetor_analysis.engine.volley import TargetState, Volley, VolleyResult
from praetor_analysis.prob.dice import DiceExpr, parse_dice
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import ProfileError, Unit, Weapon, unit_from_mapping
from praetor_analysis.profiles.rule_tokens import Rule
from praetor_analysis.profiles.weapon_type import parse_weapon_type
from praetor_analysis.scenario.calc import ScenarioError

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
    "load_datasheet_models",
    "load_datasheets",
    "load_wargear_options",
    "parse_dice",
    "parse_weapon_type",
    "resolve",
    "resolve_sequence",
    "resolve_volley",
    "unit_from_mapping",
    "unsaved_distribution",
]
