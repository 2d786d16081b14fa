"""The scenario's ``options``: options of the weapon the attacker takes (docs/scenario.md#options), each a
change of the weapon's profile that its rule's declaration describes (``rules.option_rules``).

:func:`take_options` rewrites a weapon block: the option's rule leaves the Type, the rules it gives are added
(a rule of the same name in the profile gives way to the option's), its Strength replaces the profile's, its
shots are multiplied; it returns the notes the result lists under ``applied``. Bad names, an option the weapon
does not have, a missing or unknown choice are refused naming ``options[i]``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from praetor_analysis.errors import PraetorError, ScenarioError, show_value
from praetor_analysis.profiles import parse_rule, split_tokens
from praetor_analysis.rules import REGISTRY, RuleDecl, RuleOption, lookup

#: Most options one scenario (or volley) may take.
MAX_OPTIONS = 8
_SHOTS = re.compile(r"^(?P<kind>[A-Za-z][A-Za-z -]*?)\s+(?P<n>\d{1,4})$")
_CHOICE = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<choice>[^()]*)\))?$")


def option_names() -> list[str]:
    """Every option a scenario may take, sorted."""
    return sorted(name for name, d in REGISTRY.items() if d.option is not None)


def parse_options(value: Any, field: str = "options") -> tuple[tuple[RuleDecl, str | None], ...]:
    """The options named in ``value`` (a list of texts such as ``"Fighting Style (Rage)"``), each with its
    choice; refused on one line naming ``field[i]``."""
    if not isinstance(value, list) or len(value) > MAX_OPTIONS:
        raise ScenarioError(
            f'{field}: expected a list of at most {MAX_OPTIONS} option names such as ["Rocket Barrage"], '
            f"got {show_value(value)}",
            field=field,
            value=value,
        )
    out: list[tuple[RuleDecl, str | None]] = []
    for i, text in enumerate(value):
        where = f"{field}[{i}]"
        m = _CHOICE.match(text.strip()) if isinstance(text, str) else None
        decl = lookup(m.group("name")) if m else None
        if m is None or decl is None or decl.option is None:
            raise ScenarioError(
                f"{where}: not an option the engine takes (options: {', '.join(option_names())}), "
                f"got {show_value(text)}",
                field=where,
                value=text,
            )
        choice = _choice(decl, decl.option, m.group("choice"), where)
        if any(d is decl for d, _ in out):
            raise ScenarioError(f"{where}: {decl.name} taken twice", field=where, value=text)
        out.append((decl, choice))
    return tuple(out)


def _choice(decl: RuleDecl, option: RuleOption, given: str | None, where: str) -> str | None:
    names = [c for c, _ in option.choices]
    if not names:
        if given is not None:
            raise ScenarioError(f"{where}: {decl.name} has no choice to name, got ({given})", field=where, value=given)
        return None
    found = next((c for c in names if given is not None and c.casefold() == given.strip().casefold()), None)
    if found is None:
        raise ScenarioError(
            f"{where}: {decl.name} needs one of {', '.join(names)} in brackets, got {show_value(given)}",
            field=where,
            value=given,
        )
    return found


def takes_counts(options: Sequence[tuple[RuleDecl, str | None]]) -> str | None:
    """The first option taken that changes the attack count (its shots or a model's attacks), or None."""
    for decl, _ in options:
        o = decl.option
        if o is not None and (o.shots_times != 1 or "Halved Attacks" in o.adds):
            return decl.name
    return None


def take_options(
    block: Mapping[str, Any], options: Sequence[tuple[RuleDecl, str | None]], field: str = "options"
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``block`` with ``options`` taken, and one note a taken option for ``applied``."""
    out = dict(block)
    tokens = split_tokens(str(out.get("Type", "") or ""))
    notes = []
    for i, (decl, choice) in enumerate(options):
        where, option = f"{field}[{i}]", decl.option
        assert option is not None  # parse_options keeps options only
        names = [_name(t) for t in tokens]
        if decl.name not in names:
            raise ScenarioError(
                f"{where}: {decl.name} is not a rule of the weapon's Type {show_value(out.get('Type'))}",
                field=where,
                value=decl.name,
            )
        tokens = [t for t, n in zip(tokens, names, strict=True) if n != decl.name]
        adds = dict(option.choices)[choice] if choice is not None else option.adds
        for text in adds:
            name = _name(text)
            tokens = [t for t in tokens if _name(t) != name] + [text]
        if option.shots_times != 1:
            tokens = _times(tokens, option.shots_times, decl.name, where)
        if option.strength is not None:
            out["Strength"] = option.strength
        label = f"{decl.name} ({choice})" if choice else decl.name
        gives = ", ".join(adds) if choice else option.gives
        notes.append(f"{label}: taken ({gives}{'; ' + option.cost if option.cost else ''})")
    out["Type"] = ", ".join(tokens)
    return out, tuple(notes)


def _name(token: str) -> str | None:
    """The canonical rule name of a Type token (None for the kind and shots, or a token that is no rule)."""
    if _SHOTS.match(token) or token.split(" ")[0] in {"Melee", "Pistol"}:
        return None
    try:
        return parse_rule(token, field_name="Type").name
    except PraetorError:  # a token the Type parser refuses itself, with its own message, when the block is read
        return None


def _times(tokens: list[str], times: int, name: str, where: str) -> list[str]:
    """The Type's kind and shots token with the shots multiplied (``Ordnance 1`` -> ``Ordnance 2``)."""
    m = _SHOTS.match(tokens[0]) if tokens else None
    if m is None or m.group("kind").strip().lower() in {"rapid fire", "salvo", "melee"}:
        raise ScenarioError(
            f"{where}: {name} multiplies a whole number of shots, and the Type starts with {show_value(tokens[:1])}",
            field=where,
            value=name,
        )
    return [f"{m.group('kind')} {int(m.group('n')) * times}", *tokens[1:]]
