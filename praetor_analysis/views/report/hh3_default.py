"""The 3rd edition's report (``praetor report --edition hh3``): which edition a report is of, and its default page.

With no roster the 3rd edition's report rates a few iconic datasheets of its shipped catalogs, as fielded and with
one option each (:func:`~praetor_analysis.analysis.per_point.hh3_per_point_table`), against its standard targets;
the 2nd edition's default compares catalog weapons, which the 3rd edition's report does not (no attacker block of
that edition is the default's yet). A roster is reported in its own edition; an edition asked for that is not the
roster's, or the weapon comparison asked of the 3rd edition, is refused in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from praetor_analysis.errors import PraetorError
from praetor_analysis.views.report.page import Assumptions, Report, select_targets, to_html, write_text
from praetor_analysis.views.tables import COMPARISON_COLUMNS

__all__ = ["HH3_TITLE", "hh3_default_report", "hh3_report_main", "report_edition"]

HH3_TITLE = "Praetor analysis, 3rd edition: iconic datasheets vs standard targets"
_NUMBER = {"hh2": 2, "hh3": 3}


def report_edition(edition: str | None, roster: str | None, weapons: Sequence[str] | None) -> str:
    """The edition of the report: ``edition`` when given (checked against the roster's), else the roster's, else
    ``"hh2"``.

    Raises:
        PraetorError: A roster of the other edition than ``edition``, or ``weapons`` with the 3rd edition.
    """
    from praetor_analysis.bsdata import read_roster

    own = read_roster(roster).edition if roster and Path(roster).is_file() else None
    if edition is not None and own is not None and own != edition:
        name = Path(str(roster)).name
        raise PraetorError(f"--roster: {name} is a roster of edition {_NUMBER[own]}; --edition {edition} asks for "
                           f"edition {_NUMBER[edition]}", field="--roster", value=roster)  # fmt: skip
    chosen = edition or own or "hh2"
    if chosen == "hh3" and weapons:
        raise PraetorError("--weapons: the weapon comparison is of edition 2 (the 3rd edition's report rates its "
                           "datasheets and rosters)", field="--weapons")  # fmt: skip
    return chosen


def hh3_default_report(targets: pd.DataFrame) -> Report:
    """The 3rd edition's default report: :func:`~praetor_analysis.analysis.per_point.hh3_per_point_table` against
    ``targets`` (rows of ``load_targets("hh3")``, by their ``archetype``)."""
    from praetor_analysis.analysis import hh3_per_point_table
    from praetor_analysis.catalog import load_targets
    from praetor_analysis.units import hh3_target_of_row

    known = list(load_targets("hh3")["archetype"])
    for name in targets["archetype"]:
        if name not in known:
            raise PraetorError(f"--targets: {name!r} is no 3rd-edition standard target (known: {', '.join(known)})",
                               field="--targets", value=name)  # fmt: skip
    table = hh3_per_point_table([hh3_target_of_row(r) for _, r in targets.iterrows()])
    return Report(
        title=HH3_TITLE,
        comparison=pd.DataFrame(columns=list(COMPARISON_COLUMNS)),
        notes=(
            "3rd edition (hh3): the datasheets of its shipped catalogs, read as praetor wargear --edition hh3 "
            "reads them; praetor wargear DATASHEET --edition hh3 --target NAME ranks every option of one.",
        ),
        assumptions=Assumptions(
            attacker_text="each datasheet as fielded at its minimum size with its default wargear, or with one "
            "option; in shooting each model fires its best weapon for the target (a vehicle every weapon); in "
            "melee each model strikes with its best melee weapon, charging, the target not striking back",
            targets=tuple(f"{r['archetype']}: {r['models']} x {r['name']}" for _, r in targets.iterrows()),
        ),
        per_point=table,
    )


def hh3_report_main(
    targets: Sequence[str] | None = None,
    out: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> int:
    """``praetor report --edition hh3`` with no roster: write :func:`hh3_default_report` to ``out`` (standard output
    when ``None`` or ``"-"``); ``targets``: names of the 3rd edition's standard targets (``NAME:N`` sets a size)."""
    from praetor_analysis.catalog import load_targets

    tell = progress or (lambda stage, done, total: None)
    tgt = select_targets(targets, load_targets("hh3"))
    tell("rating the iconic datasheets", 1, 2)
    report = hh3_default_report(tgt)
    tell("writing the page", 2, 2)
    write_text(to_html(report), out)
    return 0
