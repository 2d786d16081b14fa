"""Every shipped weapon's Type line parses to the same records and refusals whatever the memos hold (issue 37,
item 5: rule tokens and cleaned Type tokens are memoised by their text; the cleaning reads look-up tables).

The 3rd edition's weapons read their rules through ``rules.hh3.parse_rules``, not this code, so only the 2nd
edition's catalogue is parsed here. The reference of each record is the same parse with every memo emptied just
before it (nothing remembered from another weapon), compared with the parse of all of them in one pass (memos
filling), in the other order, and once more warm.
"""

from __future__ import annotations

import random
import re

import pytest

from praetor_analysis.catalog import load_rule_names, load_token_corrections, load_weapons
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.profiles import Weapon, parse_rule, parse_weapon_type, split_tokens
from praetor_analysis.profiles.vocabulary import clean_type, rule_name

#: Refused or corrected lines beside the catalogue's: typos, case, brackets, impossible values, duplicates.
EXTRA = (
    "Rending (9+)", "Heavy 1, Brutal (0)", "Melee, Rending", 'Heavy 1, Blast (5")', "Heavy 2, Rending (4+), Rending (6+)",
    "Salvo 2/x", "Salvo 2/4", "Assault (3)", "Destroyer", "Destroyer 2", "Heavy 1, rending 6+", "Melee, Gets hot",
    "Heavy 1, Fleet", "Heavy 2\nmore text", "A, (b, c), d)", "x)), y, (z", "Melee, Brutal 2", "Melee, Shell, Shock (1)",
    "Assult 2. Pinning", "Heavy  3 ,Rending( 6+ )", "Heavy 1, \u2020Rending (6+)*", "Melee, Murderous Strike",
    'Heavy 1, Blast (99999")', "Heavy 1, Rending (12345+)", "Ordnance1, Barrage", 'Heavy 1, Large (5") Blast',
)  # fmt: skip


def _outcome(block: dict[str, str]) -> object:
    """A weapon block's record (with its Type's derived facts) or its refusal, word for word."""
    try:
        weapon = Weapon.from_mapping(block)
    except ProfileError as exc:
        return f"refused: {exc}"
    return (weapon, weapon.type.signature, weapon.type.names, clean_type(block["Type"]))


@pytest.fixture(scope="module")
def blocks() -> list[dict[str, str]]:
    rows = load_weapons()[["name", "Range", "Strength", "AP", "Type"]].astype(str).to_dict("records")
    assert len(rows) > 500  # the whole catalogue, not a stub
    return [*rows, *({"name": "w", "Range": '24"', "Strength": "4", "AP": "-", "Type": t} for t in EXTRA)]


def test_every_shipped_type_line_parses_alike_cold_filling_and_warm(blocks: list[dict[str, str]]) -> None:
    reference = []
    for block in blocks:
        clear_memos()
        reference.append(_outcome(block))
    clear_memos()
    filling = [_outcome(b) for b in blocks]
    backwards = [_outcome(b) for b in reversed(blocks)][::-1]
    clear_memos()
    backwards_cold = [_outcome(b) for b in reversed(blocks)][::-1]
    warm = [_outcome(b) for b in blocks]
    assert filling == reference
    assert backwards == reference
    assert backwards_cold == reference
    assert warm == reference
    assert sum(isinstance(r, str) for r in reference) >= 10  # refusals are among them


def test_a_remembered_token_still_refuses_with_each_callers_field() -> None:
    parse_rule("Rending (6+)", field_name="a")  # a known token remembered...
    for field in ("Type", "attacker.rules"):
        with pytest.raises(ProfileError) as caught:
            parse_rule("Rending (9+)", field_name=field)  # ...and a refused one names each caller's field
        assert str(caught.value) == f"{field}: 'Rending (9+)' needs a roll of 2+ to 6+, got 9+"
    assert parse_rule("Rending (6+)", field_name="b") == parse_rule("Rending (6+)")
    assert parse_weapon_type("Heavy 1, Rending (6+)") == parse_weapon_type("Heavy 1, Rending (6+)")


def _split_reference(text: str) -> list[str]:
    """Commas outside brackets, character by character (the former ``split_tokens``)."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [t for t in out if t]


def test_split_tokens_matches_a_character_scan(blocks: list[dict[str, str]]) -> None:
    texts = [b["Type"] for b in blocks]
    texts += ["", ",", "a,,b", "(", ")", "a), b, (c, d", "((a, b), c), d", " x ( y ,z ) , w ", ")(,)(,"]
    for text in texts:
        assert split_tokens(text) == _split_reference(text), text


def test_the_cleaning_tables_give_the_first_matching_row() -> None:
    """The corrections and the case folding read dicts now: each gives what a scan of the table in order gave."""
    corrections = list(load_token_corrections().itertuples(index=False))
    canon = list(load_rule_names()["name"])
    for wrong, right, _reason in corrections:
        if "," in wrong:
            continue
        first = next(r for w, r, _ in corrections if w == wrong)
        assert rule_name(clean_type(wrong)[0]) == rule_name(clean_type(first)[0])
    for name in canon:
        for spelled in (name.lower(), name.upper(), name.swapcase()):
            first = next(k for k in canon if k.lower() == spelled.lower())
            if spelled not in canon and "," not in spelled:
                assert clean_type(spelled)[0].startswith(first), spelled


def test_a_tidy_line_skips_the_line_steps_and_gives_what_they_give(
    blocks: list[dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``clean_type`` skips its line-wide steps when nothing in the line is untidy: the same text and corrections
    as running them (forced here by a pattern that always matches) on the catalogue and on generated lines."""
    rng = random.Random(37)
    alphabet = [
        "Heavy 2",
        "Rending",
        "(6+)",
        "( 6+ )",
        ",",
        ", ",
        ".",
        " ",
        "  ",
        "\t",
        "\n",
        "\u2019",
        '5"',
        "\u201d",
        "Assult",
    ]
    texts = [b["Type"] for b in blocks] + ["".join(rng.choices(alphabet, k=rng.randint(1, 8))) for _ in range(3000)]
    texts += [" Heavy 1", "Heavy 1 ", "Heavy 1,Shred", "Heavy 1 ,Shred", "Melee,, Shred", "\xa0Melee"]
    tidy = [clean_type(t) for t in texts]
    monkeypatch.setattr("praetor_analysis.profiles.vocabulary._UNTIDY_RE", re.compile(""))
    clear_memos()
    assert [clean_type(t) for t in texts] == tidy


def test_a_shot_kind_matched_only_by_unicode_case_folding_is_an_unknown_token() -> None:
    """'Aſſault 2' (a long s) matched the shot pattern's IGNORECASE but no kind: it raised StopIteration (a
    traceback at the door); it is now an unknown token, named as such, and the line has no shot kind."""
    parsed = parse_weapon_type("A\u017f\u017fault 2, Rending (6+)")
    assert parsed.kind is None and parsed.shots is None
    assert [(r.text, r.known) for r in parsed.rules] == [("A\u017f\u017fault 2", False), ("Rending (6+)", True)]
