"""praetor_analysis: exact probabilities for Warhammer: The Horus Heresy (2nd and 3rd editions).

Every distribution is an immutable value object: each operation returns a new one. The package is
layered (``prob`` -> ``rules`` -> ``profiles`` -> ``engine`` -> ``markers`` -> ``bsdata`` -> ``catalog`` ->
``vehicles`` -> ``melee`` -> ``units`` -> ``scenario`` -> ``analysis`` -> ``views``); this module re-exports what a
notebook needs, lazily: ``import praetor_analysis`` loads nothing heavy, and plotly or ipywidgets only
when ``figures`` is first used.

Example::

    import praetor_analysis as pa

    result = pa.calc({"attacker": {"BS": 4}, "weapon": {"Strength": 9, "AP": 2, "Type": "Heavy 1, Lance"},
                      "target": {"models": 5, "T": 4, "W": 1, "Save": "2+"}})
    result["casualties"]["mean"]

The 3rd edition is one field, ``"edition": "hh3"`` (docs/editions.md); its typed API is ``Hh3Weapon``,
``Hh3Unit``, ``Hh3Volley``, ``Hh3Context`` and ``resolve_hh3`` -> ``Hh3Result``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    # errors
    "PraetorError": "praetor_analysis.errors",
    "ProfileError": "praetor_analysis.errors",
    "ScenarioError": "praetor_analysis.errors",
    # numbers
    "Dist": "praetor_analysis.prob.dist",
    "DiceExpr": "praetor_analysis.prob.dice",
    "parse_dice": "praetor_analysis.prob.dice",
    # profiles
    "Rule": "praetor_analysis.profiles.rule_tokens",
    "Unit": "praetor_analysis.profiles.records",
    "Weapon": "praetor_analysis.profiles.records",
    "unit_from_mapping": "praetor_analysis.profiles.records",
    "parse_weapon_type": "praetor_analysis.profiles.weapon_type",
    # the engine
    "Volley": "praetor_analysis.engine.volley",
    "TargetState": "praetor_analysis.engine.volley",
    "VolleyResult": "praetor_analysis.engine.volley",
    "resolve": "praetor_analysis.engine.chain",
    "resolve_volley": "praetor_analysis.engine.chain",
    "resolve_sequence": "praetor_analysis.engine.chain",
    "unsaved_distribution": "praetor_analysis.engine.chain",
    "Hh3Context": "praetor_analysis.engine.hh3",
    "Hh3Result": "praetor_analysis.engine.hh3",
    "Hh3Volley": "praetor_analysis.engine.hh3",
    "resolve_hh3": "praetor_analysis.engine.hh3",
    "Hh3Unit": "praetor_analysis.profiles.hh3",
    "Hh3Weapon": "praetor_analysis.profiles.hh3",
    "combat": "praetor_analysis.melee.combat",
    "resolve_combat": "praetor_analysis.melee.combat",
    # the JSON contract
    "calc": "praetor_analysis.scenario.calc",
    "calc_json": "praetor_analysis.scenario.calc",
    "calc_many": "praetor_analysis.scenario.calc",
    "calc_frame": "praetor_analysis.scenario.frame",
    # catalogs
    "load_weapons": "praetor_analysis.catalog",
    "load_units": "praetor_analysis.catalog",
    "load_targets": "praetor_analysis.catalog",
    "load_rule_names": "praetor_analysis.catalog",
    "load_token_corrections": "praetor_analysis.catalog",
    "load_provenance": "praetor_analysis.catalog",
    "load_datasheets": "praetor_analysis.catalog",
    "load_datasheet_models": "praetor_analysis.catalog",
    "load_wargear_options": "praetor_analysis.catalog",
    # analysis
    "AttackerProfile": "praetor_analysis.analysis.attacker",
    "compare": "praetor_analysis.analysis.compare",
    "compare_distributions": "praetor_analysis.analysis.compare",
    "compare_with_distributions": "praetor_analysis.analysis.compare",
    "filter_weapons": "praetor_analysis.analysis.compare",
    "analyse_roster": "praetor_analysis.analysis.list_analysis",
    "build_loadout": "praetor_analysis.units.datasheet",
    "rate_roster": "praetor_analysis.analysis.unit_ratings",
    "wargear_value": "praetor_analysis.analysis.wargear",
    "read_roster": "praetor_analysis.bsdata.roster",
    "load_list": "praetor_analysis.analysis.army_list",
    "matchup": "praetor_analysis.analysis.list_matchup",
    "matchup_pairs": "praetor_analysis.analysis.list_matchup",
    "fire_plan": "praetor_analysis.analysis.fire_plan",
}
#: Modules re-exported as attributes (``pa.figures.distribution_figure(...)``).
_MODULES: dict[str, str] = {
    "figures": "praetor_analysis.views.figures.plots",
    "report": "praetor_analysis.views.report.page",
    "dashboard": "praetor_analysis.views.dashboard.app",
}

__all__ = [
    "AttackerProfile",
    "DiceExpr",
    "Dist",
    "Hh3Context",
    "Hh3Result",
    "Hh3Unit",
    "Hh3Volley",
    "Hh3Weapon",
    "PraetorError",
    "ProfileError",
    "Rule",
    "ScenarioError",
    "TargetState",
    "Unit",
    "Volley",
    "VolleyResult",
    "Weapon",
    "analyse_roster",
    "build_loadout",
    "calc",
    "calc_frame",
    "calc_json",
    "calc_many",
    "combat",
    "compare",
    "compare_distributions",
    "compare_with_distributions",
    "dashboard",
    "figures",
    "filter_weapons",
    "fire_plan",
    "load_datasheet_models",
    "load_datasheets",
    "load_list",
    "load_provenance",
    "load_rule_names",
    "load_targets",
    "load_token_corrections",
    "load_units",
    "load_wargear_options",
    "load_weapons",
    "matchup",
    "matchup_pairs",
    "parse_dice",
    "parse_weapon_type",
    "rate_roster",
    "read_roster",
    "report",
    "resolve",
    "resolve_combat",
    "resolve_hh3",
    "resolve_sequence",
    "resolve_volley",
    "unit_from_mapping",
    "unsaved_distribution",
    "wargear_value",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
    elif name in _MODULES:
        value = importlib.import_module(_MODULES[name])
    else:
        raise AttributeError(f"module 'praetor_analysis' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.analysis.army_list import load_list
    from praetor_analysis.analysis.attacker import AttackerProfile
    from praetor_analysis.analysis.compare import (
        compare,
        compare_distributions,
        compare_with_distributions,
        filter_weapons,
    )
    from praetor_analysis.analysis.fire_plan import fire_plan
    from praetor_analysis.analysis.list_analysis import analyse_roster
    from praetor_analysis.analysis.list_matchup import matchup, matchup_pairs
    from praetor_analysis.analysis.unit_ratings import rate_roster
    from praetor_analysis.analysis.wargear import wargear_value
    from praetor_analysis.bsdata.roster import read_roster
    from praetor_analysis.catalog import (
        load_datasheet_models,
        load_datasheets,
        load_provenance,
        load_rule_names,
        load_targets,
        load_token_corrections,
        load_units,
        load_wargear_options,
        load_weapons,
    )
    from praetor_analysis.engine.chain import resolve, resolve_sequence, resolve_volley, unsaved_distribution
    from praetor_analysis.engine.hh3 import Hh3Context, Hh3Result, Hh3Volley, resolve_hh3
    from praetor_analysis.engine.volley import TargetState, Volley, VolleyResult
    from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError
    from praetor_analysis.melee.combat import combat, resolve_combat
    from praetor_analysis.prob.dice import DiceExpr, parse_dice
    from praetor_analysis.prob.dist import Dist
    from praetor_analysis.profiles.hh3 import Hh3Unit, Hh3Weapon
    from praetor_analysis.profiles.records import Unit, Weapon, unit_from_mapping
    from praetor_analysis.profiles.rule_tokens import Rule
    from praetor_analysis.profiles.weapon_type import parse_weapon_type
    from praetor_analysis.scenario.calc import calc, calc_json, calc_many
    from praetor_analysis.scenario.frame import calc_frame
    from praetor_analysis.units.datasheet import build_loadout
    from praetor_analysis.views.dashboard import app as dashboard
    from praetor_analysis.views.figures import plots as figures
    from praetor_analysis.views.report import page as report
