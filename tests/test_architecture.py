"""The house holds: imports follow the layer order, no cycles, no private names across modules, small modules.

The layers, lowest first (a module may import only from its own layer or those below it):
lazy -> errors -> io -> prob -> rules -> profiles -> engine -> markers -> bsdata -> catalog -> vehicles -> melee ->
units -> scenario -> analysis -> views -> cli. The package ``__init__`` re-exports lazily and is exempt.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Callable, Collection
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "praetor_analysis"
LAYERS = (
    "lazy",
    "errors", "io", "prob", "rules", "profiles", "engine", "markers", "bsdata", "catalog", "vehicles", "melee",
    "units", "scenario", "analysis", "views", "cli",
)  # fmt: skip
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(("praetor_analysis", *parts))] = path
    return out


MODULES = _modules()


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None  # the package root
    return LAYERS.index(parts[1])


def _imports(path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """(module imported, names taken from it, line) for every import of the package, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("praetor_analysis"):
                out.append((node.module, tuple(a.name for a in node.names), node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append(("<relative>", tuple(a.name for a in node.names), node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((a.name, (), node.lineno) for a in node.names if a.name.startswith("praetor_analysis"))
    return out


def _target(module: str, name: str) -> str:
    """The module an import refers to (``from pkg import mod`` names a module)."""
    sub = f"{module}.{name}"
    return sub if sub in MODULES else module


def test_every_layer_is_a_known_folder() -> None:
    for module in MODULES:
        parts = module.split(".")
        if len(parts) > 1 and parts[1] != "data":
            assert parts[1] in LAYERS, f"{module}: not in a known layer"


def test_imports_follow_the_layer_order() -> None:
    bad = []
    for module, path in MODULES.items():
        here = _layer(module)
        if here is None:
            continue
        for imported, names, line in _imports(path):
            assert imported != "<relative>", f"{module}:{line}: use absolute imports"
            for target in {_target(imported, n) for n in names} or {imported}:
                there = _layer(target)
                if there is not None and there > here:
                    bad.append(f"{module}:{line} imports {target} (layer {LAYERS[there]} above {LAYERS[here]})")
    assert not bad, "\n".join(bad)


def test_no_import_cycle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        if _layer(module) is None:
            continue
        for imported, names, _ in _imports(path):
            for target in {_target(imported, n) for n in names} or {imported}:
                if target != module and target in MODULES and _layer(target) is not None:
                    graph[module].add(target)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt) :], nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_name_crosses_a_module() -> None:
    bad = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("praetor_analysis"):
                for alias in node.names:
                    if _private(alias.name):
                        bad.append(f"{module}:{node.lineno} imports {node.module}.{alias.name}")
                    imported.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
                and _private(node.attr)
            ):
                bad.append(f"{module}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not bad, "\n".join(bad)


def test_modules_are_small() -> None:
    big = {m: n for m, p in MODULES.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_at_least_five_layer_folders() -> None:
    folders = {p.parent.name for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE}
    assert len(folders - {"data"}) >= 5


def test_the_resolver_is_asked_through_its_face() -> None:
    # one resolver: above the engine, attacks on units are resolved through engine.chain, which picks the
    # vectorised strategy (engine.batch) or the exact one (engine.exact); nothing calls either directly
    inner = {"praetor_analysis.engine.batch", "praetor_analysis.engine.exact"}
    bad = []
    for module, path in MODULES.items():
        if module.startswith("praetor_analysis.engine"):
            continue
        for imported, names, line in _imports(path):
            if {_target(imported, n) for n in names} & inner or imported in inner:
                bad.append(f"{module}:{line} imports {imported}")
    assert not bad, "\n".join(bad)


#: Modules outside ``rules/`` and ``views/`` allowed to name declared rules (none: keep it so).
NAMES_RULES: set[str] = set()


def _is_declared_rule(value: object) -> bool:
    from praetor_analysis.rules.registry import RuleDecl

    if isinstance(value, RuleDecl):
        return True
    return isinstance(value, (tuple, list, frozenset, set)) and any(isinstance(v, RuleDecl) for v in value)


def declared_rule_imports(module: str, path: Path) -> list[str]:
    """The imports of a declared rule constant (a ``RuleDecl``, or a collection of them) in one module."""
    import importlib

    bad = []
    modules: dict[str, str] = {}  # a rules module imported whole, by the name it is bound to
    for imported, names, line in _imports(path):
        if not imported.startswith("praetor_analysis.rules"):
            continue
        source = importlib.import_module(imported)
        for name in names:
            if _target(imported, name) != imported:
                modules[name] = f"{imported}.{name}"
            elif _is_declared_rule(getattr(source, name, None)):
                bad.append(f"{module}:{line} imports the rule constant {imported}.{name}")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # hit_rules.GETS_HOT
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            owner = importlib.import_module(modules[node.value.id])
            if _is_declared_rule(getattr(owner, node.attr, None)):
                bad.append(f"{module}:{node.lineno} reads the rule constant {modules[node.value.id]}.{node.attr}")
    return bad


def test_no_rule_constant_is_imported_outside_rules_and_views() -> None:
    # a rule that acts on the chain is known in one place: the engine and the layers above it ask for a role
    # or a hook of the declarations (rules.hooks), never for a rule by name; views/ turns choices into rules
    bad = []
    for module, path in MODULES.items():
        parts = module.split(".")
        if len(parts) < 2 or parts[1] in ("rules", "views") or module in NAMES_RULES:
            continue
        bad.extend(declared_rule_imports(module, path))
    assert not bad, "\n".join(bad)


def test_the_rule_constant_check_sees_an_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from praetor_analysis.rules.hit_rules import GETS_HOT, TWIN_LINKED\n", encoding="utf-8")
    found = declared_rule_imports("probe", probe)
    assert len(found) == 2 and "GETS_HOT" in found[0]
    probe.write_text("from praetor_analysis.rules import hit_rules\n\nx = hit_rules.GETS_HOT\n", encoding="utf-8")
    assert len(declared_rule_imports("probe", probe)) == 1
    probe.write_text("from praetor_analysis.rules.hooks import Role\n", encoding="utf-8")
    assert declared_rule_imports("probe", probe) == []


# --- the door, the faces, records above the door ----------------------------------------------------------
DOOR = "praetor_analysis.scenario"

#: Modules of views/ that turn a reader's choices into ``praetor calc`` documents (the setup files of the door).
VIEWS_AT_THE_DOOR = {
    "praetor_analysis.views.dashboard.melee_view",  # a round of melee as a calc document
    "praetor_analysis.views.dashboard.hh3_view",  # the 3rd edition's dashboard as calc documents (edition hh3)
    "praetor_analysis.views.workbench.view",  # the workbench's cells as calc documents
    "praetor_analysis.views.report.page",  # the report's assumptions: the calc result of a scenario
    "praetor_analysis.views.dashboard.matchup_tab",  # a list's targets read as calc target blocks
    "praetor_analysis.views.setup_check",  # a loaded setup file computes what praetor calc computes from it
}

#: Imports of the door by analysis/ still to be replaced by typed records built in units/ (a debt: this list
#: may only shrink; a new import of scenario in analysis/ fails).
ANALYSIS_DOOR_DEBTS: set[tuple[str, str]] = set()  # the 3rd edition's unit attack is typed in units/ (issue 37)


def _door_imports(module: str) -> set[tuple[str, str]]:
    return {
        (module, name or imported)
        for imported, names, _ in _imports(MODULES[module])
        if imported == DOOR or imported.startswith(DOOR + ".")
        for name in (names or ("",))
    }


def test_the_door_is_imported_only_from_above_it() -> None:
    # scenario/ is the door of praetor calc: documents in, typed records down, to_dict() out; below it (the
    # layer order) and in analysis/ nothing reads a document; in views/ only the modules that make documents
    bad, found = [], set()
    for module in MODULES:
        parts = module.split(".")
        if len(parts) < 2 or parts[1] in ("scenario", "cli") or module in VIEWS_AT_THE_DOOR:
            continue
        imports = _door_imports(module)
        if parts[1] == "analysis":
            found |= imports
            bad.extend(f"{m} imports {n} from the door" for m, n in sorted(imports - ANALYSIS_DOOR_DEBTS))
        else:
            bad.extend(f"{m} imports {n} from the door" for m, n in sorted(imports))
    assert not bad, "\n".join(bad)
    paid = ANALYSIS_DOOR_DEBTS - found
    assert not paid, f"no longer imported: remove from ANALYSIS_DOOR_DEBTS: {sorted(paid)}"


#: Public functions of units/ and analysis/ whose signatures still carry a JSON mapping (a debt: this list may
#: only shrink). None is owed: units/ reads catalog rows as records (``units.catalog_rows``), analysis/ takes an
#: ``AttackerProfile`` and gives ``ComparisonRow``, ``PairRow`` and ``Variant`` records.
JSON_SIGNATURE_DEBTS: dict[str, set[str]] = {}
#: Methods that write a record's JSON form: their return is the contract's mapping.
OUTPUT_METHODS = {"to_dict", "to_block"}
_JSON = re.compile(r"\b(?:dict|Mapping|MutableMapping)\[str, Any\]")


def json_signatures(path: Path) -> set[str]:
    """The public functions (and public methods of public classes) of a module whose parameters or return
    are annotated with ``dict[str, Any]`` or ``Mapping[str, Any]``."""
    found = set()

    def check(fn: ast.FunctionDef, owner: str = "") -> None:
        a = fn.args
        args = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]
        notes = [x.annotation for x in args if x.annotation is not None]
        notes += [fn.returns] if fn.returns is not None else []
        if any(_JSON.search(ast.unparse(n)) for n in notes):
            found.add(owner + fn.name)

    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            check(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and not fn.name.startswith("_") and fn.name not in OUTPUT_METHODS:
                    check(fn, f"{node.name}.")
    return found


def unit_floor_debts(
    scan: Callable[[Path], set[str]], debts: dict[str, set[str]], skip: Collection[str] = ()
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(module, name)`` that ``scan`` finds in a module of units/ or analysis/ (but ``skip``) and its ``debts`` do
    not list, and those listed that it no longer finds."""
    bad, paid = [], []
    for module, path in MODULES.items():
        if module.split(".")[1:2] not in (["units"], ["analysis"]) or module in skip:
            continue
        found, owed = scan(path), debts.get(module, set())
        bad.extend((module, name) for name in sorted(found - owed))
        paid.extend((module, name) for name in sorted(owed - found))
    return bad, paid


def test_units_and_analysis_pass_records_not_json() -> None:
    found, owed = unit_floor_debts(json_signatures, JSON_SIGNATURE_DEBTS)
    bad = [f"{module}.{name}: a JSON mapping in its signature" for module, name in found]
    paid = [f"{module}.{name}" for module, name in owed]
    assert not bad, "\n".join(bad)
    assert not paid, f"no longer JSON: remove from JSON_SIGNATURE_DEBTS: {paid}"


def test_the_json_signature_check_sees_one(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def a(x: Mapping[str, Any]) -> int: ...\ndef b(x: int) -> dict[str, Any]: ...\ndef _c(x: dict[str, Any]): ...\n"
        "class R:\n    def to_dict(self) -> dict[str, Any]: ...\n    def m(self, d: dict[str, Any] | None): ...\n",
        encoding="utf-8",
    )
    assert json_signatures(probe) == {"a", "b", "R.m"}


#: The door's readers of a JSON block (a unit, weapon, volley or target block -> the engine's record).
BLOCK_READERS = {
    "unit_from_mapping", "from_mapping", "parse_unit_block", "parse_weapon_block", "volley_of_blocks", "target_record",
    "parse_cached", "read_unit", "read_weapon", "read_vehicle",
}  # fmt: skip
#: The readers themselves (kept in units/ beside the records they make; scenario/, the door, reads with them).
DOOR_READER_MODULES = {
    "praetor_analysis.units.block_records", "praetor_analysis.units.block_fields", "praetor_analysis.units.blocks",
    "praetor_analysis.units.volley_blocks",
}  # fmt: skip
#: Modules of units/ and analysis/ that still hand the engine a block (a debt: this list may only shrink; paid:
#: the 3rd edition's statlines, weapon profiles and targets are read by typed constructors, ``units.hh3_engine_records``,
#: and ``unit_ratings.target_named`` reads a ``--target`` name into its row, ``units.target_row_named``).
BLOCK_DEBTS: dict[str, set[str]] = {}


def block_reads(path: Path) -> set[str]:
    """The door's block readers a module calls, but in a ``from_mapping`` method (a record read from the JSON the
    user gives is what the door's readers are for)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == "from_mapping":
                continue
            if isinstance(child, ast.Call):
                f = child.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in BLOCK_READERS:
                    found.add(name)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_units_and_analysis_build_engine_records_from_records() -> None:
    """Issue 37: records are built from catalog rows and roster profiles directly, never through a JSON document:
    no module of units/ or analysis/ writes a statline, weapon or target block for the engine to read back."""
    found, owed = unit_floor_debts(block_reads, BLOCK_DEBTS, DOOR_READER_MODULES)
    bad = [f"{module}: reads a block with {name}" for module, name in found]
    paid = [f"{module}: {name}" for module, name in owed]
    assert not bad, "\n".join(bad)
    assert not paid, f"no longer read from a block: remove from BLOCK_DEBTS: {paid}"


def test_the_block_read_check_sees_one(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def a(row):\n    return Weapon.from_mapping(row.to_block())\ndef b(s):\n    return unit_from_mapping(s, field_name='x')\n"
        "class R:\n    @classmethod\n    def from_mapping(cls, data):\n        return read_unit(data, 'attacker')\n",
        encoding="utf-8",
    )
    assert block_reads(probe) == {"from_mapping", "unit_from_mapping"}


def test_a_model_group_holds_records_not_blocks() -> None:
    """The records of a fielded unit (``units/records.py``) have no field typed as a JSON mapping or ``Any``."""
    bad = []
    for node in ast.parse((PACKAGE / "units" / "records.py").read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign):
                note = ast.unparse(item.annotation)
                if re.search(r"\b(?:dict|Mapping|MutableMapping)\[|\bAny\b", note):
                    bad.append(f"{node.name}.{ast.unparse(item.target)}: {note}")
    assert not bad, bad


def _submodules(package: str) -> set[str]:
    return {
        m.rsplit(".", 1)[1] for m in MODULES if m.startswith(package + ".") and m.count(".") == package.count(".") + 1
    }


def face_violations(module: str, path: Path) -> list[str]:
    """The imports in ``module`` of a name from inside another subpackage that its face exports, or that it
    should (a name that is also a submodule's, such as scenario's ``calc``, cannot be on the face)."""
    import importlib

    parts, bad = module.split("."), []
    for imported, names, line in _imports(path):
        where = imported.split(".")
        if len(where) < 3 or where[0] != "praetor_analysis" or where[1:2] == parts[1:2]:
            continue
        face = ".".join(where[:2])
        exported = set(getattr(importlib.import_module(face), "__all__", ()))
        for name in names:
            if _target(imported, name) != imported or name in _submodules(face):
                continue  # a module, or a name a submodule of the face shadows
            if name not in exported or imported != face:
                bad.append(f"{module}:{line} imports {name} from {imported}, not from the face {face}")
    return bad


def test_callers_outside_a_subpackage_import_its_face() -> None:
    # a subpackage's __init__ exports what callers outside it use; they import it from there
    bad = [b for m, p in MODULES.items() if m != "praetor_analysis" for b in face_violations(m, p)]
    assert not bad, "\n".join(bad)


def test_the_face_check_sees_a_deep_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from praetor_analysis.units.attack import shooting\n", encoding="utf-8")
    assert len(face_violations("praetor_analysis.analysis.probe", probe)) == 1
    probe.write_text("from praetor_analysis.units import shooting\nfrom praetor_analysis.scenario.calc import calc\n")
    assert face_violations("praetor_analysis.analysis.probe", probe) == []
    probe.write_text("from praetor_analysis.units.attack import shooting\n", encoding="utf-8")
    assert face_violations("praetor_analysis.units.probe", probe) == []  # inside its own subpackage


def test_faces_export_what_they_name() -> None:
    import importlib

    for module, path in MODULES.items():
        if path.name != "__init__.py" or module == "praetor_analysis":
            continue
        face = importlib.import_module(module)
        for name in getattr(face, "__all__", ()):
            assert getattr(face, name) is not None, f"{module}.{name}"


def test_no_lazy_face_exports_the_name_of_its_own_submodule() -> None:
    # importing the submodule binds its name on the package, and a lazy face would then hand out the module (a
    # units/shooting.py beside the face's ``shooting`` function broke ``from praetor_analysis.units import shooting``)
    import importlib

    bad = []
    for module, path in MODULES.items():
        if path.name != "__init__.py" or module == "praetor_analysis" or "_EXPORTS" not in path.read_text("utf-8"):
            continue
        clash = set(getattr(importlib.import_module(module), "__all__", ())) & _submodules(module)
        bad.extend(f"{module} exports {name}, also a submodule's name" for name in sorted(clash))
    assert not bad, "\n".join(bad)
