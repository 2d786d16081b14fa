"""What the command line says agrees with what it prints: the wargear help's unit is the screen's (per 100
points), and a refused faction names the value short with close matches, on one line."""

from __future__ import annotations

from praetor_analysis.cli import main


def test_the_wargear_help_says_per_100_points_as_its_screen_does(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--help"]) == 0
    top = " ".join(capsys.readouterr().out.split())
    assert main(["wargear", "--help"]) == 0
    own = " ".join(capsys.readouterr().out.split())
    for text in (top, own):
        assert "adds per 100 points of its cost" in text
        assert "per point," not in text


def test_an_unknown_faction_is_named_short_with_close_matches(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["sweep", "Ultramarinez", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "praetor sweep: faction: no datasheet of 'Ultramarinez'; did you mean 'Ultramarines'?"
    long = "Ultra" + "x" * 500
    assert main(["sweep", long, "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "(507 characters)" in err  # the value cut, said so: not the message
    assert "... (5" not in err.split("(507 characters)", 1)[1]  # the list of factions is whole, not cut mid-name
    assert "factions: Alpha Legion" in err and err.rstrip().endswith("more)")


def test_one_plural_helper_counts_one_as_singular() -> None:
    from praetor_analysis.errors import counted_noun

    assert [counted_noun(n, "model") for n in (0, 1, 2, "1", "1.5")] == ["0 models", "1 model", "2 models", "1 model",
                                                                     "1.5 models"]  # fmt: skip
    assert counted_noun(1, "casualty", "casualties") == "1 casualty" and counted_noun(3, "casualty", "casualties") == (
        "3 casualties"
    )


def test_no_f_string_says_a_count_then_models_without_the_helper() -> None:
    """Every message or label counting models goes through ``counted`` (a count of 1 reads '1 model'): an f-string
    ``{n} models`` is allowed only where the count cannot be 1 (a range, a bound)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "praetor_analysis"
    allowed = ("{lo}-{hi} models", "MAX_MODELS} models", "{unit.models} models of W", "{models} models of W",
               "{models} models is", "{models} models with", "models x W", "{model} models may", "{main.model} models",
               "W{target.unit.W} models", "%{{x}} models", ":.2f} models", "{per.max} dice per weapon for")  # fmt: skip
    found = []
    for path in root.rglob("*.py"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\} models\b", line) and not any(a in line for a in allowed):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, found


def test_phase_beside_a_datasheet_or_roster_attacker_points_to_mode(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json
    from pathlib import Path

    roster = Path(__file__).parent / "fixtures" / "heavy_support_lascannons.ros"
    for attacker in ({"name": "Tactical Squad"}, {"roster": str(roster), "unit": "Heavy Support Squad"}):
        path = tmp_path / "doc.json"
        path.write_text(json.dumps({"attacker": attacker, "phase": "melee", "target": "Rhino"}), encoding="utf-8")
        assert main(["calc", str(path)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("praetor calc: phase: not used with a datasheet or roster attacker")
        assert 'write "mode": "melee" instead' in err and len(err.splitlines()) == 1


def test_the_no_weapon_note_of_a_3rd_edition_unit_names_it_once(capsys) -> None:  # type: ignore[no-untyped-def]
    import json
    from pathlib import Path

    roster = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Daemons.rosz"
    assert main(["roster", str(roster), "--json", "--target", "Rhino"]) == 0
    rows = json.loads(capsys.readouterr().out)
    notes = [n for r in rows for n in (r.get("not_modelled") or []) if "no weapon for the" in n]
    assert notes and all(n == "no weapon for the shooting phase" for n in notes)
