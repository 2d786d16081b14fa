"""What share of the edition 3 weapon profiles in a BattleScribe data folder the engine models fully.

Every distinct profile of type ``Ranged Weapon`` or ``Melee Weapon`` (name and characteristics) in the folder's
JSON files is fired (or swung) by one Legionary at ten Legionaries with ``praetor calc``; a profile is *fully
modelled* when its result lists nothing under ``not_modelled``. Prints the share and the rules that keep the
others from it (by how many profiles each holds back).

    python scripts/hh3_coverage.py DATA_FOLDER [--stationary] [--hits N]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc

LEGIONARY = {"name": "Legionaries", "Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
             "LD": 7, "CL": 7, "WP": 7, "IN": 7, "SAV": "3+", "INV": "-"}  # fmt: skip
MAX_BYTES = 20_000_000


def weapon_profiles(folder: Path) -> dict[tuple, dict[str, str]]:
    """Distinct weapon profiles of the folder's JSON files: (type, name, characteristics) -> characteristics."""
    found: dict[tuple, dict[str, str]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("typeName") in ("Ranged Weapon", "Melee Weapon") and "characteristics" in node:
                chars = {c["name"]: c.get("$text", "") for c in node["characteristics"]}
                found[(node["typeName"], node.get("name"), tuple(sorted(chars.items())))] = chars
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(folder.glob("*.json")):
        if path.stat().st_size <= MAX_BYTES:
            walk(json.loads(path.read_text(encoding="utf-8")))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--stationary", action="store_true", help="the firer was Stationary (Heavy, Ordnance)")
    parser.add_argument("--hits", type=int, default=None, help="give marker weapons this many hits")
    args = parser.parse_args(argv)
    profiles = weapon_profiles(args.folder)
    full, refused = 0, 0
    holding: Counter[str] = Counter()
    for (kind, name, _), chars in profiles.items():
        melee = kind == "Melee Weapon"
        weapon = {"name": name or "weapon", **{k: v for k, v in chars.items() if v is not None}}
        doc: dict[str, Any] = {
            "edition": "hh3",
            "attacker": {**LEGIONARY, "models": 1},
            "weapon": weapon,
            "target": {**LEGIONARY, "models": 10},
            "mode": "melee" if melee else "shooting",
        }
        if args.stationary and not melee:
            doc["stationary"] = True
        if args.hits is not None and any(m in (chars.get("Special Rules") or "") for m in ("Blast", "Template")):
            doc["hits"] = args.hits
        try:
            out = calc(doc)
        except PraetorError as exc:
            refused += 1
            holding[f"refused: {str(exc)[:70]}"] += 1
            continue
        if out["not_modelled"]:
            holding.update(set(out["not_modelled"]))
        else:
            full += 1
    total = len(profiles)
    print(f"{full} of {total} distinct weapon profiles fully modelled ({100 * full / total:.1f}%); {refused} refused")
    for label, n in holding.most_common(25):
        print(f"  {n:4d}  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
