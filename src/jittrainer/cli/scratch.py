"""``jittrainer run ID [FILE]``: a scratch run — your draft run as a program, ungraded, never recorded.

It runs the file's ``if __name__ == "__main__":`` block in a worker, under the exercise's limits, and prints what
the grader would have seen: what each jitted call printed, which calls traced and compiled and why, each jitted
function's jaxpr, and the error with your line if the program raised.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jittrainer.cli.exercises import draft_path, find, given_file, read_source, session_for
from jittrainer.cli.report import plain
from jittrainer.cli.style import EXIT_FAIL, EXIT_PASS, EXIT_USAGE, Style, print_json
from jittrainer.grading.host.pool import head_start
from jittrainer.grading.host.run import Submission
from jittrainer.grading.host.scratch import scratch_run
from jittrainer.grading.limits import scratch_devices
from jittrainer.grading.scratch import ScratchRun
from jittrainer.i18n import _, language
from jittrainer.i18n.message import render
from jittrainer.units import seconds

SHOWN_LINES = 30


def cmd_run(args: argparse.Namespace) -> int:
    with head_start() as pool:  # its worker imports jax while the course and the draft are read
        session = session_for(args)
        ex = find(session, args.id)
        devices = scratch_devices(ex)
        pool.want((devices,))
        path = given_file(args.path) if args.path else draft_path(session, ex)
        source = read_source(path)
        submission = Submission(ex, source, path.resolve(), timing=False, lang=session.lang)
        result = scratch_run(submission, session.limits(ex, args.timeout), pool.take(devices))
    if args.json:
        print_json(scratch_json(result))
    else:
        print_scratch(result, ex.id, path, Style(sys.stdout))
    if result.error is not None and result.error.type == "InternalError":
        return EXIT_USAGE
    return EXIT_PASS if result.ok else EXIT_FAIL


def scratch_json(result: ScratchRun) -> dict:
    """The run as ``run --json`` prints it: the verdict's plain form (messages rendered, keys in English)."""
    data = plain(result)
    data.pop("headline", None)
    return {"exercise": result.exercise, "message": result.message, "lang": language(), **data}


def print_scratch(result: ScratchRun, exercise_id: str, path: Path, style: Style) -> None:
    word = style.bad(_("RAISED")) if result.error is not None else style.ok(_("RAN"))
    meta = _("{path} · {duration} · ungraded, not recorded").format(path=style.path(path),
                                                                    duration=seconds(result.duration_s))
    what = _("scratch run")
    print(f"{style.bold(exercise_id)} · {what} · {word}   {style.dim(meta)}")
    print("  " + result.message.replace("\n", "\n  "))
    if result.calls:
        print()
        print(style.bold(_("Jitted calls")))
        misses = {}
        for miss in result.cache_misses:
            misses.setdefault(miss.call, []).append(miss)
        for call in result.calls:
            done = call.outcome()
            print(f"  {call.number:>3}. {call.function}({', '.join(call.types)})  {style.dim(done)}")
            for miss in misses.get(call.number, []):
                print(style.dim("       " + _("{function}: {reason}").format(function=miss.function,
                                                                          reason=render(miss.reason))))
    if result.error is not None and result.error.traceback:
        print()
        where = _("Where your code failed (line {line})").format(line=result.error.line) if result.error.line else \
            _("Where your code failed")
        print(style.bold(where))
        for line in result.error.shown_traceback().splitlines()[-12:]:
            print(f"  {line}")
    sections = [s for s in result.output_sections if s.text.strip() or s.label.startswith("call ")]
    if any(s.text.strip() for s in sections):
        print()
        print(style.bold(_("Output")))
        for section in sections:
            print(style.dim(f"  ── {result.section_title(section.label)} ──"))
            if not section.text.strip():
                print(style.dim("  " + _("(printed nothing)")))
                continue
            lines = section.text.rstrip().splitlines()
            for line in lines[:SHOWN_LINES]:
                print(f"  {line}")
            if len(lines) > SHOWN_LINES:
                print(style.dim("  " + _("… {n} more lines (see --json)").format(n=len(lines) - SHOWN_LINES)))
    for jaxpr in result.jaxprs:
        print()
        print(style.bold(_("Jaxpr of {function}").format(function=render(jaxpr.function))))
        for line in jaxpr.text.splitlines()[:40]:
            print(f"  {line}")


def add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help=_("the exercise: its id, folder name or number"))
    p.add_argument("path", nargs="?", help=_("file to run (default: your draft)"))
    p.add_argument("--json", action="store_true", help=_("print what happened as one JSON object"))
    from jittrainer.cli.argtypes import positive_float

    p.add_argument("--timeout", type=positive_float, metavar="S",
                   help=_("time limit in seconds (default: the exercise's, as for check)"))
