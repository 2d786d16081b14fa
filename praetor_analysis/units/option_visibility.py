"""Whether a datasheet's option is shown for the force fielding it, as the data's own conditions decide.

The option table gives each option its ``hidden`` state as written and ``shown_when``, the ``set hidden``
modifiers of the data with their conditions (:mod:`praetor_analysis.bsdata.visibility`). They are applied in
order for what a scenario knows of the force:

- its **Legion** (a datasheet block's ``legion``, by default the datasheet's own when its catalogue is a
  Legion's): a condition on a Legion's selection ("I: Dark Angels") in the force or the roster;
- the option's **ancestors**: the datasheet and the model slot offering it (a condition that they are a
  named entry, or of the Character category: a model whose Unit Type names Character).

With no Legion known (a datasheet of no Legion's catalogue and no ``legion``), an option that the data offers
to some Legions only is hidden (its refusal names them): a force without a Legion takes what every Legion may.

Any other condition (a Rite of War taken, an allegiance, another selection of the unit) cannot be known from
a scenario: a modifier depending on it changes nothing (the option stays as the data writes it and the known
conditions leave it: the Hexagrammaton choices a Dark Angels force is shown stay shown whatever else may hide
them), and a refusal says what the data asks for. An option is hidden too when a group holding it is
(``group_shown_when``, read the same way).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from praetor_analysis.catalog import load_wargear_options
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units.catalog_rows import OptionRow
from praetor_analysis.units.names import fold, suggestions

__all__ = ["Ancestry", "legion_names", "legion_note", "legion_of", "visibility"]

_LEGION = re.compile(r"^[IVXL]+:\s*(.+)$")
_LEGION_NAME = re.compile(r'"[IVXL]+:')
_COMPARE = {
    "equalTo": lambda n, v: n == v,
    "notEqualTo": lambda n, v: n != v,
    "atLeast": lambda n, v: n >= v,
    "atMost": lambda n, v: n <= v,
    "greaterThan": lambda n, v: n > v,
    "lessThan": lambda n, v: n < v,
}


@dataclass(frozen=True)
class Ancestry:
    """What the conditions of one option row may ask: the force's Legion (folded, ``""`` unknown), the names
    of the entries above the option (the datasheet, its model slot) and whether one of them is a Character."""

    legion: str
    names: frozenset[str]
    character: bool


@cache
def legion_names() -> dict[str, str]:
    """The Legions the data's conditions name: folded name (``dark angels``) -> the entry (``I: Dark Angels``)."""
    out: dict[str, str] = {}
    for text in load_wargear_options()["shown_when"].unique():
        for name in re.findall(r'"([IVXL]+:[^"]+)"', str(text)):
            hit = _LEGION.match(name)
            if hit:
                out.setdefault(fold(hit.group(1)), name)
    return out


def legion_of(value: Any, faction: str, field: str) -> str:
    """The folded Legion of a datasheet block (``legion``, else its own faction when that is a Legion; ``""``).

    Raises:
        ScenarioError: ``legion`` is not text or names no Legion of the data (with close names).
    """
    names = legion_names()
    if not isinstance(value, Mapping) or value.get("legion") is None:
        return fold(faction) if fold(faction) in names else ""
    given = value["legion"]
    if not isinstance(given, str):
        raise ScenarioError(f"{field}.legion: expected a Legion's name, got {given!r}")
    hit = _LEGION.match(given.strip())
    key = fold(hit.group(1) if hit else given)
    if key not in names:
        shown = sorted({n.split(":", 1)[1].strip() for n in names.values()})
        raise ScenarioError(f"{field}.legion: no Legion named {given!r}{suggestions(given, shown)}")
    return key


def legion_note(value: Any, faction: str) -> str | None:
    """What a result says of a ``legion`` given to a datasheet whose options no Legion shows or hides (a
    Custodes or Mechanicum unit in a Legion's force): the field changes nothing there (None otherwise)."""
    names = legion_names()
    given = value.get("legion") if isinstance(value, Mapping) else None
    if given is None or fold(faction) in names or fold(faction) == fold("Legiones Astartes"):
        return None
    return f"legion {given!r}: no effect on a {faction} datasheet (no option a Legion shows or hides)"


def _condition(cond: list[Any], at: Ancestry) -> bool | None:
    scope, kind_of, value, kind, name = [*cond, "", "", 0.0, "", ""][:5]
    if kind_of in ("instanceOf", "notInstanceOf") and scope in ("ancestor", "self"):
        if kind == "categoryEntry" and fold(name) == "character":
            found: bool | None = at.character
        elif kind == "selectionEntry":
            found = fold(name) in at.names
        else:
            return None
        return found if kind_of == "instanceOf" else not found
    legion = _LEGION.match(str(name))
    if scope in ("force", "roster") and kind == "selectionEntry" and legion and at.legion and kind_of in _COMPARE:
        count = 1.0 if fold(legion.group(1)) == at.legion else 0.0
        return bool(_COMPARE[kind_of](count, float(value)))
    return None


def _evaluate(tree: Any, at: Ancestry) -> bool | None:
    if isinstance(tree, list):
        return _condition(tree, at)
    results = [_evaluate(t, at) for t in tree.get("items", [])]
    if tree.get("op") == "or":
        return True if True in results else (False if all(r is False for r in results) else None)
    return False if False in results else (True if all(r is True for r in results) else None)


def _describe(tree: Any) -> str:
    if isinstance(tree, dict):
        parts = [_describe(t) for t in tree.get("items", [])]
        return f" {tree.get('op', 'and')} ".join(parts) if parts else "always"
    scope, kind_of, value, kind, name = [*tree, "", "", 0.0, "", ""][:5]
    if kind_of in ("instanceOf", "notInstanceOf"):
        holder = "the unit or model" if scope == "ancestor" else "the option"
        what = f"a {name!r}" if kind == "categoryEntry" else repr(name)
        return f"{holder} is{'' if kind_of == 'instanceOf' else ' not'} {what}"
    if scope in ("force", "roster") and kind_of in _COMPARE:
        none = (kind_of == "equalTo" and value == 0) or (kind_of == "lessThan" and value <= 1)
        return f"the {scope} has {'no ' if none else ''}{name!r}"
    return f"{scope} selections of {name!r} {kind_of} {value:g}"


def visibility(row: OptionRow, at: Ancestry) -> tuple[bool, str]:
    """``(hidden, why)`` of an option row for ``at`` (:func:`own_visibility`), hidden too when a group holding
    it is (``group_shown_when``: the data's hidden state and ``set hidden`` modifiers of each group, outermost
    first): the Dark Angels' Hexagrammaton choices sit in a group hidden but for that Legion. A group that a
    condition no scenario can state might show (another selection of the unit: a Librarian's Psychic
    Disciplines) is taken as shown; only what is known hides a group."""
    text = row.group_shown_when
    for hidden, mods in json.loads(text) if text else []:
        state = own_visibility(OptionRow(hidden=bool(hidden), shown_when=json.dumps(mods) if mods else ""), at, True)
        if state[0]:
            return True, f"its group {row.group!r} is {state[1]}" if row.group else state[1]
    return own_visibility(row, at)


def own_visibility(row: OptionRow, at: Ancestry, lenient: bool = False) -> tuple[bool, str]:
    """``(hidden, why)`` of an option row for ``at``: the data's hidden state after its modifiers, and, when it
    is hidden, what would show it (``""`` when it is shown).

    With no Legion known (``at.legion`` empty), a row whose conditions name a Legion is shown only when it is
    shown for every Legion of the data (what every Legion may take); otherwise it is hidden and ``why`` names
    the Legions that are offered it."""
    written = _visibility(row, at, lenient)
    if at.legion or written[0] or not _LEGION_NAME.search(row.shown_when):
        return written
    names = legion_names()
    hiding = [key for key in names if _visibility(row, replace(at, legion=key), lenient)[0]]
    if not hiding:
        return written
    offered = sorted(names[k].split(":", 1)[1].strip() for k in names if k not in hiding)
    if len(offered) > len(hiding):
        who = "every Legion but " + ", ".join(sorted(names[k].split(":", 1)[1].strip() for k in hiding))
        return True, f'offered to {who}; give the force\'s Legion as "legion"'
    why = _visibility(row, replace(at, legion=hiding[0]), lenient)[1]
    return True, f'offered only to {", ".join(offered) or "no Legion"}: {why}; give the force\'s Legion as "legion"'


def _visibility(row: OptionRow, at: Ancestry, lenient: bool = False) -> tuple[bool, str]:
    hidden = row.hidden
    text = row.shown_when
    mods = json.loads(text) if text else []
    state, could_show = hidden, False
    for mod in mods:
        met = _evaluate(mod.get("when", {}), at)
        if met is True:  # an unknown condition (None) changes nothing
            state = bool(mod.get("hidden"))
        could_show = could_show or (met is None and not mod.get("hidden"))
    final = state and not (lenient and could_show)
    if not final:
        return False, ""
    showing = [m.get("when", {}) for m in mods if not m.get("hidden")]
    if not showing:
        hiding = [m.get("when", {}) for m in mods if m.get("hidden") and _evaluate(m.get("when", {}), at)]
        if hiding:
            return True, "hidden when " + " or ".join(_describe(w) for w in hiding)
        return True, "shown under no condition of the data"
    why = "shown only when " + " or ".join(_describe(w) for w in showing)
    if not at.legion and _LEGION_NAME.search(json.dumps(showing)):
        why += ' (give the force\'s Legion as "legion")'
    return True, why
