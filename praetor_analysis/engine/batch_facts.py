"""What the batch engine (``engine/batch.py``) reads of each distinct volley and target once, and the per-hit
tables it shares between cells (memoised by value across batches)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from praetor_analysis.engine.allocation import UnitSpace, WoundGroup
from praetor_analysis.engine.checks import check_boost
from praetor_analysis.engine.hit_stage import hit_stage_reads_target
from praetor_analysis.engine.pinning import locked_in_combat, pinning_exempt, shell_shock_of
from praetor_analysis.engine.rule_report import fresh_single_wound, volley_classification_reads
from praetor_analysis.engine.volley import TargetState, Volley, weapon_strength
from praetor_analysis.engine.wound_stage import build_wound_tables, extra_hits_volley, reads_hit_sixes, volley_wound_key
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import BoundedMemo
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import Role, TargetReads, reads_of

__all__ = ["KEPT_ENTRIES", "TABLES", "Shared", "TargetFacts", "VolleyFacts", "Wounds", "tables_of", "wounds_left"]


class Shared(Protocol):
    """What the facts use of the batch's caches (``batch_shared.BatchShared``)."""

    def token(self, key: tuple) -> int:
        """A small number standing for ``key`` (equal keys, one number)."""
        ...

    def same(self, record: Any) -> Any:
        """The first record of the batch equal to ``record``."""
        ...

    def interned(self, reads: TargetReads) -> TargetReads:
        """One ``TargetReads`` object for equal values."""
        ...

    def reads_of(self, volley: Volley) -> TargetReads:
        """What the volley's rules read of the target in the wound stage (``volley_reads``), interned."""
        ...


@dataclass(frozen=True)
class Wounds:
    """What a cell needs of its per-hit tables: P(wound), P(state-changing wound), the per-hit unsaved pmf,
    the damage of a state-changing wound (None: the allocation chain is needed), its allocation groups, and
    (filled as cells need them) its chain steps per unit space and its count maps (the batch's ``_chain_maps``),
    the small ones: the record is memoised across batches (``TABLES``)."""

    p_wound: float
    p_change: float
    unsaved_each: np.ndarray
    damage: int | None
    groups: tuple[WoundGroup, ...]
    steps: dict[UnitSpace, tuple[np.ndarray, list[np.ndarray]] | None] = field(default_factory=dict)
    maps: dict[tuple, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)


class VolleyFacts:
    """What the batch reads of one volley, computed once per distinct volley: its Strength (None: the one-cell
    engine), Deflagrate, Pinning, Gets Hot, Shell Shock, whether it locks its target in combat (melee), whether
    its rules read the To Hit sixes, whether its hit stage reads nothing of the target, and tokens
    standing for its part of the per-hit table key and of the rule-list key."""

    __slots__ = (
        "class_reads",
        "deflagrate",
        "extra_apart",
        "gets_hot",
        "locks",
        "part_free",
        "pinning",
        "reads",
        "reads_six",
        "rules",
        "shock",
        "strength",
        "wound",
        "wound_key",
    )

    @staticmethod
    def key(volley: Volley) -> tuple:
        """What the facts read of a volley (not its attack count, hits or Gets Hot ones: volleys of one weapon
        share them); the weapon and attacker by identity (the batch keeps the records alive)."""
        fixed = (volley.hits is None, volley.zone_hits is None, volley.placement, volley.strength)
        return (id(volley.weapon), id(volley.attacker), volley.mode, volley.half_range, *fixed)

    def __init__(self, volley: Volley, shared: Shared) -> None:
        w = volley.weapon
        # zones, Psychic checks and Hallucinations' immediate test (joint with the hits) take the exact path
        exact_only = volley.zone_hits is not None or check_boost(volley) is not None or w.plays(Role.PINNING_ON_HITS)
        self.strength = None if exact_only else weapon_strength(volley)
        self.deflagrate, self.pinning, self.gets_hot = (
            w.plays(Role.EXTRA_HITS),
            w.plays(Role.PINNING),
            w.plays(Role.GETS_HOT),
        )
        self.shock = shell_shock_of(w)
        self.locks = locked_in_combat((volley,))  # a melee attack: its target is exempt from Pinning
        self.reads_six = reads_hit_sixes(w)
        # Deflagrate's extra hits wound or save unlike the volley's own hits: exact.py
        self.extra_apart = self.deflagrate and extra_hits_volley(volley) is not None
        self.wound_key = None if self.strength is None else volley_wound_key(volley, self.strength)
        self.wound = None if self.wound_key is None else shared.token(self.wound_key)
        # what classify_rules reads of the volley (not its attack count: volleys of one weapon share the lists),
        # and what its rules read of the target's Unit Type and name (rule_report.classification_reads)
        shooter = (id(shared.same(w)), id(shared.same(volley.attacker)), volley.mode, volley.half_range)
        self.rules = shared.token((*shooter, volley.hits is None, volley.placement, volley.strength, volley.taken))
        self.class_reads = shared.interned(volley_classification_reads(volley))
        self.reads = shared.reads_of(volley)  # what its rules read of the target in the wound stage
        self.part_free = not hit_stage_reads_target(volley)  # its hit stage reads nothing of the target


class TargetFacts:
    """What the batch reads of one target, once per distinct target: its fresh state (or the error it raises),
    the wounds left on its first model, whether Pinning can pin it, and its part of the rule-list key."""

    __slots__ = ("by_reads", "exempt", "fresh", "left", "rule_reads", "target", "vehicle")

    def __init__(self, target: Unit, shared: Shared) -> None:
        self.vehicle = target.is_vehicle
        try:
            self.fresh: TargetState | ProfileError = TargetState.fresh(target)
        except ProfileError as exc:
            self.fresh = exc
        self.left = None if isinstance(self.fresh, ProfileError) else wounds_left(self.fresh)
        self.exempt = pinning_exempt(target)
        self.target = target  # rules_token: what classify_rules reads of it
        self.rule_reads = reads_of(t.name for t in target.rules)
        self.by_reads: dict[int, int] = {}  # the rule-list token of the target, by the volley's reads

    def rules_token(self, reads: TargetReads, shared: Shared) -> int:
        """A token for what ``classify_rules`` reads of the target for a volley whose rules read ``reads``."""
        token = self.by_reads.get(id(reads))
        if token is None:
            t, r = self.target, reads | self.rule_reads
            name = t.name if "name" in r.fields else ""
            wounds = t.W if "W" in r.fields else None
            # the cover save too: classify_rules names a Cover the attack denies (melee, Ignores Cover, templates)
            seen = (r.unit_type(t.unit_type), name, wounds, t.rules, fresh_single_wound(t), t.cover)
            token = self.by_reads[id(reads)] = shared.token(seen)
        return token


TABLES: BoundedMemo[Wounds] = BoundedMemo(1024)
"""The per-hit tables by value, across batches (a dashboard update or a repeated sweep finds them built)."""

KEPT_ENTRIES = 4096
"""The largest chain steps (matrix entries) and count maps (count states x unit states) kept in a memoised
table; larger ones are kept for one batch only."""


def tables_of(volley: Volley, canonical: Unit, strength: int, wounds: int) -> Wounds:
    """The per-hit tables of a volley against a canonical target (``wound_groups``, ``count_damage``): built
    afresh, the caller memoising them by ``wound_groups``' key (``TABLES``)."""
    groups, p_wound, unsaved_each, damage = build_wound_tables(volley, canonical, strength, wounds)
    return Wounds(p_wound, float(unsaved_each[1:].sum()), unsaved_each, damage, tuple(groups))


def wounds_left(state: TargetState) -> int | None:
    """Wounds left on the first model of a fresh unit (None for a unit without models)."""
    if state.space.models == 0:
        return None
    index = int(state.probs[0].argmax())  # a fresh unit's state is a point mass
    return index % state.space.wounds + 1
