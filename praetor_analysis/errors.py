"""The project's errors: one base class, each carrying the field and the value that were refused.

Every error the API raises for bad input is a :class:`PraetorError`; the command line maps it to exit
status 2 and prints its one-line message. Messages are capped at :data:`MAX_MESSAGE_CHARS`; the words of
every message and note are shaped here too (:func:`show_value`, :func:`counted_noun`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: Longest message an error carries (longer ones are cut, with the length said).
MAX_MESSAGE_CHARS = 500


def cap_message(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` on one line, cut to ``limit`` characters."""
    one_line = " ".join(str(message).split())
    if len(one_line) <= limit:
        return one_line
    return one_line[: limit - 40] + f"... ({len(one_line)} characters)"


def show_value(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for one-line error messages."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        r = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply"
    except ValueError:  # an integer beyond Python's digit limit, nested somewhere in value
        return f"a {type(value).__name__} holding an integer too long to print"
    return r if len(r) <= limit else r[: limit - 5] + "...'" + f" ({len(r)} characters)"


def counted_noun(count: object, noun: str, plural: str | None = None) -> str:
    """``"1 model"``, ``"2 models"``, ``"0.5 models"``: ``count`` as shown (a number or its text) and ``noun``,
    singular only when the count reads ``1`` (``plural``: when it is not ``noun + "s"``)."""
    text = str(count)
    return f"{text} {noun if text == '1' else plural or noun + 's'}"


class PraetorError(ValueError):
    """Bad input: the message names the field and the value.

    Attributes:
        field: the field refused (``"target.Save"``), or None when the message alone says it.
        value: the value refused, when there is one.
    """

    def __init__(self, message: str, *, field: str | None = None, value: object = None) -> None:
        super().__init__(cap_message(message))
        self.field = field
        self.value = value


class ProfileError(PraetorError):
    """Bad input in a profile (a weapon, attacker or target block)."""


class ScenarioError(PraetorError):
    """Bad input in a scenario document."""


def as_scenario_error(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` with any project error it raises re-raised as a ScenarioError (same message, field, value)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ScenarioError:
            raise
        except PraetorError as exc:
            raise scenario_error_of(exc) from None

    return wrapper


def scenario_error_of(exc: PraetorError) -> ScenarioError:
    """A project error as a ScenarioError (the same message, field and value): what :func:`as_scenario_error`
    raises, for a function that catches it itself (a hot path called with many keywords, which the wrapper
    would pack and unpack)."""
    return ScenarioError(str(exc), field=exc.field, value=exc.value)
