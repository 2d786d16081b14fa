"""Every save- or rule-granting wargear text is read or listed (issue 33 item 3).

The texts: every Wargear Item profile of the fixture rosters of both editions (``Wargear Item`` in the 2nd edition,
``Wargear`` in the 3rd), and, when the BattleScribe catalogues the shipped data is built from sit beside the
project, every Wargear Item of those catalogues. Each is read as rosters and datasheets read it
(:func:`praetor_analysis.bsdata.wargear_saves.read_described`), and each of its save figures (``a 4+ Invulnerable
Save``, ``an Invulnerable Save of 5+``, ``improved to 3+``) and each rule it grants (``gains the Feel No Pain (5+)
special rule``) must be accounted for: applied (a save granted outright at least as good, a save of one phase of
that figure, a rule the engine declares) or named in ``not_modelled``. A new text whose figure or grant is neither
fails here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from fixture_files import COMMUNITY_DATA

from praetor_analysis.bsdata.files import Described
from praetor_analysis.bsdata.wargear_saves import WARGEAR, Defences, read_described

FIXTURES = Path(__file__).parent / "fixtures"
_EXPORTS = sorted(
    p for d in ("hh2", "hh3") for p in (FIXTURES / "rosters" / d).iterdir() if p.suffix in {".ros", ".rosz", ".test"}
)
ROSTERS = [*_EXPORTS, FIXTURES / "tiny.ros", FIXTURES / "heavy_support_lascannons.ros"]
CATALOGUES = COMMUNITY_DATA / "bsdata"
WARGEAR_TYPES = {"Wargear Item", "Wargear"}

_FIGURE = re.compile(
    r"(?<![\d+(])(?P<a>[2-6])\+\s*(?:armou?r|invuln\w*)\s+sav"
    r"|\b(?:armou?r|invuln\w*)\s+save\s+of\s+(?P<b>[2-6])\+"
    r"|\b(?:improv|increas)\w*\s+to\s+(?:an?\s+)?(?P<c>[2-6])\+",
    re.IGNORECASE,
)
_GRANT = re.compile(
    r"\b(?:grants?|gains?|confers?|has|have|provides?)\b[^.]*?\b(?:the|a)\s+"
    r"(?P<rule>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*(?:\s*\(\d\+?\))?)\s+special rule"
)


def _restriction(before: str) -> bool:
    """Whether the words before a rule's name make it a restriction ("a weapon with the", "an attack that has
    the"), not a grant ("a model with a cognis-signum gains the")."""
    words = [w.casefold() for w in before.split()[-5:]]  # the four before "the" and "the"
    grant = len(words) > 1 and words[-2] in ("gains", "gain", "grants", "grant", "confers", "provides")
    return not grant and any(w in ("with", "that", "which", "by", "any") for w in words[:-1])


def _root(path: Path) -> ET.Element:
    data = path.read_bytes()
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(path) as z:
            data = z.read(z.namelist()[0])
    return ET.fromstring(data)


def _texts(roots: list[ET.Element]) -> dict[tuple[str, str], None]:
    """``(item name, text)`` of every Wargear Item characteristic of ``roots``, whitespace collapsed, in order."""
    out: dict[tuple[str, str], None] = {}
    for root in roots:
        for p in root.iter():
            if p.tag.endswith("}profile") and " ".join((p.get("typeName") or "").split()) in WARGEAR_TYPES:
                for c in p.iter():
                    if c.tag.endswith("}characteristic") and c.text and c.text.strip():
                        out[" ".join((p.get("name") or "").split()), " ".join(c.text.split())] = None
    return out


def _unaccounted(name: str, text: str, bins: dict[str, int]) -> list[str]:
    """The figures and grants of ``text`` its reading neither applies nor names; ``bins`` counts the others."""
    read: Defences = read_described([Described(name, WARGEAR, (text,))])
    if read.rules == (name,) and not read.not_modelled:  # an Iron Halo, an Ion Shield: the rule the engine declares
        bins["by its name"] += 1
        return []
    notes = " ".join(read.not_modelled)
    missing = []
    for m in _FIGURE.finditer(text):
        x = m.group("a") or m.group("b") or m.group("c")
        outright = m.group("c") is None and any(s and int(s[0]) <= int(x) for s in (read.armour, read.invulnerable))
        if outright:
            bins["save applied"] += 1
        elif any(r.endswith(f"({x}+)") and "Save" in r for r in read.rules):
            bins["save per phase"] += 1
        elif f"{x}+" in notes:
            bins["save listed"] += 1
        else:
            missing.append(m.group(0))
    for m in _GRANT.finditer(text):
        rule = " ".join(m.group("rule").split())
        if rule in read.rules:
            bins["rule applied"] += 1
        elif rule in notes:
            bins["rule listed"] += 1
        elif _restriction(text[: m.start("rule")]):
            bins["restriction"] += 1  # "a weapon with the Two-handed special rule": not a grant
        else:
            missing.append(m.group(0))
    return missing


def _check(texts: dict[tuple[str, str], None]) -> dict[str, int]:
    bins = dict.fromkeys(("save applied", "save per phase", "save listed", "rule applied", "rule listed"), 0)
    bins["restriction"] = bins["by its name"] = 0
    missing = {(n, t[:120]): miss for n, t in texts if (miss := _unaccounted(n, t, bins))}
    assert not missing, missing
    return bins


def test_every_wargear_text_of_the_fixture_rosters_is_read_or_listed() -> None:
    """Both editions' fixture rosters: Corswain's 4+ applied and his 3+ in melee per phase, the Iron Halo, Refractor
    Field and Ion Shield by their names (the rules the engine declares), the Cytheron pattern aegis's 5+ (3rd
    edition) applied, the rules granted under a condition (a jump pack's Bulky in a transport...) listed."""
    texts = _texts([_root(p) for p in ROSTERS])
    assert any(n == "Cytheron pattern aegis" for n, _ in texts)  # the 3rd edition's are among them
    bins = _check(texts)
    assert bins == {
        "save applied": 20, "save per phase": 1, "save listed": 0, "rule applied": 0, "rule listed": 5,
        "restriction": 2, "by its name": 3,
    }, bins  # fmt: skip


@pytest.mark.full_data
def test_every_wargear_text_of_the_catalogues_is_read_or_listed() -> None:
    files = sorted([*CATALOGUES.glob("*.cat"), *CATALOGUES.glob("*.gst")])
    bins = _check(_texts([ET.parse(f).getroot() for f in files]))
    assert bins == {
        "save applied": 113, "save per phase": 11, "save listed": 8, "rule applied": 8, "rule listed": 42,
        "restriction": 12, "by its name": 3,
    }, bins  # fmt: skip


def test_a_3rd_edition_wargear_save_applies_where_better(tmp_path: Path) -> None:
    """The Deathwing Oathbearer of ``Real List.rosz`` carries a Cytheron pattern aegis (a 5+ Invulnerable Save) and
    a 5+ INV of his own; with his INV edited to ``-`` in memory the aegis gives him the 5+, and with it edited to
    ``4+`` his own stays (saves do not add up)."""
    from praetor_analysis.units.fielded import read_roster_units

    source = FIXTURES / "rosters" / "hh3" / "Real List.rosz"
    with zipfile.ZipFile(source) as z:
        name = z.namelist()[0]
        document = z.read(name)
    root = ET.fromstring(document)
    chars = [
        c
        for s in root.iter()
        if s.tag.endswith("}selection") and s.get("name") == "Deathwing Oathbearer"
        for p in s.iter()
        if p.tag.endswith("}profile") and p.get("typeName") == "Profile"
        for c in p.iter()
        if c.tag.endswith("}characteristic") and c.get("name") == "INV"
    ]
    assert chars and all(c.text == "5+" for c in chars)
    found = {}
    for own in ("-", "4+"):
        for c in chars:
            c.text = own
        edited = tmp_path / f"oathbearer {own}.ros"
        edited.write_bytes(ET.tostring(root))
        unit = next(u for u in read_roster_units(edited).units if u.datasheet == "Deathwing Companion Detachment")
        found[own] = {g.hh3_statline.invulnerable or None for g in unit.groups if g.model == "Deathwing Oathbearer"}
    assert found == {"-": {"5+"}, "4+": {"4+"}}
