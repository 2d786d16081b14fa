"""The batch engine's caches (``engine.batch``): what it computes once per distinct record, hit stage, rule list
and per-hit table, kept from one batch to the next."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

import numpy as np

from praetor_analysis.engine.batch_facts import TargetFacts, VolleyFacts, Wounds
from praetor_analysis.engine.hit_stage import (
    hit_roll_rules,
    hit_stage,
    hits_from_shots,
    hits_from_shots_key,
    shared_roll,
    shots_distribution,
)
from praetor_analysis.engine.volley import Volley
from praetor_analysis.engine.wound_stage import volley_reads, wound_stage_target
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import HitRoll, TargetReads

__all__ = ["MAX_PLANS", "BatchShared"]

MAX_PLANS = 100_000
"""The most (volley, target) plans, and (volley facts, target) pieces, the caches keep (``BatchShared.keep_plan``,
``keep_pair``)."""

_VOLLEY_REST = attrgetter(*(f.name for f in fields(Volley) if f.compare and f.name not in ("weapon", "attacker")))
"""The fields of a volley compared by value, but its weapon and attacker."""

_ROLL_REST = attrgetter(
    *(f.name for f in fields(Volley) if f.compare and f.name not in ("weapon", "attacker", "attacks"))
)
"""The fields of a volley compared by value, but its weapon, attacker and attack count: what its To Hit roll
may read beyond the weapon and attacker (``hit_stage.shared_roll``)."""


class BatchShared:
    """The batch's caches, keyed by object identity (a sweep builds each volley and target once); kept from
    one batch to the next (``batch.SHARED``), so a repeated sweep, dashboard update or single volley finds its facts,
    rule lists and hit stages made. Every record whose id keys an entry is held by ``_by_id``, so no id is
    reused while the caches live; they are dropped when they hold more than ``batch.SHARED_RECORDS`` records."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[object, object]] = {}
        self._by_value: dict[object, object] = {}
        self.kills: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.canonical: dict[tuple[int, int, bool], Unit] = {}
        self.reads: dict[int, TargetReads] = {}
        self._reads_seen: dict[TargetReads, TargetReads] = {}
        self.hits: dict[tuple, tuple[Dist, Dist, float | None, list[str]]] = {}
        self.rolls: dict[tuple, tuple[HitRoll, tuple[str, ...], int | None] | None] = {}
        self.hit_rows: dict[tuple[int, Dist], tuple[Dist, Dist]] = {}
        self._weapon_rolls: dict[int, int] = {}
        self.rules: dict[tuple, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
        self.pinning: dict[tuple, np.ndarray] = {}
        self.pin_vectors: dict[tuple[int, int], np.ndarray] = {}
        self.gets_hot: dict[tuple[int, int], Dist] = {}
        self.tables: dict[tuple, Wounds] = {}
        self._volleys: dict[int, VolleyFacts] = {}
        self._facts: dict[tuple, VolleyFacts] = {}
        self._shallow: dict[tuple, object] = {}
        self._targets: dict[int, TargetFacts] = {}
        self._tokens: dict[tuple, int] = {}
        self._batch_only: dict[int, tuple[Wounds, dict]] = {}
        self.keep_state = False
        self.plans: dict[tuple[int, int], tuple] = {}
        self.pairs: dict[tuple[int, int], tuple | None] = {}
        self.settings: tuple = ()

    def begin(self, keep_state: bool, settings: tuple = ()) -> None:
        """Start a batch: its own large maps, whether it keeps the final states; the kept plans and (volley facts,
        target) pieces dropped when ``settings`` (the module settings they read: the melee chart) changed since."""
        self._batch_only = {}
        self.keep_state = keep_state
        if settings != self.settings:
            self.plans, self.pairs, self.settings = {}, {}, settings

    def end(self) -> None:
        """End a batch: its large maps dropped."""
        self._batch_only = {}

    @property
    def records(self) -> int:
        """How many records (volleys, targets, weapons, attackers) the caches hold."""
        return len(self._by_id)

    def same(self, record: Volley | Unit | Weapon) -> Volley | Unit | Weapon:
        """The first record of the batch equal to ``record``: equal volleys and targets share their caches."""
        # keyed by id for speed; the record is kept with its entry so that its id is never reused by another
        # object while the batch runs (a canonical target made and dropped would free its id)
        entry = self._by_id.get(id(record))
        if entry is None or entry[0] is not record:
            if isinstance(record, Volley):
                entry = self._by_id[id(record)] = (record, self._same_volley(record))
            else:
                entry = self._by_id[id(record)] = (record, self._by_value.setdefault(record, record))
        return entry[1]  # type: ignore[return-value]

    def _same_volley(self, volley: Volley) -> Volley:
        """``same`` for a volley: by its other fields with its weapon and attacker by identity, those being
        ``same``'s (equal volleys have equal fields: one key, without hashing the weapon and attacker again)."""
        if volley.zone_hits is not None:  # zone hits are not compared
            return volley
        shallow = (id(self.same(volley.weapon)), id(self.same(volley.attacker)), *_VOLLEY_REST(volley))
        found = self._shallow.get(shallow)
        if found is None:
            found = self._shallow[shallow] = volley
        return found  # type: ignore[return-value]

    def _roll_rules(self, weapon: Weapon) -> int:
        """A token for ``hit_roll_rules(weapon)``: weapons of one token roll alike."""
        weapon = self.same(weapon)  # type: ignore[assignment]
        token = self._weapon_rolls.get(id(weapon))
        if token is None:
            token = self._weapon_rolls[id(weapon)] = self.token(("roll", hit_roll_rules(weapon)))
        return token

    def keep_plan(self, plan: tuple) -> None:
        """Keep how a (volley, target) of records ``plan[0]``, ``plan[1]`` is resolved (``batch._plan_of``): by
        their ids (the plan holds both records, so neither id is reused while it is kept); at most
        ``MAX_PLANS``, all dropped beyond."""
        if len(self.plans) >= MAX_PLANS:
            self.plans = {}
        self.plans[id(plan[0]), id(plan[1])] = plan

    def keep_pair(self, key: tuple[int, int], pieces: tuple | None) -> None:
        """Keep what a (volley facts, target) cell needs beyond its records (``batch._pair_of``); at most
        ``MAX_PLANS``, all dropped beyond."""
        if len(self.pairs) >= MAX_PLANS:
            self.pairs = {}
        self.pairs[key] = pieces

    def batch_only(self, wounds: Wounds) -> dict:
        """What a memoised table keeps for this batch only (its large chain steps and count maps)."""
        entry = self._batch_only.get(id(wounds))
        if entry is None or entry[0] is not wounds:
            entry = self._batch_only[id(wounds)] = (wounds, {})
        return entry[1]

    def interned(self, reads: TargetReads) -> TargetReads:
        """One ``TargetReads`` object for equal values (they key caches by id)."""
        return self._reads_seen.setdefault(reads, reads)

    def token(self, key: tuple) -> int:
        """A small number standing for ``key`` (equal keys, one number): cheap to hash in the cells' keys."""
        return self._tokens.setdefault(key, len(self._tokens))

    def volley_facts(self, volley: Volley) -> VolleyFacts:
        """The facts of a volley of the batch (one of ``same``'s records)."""
        facts = self._volleys.get(id(volley))
        if facts is None:
            key = VolleyFacts.key(volley)
            facts = self._facts.get(key)
            if facts is None:
                facts = self._facts[key] = VolleyFacts(volley, self)
            self._volleys[id(volley)] = facts
        return facts

    def target_facts(self, target: Unit) -> TargetFacts:
        """The facts of a target of the batch (one of ``same``'s records)."""
        facts = self._targets.get(id(target))
        if facts is None:
            facts = self._targets[id(target)] = TargetFacts(target, self)
        return facts

    def canonical_target(self, target: Unit, reads: TargetReads, *, keep_ws: bool = False) -> Unit:
        """What the wound stage reads of the target for a volley whose rules read ``reads`` (one of
        ``reads_of``'s): targets it cannot tell apart share their tables."""
        key = (id(target), id(reads), keep_ws)
        if key not in self.canonical:
            self.canonical[key] = self.same(wound_stage_target(target, reads, keep_ws=keep_ws))  # type: ignore[assignment]
        return self.canonical[key]

    def reads_of(self, volley: Volley) -> TargetReads:
        """``volley_reads``, one object for equal values (so that it keys the canonical targets by id)."""
        if id(volley) not in self.reads:
            self.reads[id(volley)] = self.interned(volley_reads(volley))
        return self.reads[id(volley)]

    def hit(self, volley: Volley, target: Unit, part: tuple | None) -> tuple[Dist, Dist, float | None, list[str]]:
        """``hit_stage(volley, target)``, once per volley and ``hit_stage_target_part`` (``part``); the To Hit
        roll once for the volleys that differ only in their attack count or in weapon rules the roll does not
        read (``shared_roll``, ``hit_roll_rules``), each volley's hits from it (``hits_from_shots``, once per roll,
        hooks and shots): what ``hit_stage`` computes, in the same steps."""
        key = (id(volley), part)
        stage = self.hits.get(key)
        if stage is None:
            stage = self.hits[key] = self._hit_of(volley, target, part)
        return stage

    def _hit_of(self, volley: Volley, target: Unit, part: tuple | None) -> tuple[Dist, Dist, float | None, list[str]]:
        rest = (self._roll_rules(volley.weapon), id(self.same(volley.attacker)), *_ROLL_REST(volley), part)
        if rest not in self.rolls:
            try:
                found = shared_roll(volley, target)
            except ProfileError:  # raised by hit_stage, after the errors it finds first
                found = None
            # what hits_from_shots reads beyond the shots (one token for the volleys of one roll and hooks)
            key = None if found is None else hits_from_shots_key(volley, found[0])
            self.rolls[rest] = None if found is None else (*found, None if key is None else self.token(key))
        entry = self.rolls[rest]
        if entry is None:
            return hit_stage(volley, target)
        shots, p_pass = shots_distribution(volley)  # its error first, as in hit_stage
        roll, notes, token = entry
        rows = None if token is None else self.hit_rows.get((token, shots))
        if rows is None:
            rows = hits_from_shots(volley, shots, roll)
            if token is not None:
                self.hit_rows[token, shots] = rows
        return rows[0], rows[1], p_pass, list(notes)
