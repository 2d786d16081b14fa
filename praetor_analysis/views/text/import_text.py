"""`praetor import`'s lists: what did not resolve and what was corrected, the first ``--show`` lines of each and
one line saying how many more (both editions, one helper: :func:`shown_lines`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from praetor_analysis.bsdata import Hh3ImportReport, ImportReport, UnresolvedLink

__all__ = ["hh3_import_lines", "import_lines", "shown_lines", "unresolved_lines"]


def shown_lines(lines: Sequence[str], show: int, more: str) -> list[str]:
    """The first ``show`` of ``lines``, indented, then ``... N more {more}`` when some are left out."""
    out = [f"  {line}" for line in lines[:show]]
    left = len(lines) - len(out)
    return [*out, f"  ... {left} more {more}"] if left > 0 else out


def _catalogue(stem: str) -> str:
    """``2022 - LA - Dark Angels`` -> ``LA - Dark Angels`` (the year every file carries dropped)."""
    head, sep, rest = stem.partition(" - ")
    return rest if sep and head.isdigit() else stem


def unresolved_lines(links: Sequence[UnresolvedLink]) -> list[str]:
    """One line per link target that resolves nowhere (its name, kind and id), with the catalogues that link it,
    most linked first."""
    where: dict[tuple[str, str, str], list[str]] = {}
    for link in links:
        where.setdefault((link.name, link.kind, link.target_id), []).append(_catalogue(link.catalogue))
    out = []
    for (name, kind, target), cats in sorted(where.items(), key=lambda kv: -len(kv[1])):
        files = [f"{c} ({n})" if n > 1 else c for c, n in Counter(cats).items()]
        named = ", ".join(files[:3]) + (f" and {len(files) - 3} more catalogues" if len(files) > 3 else "")
        links_word = "link" if len(cats) == 1 else "links"
        out.append(f"unresolved: {name or '(no name)'!r} ({kind} to id {target}): {len(cats)} {links_word}, in {named}")
    return out


def _correction(key: tuple[str, str, str], n: int) -> str:
    orig, fixed, reason = key
    return f"corrected {n}x: {orig!r} -> {fixed!r} ({reason})"


def import_lines(report: ImportReport, out: str, show: int) -> list[str]:
    """The lists of a 2nd-edition import: unresolved links (every one is in ``out``/provenance.json), then the
    Type corrections by how often each was made."""
    links = unresolved_lines(report.unresolved)
    where = f"unresolved link targets ({len(report.unresolved)} links in all: {out}/provenance.json; --show N)"
    corrections = [_correction(key, n) for key, n in report.corrections.most_common()]
    return [*shown_lines(links, show, where), *shown_lines(corrections, show, "kinds of correction (--show N)")]


def hh3_import_lines(report: Hh3ImportReport, out: str, show: int) -> list[str]:
    """The lines of a 3rd-edition import's missing files and dangling links (at least two shown)."""
    return shown_lines(report.missing, max(show, 2), f"lines in {out}/provenance.json")
