"""A loaded setup computes what ``praetor calc`` computes from the same file, or is refused saying what differs.

The dashboard and the workbench read a saved setup (a list of ``praetor calc`` scenarios) into their own
inputs, then build their scenarios back from those inputs. :func:`check_round_trip` runs ``praetor calc`` on
each scenario as given and as rebuilt; when the answers differ (an edited weapon Strength the catalog
replaces, ``"BS": 3.9`` read as 3, ``"charging": "false"`` read as charging), the load is refused on one line
naming the first field that differs, the value in the file and the value the setup would compute with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from praetor_analysis.errors import PraetorError, ScenarioError, show_value

__all__ = ["check_round_trip", "first_difference", "setup_items"]

#: Result keys that echo the input rather than answer it.
_ECHO = frozenset({"attacker", "target", "name", "formation", "datasheet", "faction"})
_MISSING = object()


_ORDINAL = {"hh2": "2nd", "hh3": "3rd"}


def setup_items(text: str, edition: str) -> list[Mapping[str, Any]]:
    """The scenarios of a saved setup (a JSON object or a list of them) of ``edition`` (``hh2``, ``hh3``).

    Raises:
        ScenarioError: on one line: not JSON, not objects, or a scenario of the other edition (saying to switch).
    """
    from praetor_analysis.io import parse_json
    from praetor_analysis.scenario import edition_of

    try:
        data = parse_json(text, "scenario")
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field) from None
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(x, Mapping) for x in items):
        raise ScenarioError("scenario: expected a JSON object or a list of objects")
    for n, item in enumerate(items):
        other = edition_of(item)
        if other != edition:
            raise ScenarioError(
                f"scenario[{n}].edition: a setup of the {_ORDINAL[other]} edition; switch the dashboard to the "
                f"{_ORDINAL[other]} edition (the switch at the top) to load it",
                field="edition",
            )
    return items


def first_difference(given: Any, made: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first ``(path, given value, rebuilt value)`` where two JSON documents differ (None: equal)."""
    if isinstance(given, Mapping) and isinstance(made, Mapping):
        for key in [*given, *(k for k in made if k not in given)]:
            found = first_difference(given.get(key, _MISSING), made.get(key, _MISSING), f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(given, list) and isinstance(made, list) and len(given) == len(made):
        for i, (g, m) in enumerate(zip(given, made, strict=True)):
            found = first_difference(g, m, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (given, made))
    same = given == made and (numbers or type(given) is type(made))
    return None if same else (path, given, made)


def _answer(doc: Mapping[str, Any], calc: Callable[[Any], Any]) -> Any:
    try:
        result = calc(dict(doc))
    except PraetorError as exc:
        return f"refused: {exc}"
    return {k: v for k, v in result.items() if k not in _ECHO} if isinstance(result, Mapping) else result


def check_round_trip(
    given: Sequence[Mapping[str, Any]],
    made: Sequence[Mapping[str, Any] | None],
    field: str,
    calc: Callable[[Any], Any] | None = None,
) -> None:
    """Refuse the load when a given scenario and the one rebuilt from it (``made[n]``; None: not rebuilt)
    answer differently under ``praetor calc``, naming ``field[n]``'s first differing field.

    Raises:
        ScenarioError: naming the field, the value in the file and the value the setup would use.
    """
    if calc is None:
        from praetor_analysis.scenario.calc import calc as calc_doc

        calc = calc_doc
    for n, (doc, again) in enumerate(zip(given, made, strict=True)):
        if again is None:
            raise ScenarioError(f"{field}[{n}]: the setup cannot hold this scenario; run it with praetor calc")
        if _answer(doc, calc) == _answer(again, calc):
            continue
        where = first_difference(doc, again, f"{field}[{n}]")
        if where is None:  # pragma: no cover - equal documents answer alike
            continue
        path, was, now = where
        was_text = "nothing" if was is _MISSING else show_value(was)
        now_text = "nothing" if now is _MISSING else show_value(now)
        raise ScenarioError(
            f"{path}: the file gives {was_text}, the setup would compute with {now_text} (a different answer); "
            "fix the file or run it with praetor calc",
            field=path,
            value=None if was is _MISSING else was,
        )
