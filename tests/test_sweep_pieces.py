"""Pieces of ``praetor sweep``: a 3rd-edition datasheet's variants (each fields its own option, at its own
points), the progress line on standard error, and the output folder refused naming the path."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from praetor_analysis.analysis import check_folder, progress_bar
from praetor_analysis.analysis.faction_sweep import hh3_variants
from praetor_analysis.analysis.sweep_dataset import read_sweep

# a datasheet of the shipped 3rd-edition snapshot with options that carry weapons
SHEET, FACTION = "Deathwing Companion Detachment", "I - Dark Angels"


def test_each_variant_fields_the_datasheet_with_its_option_alone() -> None:
    variants = hh3_variants(SHEET, FACTION)
    labels = [label for label, _ in variants]
    assert labels[0] == "default" and len(labels) > 2 and len(set(labels)) == len(labels)
    default = variants[0][1]()
    assert default.datasheet == SHEET and default.options == ()
    for label, field in variants[1:]:
        unit = field()
        assert unit.datasheet == SHEET and unit.options == (label,)
        assert unit.points >= default.points


def test_the_progress_line_is_rewritten_in_place_and_ends_when_done(capsys: pytest.CaptureFixture[str]) -> None:
    progress_bar(1, 3, time.monotonic())
    err = capsys.readouterr().err
    assert err.startswith("\rpraetor sweep: 1/3 parts, ") and err.endswith(" s")
    progress_bar(3, 3, time.monotonic() - 5)
    assert capsys.readouterr().err == "\rpraetor sweep: 3/3 parts, 5 s\n"


def test_the_output_folder_is_refused_naming_the_path(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="no folder name given: ''"):
        check_folder("")
    afile = tmp_path / "a file"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(OSError, match="it is a file") as caught:
        check_folder(afile)
    assert caught.value.filename == str(afile)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="it is a pipe or a device") as caught:
        check_folder(fifo)
    assert caught.value.filename == str(fifo)
    with pytest.raises(OSError, match="no such folder") as caught:
        check_folder(tmp_path / "none" / "out")
    assert caught.value.filename == str(tmp_path / "none" / "out")
    assert check_folder(tmp_path / "new") == tmp_path / "new"


def test_a_folder_without_a_manifest_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=rf"^{re.escape(repr(str(tmp_path)))}: no sweep manifest"):
        read_sweep(tmp_path)
