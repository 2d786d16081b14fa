"""The 3rd edition's tables and rule declarations (docs/rules-hh3.md), as data."""

from praetor_analysis.rules.hh3.special import DECLARATIONS, RuleDecl, RuleRef, declaration, parse_rules, split_items
from praetor_analysis.rules.hh3.tables import AUTOMATIC, TABLES, Hh3Tables, check_pass, wound_target

__all__ = [
    "AUTOMATIC",
    "DECLARATIONS",
    "TABLES",
    "Hh3Tables",
    "RuleDecl",
    "RuleRef",
    "check_pass",
    "declaration",
    "parse_rules",
    "split_items",
    "wound_target",
]
