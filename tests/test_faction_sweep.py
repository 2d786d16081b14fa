"""praetor sweep: every datasheet of a faction and each single option against a field, both phases; the same
table in one process, on local processes and on a two-worker Dask LocalCluster (loopback only)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis.faction_sweep import SWEEP_COLUMNS, datasheets_of, sweep_faction, variants
from praetor_analysis.errors import ScenarioError

FACTION = "Dark Angels"
SOME = ["Dreadwing Interemptor Squad", "Inner Circle Knights Cenobium", "Deathwing Companions"]


def _some() -> list[str]:
    have = datasheets_of(FACTION)
    return [n for n in SOME if n in have][:2] or have[:2]


@pytest.fixture(scope="module")
def single() -> pd.DataFrame:
    return sweep_faction(FACTION, "standard", datasheets=_some())


def test_table_rows_every_variant_target_and_phase(single: pd.DataFrame) -> None:
    assert list(single.columns) == SWEEP_COLUMNS
    names = _some()
    assert not (single["error"] == "").any() and not (single["reason"] == "").any()  # no error is null, never ''
    n_targets = single.loc[single["error"].isna(), "target"].nunique()
    expected = 0
    for n in names:
        expected += len(variants(n, FACTION)) * n_targets * 2
    refused = single[single["phase"] == ""]
    assert len(single) == expected - len(refused) * (n_targets * 2 - 1)
    ok = single[single["error"].isna() & single["reason"].isna()]
    for r in ok.head(50).to_dict(orient="records"):
        assert math.isclose(r["mean_per_100_pts"], 100 * r["mean"] / r["attacker_points"], rel_tol=1e-12)
        assert math.isclose(sum(r["removed"]), 1.0, abs_tol=1e-9)
    assert set(ok["phase"]) == {"shooting", "melee"}
    assert (ok["variant"] == "default").any() and (ok["variant"] != "default").any()


@pytest.mark.slow
def test_local_workers_give_the_same_table(single: pd.DataFrame) -> None:
    pytest.importorskip("distributed")
    pd.testing.assert_frame_equal(sweep_faction(FACTION, "standard", datasheets=_some(), workers=2), single)


@pytest.mark.slow
def test_two_worker_local_cluster_gives_the_same_table(single: pd.DataFrame) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        seen: list[int] = []
        on_dask = sweep_faction(FACTION, "standard", datasheets=_some(), scheduler=cluster.scheduler_address,
                                progress=lambda done, total, started: seen.append(done))  # fmt: skip
    pd.testing.assert_frame_equal(on_dask, single)
    assert seen == list(range(len(_some()) + 1))


def test_parquet_round_trip(single: pd.DataFrame, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from praetor_analysis.analysis.faction_sweep import write_parquet

    path = tmp_path / "sweep.parquet"
    write_parquet(single, str(path))
    back = pd.read_parquet(path)
    assert list(back.columns) == SWEEP_COLUMNS and len(back) == len(single)
    assert [list(x) for x in back["removed"]] == [list(x) for x in single["removed"]]


def test_bad_faction_and_field_are_refused() -> None:
    with pytest.raises(ScenarioError, match="faction"):
        sweep_faction("No Such Legion")
    with pytest.raises(ScenarioError, match="targets"):
        sweep_faction(FACTION, "nowhere:x", datasheets=_some()[:1])


def test_cli_sweep(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from praetor_analysis.analysis.sweep_dataset import read_sweep

    out = tmp_path / "t"
    name = _some()[0]
    run = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "sweep", FACTION, "--datasheets", name, "-o", str(out),
         "--workers", "1"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # no progress line when standard error is no terminal (issue 36.4)
    assert "1 parts (0 kept" in run.stdout
    assert len(read_sweep(out)) > 0 and len(pd.read_parquet(out)) == len(read_sweep(out))
    bad = subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "sweep", FACTION, "-o", str(out / "x" / "y")],
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "no such folder" in bad.stderr
    afile = tmp_path / "a.parquet"
    afile.write_bytes(b"")
    bad = subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "sweep", FACTION, "-o", str(afile)],
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert bad.returncode == 2 and "not a folder" in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_cli_sweep_workers_beside_scheduler_is_refused(tmp_path: Path) -> None:
    # the cluster's own workers do the work: --workers would be ignored, so it is refused before any connection
    run = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "sweep", FACTION, "-o", str(tmp_path / "t.parquet"),
         "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 2 and "--workers" in run.stderr and "--scheduler" in run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


def _direct(datasheet: str, faction: str, field: str) -> pd.DataFrame:
    """The sweep of one datasheet as every pair computed on its own (no result shared between variants)."""
    from praetor_analysis.analysis.army_list import make_list
    from praetor_analysis.analysis.faction_sweep import field_of
    from praetor_analysis.analysis.matchup import Pair, pair_result, pair_row
    from praetor_analysis.errors import ProfileError
    from praetor_analysis.units.fielded import fielded_unit

    field_name, targets = field_of(field)
    legion = "Dark Angels" if faction == "Dark Angels" else ""
    rows = []
    for found in variants(datasheet, faction, legion):
        variant, block = found.label, found.to_block()
        try:
            unit = make_list(faction, [fielded_unit(block, "datasheet")]).units[0]
        except (ScenarioError, ProfileError):
            continue  # a variant the data refuses: one error row in the sweep, compared apart
        for target in targets:
            for phase in ("shooting", "melee"):
                pair = Pair("sweep", faction, unit, field_name, target, phase)
                try:
                    row = pair_row(pair, pair_result(pair)).to_dict()
                except (ScenarioError, ProfileError) as exc:
                    row = pair_row(pair, None, str(exc)).to_dict()
                per = 100.0 * row["mean"] / unit.loadout.points
                no_melee = "has no model that fights in melee" in row["error"]
                reason = "no melee weapon" if no_melee else None
                row["error"] = row["error"] if row["error"] and not no_melee else None
                rows.append({"datasheet": datasheet, "faction": faction, "legion": legion or None, "variant": variant,
                             "mean_per_100_pts": per, **row, "reason": reason})  # fmt: skip
    return pd.DataFrame(rows, columns=SWEEP_COLUMNS)


@pytest.mark.parametrize(
    ("datasheet", "faction", "field"),
    [
        ("Praetor, Tartaros", "Legiones Astartes", "standard"),  # melee and ranged options of one model
        ("Dreadwing Interemptor Squad", "Dark Angels", "standard"),
        ("Deathwing Companion Detachment", "Dark Angels", "faction:Dark Angels"),  # targets that fight back
    ],
)
def test_results_shared_between_variants_equal_each_pair_on_its_own(datasheet: str, faction: str, field: str) -> None:
    from praetor_analysis.analysis.faction_sweep import sweep_datasheet

    legion = "Dark Angels" if faction == "Dark Angels" else ""
    swept = sweep_datasheet(datasheet, faction, field, legion=legion)
    computed = swept[swept["phase"] != ""].reset_index(drop=True)
    direct = _direct(datasheet, faction, field)
    assert len(direct) > 0 and len(direct) > len(set(direct["variant"])) * 10
    pd.testing.assert_frame_equal(computed, direct, check_exact=True, check_dtype=False)  # refusals made floats


def test_phase_key_reads_only_the_weapons_of_its_phase() -> None:
    from praetor_analysis.analysis.army_list import make_list
    from praetor_analysis.analysis.faction_sweep import phase_key
    from praetor_analysis.units.fielded import fielded_unit

    faction = "Legiones Astartes"
    found = {v.label: v.to_block() for v in variants("Praetor, Tartaros", faction)}
    melee_option = next(v for v in found if v.startswith("Thunder Hammer"))
    units = {v: make_list(faction, [fielded_unit(found[v], "datasheet")]).units[0] for v in ("default", melee_option)}
    assert phase_key(units["default"], "shooting") == phase_key(units[melee_option], "shooting")
    assert phase_key(units["default"], "melee") != phase_key(units[melee_option], "melee")
