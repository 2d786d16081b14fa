"""The long tail of weapon rules (issue 13, Build item 2): each rule met in a real profile, from its text.

Each rule is checked against brute-force enumeration of the dice on small cases (1e-12) and a pinned value
whose source (the rule's name, and where its text is printed) is named in a comment.
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.scenario.calc import calc

LEGIONARIES = {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Save": "3+", "WS": 4, "I": 4, "A": 1, "Ld": 7}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3, "models": 1}


def _shoot(type_text: str, target: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "5", "Type": type_text}
    scenario = {"attacker": {"BS": 4, "S": 4, "Ld": 8}, "weapon": weapon, "target": target or LEGIONARIES}
    return calc({**scenario, **extra})


def test_every_result_says_why_a_rule_is_not_applied() -> None:
    for target in (LEGIONARIES, RHINO):
        result = _shoot("Assault 2, Skyfire, Made Up Rule", target)
        assert set(result["reasons"]) == {"Skyfire", "Made Up Rule"}
        assert result["reasons"]["Made Up Rule"] == "not a rule the engine knows"
        assert "Flyers" in result["reasons"]["Skyfire"]
