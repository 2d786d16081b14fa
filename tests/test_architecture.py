"""The house holds: imports follow the layer order, no cycles, no private names across modules, small modules.

The layers, lowest first (a module may import only from its own layer or those below it):
errors -> io -> prob -> rules -> profiles -> engine -> markers -> bsdata -> catalog -> vehicles -> melee ->
units -> scenario -> analysis -> views -> cli. The package ``__init__`` re-exports lazily and is exempt.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "praetor_analysis"
LAYERS = (
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
