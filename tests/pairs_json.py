"""The pair rows of a matchup as its JSON gives them, for tests that build a pair frame by hand."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.list_matchup import Matchup, matchup


@functools.cache
def _shooting_matchup() -> Matchup:
    return matchup(read_list_json({"name": "mine", "units": ["Tactical Squad"]}),
                   read_list_json({"name": "theirs", "units": ["Praetor"]}), phases=("shooting",))  # fmt: skip


def pairs_json(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The pair rows of a matchup whose pairs are ``frame``, as its JSON gives them (``Matchup.to_dict``; the
    columns its notes are gathered by are added, then left out)."""
    gather = {"side": "mine", "attacker": "u", "notes": [[] for _ in range(len(frame))]}
    keyed = frame.assign(**{k: v for k, v in gather.items() if k not in frame.columns})
    rows = dataclasses.replace(_shooting_matchup(), pairs=keyed).to_dict()["pairs"]
    return [{k: v for k, v in row.items() if k in frame.columns} for row in rows]
