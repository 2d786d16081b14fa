"""The dashboard's view in the page's URL fragment: ``#bs=4&weapons=12,40&...&tab=Workbench&workbench=...``
reproduces it (the shooting tab's inputs, the open tab, the workbench's attackers, targets and half range).

:func:`encode_view` writes a :class:`~praetor_analysis.views.dashboard.view.DashboardState` as a fragment (its
fields as ``key=value``, lists comma-separated, URL-escaped; weapons are rows of the shipped weapon catalog,
targets their labels); :func:`decode_view` reads one back, refusing on one line what it cannot use (an
unknown key, a bad value, a weapon or target the page does not have). :func:`encode_page` adds the open tab
and the workbench's setup (its ``praetor calc`` scenarios, deflated), :func:`decode_page` splits them off
again. :class:`PageFragment` is the hidden widget that reads the page's fragment when it opens and writes the
current view into it (``history``'s ``replaceState``: no reload, no new history entry).
"""

from __future__ import annotations

import base64
import binascii
import json
import urllib.parse
import zlib
from collections.abc import Callable, Collection
from dataclasses import fields
from typing import Any

import anywidget
import traitlets

from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import REROLL_CHOICES
from praetor_analysis.views.dashboard.view import COVER_CHOICES, FNP_CHOICES, DashboardState
from praetor_analysis.views.figures.specs import METRIC_LABELS

__all__ = ["PageFragment", "decode_page", "decode_view", "encode_page", "encode_view"]

_DEFAULT = DashboardState(weapons=(), targets=())
_INTS = ("bs", "attacker_models", "target_models", "to_hit", "to_wound")
_BOOLS = ("half_range", "charging", "furious_charge", "preferred_enemy")
_CHOICES: dict[str, tuple[str, ...]] = {
    "cover": COVER_CHOICES,
    "fnp": FNP_CHOICES,
    "metric": tuple(METRIC_LABELS),
    "reroll_hits": REROLL_CHOICES,
    "reroll_wounds": REROLL_CHOICES,
}
_LIMITS = {"bs": (1, 10), "attacker_models": (1, 20), "target_models": (0, 30), "to_hit": (-1, 1), "to_wound": (-1, 1)}
MAX_FRAGMENT = 8000
"""Longest fragment read (characters)."""
MAX_SETUP = 1_000_000
"""Longest workbench setup read from a fragment (bytes of JSON, once inflated)."""


def encode_view(state: DashboardState) -> str:
    """The fragment of ``state``: every field that differs from the default, and the weapons and targets."""
    out: list[tuple[str, str]] = [
        ("weapons", ",".join(str(w) for w in state.weapons)),
        ("targets", ",".join(urllib.parse.quote(t, safe="") for t in state.targets)),
    ]
    for f in fields(DashboardState):
        if f.name in ("weapons", "targets"):
            continue
        value = getattr(state, f.name)
        if value != getattr(_DEFAULT, f.name) and value is not None:
            text = str(int(value)) if isinstance(value, bool) else str(value)
            out.append((f.name, urllib.parse.quote(text, safe="")))
    return "&".join(f"{k}={v}" for k, v in out)


def _int(key: str, text: str) -> int:
    lo, hi = _LIMITS[key]
    try:
        value = int(text)
    except ValueError:
        raise ScenarioError(f"fragment {key}: expected a whole number, got {text!r}") from None
    if not lo <= value <= hi:
        raise ScenarioError(f"fragment {key}: {lo} to {hi}, got {value}")
    return value


def decode_view(fragment: str, weapons: Collection[Any], targets: Collection[str]) -> DashboardState:
    """The state a fragment describes (the page's weapon rows and target labels given to check it).

    Raises:
        ScenarioError: An unknown key, a bad value, or a weapon row or target label the page does not have.
    """
    text = fragment.lstrip("#")
    if len(text) > MAX_FRAGMENT:
        raise ScenarioError(f"fragment: longer than {MAX_FRAGMENT} characters")
    known = {f.name for f in fields(DashboardState)}
    values: dict[str, Any] = {}
    for part in filter(None, text.split("&")):
        key, _, raw = part.partition("=")
        if key not in known:
            raise ScenarioError(f"fragment {key}: not a field of the view ({', '.join(sorted(known))})")
        if key == "targets":
            items = [urllib.parse.unquote(t) for t in raw.split(",") if t]
            missing = [t for t in items if t not in targets]
            if missing:
                raise ScenarioError(f"fragment targets: {missing[0]!r} is not a target of this page")
            values[key] = tuple(items)
            continue
        value = urllib.parse.unquote(raw)
        if key == "weapons":
            rows = {str(w): w for w in weapons}
            bad = [w for w in value.split(",") if w and w not in rows]
            if bad:
                raise ScenarioError(f"fragment weapons: {bad[0]!r} is not a row of the weapon catalog")
            values[key] = tuple(rows[w] for w in value.split(",") if w)
        elif key == "focus_weapon":
            rows = {str(w): w for w in weapons}
            if value not in rows:
                raise ScenarioError(f"fragment focus_weapon: {value!r} is not a row of the weapon catalog")
            values[key] = rows[value]
        elif key in _INTS:
            values[key] = _int(key, value)
        elif key in _BOOLS:
            if value not in ("0", "1"):
                raise ScenarioError(f"fragment {key}: 0 or 1, got {value!r}")
            values[key] = value == "1"
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise ScenarioError(f"fragment {key}: one of {', '.join(_CHOICES[key])}, got {value!r}")
            values[key] = value
        else:  # focus_target
            if value not in targets:
                raise ScenarioError(f"fragment {key}: {value!r} is not a target of this page")
            values[key] = value
    return DashboardState(**{"weapons": (), "targets": (), **values})


def encode_page(view: str, tab: str | None = None, workbench: list[dict[str, Any]] | None = None) -> str:
    """The page's fragment: the shooting ``view`` (:func:`encode_view`), then the open ``tab``'s title (none: the
    first) and the workbench's setup (its ``praetor calc`` scenarios as compact JSON, deflated, base64url)."""
    out = [view] if view else []
    if tab:
        out.append("tab=" + urllib.parse.quote(tab, safe=""))
    if workbench:
        packed = zlib.compress(json.dumps(workbench, separators=(",", ":")).encode("utf-8"), 9)
        out.append("workbench=" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("="))
    return "&".join(out)


def decode_page(fragment: str, tabs: Collection[str]) -> tuple[str, str | None, str | None]:
    """The shooting view's part of ``fragment`` (for :func:`decode_view`), the tab it opens (one of ``tabs``;
    None: not said) and the workbench setup's JSON text (None: not said).

    Raises:
        ScenarioError: A tab the page does not have, or a workbench setup that is not one.
    """
    text = fragment.lstrip("#")
    if len(text) > MAX_FRAGMENT:
        raise ScenarioError(f"fragment: longer than {MAX_FRAGMENT} characters")
    view: list[str] = []
    tab: str | None = None
    setup: str | None = None
    for part in filter(None, text.split("&")):
        key, _, raw = part.partition("=")
        if key == "tab":
            tab = urllib.parse.unquote(raw)
            if tab not in tabs:
                raise ScenarioError(f"fragment tab: one of {', '.join(tabs)}, got {tab!r}")
        elif key == "workbench":
            inflate = zlib.decompressobj()
            try:
                data = inflate.decompress(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)), MAX_SETUP)
                whole, tail = inflate.eof, bool(inflate.unconsumed_tail)
                setup = data.decode("utf-8") if whole else None
            except (binascii.Error, ValueError, zlib.error):  # UnicodeDecodeError is a ValueError
                setup, tail = None, False
            if tail:
                raise ScenarioError(f"fragment workbench: longer than {MAX_SETUP} bytes once inflated")
            if setup is None:
                raise ScenarioError("fragment workbench: not a workbench setup written by this page")
        else:
            view.append(part)
    return "&".join(view), tab, setup


_ESM = """
export default {
  initialize({ model }) {
    const root = document.documentElement;
    const given = window.location.hash.slice(1);
    let opening = Boolean(given) && given !== model.get("fragment");
    const write = () => {
      const f = model.get("fragment");
      if (!opening && f && window.location.hash.slice(1) !== f) { window.history.replaceState(null, "", "#" + f); }
    };
    model.on("change:fragment", write);
    model.on("change:outcome", () => {
      opening = false;
      root.dataset.praetorFragment = model.get("outcome");
      write();
    });
    if (!opening) { write(); return; }
    // The page's other widget models are still being made: an update the kernel sends one of them before
    // it exists is lost. The kernel's answer waits until the widget tree holding the view is made.
    root.dataset.praetorFragment = "waiting";
    const send = () => {
      model.set("opened_with", given);  // the kernel sets the view from it, then answers in outcome
      model.save_changes();
      root.dataset.praetorFragment = "sent";
    };
    let asked = false;
    const ask = () => {
      const id = model.get("after");
      if (asked || !id) { return; }
      asked = true;
      model.widget_manager.get_model(id).then(send, send);
    };
    model.on("change:after", ask);
    ask();
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class PageFragment(anywidget.AnyWidget):
    """The page's URL fragment (hidden).

    ``fragment`` is the current view's (set by the kernel, written into the page's address); ``opened_with``
    the fragment the page was opened with, sent by the page once the widget whose model id is ``after``
    (the widget tree that holds the view) is made in the page, so no update the kernel answers with is sent to
    a model the page has not made yet; ``outcome`` the kernel's answer, ``"applied"`` or ``"refused"`` (the
    page copies it into its ``<html data-praetor-fragment>``; "waiting" and "sent" before).
    """

    _esm = _ESM
    fragment = traitlets.Unicode("").tag(sync=True)
    opened_with = traitlets.Unicode("").tag(sync=True)
    after = traitlets.Unicode("").tag(sync=True)
    outcome = traitlets.Unicode("").tag(sync=True)

    def on_open(self, apply: Callable[[str], bool], after: str) -> None:
        """Call ``apply(fragment)`` (true: the view was set from it) when the page sends the fragment it was
        opened with, once the widget of model id ``after`` is made in the page; answer in ``outcome``."""

        def answer(change: dict[str, Any]) -> None:
            self.outcome = "applied" if apply(str(change["new"])) else "refused"

        self.observe(answer, names="opened_with")
        self.after = after
