"""``jittrainer check``: grade a draft (or any file) in a worker process and print the verdict."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from jittrainer.cli.exercises import draft_path, find, session_for
from jittrainer.cli.report import exercism_json, print_verdict, verdict_json
from jittrainer.cli.style import EXIT_FAIL, EXIT_PASS, EXIT_USAGE, Style, UsageError, save_progress, warn
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.run import Submission
from jittrainer.i18n import _


def cmd_check(args: argparse.Namespace) -> int:
    session = session_for(args)
    ex = find(session, args.id)
    draft = session.drafts.path(ex)
    if args.path:
        path = Path(args.path).expanduser()
        if not path.is_file():
            raise UsageError(_("{path}: no such file").format(path=path))
    else:
        path = draft_path(session, ex)
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise UsageError(_("{path}: cannot read it ({reason})").format(path=path, reason=exc.strerror or exc)) from None
    is_draft = path.resolve() == draft.resolve()
    timing = bool(args.timing) and not args.no_timing
    submission = Submission(ex, source, path.resolve(), seed=args.seed, timing=timing, lang=session.lang)
    verdict = Grading(submission, session.limits(ex, args.timeout)).run()
    entry = None
    if is_draft and verdict.internal_error is None:
        entry = save_progress(session.record_verdict, ex, verdict)
    if args.advice:
        save_progress(session.request_advice, ex)
    entry = session.entry(ex) if entry is None or args.advice else entry
    verdict = session.with_advice(ex, verdict, entry)
    if args.json:
        data = exercism_json(verdict) if args.format == "exercism" else verdict_json(verdict)
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print_verdict(verdict, ex, path, Style(sys.stdout), locked_runs=session.advice_locked_hint(ex, verdict, entry))
    if verdict.internal_error is not None:
        warn(f"{verdict.internal_error.file}: {verdict.internal_error.message}")
        return EXIT_USAGE
    return EXIT_PASS if verdict.passed else EXIT_FAIL


def add_check_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help=_("the exercise: its id, folder name or number"))
    p.add_argument("path", nargs="?", help=_("file to grade (default: your draft; only the draft records progress)"))
    p.add_argument("--json", action="store_true", help=_("print the verdict as one JSON object"))
    p.add_argument("--format", choices=("jittrainer", "exercism"), default="jittrainer",
                   help=_("with --json: jittrainer's verdict (default) or Exercism's results.json v3"))
    p.add_argument("--seed", type=int, help=_("seed for the grader's inputs (default: random, shown in the verdict)"))
    from jittrainer.cli.argtypes import positive_float

    p.add_argument("--timeout", type=positive_float, metavar="S", help=_("time limit in seconds (default 10)"))
    p.add_argument("--timing", action="store_true", help=_("also measure timing after the verdict (slower)"))
    p.add_argument("--no-timing", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--advice", action="store_true",
                   help=_("show the advice (the code to write) now, without waiting for hints or repeated failures"))
