"""Lazy faces: a package's ``__init__`` exports names that load their module only when first used (PEP 562)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["Face", "face"]

Face = tuple[Callable[[str], Any], Callable[[], list[str]]]
"""A package's ``(__getattr__, __dir__)``."""


def face(
    package: str, exports: Mapping[str, str], names: Sequence[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: a name of ``exports`` (name -> the module that defines it) is
    imported from its module when first read and kept in the package; ``names`` (its ``__all__``) are listed."""

    def getattr_(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(exports[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return getattr_, dir_
