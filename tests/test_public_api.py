"""The package's public face: what a notebook user imports, lazily."""

from __future__ import annotations

import subprocess
import sys

import praetor_analysis as pa


def test_every_exported_name_resolves() -> None:
    for name in pa.__all__:
        assert getattr(pa, name) is not None, name
    assert set(pa.__all__) <= set(dir(pa))


def test_importing_the_package_loads_nothing_heavy() -> None:
    code = "import sys, praetor_analysis; print(sorted(m for m in ('numpy', 'pandas', 'plotly', 'ipywidgets') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_engine_alone_never_loads_plotly_or_ipywidgets() -> None:
    code = (
        "import sys, praetor_analysis as pa; pa.calc({'attacker': {'BS': 4}, 'weapon': {'Strength': 4, 'Type': 'Heavy 2'},"
        " 'target': {'T': 4, 'W': 1, 'Save': '3+'}}); pa.load_weapons(); pa.compare;"
        " print(sorted(m for m in ('plotly', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_readme_python_example() -> None:
    # 5 Terminators (T4 W1 2+ Save) under one BS 4 lascannon shot: hit 2/3, wound on 2+ (5/6), AP 2 negates
    # the 2+ save, S9 >= 2 x T4 is Instant Death: 2/3 * 5/6 = 5/9 (hand computation from the to-hit and
    # to-wound tables).
    result = pa.calc(
        {"attacker": {"BS": 4}, "weapon": {"Strength": 9, "AP": 2, "Type": "Heavy 1, Lance"},
         "target": {"models": 5, "T": 4, "W": 1, "Save": "2+"}}
    )  # fmt: skip
    assert abs(result["casualties"]["mean"] - 5 / 9) < 1e-12
    assert "Lance" in result["no_effect"]


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(pa.__all__) == sorted([*pa._EXPORTS, *pa._MODULES])
