"""BattleScribe data in its JSON form (the 3rd edition's, since 2026): safe reading and link resolution.

The JSON mirrors the XML one to one: the root key is ``catalogue`` or ``gameSystem``; child elements are lists under
their container's name (``sharedSelectionEntries``, ``profiles``, ``entryLinks``...); attributes are plain keys.
:class:`JsonData` loads a folder's ``*.json`` catalogues, indexes every id and resolves links within a catalogue's
scope (itself, the catalogues it imports, transitively, and the game system), as
:class:`~praetor_analysis.bsdata.files.BSData` does for XML.

Files are untrusted: each is read bounded (:func:`~praetor_analysis.bsdata.files.read_regular_file`), parsed by the
standard ``json`` module (no code runs; ``NaN``/``Infinity`` refused), and refused when nested deeper than
:data:`~praetor_analysis.bsdata.files.MAX_XML_DEPTH` or holding more than
:data:`~praetor_analysis.bsdata.files.MAX_XML_ELEMENTS` values, the XML reader's bounds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from praetor_analysis.bsdata.files import (
    MAX_CATALOGUE_FILES,
    MAX_XML_BYTES,
    MAX_XML_DEPTH,
    MAX_XML_ELEMENTS,
    UnresolvedLink,
    UntrustedFileError,
    checked_path,
    read_regular_file,
)
from praetor_analysis.bsdata.game_system import game_system_of

__all__ = ["LINK_KEYS", "JsonCatalogue", "JsonData", "Node", "items", "nodes", "parse_json_bytes"]

Node = dict[str, Any]
LINK_KEYS = ("catalogueLinks", "entryLinks", "infoLinks", "categoryLinks")
"""Containers of links (their items carry a ``targetId``; their own ids are not definitions)."""


def _refuse_constant(name: str) -> float:
    raise ValueError(f"the constant {name} is not JSON data")


def _check_shape(doc: Any, name: str) -> None:
    """Refuse a document nested deeper than MAX_XML_DEPTH or with more than MAX_XML_ELEMENTS values (iterative)."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    count = 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if depth > MAX_XML_DEPTH:
            raise UntrustedFileError(f"{name}: JSON nested deeper than {MAX_XML_DEPTH} levels refused")
        if count > MAX_XML_ELEMENTS:
            raise UntrustedFileError(f"{name}: JSON with more than {MAX_XML_ELEMENTS} values refused")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def parse_json_bytes(data: bytes, name: str) -> Node:
    """Parse an untrusted JSON data file: a ``{"catalogue": {...}}`` or ``{"gameSystem": {...}}`` object.

    Raises:
        UntrustedFileError: Too large, not UTF-8, malformed, too deep or too big, or not a data file.
    """
    if len(data) > MAX_XML_BYTES:
        raise UntrustedFileError(f"{name}: JSON document larger than {MAX_XML_BYTES} bytes refused")
    try:
        doc = json.loads(bytes(data).decode("utf-8-sig"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise UntrustedFileError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise UntrustedFileError(f"{name}: JSON nested deeper than {MAX_XML_DEPTH} levels refused") from None
    except ValueError as exc:  # JSONDecodeError, an integer too long, NaN
        raise UntrustedFileError(f"{name}: not a JSON document ({str(exc)[:120]})") from None
    _check_shape(doc, name)
    if not isinstance(doc, dict) or len(doc) != 1 or next(iter(doc)) not in ("catalogue", "gameSystem"):
        keys = list(doc)[:3] if isinstance(doc, dict) else type(doc).__name__
        raise UntrustedFileError(f"{name}: not a BattleScribe data file (root {keys!r}; expected 'catalogue')")
    root = next(iter(doc.values()))
    if not isinstance(root, dict):
        raise UntrustedFileError(f"{name}: the data file's root is a {type(root).__name__}, not an object")
    return doc


def nodes(value: Any) -> Iterator[tuple[str, Node]]:
    """Every object under ``value`` with the key of the list (or object) holding it, depth first, iterative."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        key, item = stack.pop()
        if isinstance(item, dict):
            if key:
                yield key, item
            stack.extend((k, v) for k, v in reversed(list(item.items())) if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((key, v) for v in reversed(item))


def items(node: Node, key: str) -> list[Node]:
    """The objects of the list ``node[key]``; ``[]`` when the key is absent or holds anything but a list (untrusted
    data: a number or a string where a list belongs reads as none)."""
    value = node.get(key)
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, (str, int, float)) else ""


@dataclass
class JsonCatalogue:
    """One JSON data file: its root object, id, name, game system and imports, and every id it defines.

    Attributes:
        index: Object by id, for every object defined (not linked) in the file, with the key holding it.
    """

    path: Path
    kind: str
    root: Node = field(repr=False)
    id: str
    name: str
    game_system_id: str
    imports: list[tuple[str, str]]
    index: dict[str, tuple[str, Node]] = field(repr=False)

    @property
    def stem(self) -> str:
        """File name without extension (the ``source`` of catalog rows)."""
        return self.path.stem

    @classmethod
    def load(cls, path: Path) -> JsonCatalogue:
        """Read, bound and index one file."""
        doc = parse_json_bytes(read_regular_file(path, MAX_XML_BYTES), path.name)
        kind, root = next(iter(doc.items()))
        index: dict[str, tuple[str, Node]] = {}
        for key, node in nodes(root):
            nid = node.get("id")
            if isinstance(nid, str) and key not in LINK_KEYS and nid not in index:
                index[nid] = (key, node)
        imports = [(_text(link.get("targetId")), _text(link.get("name"))) for link in items(root, "catalogueLinks")]
        system = _text(root.get("id")) if kind == "gameSystem" else _text(root.get("gameSystemId"))
        return cls(path, kind, root, _text(root.get("id")), _text(root.get("name")), system, imports, index)


class JsonData:
    """A folder of JSON data files of one game system: catalogues by id, the game system file when present."""

    def __init__(self, files: list[JsonCatalogue]):
        self.files = sorted(files, key=lambda c: c.path.name)
        self.catalogues = {c.id: c for c in self.files}
        systems = [c for c in self.files if c.kind == "gameSystem"]
        self.game_system: JsonCatalogue | None = systems[0] if systems else None
        self._scopes: dict[str, list[JsonCatalogue]] = {}
        self.links_checked = 0

    @classmethod
    def load(cls, folder: str | Path) -> JsonData:
        """Load every ``*.json`` data file of a folder (not recursive) and check they are of one game system.

        Raises:
            UntrustedFileError: Too many files, a bad file, or files of a game praetor does not read or of several.
        """
        folder = checked_path(folder)
        paths = sorted(folder.glob("*.json"))
        if len(paths) > MAX_CATALOGUE_FILES:
            raise UntrustedFileError(f"{folder}: {len(paths)} .json files (limit {MAX_CATALOGUE_FILES})")
        if not paths:
            raise UntrustedFileError(f"{folder}: no .json data file")
        files = [JsonCatalogue.load(p) for p in paths]
        systems = {c.game_system_id for c in files}
        if len(systems) != 1:
            raise UntrustedFileError(f"{folder}: data files of {len(systems)} game systems ({sorted(systems)[:4]})")
        first = files[0]
        if not first.game_system_id:
            raise UntrustedFileError(f"{first.path.name}: no gameSystemId; not a BattleScribe data file")
        system = game_system_of(first.game_system_id, first.name if first.kind == "gameSystem" else "", first.path.name)
        if system.edition != "hh3":
            raise UntrustedFileError(
                f"{folder}: JSON data of {system.name or system.id!r} ({system.edition}); the JSON importer reads "
                "the 3rd edition's data (the 2nd edition's is XML: .gst and .cat files)"
            )
        return cls(files)

    def scope(self, cat: JsonCatalogue) -> list[JsonCatalogue]:
        """Files searched to resolve a link from ``cat``: itself, its imports (transitively), the game system."""
        if cat.id not in self._scopes:
            seen: dict[str, JsonCatalogue] = {cat.id: cat}
            queue = [t for t, _ in cat.imports]
            while queue:
                cid = queue.pop(0)
                if cid in seen or cid not in self.catalogues:
                    continue
                seen[cid] = self.catalogues[cid]
                queue.extend(t for t, _ in self.catalogues[cid].imports)
            found = list(seen.values())
            if self.game_system is not None and self.game_system.id not in seen:
                found.append(self.game_system)
            self._scopes[cat.id] = found
        return self._scopes[cat.id]

    def resolve(self, cat: JsonCatalogue, target_id: str) -> tuple[JsonCatalogue, str, Node] | None:
        """The object ``target_id`` names, visible from ``cat`` (its file and the key holding it), or None."""
        for other in self.scope(cat):
            hit = other.index.get(target_id)
            if hit is not None:
                return other, hit[0], hit[1]
        return None

    def missing_imports(self, cat: JsonCatalogue) -> list[str]:
        """Names of the files ``cat`` imports (transitively) that are not in the folder, the game system first."""
        missing = [] if self.game_system is not None else ["the game system file"]
        seen: set[str] = set()
        queue = list(cat.imports)
        while queue:
            target, name = queue.pop(0)
            if target in seen:
                continue
            seen.add(target)
            if target in self.catalogues:
                queue.extend(self.catalogues[target].imports)
            else:
                missing.append(repr(name or target))
        return missing

    def check_links(self) -> list[UnresolvedLink]:
        """Every catalogue, entry, info and category link that resolves nowhere in its file's scope."""
        out: list[UnresolvedLink] = []
        self.links_checked = 0
        for cat in self.files:
            for key, node in nodes(cat.root):
                if key not in LINK_KEYS:
                    continue
                self.links_checked += 1
                target = _text(node.get("targetId"))
                ok = target in self.catalogues if key == "catalogueLinks" else self.resolve(cat, target) is not None
                if not ok:
                    kind = key[:-1] + (f":{_text(node.get('type'))}" if node.get("type") else "")
                    out.append(UnresolvedLink(cat.stem, kind, _text(node.get("id")), _text(node.get("name")), target))
        return out
