"""BattleScribe data files: safe XML reading and link resolution.

A BattleScribe data set is one game system file (``.gst``) plus catalogues (``.cat``) that import
each other through ``catalogueLink`` elements. Entries and rules refer to each other by id through
``entryLink`` (to a selection entry or a group) and ``infoLink`` (to a profile, rule or info group),
possibly across files. :class:`BSData` loads a folder, indexes every id and resolves links within the
scope of a catalogue (itself, the catalogues it imports, transitively, and the game system).
Unresolved links are collected in :attr:`BSData.unresolved`, never raised.

All XML is treated as untrusted: it is parsed with defusedxml, DTDs, entity definitions and external
references are refused with :class:`UntrustedFileError`, and file sizes are bounded.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml
import defusedxml.ElementTree as DET

from praetor_analysis.errors import PraetorError

__all__ = [
    "MAX_CATALOGUE_FILES",
    "MAX_PATH_CHARS",
    "MAX_XML_BYTES",
    "MAX_XML_DEPTH",
    "MAX_XML_ELEMENTS",
    "PROFILE_TYPE_IDS",
    "PTS_COST_TYPE_ID",
    "BSData",
    "Catalogue",
    "Described",
    "UnresolvedLink",
    "UntrustedFileError",
    "checked_path",
    "children",
    "entry_points",
    "local",
    "parse_xml_bytes",
    "parse_xml_file",
    "profile_characteristics",
    "read_regular_file",
    "set_name",
]

MAX_XML_BYTES = 64 * 1024 * 1024
"""Largest XML document accepted (the largest real catalogue is about 4 MB)."""

MAX_PATH_CHARS = 4096
"""Longest file path accepted, in characters."""

MAX_XML_DEPTH = 256
"""Deepest element nesting accepted (real data files nest about 21 deep); deeper documents are refused
while parsing, so recursive readers never meet them."""

MAX_CATALOGUE_FILES = 500
"""Most ``.cat`` files one import reads (the shipped data has 35), counted before any is read."""

MAX_XML_ELEMENTS = 2_000_000
"""Most elements accepted in one document (the largest real catalogue has about 35,000)."""

PTS_COST_TYPE_ID = "d2ee-04cb-5f8a-2642"
"""typeId of the ``Pts`` cost type in the Horus Heresy game system."""

PROFILE_TYPE_IDS: dict[str, str] = {
    "weapon": "1a1a-e592-2849-a5c0",
    "psychic_weapon": "cede-0217-1b10-2a34",
    "unit": "4bb2-cb95-e6c8-5a21",
    "vehicle": "2fae-b053-3f78-e7b2",
    "knight": "75b5-9f7a-156e-6889",
    "fortification": "eeec-bde3-8ee4-35b0",
    "wargear": "2a1f-7837-f0ef-be44",
    "ability": "b46c-270c-d29e-f0ff",
}
"""Profile type ids of the Horus Heresy (2022) game system, keyed by a stable short kind.

Names in the files carry stray spaces (``typeName=" Unit"``), so profiles are keyed by typeId.
"""

LINK_TAGS = ("catalogueLink", "entryLink", "infoLink")


class UntrustedFileError(PraetorError):
    """A file was refused: forbidden XML construct, malformed content or size bound exceeded."""


def local(tag: str) -> str:
    """Return an XML tag without its ``{namespace}`` prefix."""
    return tag.rsplit("}", 1)[-1]


def parse_xml_bytes(data: bytes, name: str) -> Element:
    """Parse untrusted XML bytes, refusing DTDs, entity definitions and external references.

    Args:
        data: The document.
        name: File name used in error messages.

    Returns:
        The root element.

    Raises:
        UntrustedFileError: If the document is too large, declares a DTD or entity, or is malformed.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UntrustedFileError(f"{name}: expected the document as bytes, got {type(data).__name__}")
    if len(data) > MAX_XML_BYTES:
        raise UntrustedFileError(f"{name}: XML document larger than {MAX_XML_BYTES} bytes refused")
    builder = _BoundedTreeBuilder(name)
    try:
        parser = DET.XMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
        parser.feed(bytes(data))
        return parser.close()
    except UntrustedFileError:
        raise
    except defusedxml.DTDForbidden as exc:
        raise UntrustedFileError(f"{name}: XML with a DTD / entity declaration refused ({exc})") from exc
    except defusedxml.EntitiesForbidden as exc:
        raise UntrustedFileError(f"{name}: XML with an entity definition refused ({exc})") from exc
    except defusedxml.ExternalReferenceForbidden as exc:
        raise UntrustedFileError(f"{name}: XML with an external reference refused ({exc})") from exc
    except defusedxml.DefusedXmlException as exc:
        raise UntrustedFileError(f"{name}: unsafe XML refused ({exc})") from exc
    except ParseError as exc:
        raise UntrustedFileError(f"{name}: malformed XML ({exc})") from exc
    except (LookupError, ValueError, UnicodeError) as exc:  # e.g. encoding="bogus" in the declaration
        raise UntrustedFileError(f"{name}: unreadable XML ({type(exc).__name__}: {exc})") from exc
    except RecursionError as exc:
        raise UntrustedFileError(f"{name}: XML nested too deeply") from exc


class _BoundedTreeBuilder(TreeBuilder):
    """A TreeBuilder that refuses documents nested deeper than :data:`MAX_XML_DEPTH` or holding more
    than :data:`MAX_XML_ELEMENTS` elements, while parsing (before the tree is built)."""

    def __init__(self, name: str):
        super().__init__()
        self._name = name
        self._depth = 0
        self._count = 0

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        self._depth += 1
        self._count += 1
        if self._depth > MAX_XML_DEPTH:
            raise UntrustedFileError(f"{self._name}: XML nested deeper than {MAX_XML_DEPTH} elements refused")
        if self._count > MAX_XML_ELEMENTS:
            raise UntrustedFileError(f"{self._name}: XML with more than {MAX_XML_ELEMENTS} elements refused")
        return super().start(tag, attrs)

    def end(self, tag: str) -> Element:
        self._depth -= 1
        return super().end(tag)


def parse_xml_file(path: str | Path) -> Element:
    """Read and parse an untrusted XML file with :func:`parse_xml_bytes`, bounding its size first."""
    path = checked_path(path)
    return parse_xml_bytes(read_regular_file(path, MAX_XML_BYTES), path.name)


def checked_path(path: str | os.PathLike[str], field: str = "path") -> Path:
    """``path`` as a Path, refused when too long (:data:`MAX_PATH_CHARS`) or not encodable for the file system.

    Raises:
        TypeError: ``path`` is not text or a path.
        UntrustedFileError: a path too long, or one the file system cannot name (a lone surrogate).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{field}: expected a path, got {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"{field}: expected a text path, got {type(text).__name__}")
    if len(text) > MAX_PATH_CHARS:
        raise UntrustedFileError(f"{field}: a path of {len(text)} characters (limit {MAX_PATH_CHARS})", field=field)
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        raise UntrustedFileError(f"{field}: the path {text[:80]!r} cannot be encoded for the file system") from None
    if "\x00" in text:
        raise UntrustedFileError(f"{field}: a path with a NUL character, {text[:80]!r}", field=field)
    return Path(text)


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never a folder, pipe or device).

    Raises:
        UntrustedFileError: not a regular file, larger than ``limit``, or unreadable (the file named).
    """
    label = path.name or str(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise UntrustedFileError(f"{label}: not a regular file (a folder, pipe or device) refused", field=label)
        if st.st_size > limit:
            raise UntrustedFileError(f"{label}: file of {st.st_size} bytes exceeds {limit} bytes")
        with path.open("rb") as fh:
            data = fh.read(limit + 1)  # the file may grow between stat and read
    except OSError as exc:
        raise UntrustedFileError(f"{label}: cannot read ({exc.strerror or exc})") from exc
    if len(data) > limit:
        raise UntrustedFileError(f"{label}: file larger than {limit} bytes")
    return data


def children(elem: Element, container: str, tag: str) -> Iterator[Element]:
    """Yield ``elem/container/tag`` children, ignoring namespaces."""
    for box in elem:
        if local(box.tag) == container:
            for child in box:
                if local(child.tag) == tag:
                    yield child


def profile_characteristics(profile: Element, names: dict[str, str]) -> dict[str, str]:
    """Return a profile's characteristics keyed by canonical name.

    Args:
        profile: A ``profile`` element.
        names: characteristicType id -> canonical name (from the game system), used in preference
            to the ``name`` attribute, which may carry stray spaces.
    """
    out: dict[str, str] = {}
    for ch in children(profile, "characteristics", "characteristic"):
        key = names.get(ch.get("typeId", ""), (ch.get("name") or "").strip())
        out[key] = (ch.text or "").strip()
    return out


def entry_points(elem: Element) -> float | None:
    """Return the ``Pts`` cost declared directly on an entry or link, or None."""
    for cost in children(elem, "costs", "cost"):
        if cost.get("typeId") == PTS_COST_TYPE_ID or (cost.get("name") or "").strip().lower() == "pts":
            try:
                value = float(cost.get("value", ""))
            except ValueError:
                return None
            return value if math.isfinite(value) else None
    return None


@dataclass
class Catalogue:
    """One parsed data file with its id index and parent map.

    Attributes:
        path: The file.
        root: Root element (``gameSystem`` or ``catalogue``).
        id: The file's own id.
        name: The ``name`` attribute.
        imports: Ids of catalogues imported through ``catalogueLink``.
        index: Every element carrying an ``id`` attribute, by id (first wins).
        parents: Child element -> parent element.
    """

    path: Path
    root: Element
    id: str
    name: str
    imports: list[str]
    index: dict[str, Element] = field(repr=False)
    parents: dict[Element, Element] = field(repr=False)

    @property
    def stem(self) -> str:
        """File name without extension (the ``source`` of catalog rows)."""
        return self.path.stem

    @property
    def is_game_system(self) -> bool:
        """True for the ``.gst`` file."""
        return local(self.root.tag) == "gameSystem"

    @classmethod
    def load(cls, path: str | Path) -> Catalogue:
        """Parse a ``.gst`` or ``.cat`` file and index it."""
        path = Path(path)
        root = parse_xml_file(path)
        index: dict[str, Element] = {}
        parents: dict[Element, Element] = {}
        for parent in root.iter():
            for child in parent:
                parents[child] = parent
                cid = child.get("id")
                if cid is not None and local(child.tag) not in LINK_TAGS and cid not in index:
                    index[cid] = child
        imports = [link.get("targetId", "") for link in children(root, "catalogueLinks", "catalogueLink")]
        return cls(path, root, root.get("id", ""), root.get("name", ""), imports, index, parents)

    def ancestors(self, elem: Element) -> Iterator[Element]:
        """Yield the ancestors of an element, nearest first."""
        node = self.parents.get(elem)
        while node is not None:
            yield node
            node = self.parents.get(node)


@dataclass(frozen=True)
class Described:
    """A rule or profile attached to an entry: its name as the entry shows it, its kind (``"rule"`` or the profile's
    type id) and its texts."""

    name: str
    kind: str
    texts: tuple[str, ...]


@dataclass(frozen=True)
class UnresolvedLink:
    """A link whose target id was not found in its catalogue's scope."""

    catalogue: str
    kind: str
    link_id: str
    name: str
    target_id: str


class BSData:
    """A loaded BattleScribe data set: the game system plus every catalogue in a folder.

    Attributes:
        game_system: The ``.gst`` file.
        catalogues: Catalogues by id (the ``.cat`` files).
        characteristic_names: characteristicType id -> canonical (stripped) name.
        profile_type_names: profileType id -> canonical name.
        unresolved: Links that could not be resolved, after :meth:`check_links`.
    """

    def __init__(self, game_system: Catalogue, catalogues: list[Catalogue]):
        self.game_system = game_system
        self.catalogues: dict[str, Catalogue] = {c.id: c for c in catalogues}
        self.characteristic_names: dict[str, str] = {}
        self.profile_type_names: dict[str, str] = {}
        for cat in [game_system, *catalogues]:
            for pt in children(cat.root, "profileTypes", "profileType"):
                self.profile_type_names[pt.get("id", "")] = (pt.get("name") or "").strip()
                for ct in children(pt, "characteristicTypes", "characteristicType"):
                    self.characteristic_names[ct.get("id", "")] = (ct.get("name") or "").strip()
        self._scopes: dict[str, list[Catalogue]] = {}
        self.unresolved: list[UnresolvedLink] = []
        self.links_checked = 0

    @classmethod
    def load(cls, folder: str | Path) -> BSData:
        """Load the single ``.gst`` and every ``.cat`` of a folder (not recursive)."""
        folder = Path(folder)
        gsts = sorted(folder.glob("*.gst"))
        if len(gsts) != 1:
            raise UntrustedFileError(f"{folder}: expected exactly one .gst file, found {len(gsts)}")
        paths = sorted(folder.glob("*.cat"))
        if len(paths) > MAX_CATALOGUE_FILES:
            raise UntrustedFileError(
                f"{folder}: {len(paths)} .cat files (limit {MAX_CATALOGUE_FILES})", field="BSDATA_DIR", value=len(paths)
            )
        cats = [Catalogue.load(p) for p in paths]
        return cls(Catalogue.load(gsts[0]), cats)

    def files(self) -> list[Catalogue]:
        """The game system followed by the catalogues, sorted by file name."""
        return [self.game_system, *sorted(self.catalogues.values(), key=lambda c: c.path.name)]

    def scope(self, cat: Catalogue) -> list[Catalogue]:
        """Catalogues searched to resolve a link from ``cat``: itself, its imports (transitively), the game system."""
        if cat.id not in self._scopes:
            seen: dict[str, Catalogue] = {cat.id: cat}
            queue = list(cat.imports)
            while queue:
                cid = queue.pop(0)
                if cid in seen or cid not in self.catalogues:
                    continue
                seen[cid] = self.catalogues[cid]
                queue.extend(self.catalogues[cid].imports)
            self._scopes[cat.id] = [*seen.values(), self.game_system]
        return self._scopes[cat.id]

    def resolve(self, cat: Catalogue, target_id: str) -> tuple[Catalogue, Element] | None:
        """Find the element with ``target_id`` visible from ``cat``, or None."""
        for other in self.scope(cat):
            elem = other.index.get(target_id)
            if elem is not None:
                return other, elem
        return None

    def follow(self, cat: Catalogue, elem: Element) -> tuple[Catalogue, Element] | None:
        """Return the target of a link element, or the element itself if it is not a link."""
        if local(elem.tag) in ("entryLink", "infoLink"):
            return self.resolve(cat, elem.get("targetId", ""))
        return cat, elem

    def check_links(self) -> list[UnresolvedLink]:
        """Try every catalogue, entry, group and info link of every file; record the unresolved ones."""
        self.unresolved = []
        self.links_checked = 0
        for cat in self.files():
            for elem in cat.root.iter():
                kind = local(elem.tag)
                if kind not in LINK_TAGS:
                    continue
                self.links_checked += 1
                target = elem.get("targetId", "")
                if kind == "catalogueLink":
                    ok = target in self.catalogues
                else:
                    ok = self.resolve(cat, target) is not None
                if not ok:
                    ltype = elem.get("type", "")
                    self.unresolved.append(
                        UnresolvedLink(
                            cat.stem,
                            f"{kind}:{ltype}" if ltype else kind,
                            elem.get("id", ""),
                            (elem.get("name") or "").strip(),
                            target,
                        )
                    )
        return self.unresolved

    def profiles(self) -> Iterator[tuple[Catalogue, Element]]:
        """Yield every ``profile`` element defined (not linked) in the data set, file by file."""
        for cat in self.files():
            for elem in cat.root.iter():
                if local(elem.tag) == "profile":
                    yield cat, elem

    def described(self, cat: Catalogue, elem: Element) -> list[Described]:
        """What is attached directly to an entry, each by its name: its rules' descriptions and its profiles' texts
        (weapon profiles left out), following ``infoLinks`` to rules and profiles (a link's unconditional
        ``set name`` names it: ``Adamantium Will (3+)``). Used only to extract figures (saves, rule names); the
        texts themselves are never shipped."""
        found: list[Described] = []
        for rule in children(elem, "rules", "rule"):
            found.append(Described(_norm(rule.get("name")), "rule", tuple(_texts(rule))))
        for prof in children(elem, "profiles", "profile"):
            found.append(Described(_norm(prof.get("name")), prof.get("typeId", ""), tuple(_profile_texts(prof))))
        for link in children(elem, "infoLinks", "infoLink"):
            hit = self.resolve(cat, link.get("targetId", ""))
            if hit is None:
                continue
            tag, target = local(hit[1].tag), hit[1]
            name = set_name(link) or _norm(link.get("name")) or _norm(target.get("name"))
            if tag == "rule":
                found.append(Described(name, "rule", tuple(_texts(target))))
            elif tag == "profile":
                found.append(Described(name, target.get("typeId", ""), tuple(_profile_texts(target))))
        return found

    def mandatory_children(self, cat: Catalogue, elem: Element) -> Iterator[tuple[Catalogue, Element]]:
        """Yield resolved child entries that are always taken: ``min`` >= 1, or a mandatory group's default."""
        for tag in ("selectionEntry", "entryLink"):
            box = "selectionEntries" if tag == "selectionEntry" else "entryLinks"
            for child in children(elem, box, tag):
                if _min_constraint(child) >= 1:
                    hit = self.follow(cat, child)
                    if hit is not None:
                        yield hit
        for group in children(elem, "selectionEntryGroups", "selectionEntryGroup"):
            default = group.get("defaultSelectionEntryId")
            if not default or _min_constraint(group) < 1:
                continue
            for tag, box in (("selectionEntry", "selectionEntries"), ("entryLink", "entryLinks")):
                for child in children(group, box, tag):
                    if child.get("id") == default:
                        hit = self.follow(cat, child)
                        if hit is not None:
                            yield hit


def set_name(elem: Element) -> str:
    """The name an unconditional ``set name`` modifier of ``elem`` gives it (``"2x Heavy Flamers"`` on a link to
    the Heavy Flamer entry), ``""`` for none; a modifier with conditions or repeats is not read."""
    for mod in children(elem, "modifiers", "modifier"):
        if (
            mod.get("type") == "set"
            and mod.get("field") == "name"
            and not any(local(c.tag) in ("conditions", "conditionGroups", "repeats") for c in mod)
        ):
            return _norm(mod.get("value"))
    return ""


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def _min_constraint(elem: Element) -> float:
    best = 0.0
    for con in children(elem, "constraints", "constraint"):
        if con.get("type") == "min" and con.get("field") == "selections" and con.get("scope") == "parent":
            with contextlib.suppress(ValueError):
                best = max(best, float(con.get("value", "0")))
    return best


def _texts(rule: Element) -> list[str]:
    return [(d.text or "") for d in rule if local(d.tag) == "description"]


def _profile_texts(profile: Element) -> list[str]:
    if profile.get("typeId") in (PROFILE_TYPE_IDS["weapon"], PROFILE_TYPE_IDS["psychic_weapon"]):
        return []
    return [(ch.text or "") for ch in children(profile, "characteristics", "characteristic")]
