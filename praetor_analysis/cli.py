"""The `praetor` command line: ``calc`` (docs/scenario.md), ``import`` (BattleScribe data), and more.

Bad input (any :class:`~praetor_analysis.errors.PraetorError`) and file-system errors (a folder where a
file is expected, a missing folder, a full disk, a pipe) end with exit status 2 and one line on standard
error naming the field or the file; never a traceback. Exit status 1, "internal error", is left for defects.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from praetor_analysis.errors import MAX_MESSAGE_CHARS, PraetorError, cap_message
from praetor_analysis.io import OutputError, check_output_path

if TYPE_CHECKING:  # imported where used: the command starts without the analysis modules
    import pandas as pd


class UsageError(PraetorError):
    """Bad input at the command line (exit status 2)."""


MAX_SCENARIO_BYTES = 16 * 1024 * 1024
"""Largest scenario input accepted by ``praetor calc`` (a sweep of tens of thousands of scenarios)."""

__all__ = ["MAX_MESSAGE_CHARS", "MAX_SCENARIO_BYTES", "UsageError", "build_parser", "main"]


def _one_line(message: str) -> str:
    return cap_message(message, MAX_MESSAGE_CHARS)


def _os_message(exc: OSError) -> str:
    """One line for a file-system error: the file and the reason."""
    if isinstance(exc, OutputError):
        return str(exc)
    if exc.filename is None:  # never name '' for a file
        return f"a file could not be read or written: {exc.strerror or exc}"
    return f"cannot read or write {str(exc.filename)!r}: {exc.strerror or exc}"


#: A Dask scheduler address: ``PROTOCOL://HOST[:PORT]`` or ``HOST:PORT`` (no spaces).
_SCHEDULER = re.compile(r"(?:[a-z][a-z0-9+.-]*://[^\s/]+(?::\d+)?/?|[\w.-]+:\d+)")


def _writable(flag: str, path: str) -> None:
    """Refuse, naming ``flag`` and the file, an output that is a folder, a pipe, a device or in no folder."""
    try:
        check_output_path(path)
    except OSError as exc:
        raise UsageError(f"{flag}: {exc}", field=flag, value=path) from None


def _read_input(path: str) -> str:
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_SCENARIO_BYTES + 1)
        else:
            p = Path(path)
            if not p.exists():
                raise UsageError(f"SCENARIO: no such file: {path!r}")
            if p.is_dir():
                raise UsageError(f"SCENARIO: {path!r} is a directory, not a scenario file")
            if not p.is_file():  # a pipe or a device could block for ever: standard input ("-") reads a pipe
                raise UsageError(f"SCENARIO: {path!r} is not a regular file (give - to read standard input)")
            with p.open("rb") as fh:
                raw = fh.read(MAX_SCENARIO_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"SCENARIO: cannot read {path!r}: {exc.strerror or exc}") from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise UsageError(f"SCENARIO: input larger than {MAX_SCENARIO_BYTES} bytes refused")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"SCENARIO: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def cmd_calc(args: argparse.Namespace) -> int:
    """praetor calc SCENARIO.json: print the result JSON."""
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.scenario import calc_json

    text = _read_input(args.scenario)
    try:
        result = calc_json(text)
    except ScenarioError as exc:
        raise UsageError(str(exc), field=exc.field, value=exc.value) from None
    if args.summary:
        from praetor_analysis.views import summary_lines

        sys.stdout.write("\n".join(summary_lines(result)) + "\n")
        return 0
    try:
        out = json.dumps(result, indent=None if args.compact else 2, allow_nan=False)
    except ValueError as exc:  # a NaN or infinity in a result would not be valid JSON
        raise RuntimeError(f"result is not valid JSON: {exc}") from None
    sys.stdout.write(out)
    sys.stdout.write("\n")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """praetor import BSDATA_DIR [--out DIR]: rebuild the shipped catalog CSVs (XML data: the 2nd edition's;
    JSON data: the 3rd edition's, detected by its files' game system)."""
    from praetor_analysis.bsdata import build_catalog
    from praetor_analysis.views import import_lines

    if args.show < 0:
        raise UsageError(f"--show: expected 0 or more lines, got {args.show}", field="--show", value=args.show)
    src = Path(args.bsdata)
    if not src.is_dir():
        raise UsageError(f"BSDATA_DIR: not a folder: {args.bsdata!r}")
    if not any(src.glob("*.gst")) and any(src.glob("*.json")):
        return _import_json(src, args)
    out = args.out or "data"
    if Path(out).exists() and not Path(out).is_dir():
        raise UsageError(f"--out: not a folder: {out!r}", field="--out", value=out)
    report = build_catalog(src, Path(out))  # bad files and file-system errors: exit 2 in main
    print(
        f"read {report.files} files; wrote {report.weapon_profiles} weapon profiles "
        f"({report.distinct_weapons} distinct) and {report.unit_profiles} unit profiles to {out}"
    )
    print(
        f"links checked: {report.links_checked}; unresolved: {len(report.unresolved)}; "
        f"corrected tokens: {report.corrected_tokens}"
    )
    if report.texts_not_read:
        names = ", ".join(report.texts_not_read[: args.show])
        more = len(report.texts_not_read) - min(args.show, len(report.texts_not_read))
        print(
            f"profile text not read ({len(report.texts_not_read)} weapons; it may change attacks or rules, "
            f"docs/rules.md#profile-text): {names}{f' and {more} more' if more > 0 else ''}"
        )
    print("\n".join(import_lines(report, out, args.show)))
    return 0


def _import_json(src: Path, args: argparse.Namespace) -> int:
    """The 3rd edition's JSON data into ``--out`` (default ``data/hh3``), one line per missing file group."""
    from praetor_analysis.bsdata import build_hh3_catalog
    from praetor_analysis.views import hh3_import_lines

    out = args.out or "data/hh3"
    report = build_hh3_catalog(src, Path(out))
    print(
        f"read {report.files} JSON files (3rd edition); wrote {report.weapon_profiles} weapon profiles, "
        f"{report.unit_profiles} unit profiles, {report.datasheets} datasheets and {report.options} options to {out}"
    )
    print(
        f"links checked: {report.links_checked}; unresolved: {len(report.unresolved)}; datasheets with a "
        f"dangling link: {report.dangling_datasheets}"
    )
    print("\n".join(hh3_import_lines(report, out, args.show)))
    return 0


def cmd_roster(args: argparse.Namespace) -> int:
    """praetor roster FILE: every unit's best result per phase on one screen (--all: against every target)."""
    from praetor_analysis.analysis import rate_roster, unit_notes
    from praetor_analysis.profiles import MAX_MODELS
    from praetor_analysis.units import read_roster_units
    from praetor_analysis.views import json_rows, note_lines, roster_long, roster_screen, terminal_width, wrap

    if args.models is not None:
        if args.target is None:
            raise UsageError("--models: only used with --target NAME (the standard targets keep their sizes)")
        if not 1 <= args.models <= MAX_MODELS:
            raise UsageError(f"--models: a target of 1 to {MAX_MODELS} models, got {args.models}", field="--models")
    _check_top(args)
    if not Path(args.roster).is_file():
        raise UsageError(f"FILE: no such roster: {args.roster!r}")
    _check_files(args)
    if _list_hh3_roster(args):
        return 0
    try:
        frame = rate_roster(args.roster, args.target, models=args.models, half_range=args.half_range)
    except OSError as exc:
        raise UsageError(f"FILE: cannot read {args.roster!r}: {exc.strerror or exc}") from None
    account = read_roster_units(args.roster).account()
    _write_files(args, frame)
    if args.json:
        sys.stdout.write(json.dumps(json_rows(frame), allow_nan=False) + "\n")
        sys.stderr.write(account + "\n")
        return 0
    if frame.empty:  # no unit rated (none in the roster, or none the engine rates): the account says which
        print(f"{Path(args.roster).name}: no unit rated\n{account}")
        return 0
    phases = [args.phase] if args.phase else ["shooting", "melee"]
    width = terminal_width()
    if args.all:
        shown = frame[frame["phase"].isin(phases)]
        title = f"{Path(args.roster).name}: every unit against every target, sorted by effect per 100 pts"
        lines = [*wrap(title, width), account]  # the points account: one line, whole
        lines += roster_long(shown if args.top is None else shown.head(args.top), width=width)
    else:
        sort = args.sort or (args.phase or "best")
        title = f"{Path(args.roster).name}: {frame['unit'].nunique()} units, the best result per phase\n{account}"
        lines = roster_screen(frame, title, width=width, phases=phases, sort=sort, top=args.top)
    notes = unit_notes(zip(frame["unit"], frame["notes"], strict=True))
    lines += note_lines(notes, width=width, full=args.all)
    print("\n".join(lines))
    return 0


def _check_top(args: argparse.Namespace) -> None:
    if args.top is not None and args.top < 1:
        raise UsageError(f"--top: expected 1 or more rows, got {args.top}", field="--top", value=args.top)


def _check_files(args: argparse.Namespace) -> None:
    """Refuse a --csv or --parquet file that cannot be written, before the work."""
    from praetor_analysis.views import check_table_path

    for flag in ("csv", "parquet"):
        path = getattr(args, flag, None)
        if path:
            check_table_path(f"--{flag}", path)


def _write_files(args: argparse.Namespace, frame: pd.DataFrame) -> None:
    """Write the command's table to its --csv and --parquet files (those given)."""
    from praetor_analysis.views import write_table

    for flag in ("csv", "parquet"):
        path = getattr(args, flag, None)
        if path:
            write_table(frame, path, flag)


def _add_file_flags(p: argparse.ArgumentParser, what: str, parquet: bool = True) -> None:
    p.add_argument("--csv", metavar="FILE", help=f"also write {what} to a CSV file (for a spreadsheet)")
    if parquet:
        p.add_argument("--parquet", metavar="FILE", help=f"also write {what} to a Parquet file (for pandas)")


def _add_edition_flag(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--edition", choices=("hh2", "hh3"), default="hh2",
                   help=f"{what}: hh2 (default, the 2nd edition) or hh3 (the 3rd edition's shipped data)")  # fmt: skip


def _list_hh3_roster(args: argparse.Namespace) -> bool:
    """Print how the roster's game system was recognised (standard error); a 3rd-edition roster is rated as a
    2nd-edition one is (its units from the profiles it embeds, at the 3rd edition's standard targets), and
    ``--list`` lists its units and points instead. True when the roster was listed."""
    from praetor_analysis.analysis import accounting_line, listing_table
    from praetor_analysis.bsdata import Hh3Roster, read_roster
    from praetor_analysis.views import listing_json, print_notes, terminal_width, wrap

    roster = read_roster(args.roster)  # another game's roster: refused here, exit 2
    print_notes("roster", roster.notes)
    if not isinstance(roster, Hh3Roster):
        if getattr(args, "list", False):  # never rated in silence in place of the listing asked for
            raise UsageError(f"--list: {Path(args.roster).name} is a 2nd-edition roster (--list lists a 3rd-edition "
                             "one's units): rate it without --list", field="--list")  # fmt: skip
        return False
    if args.half_range:
        raise UsageError(f"--half-range: {Path(args.roster).name} is a 3rd-edition roster (every weapon is in range)")
    if not getattr(args, "list", False):
        return False
    if args.json:
        sys.stdout.write(json.dumps(listing_json(roster), allow_nan=False) + "\n")
        return True
    name, width = Path(args.roster).name, terminal_width()
    lines = [f"{name}: 3rd-edition roster (hh3), {len(roster.units)} units", *listing_table(roster).splitlines()]
    for line in lines:  # folded at the terminal's width, the folds indented
        print("\n".join(wrap(line, width, indent=" " * (len(line) - len(line.lstrip()) + 4))))
    print(accounting_line(roster))  # the points account: one line, whole
    return True


def cmd_matchup(args: argparse.Namespace) -> int:
    """praetor matchup MINE THEIRS: every unit against every unit, both ways, and the fire plans."""
    from praetor_analysis.analysis.list_matchup import matchup
    from praetor_analysis.views import Progress, matchup_units, note_lines, pair_table, plan_lines, terminal_width
    from praetor_analysis.views import print_roster_notes as notes

    if args.json and args.table:
        raise UsageError("--table: not used with --json (the JSON holds every pair)", field="--table")
    _check_top(args)
    for label, path in (("MINE", args.mine), ("THEIRS", args.theirs)):
        if not Path(path).is_file():
            raise UsageError(f"{label}: no such list: {path!r}")
    if args.output:
        _writable("-o", args.output)
    _check_files(args)
    notes("matchup", args.mine, args.theirs)
    progress = Progress("matchup")
    try:
        result = matchup(args.mine, args.theirs, progress=progress)
    finally:
        progress.close()
    if args.output:
        try:
            from praetor_analysis.views import write_matchup_report
        except ImportError as exc:
            raise UsageError(f"-o: needs the 'viz' extra (pip install 'praetor_analysis[viz]'): {exc}") from None
        write_matchup_report(result, args.output)
    _write_files(args, result.pairs)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), allow_nan=False) + "\n")
        return 0
    width = terminal_width()
    names = {"mine": result.mine.name, "theirs": result.theirs.name}
    lines = [army.account or f"{army.name}: {army.points:.0f} points, {len(army.units)} units"
             for army in (result.mine, result.theirs)]  # fmt: skip
    for plan in result.plans:
        lines += ["", *plan_lines(plan, width=width)]
    phases = [args.phase] if args.phase else ["shooting", "melee"]
    sort = args.sort or (args.phase or "best")
    lines += ["", *matchup_units(result.pairs, names, width=width, phases=phases, sort=sort, top=args.top)]
    if args.table:
        shown = result.pairs[result.pairs["phase"].isin(phases)]
        lines += ["", *pair_table(shown, names, width=width)]
    else:
        lines.append("Every pair, both ways: --table; files: --csv FILE, --parquet FILE, -o REPORT.html.")
    lines += note_lines(result.unit_notes(), width=width, full=args.table, flag="--table")
    print("\n".join(lines))
    return 0


def cmd_wargear(args: argparse.Namespace) -> int:
    """praetor wargear DATASHEET --target NAME: every option ranked by what it adds per 100 points, both phases."""
    from praetor_analysis.analysis import edition_wargear
    from praetor_analysis.views import terminal_width, wargear_screen, wargear_title

    _check_top(args)
    _check_files(args)
    sheet = {
        "name": args.datasheet,
        **({"faction": args.faction} if args.faction else {}),
        **({"legion": args.legion} if args.legion else {}),
    }
    phases = [args.phase] if args.phase else ["shooting", "melee"]
    frame, target = edition_wargear(sheet, args.target, args.models, edition=args.edition, phases=phases,
                                    size=args.size, half_range=args.half_range)  # fmt: skip
    _write_files(args, frame)
    if args.json:
        rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
        sys.stdout.write(json.dumps(rows, allow_nan=False) + "\n")
        return 0
    title = wargear_title(frame, args.datasheet, target, edition=args.edition, legion=args.legion)
    top = args.top if args.top is not None else 15
    print("\n".join(wargear_screen(frame, title, width=terminal_width(), top=top, show_all=args.all)))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    """praetor sweep FACTION -o FOLDER: every datasheet (and single option) against a field of targets, written
    as a Parquet dataset of one part per datasheet (a stopped sweep resumes where it stopped)."""
    from praetor_analysis.analysis import FAILURES, check_folder, progress_bar, sweep_tasks, write_sweep
    from praetor_analysis.engine import cap_workers
    from praetor_analysis.views import sweep_line

    try:
        check_folder(args.out)
    except OSError as exc:
        raise UsageError(f"-o: {exc}", field="-o", value=args.out) from None
    if args.scheduler is not None and not _SCHEDULER.fullmatch(args.scheduler):
        raise UsageError(
            f"--scheduler: expected a Dask scheduler address such as tcp://127.0.0.1:8786, got {args.scheduler!r}",
            field="--scheduler",
            value=args.scheduler,
        )
    if args.workers is not None and args.scheduler:
        raise UsageError(
            "--workers: not with --scheduler (the cluster's own workers do the work)",
            field="--workers",
            value=args.workers,
        )
    workers = 1 if args.workers is None else args.workers
    if workers < 1:
        raise UsageError(f"--workers: expected at least 1, got {workers}", field="--workers", value=workers)
    workers, capped = cap_workers(workers)
    if capped and not args.quiet:
        print(f"praetor sweep: --workers {args.workers}: {capped}", file=sys.stderr)
    datasheets = list(dict.fromkeys(args.datasheets)) if args.datasheets else None
    if datasheets is not None and len(datasheets) < len(args.datasheets) and not args.quiet:
        print(f"praetor sweep: --datasheets: {len(args.datasheets) - len(datasheets)} repeated name(s) taken once",
              file=sys.stderr)  # fmt: skip
    targets = args.targets
    if targets not in ("standard",) and ":" not in targets:
        targets = f"roster:{targets}" if Path(targets).is_file() else f"faction:{targets}"
    tasks = sweep_tasks(args.faction, targets, legion=args.legion, datasheets=datasheets, edition=args.edition)
    about = {"faction": args.faction, "legion": tasks[0].legion if tasks else "", "targets": args.targets,
             **({"edition": "hh3"} if args.edition == "hh3" else {})}  # fmt: skip
    show = sys.stderr.isatty() and not args.quiet
    report = write_sweep(tasks, args.out, workers=workers, scheduler=args.scheduler,
                         progress=progress_bar if show else None, about=about)  # fmt: skip
    print(sweep_line(args.out, report, FAILURES))
    return 1 if report.failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    """praetor report: one standalone HTML file (the shipped default comparison with no arguments)."""
    try:
        from praetor_analysis.views import hh3_report_main, report_edition, report_main
    except ImportError as exc:
        raise UsageError(f"report: needs the 'viz' extra (pip install 'praetor_analysis[viz]'): {exc}") from None
    if args.out not in (None, "-"):  # refuse an unwritable destination before the work
        _writable("-o", args.out)
    from praetor_analysis.views import Progress, print_roster_notes, written_line

    if args.roster and Path(args.roster).is_file():  # a missing one: report_main says so, naming --roster
        print_roster_notes("report", args.roster)
    edition = report_edition(args.edition, args.roster, args.weapons)  # the roster's unless asked (checked)
    progress = Progress("report")
    try:
        if edition == "hh3" and not args.roster:
            code = int(hh3_report_main(args.targets, args.out, progress=progress))
        else:
            code = int(report_main(args.weapons, args.targets, args.roster, args.out, progress=progress))
    finally:
        progress.close()
    if code == 0 and args.out not in (None, "-"):  # the page itself on standard output: nothing else there
        print(written_line(args.out))
    return code


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on standard error (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {_one_line(message)} (see {self.prog} -h)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `praetor` command."""
    parser = _Parser(prog="praetor", description="Exact Horus Heresy weapon probabilities.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("calc", help="compute a JSON scenario (docs/scenario.md); '-' reads standard input")
    p.add_argument("scenario", help="path to a scenario JSON file, or '-'")
    p.add_argument("--compact", action="store_true", help="print the JSON on one line")
    p.add_argument("--summary", action="store_true", help="one line per result: the means and P(any), no JSON")
    p.set_defaults(func=cmd_calc)
    p = sub.add_parser("import", help="rebuild the catalog CSVs from BattleScribe data")
    p.add_argument("bsdata", help="folder holding the .gst and .cat files (2nd edition) or the .json files (3rd)")
    p.add_argument(
        "-o", "--output", "--out", dest="out", default=None,
        help="output folder (default: data, or data/hh3 for the 3rd edition); --out is the older name",
    )  # fmt: skip
    p.add_argument("--show", type=int, default=10, help="how many unresolved links and corrections to list")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser(
        "roster", help="every unit of a .ros/.rosz roster: its best result per phase per 100 points (--all: the table)"
    )
    p.add_argument("roster", help="path to a .ros or .rosz file")
    p.add_argument("--half-range", action="store_true", help="targets at half range (Rapid Fire, Melta)")
    p.add_argument(
        "--target", metavar="NAME", help="one standard target or unit profile (default: every standard target)"
    )
    p.add_argument("--models", type=int, metavar="N", help="models in the --target unit")
    p.add_argument("--json", action="store_true", help="print a JSON list of rows instead of the table")
    p.add_argument("--all", action="store_true", help="every unit against every target (the long table)")
    p.add_argument("--top", type=int, metavar="N", help="only the first N units (N rows with --all)")
    p.add_argument("--phase", choices=("shooting", "melee"), help="only this phase")
    p.add_argument("--sort", choices=("best", "shooting", "melee", "points", "unit"),
                   help="order of the first screen (default: best, or the --phase given)")  # fmt: skip
    _add_file_flags(p, "every row (every unit against every target)")
    p.add_argument("--list", action="store_true", help="list a 3rd-edition roster's units and points, not rated")
    p.set_defaults(func=cmd_roster)
    p = sub.add_parser(
        "matchup", help="two lists (.ros, .rosz, or .json datasheet lists): every unit against every unit, fire plans"
    )
    p.add_argument("mine", help="my list: a .ros/.rosz roster or a .json list of datasheet blocks")
    p.add_argument("theirs", help="their list, the same kinds")
    p.add_argument("--json", action="store_true", help='print {"lists", "pairs", "plans", "not_modelled"} as JSON')
    p.add_argument("--table", action="store_true", help="also print every pair (a side column says who attacks)")
    p.add_argument(
        "-o", "--output", "--report", dest="output", metavar="OUT.html",
        help="also write the matchup report (one offline HTML file); --report is the older name",
    )  # fmt: skip
    p.add_argument("--top", type=int, metavar="N", help="only the first N units in the table of best targets")
    p.add_argument("--phase", choices=("shooting", "melee"), help="only this phase in the tables")
    p.add_argument("--sort", choices=("best", "shooting", "melee", "points", "unit"),
                   help="order of the units (default: best, or the --phase given)")  # fmt: skip
    _add_file_flags(p, "every pair (both ways; pmf columns as lists)")
    p.set_defaults(func=cmd_matchup)
    what = "every option of a datasheet ranked by what it adds per 100 points of its cost, both phases"
    p = sub.add_parser("wargear", help=what, description=what[0].upper() + what[1:] + ".")
    p.add_argument("datasheet", help="a datasheet name, e.g. 'Heavy Support Squad'")
    p.add_argument("--target", metavar="NAME", required=True, help="a standard target or unit profile")
    p.add_argument("--models", type=int, metavar="N", help="models in the --target unit")
    p.add_argument("--size", type=int, metavar="N", help="models in the unit (default: the datasheet's minimum)")
    p.add_argument("--faction", metavar="NAME", help="picks among datasheets of the same name")
    p.add_argument("--legion", metavar="NAME", help="the force's Legion ('Dark Angels'): its own options are offered")
    p.add_argument("--half-range", action="store_true", help="the target at half range (Rapid Fire, Melta)")
    p.add_argument("--json", action="store_true", help="print a JSON list of rows instead of the table")
    p.add_argument("--all", action="store_true", help="every rated option and every option not rated, in full")
    p.add_argument("--top", type=int, metavar="N", help="the first N options (default 15)")
    p.add_argument("--phase", choices=("shooting", "melee"), help="only this phase")
    _add_edition_flag(p, "the datasheet's and the target's edition")
    _add_file_flags(p, "every row (each option, model slot and phase)", parquet=False)
    p.set_defaults(func=cmd_wargear)
    p = sub.add_parser(
        "sweep",
        help="every datasheet of a faction (and each single option) against a field of targets, to a Parquet dataset",
    )
    p.add_argument("faction", help="the attacking faction, as the catalog names it ('Dark Angels')")
    p.add_argument(
        "--targets",
        default="standard",
        help="'standard' (default), another faction's name (its datasheets), or a .ros/.rosz roster",
    )
    p.add_argument(
        "-o", "--output", "--out", dest="out", metavar="FOLDER", required=True,
        help="the Parquet dataset's folder: one part per datasheet; run again to resume a stopped sweep",
    )  # fmt: skip
    p.add_argument(
        "--legion", metavar="NAME", help="the force's Legion: the datasheets and options every Legion may take, "
        "and its own (default: the faction's, when it is a Legion)",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=int, default=None,
        help="worker processes of a local Dask cluster (default 1: in this process; at most the cores)",
    )  # fmt: skip
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask cluster (dask.distributed)")
    p.add_argument("--datasheets", nargs="+", metavar="NAME", help="only these datasheets of the sweep")
    p.add_argument("--quiet", action="store_true", help="no progress line or notes on standard error")
    _add_edition_flag(p, "the datasheets' and the targets' edition")
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser("report", help="write a standalone HTML report (figures and tables, works offline)")
    p.add_argument("--weapons", nargs="+", metavar="NAME", help="weapon names (default: an iconic dozen)")
    p.add_argument("--targets", nargs="+", metavar="NAME", help="target archetypes (default: all shipped)")
    p.add_argument("--roster", metavar="FILE", help="a BattleScribe / New Recruit roster (.ros or .rosz)")
    p.add_argument(
        "-o", "--output", "--out", dest="out", metavar="OUT.html", default="-",
        help="output file ('-': standard output); --out is the older name",
    )  # fmt: skip
    p.add_argument("--edition", choices=("hh2", "hh3"), default=None,
                   help="hh2 or hh3: the report's edition (default: the roster's, else hh2); hh3 with no roster: "
                   "the 3rd edition's iconic datasheets")  # fmt: skip
    p.set_defaults(func=cmd_report)
    return parser


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _reader_gone() -> int:
    """Standard output's reader stopped reading (``praetor ... | head``): stop quietly, exit status 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is left in the buffer goes nowhere at exit
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `praetor` console script."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed a one-line usage error
        return int(exc.code or 0)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if main_thread else None  # unwinds: no temporary left
    try:
        return _run(args)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a reader that stopped reading (| head) is seen here, not at exit
        return status
    except BrokenPipeError:
        return _reader_gone()
    except PraetorError as exc:
        print(f"praetor {args.command}: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:  # a folder, a missing folder, a full disk, a pipe: the file system said no
        print(f"praetor {args.command}: {_one_line(_os_message(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"praetor {args.command}: internal error: {type(exc).__name__}: {_one_line(str(exc))}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
