"""`praetor calc --summary`: one line per result, its means and the chance of any (P(any) = 1 - P(0))."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["summary_line", "summary_lines"]

#: Blocks echoed back by calc (the inputs as read): not results.
_ECHOES = frozenset({"attacker", "target", "defender_echo", "weapon"})


def _measures(result: Mapping[str, Any], prefix: str = "") -> list[str]:
    parts: list[str] = []
    for key, value in result.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            if "pmf" in value and "mean" in value and isinstance(value["pmf"], list):
                pmf = value["pmf"]
                p_any = 1.0 - float(pmf[0]) if pmf else 0.0
                parts.append(f"{name} {float(value['mean']):.3f} (P(any) {p_any:.3f})")
            elif key not in _ECHOES and key != "reasons":
                parts += _measures(value, f"{name}.")
        elif isinstance(value, float) and key in ("wrecked", "pinned", "p_wrecked", "p_pinned"):
            parts.append(f"P({name}) {value:.3f}")
    return parts


def summary_line(result: Mapping[str, Any]) -> str:
    """The means of a calc result's distributions and P(any) of each, on one line (``hits 0.667 (P(any)
    0.667), ...``); a probability the result gives alone (``wrecked``, ``pinned``) as ``P(wrecked) 0.066``."""
    return "; ".join(_measures(result)) or "no distribution in the result"


def summary_lines(results: Any) -> list[str]:
    """One :func:`summary_line` per result (a list of results is numbered from 1, as calc's errors are)."""
    if isinstance(results, list):
        return [f"[{i}] {summary_line(r)}" for i, r in enumerate(results, 1)]
    return [summary_line(results)]
