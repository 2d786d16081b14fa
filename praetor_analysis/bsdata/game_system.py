"""Which game a BattleScribe file is for: its ``gameSystemId`` and ``gameSystemName``, read before anything else.

praetor reads two games: the 2nd edition of the Horus Heresy (the ``Horus Heresy (2022)`` game system, edition
``hh2``) and the 3rd (``Horus Heresy 3rd Edition``, edition ``hh3``). A roster is sent to its edition's reader by
its game system id; a roster whose id is not one of these but whose name is (a copy of the data under another id)
is read with a note; a roster that declares neither is read as the 2nd edition, with a note (hand-written test
files); any other game (the 1st edition ``Warhammer 30,000 - The Horus Heresy``, Warhammer 40,000...) is refused
in one line naming the file, its game system and the games praetor reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import UntrustedFileError

__all__ = [
    "EDITIONS",
    "GAME_SYSTEMS",
    "HH2_SYSTEM_ID",
    "HH3_POINTS_TYPE_ID",
    "HH3_RATINGS_PENDING",
    "HH3_SYSTEM_ID",
    "EditionError",
    "GameSystem",
    "GameSystemError",
    "KnownSystem",
    "game_system_of",
    "identify",
    "require_edition",
]

HH2_SYSTEM_ID = "28d4-bd2e-4858-ece6"
"""``id`` of the ``Horus Heresy (2022)`` game system (BSData/horus-heresy ``2022 - Horus Heresy.gst``)."""
HH3_SYSTEM_ID = "sys-9fe4-1dc3-b7c2-73cf"
"""``gameSystemId`` of ``Horus Heresy 3rd Edition`` (BSData/horus-heresy-3rd-edition)."""

HH3_RATINGS_PENDING = (
    "the ratings read 2nd-edition (hh2) rosters only; the 3rd edition's engine is not wired to rosters yet "
    "(`praetor roster` lists a 3rd-edition roster's units and points)"
)
"""What :func:`require_edition` says when a 3rd-edition roster reaches the 2nd edition's ratings."""

HH3_POINTS_TYPE_ID = "9893-c379-920b-8982"
"""typeId of the ``Point(s)`` cost type of the 3rd edition's game system."""

EDITIONS = ("hh2", "hh3")
"""The editions praetor reads."""


@dataclass(frozen=True)
class KnownSystem:
    """A game system praetor reads: its edition, id and the names its files and rosters give it."""

    edition: str
    id: str
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        """The name shown in messages."""
        return self.names[0]


GAME_SYSTEMS: tuple[KnownSystem, ...] = (
    KnownSystem("hh2", HH2_SYSTEM_ID, ("Horus Heresy (2022)", "(HH V2) Horus Heresy (2022)")),
    KnownSystem("hh3", HH3_SYSTEM_ID, ("Horus Heresy 3rd Edition",)),
)


@dataclass(frozen=True)
class GameSystem:
    """The game system a file declares and what praetor makes of it.

    Attributes:
        id, name: ``gameSystemId`` and ``gameSystemName`` as written (``""`` when absent).
        edition: ``hh2`` or ``hh3``.
        note: Why the file is read although its id is not the edition's (``""`` when it is).
    """

    id: str
    name: str
    edition: str
    note: str = ""


class GameSystemError(UntrustedFileError):
    """A file of a game praetor does not read (exit 2 in the CLI, one line)."""


class EditionError(UntrustedFileError):
    """A file of an edition the asked-for command or engine does not take (yet)."""


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _readable() -> str:
    return "; ".join(f"{s.label} ({s.id}, {s.edition})" for s in GAME_SYSTEMS)


def game_system_of(system_id: str, system_name: str, file: str) -> GameSystem:
    """The edition of a file declaring ``system_id`` and ``system_name``.

    Raises:
        GameSystemError: A game praetor does not read, naming the file, its game system and the games read.
    """
    sid, sname = (system_id or "").strip(), " ".join((system_name or "").split())
    for known in GAME_SYSTEMS:
        if sid == known.id:
            return GameSystem(sid, sname, known.edition)
    for known in GAME_SYSTEMS:
        if _norm(sname) in {_norm(n) for n in known.names}:
            note = f"{file}: game system id {sid[:60]!r} is not {known.id!r}; read as {known.label} by its name"
            return GameSystem(sid, sname, known.edition, note)
    if not sid and not sname:
        note = f"{file}: no game system declared; read as {GAME_SYSTEMS[0].label}"
        return GameSystem("", "", "hh2", note)
    shown = f"{sname[:80]!r} ({sid[:60]})" if sid else repr(sname[:80])
    raise GameSystemError(
        f"{file}: game system {shown} is not a game praetor reads (it reads {_readable()})",
        field="gameSystemName",
        value=sname[:80],
    )


def identify(root: Element, file: str) -> GameSystem:
    """The game system of a parsed roster or data file (its ``gameSystemId``/``gameSystemName`` attributes,
    or the ``id``/``name`` of a ``gameSystem`` root)."""
    tag = root.tag.rsplit("}", 1)[-1]
    if tag == "gameSystem":
        return game_system_of(root.get("id", ""), root.get("name", ""), file)
    return game_system_of(root.get("gameSystemId", ""), root.get("gameSystemName", ""), file)


def require_edition(edition: str, wanted: str, file: str, reason: str) -> None:
    """Refuse a roster of another edition than ``wanted``, in one line naming the file, its edition and ``reason``."""
    if edition != wanted:
        raise EditionError(
            f"{file}: a {_label(edition)} roster, refused: {reason}",
            field="edition",
            value=edition,
        )


def _label(edition: str) -> str:
    return {"hh2": "2nd-edition (hh2)", "hh3": "3rd-edition (hh3)"}.get(edition, edition)
