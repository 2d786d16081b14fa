"""Choosing catalog rows by name, and the CSV and PNG exports of tables and figures.

Re-exported by :mod:`praetor_analysis.views.report.page`.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from praetor_analysis.errors import PraetorError, show_value
from praetor_analysis.io import atomic_write_bytes, atomic_write_text
from praetor_analysis.profiles import MAX_MODELS
from praetor_analysis.units import UnitRow, fold, unit_row, weapon_row

__all__ = [
    "DEFAULT_CHROMIUM",
    "PngExportUnavailable",
    "distinct_profiles",
    "figure_to_png",
    "select_targets",
    "select_weapons",
    "sized_name",
    "to_csv",
]

#: Where Debian puts Chromium; PNG export points kaleido at it (nothing is downloaded).
DEFAULT_CHROMIUM = "/usr/bin/chromium"
PROFILE_KEY = ["name", "Range", "Strength", "AP", "Type"]


class PngExportUnavailable(RuntimeError):
    """PNG export needs kaleido and a local Chromium; neither is downloaded at run time."""


def distinct_profiles(weapons: pd.DataFrame) -> pd.DataFrame:
    """One row per distinct weapon profile (name, Range, Strength, AP, Type), the first kept."""
    return weapons.drop_duplicates(PROFILE_KEY) if set(PROFILE_KEY) <= set(weapons.columns) else weapons


def select_weapons(names: Sequence[Any], weapons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Distinct weapon profiles by name, each name read as ``praetor calc`` reads it
    (:func:`~praetor_analysis.units.names.weapon_row`: a name or ``{"name", "faction"}``, case-insensitive).

    Raises:
        PraetorError: (a ValueError) naming the first name that is unknown (with close names) or names several
            statlines (with the choices).
    """
    if weapons is None:
        from praetor_analysis.catalog import load_weapons

        weapons = load_weapons()
    cat = distinct_profiles(weapons)
    parts = []
    for name in names:
        row = weapon_row(name, "--weapons")
        same = pd.Series(True, index=cat.index)
        for key in ("name", "Range", "Strength", "AP", "Type"):
            if key in cat.columns and key in row.index:
                same &= cat[key].astype(str) == str(row[key])
        hit = cat[same]
        parts.append(hit if len(hit) else pd.DataFrame([row]))
    return distinct_profiles(pd.concat(parts)) if parts else cat.iloc[0:0]


def select_targets(names: Sequence[str] | None = None, targets: pd.DataFrame | None = None) -> pd.DataFrame:
    """Targets by name, each read as ``praetor calc`` and ``praetor roster --target`` read it
    (:func:`~praetor_analysis.units.names.unit_row`: a standard target's label, else a unit profile; exact,
    case-insensitive); ``NAME:N`` sets the model count; all the standard targets for ``None``.

    Raises:
        PraetorError: (a ValueError) naming the first name that is unknown (with close names, standard
            targets first) or names several statlines.
    """
    if targets is None:
        from praetor_analysis.catalog import load_targets

        targets = load_targets()
    if not names:
        return targets
    lower = targets["archetype"].map(fold)
    parts = []
    for name in names:
        label, size = sized_name(name, "--targets")
        hit = targets[lower == fold(label)]
        if hit.empty:
            hit = _profile_target(label, size or 1)
        elif size:
            hit = hit.assign(models=size)
        if size not in (None, 1) and any(r.is_vehicle for r in UnitRow.from_frame(hit)):
            raise PraetorError(f"--targets: {label!r} is a Vehicle: one vehicle, got {size}", field="--targets")
        parts.append(hit)
    return pd.concat(parts).drop_duplicates("archetype")


_SIZED = re.compile(r"^(.*):\s*([0-9]+)\s*$", re.ASCII | re.DOTALL)


def sized_name(text: str, field: str) -> tuple[str, int | None]:
    """``"NAME:N"`` -> (NAME, N), ``"NAME"`` -> (NAME, None): N in ASCII digits, 1..``MAX_MODELS``.

    Raises:
        PraetorError: an empty name, a size outside 1..MAX_MODELS, or a size in other digits (``"Rhino:²"``).
    """
    if not isinstance(text, str):
        raise PraetorError(f"{field}: expected a name, got {show_value(text)}", field=field, value=text)
    m = _SIZED.match(text)
    if m is None:
        tail = text.rpartition(":")[2].strip()
        if ":" in text and tail and all(ch.isdigit() or ch.isnumeric() for ch in tail):
            raise PraetorError(f"{field}: the size after ':' must be written in digits 0-9, got {text!r}", field=field)
        label, size = text, None
    else:
        label, size = m.group(1), int(m.group(2)) if len(m.group(2)) < 10 else MAX_MODELS + 1
        if not 1 <= size <= MAX_MODELS:
            raise PraetorError(
                f"{field}: a target of 1 to {MAX_MODELS} models, got {m.group(2)[:20]!r} in {text[:80]!r}",
                field=field,
                value=text,
            )
    label = " ".join(label.split())
    if not label:
        raise PraetorError(f"{field}: an empty target name in {text!r}", field=field, value=text)
    return label, size


def _profile_target(name: str, models: int) -> pd.DataFrame:
    """A unit profile named like ``praetor calc`` names it, as a one-row target table."""
    row = unit_row(name, "--targets")
    return pd.DataFrame([{**row.to_dict(), "archetype": str(row.get("archetype", row["name"])), "models": models,
                          "note": ""}])  # fmt: skip


def to_csv(df: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> str:
    """A comparison (or any) table as CSV text (lists joined with ``"; "``); written to ``path`` if given."""
    flat = df.copy()
    for col in flat.columns:
        if flat[col].dtype == object:
            flat[col] = flat[col].map(lambda v: "; ".join(map(str, v)) if isinstance(v, (list, tuple, set)) else v)
    buf = io.StringIO()
    flat.to_csv(buf, index=False, lineterminator="\n")
    text = buf.getvalue()
    if path is not None:
        atomic_write_text(path, text)
    return text


def figure_to_png(
    fig: go.Figure,
    path: str | os.PathLike[str] | None = None,
    *,
    width: int = 1000,
    height: int = 600,
    browser: str = DEFAULT_CHROMIUM,
) -> bytes:
    """A figure as PNG bytes via kaleido and the local Chromium (never downloaded); written to ``path``.

    Raises:
        PngExportUnavailable: kaleido is not installed or no Chromium is found at ``browser``
            (or ``$BROWSER_PATH``).
    """
    chrome = os.environ.get("BROWSER_PATH") or browser
    if not Path(chrome).is_file():
        raise PngExportUnavailable(f"PNG export needs Chromium at {chrome!r} (apt-get install chromium)")
    try:
        import kaleido  # noqa: F401
    except ImportError:
        raise PngExportUnavailable("PNG export needs the kaleido package (pip install kaleido)") from None
    os.environ["BROWSER_PATH"] = chrome
    data = pio.to_image(fig, format="png", width=width, height=height)
    if path is not None:
        atomic_write_bytes(path, data)
    return data
