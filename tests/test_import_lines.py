"""`praetor import`'s lists read as a player reads them: an unresolved link by its name, kind and id (not a
dataclass repr), grouped over the catalogues that link it; the first ``--show`` lines of each list then one
line saying how many more (one helper for both editions); an empty item between commas said with its line."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from praetor_analysis.bsdata.files import UnresolvedLink
from praetor_analysis.profiles.vocabulary import clean_type
from praetor_analysis.views.text.import_text import hh3_import_lines, import_lines, shown_lines


def _link(cat: str, name: str = "Optae", target: str = "5585-b5f3") -> UnresolvedLink:
    return UnresolvedLink(cat, "entryLink:selectionEntry", f"id-{cat}", name, target)


def test_unresolved_links_are_named_grouped_and_counted() -> None:
    links = [_link(f"2022 - LA - Legion {i}") for i in range(5)] + [_link("2022 - BG - Blackshields", "Jurr", "30b8")]
    links += [_link(f"2022 - X - Other {i}", f"Name {i}", f"id{i}") for i in range(12)]
    report = SimpleNamespace(unresolved=links, corrections=Counter())
    lines = import_lines(report, "OUT", 10)  # type: ignore[arg-type]
    assert not any("UnresolvedLink(" in line for line in lines)
    assert lines[0] == (
        "  unresolved: 'Optae' (entryLink:selectionEntry to id 5585-b5f3): 5 links, in LA - Legion 0, LA - Legion 1, "
        "LA - Legion 2 and 2 more catalogues"
    )
    assert len(lines) == 11  # 14 targets: 10 shown, then how many more and where they all are
    assert lines[-1] == "  ... 4 more unresolved link targets (18 links in all: OUT/provenance.json; --show N)"


def test_corrections_say_how_many_more() -> None:
    corrections = Counter({("a", "A", "case"): 3, ("b", "B", "case"): 2, ("c", "C", "case"): 1})
    report = SimpleNamespace(unresolved=[], corrections=corrections)
    lines = import_lines(report, "OUT", 2)  # type: ignore[arg-type]
    assert lines == [
        "  corrected 3x: 'a' -> 'A' (case)",
        "  corrected 2x: 'b' -> 'B' (case)",
        "  ... 1 more kinds of correction (--show N)",
    ]


def test_both_editions_share_the_more_line() -> None:
    report = SimpleNamespace(missing=[f"missing: file {i}" for i in range(5)])
    assert hh3_import_lines(report, "data/hh3", 3) == [  # type: ignore[arg-type]
        *shown_lines(report.missing, 3, "lines in data/hh3/provenance.json")
    ]
    assert hh3_import_lines(report, "data/hh3", 3)[-1] == "  ... 2 more lines in data/hh3/provenance.json"


def test_an_empty_item_between_commas_is_said_with_its_line() -> None:
    cleaned, fixes = clean_type("Heavy 6,, Rending (5+), Sunder")
    assert cleaned == "Heavy 6, Rending (5+), Sunder"
    dropped = [f for f in fixes if "empty" in f.reason]
    assert [(f.original, f.corrected, f.reason) for f in dropped] == [
        ("Heavy 6,, Rending (5+), Sunder", "Heavy 6, Rending (5+), Sunder", "empty item between commas dropped")
    ]
    cleaned, fixes = clean_type("Assault 1, Gets Hot,")
    assert cleaned == "Assault 1, Gets Hot" and any(f.original == "Assault 1, Gets Hot," for f in fixes)
    assert all(f.original.strip() for f in fixes)  # no correction of '' -> ''
