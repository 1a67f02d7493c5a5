"""``jittrainer check``: grade a draft (or any file) in a worker process and print the verdict."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from jittrainer.cli.exercises import draft_path, find, given_file, read_source, session_for
from jittrainer.cli.device import add_device_option, device_choice, on_device
from jittrainer.cli.exercism import exercism_json
from jittrainer.cli.report import print_verdict, verdict_json
from jittrainer.cli.review import analysis_json, print_review, print_review_pending
from jittrainer.cli.style import EXIT_FAIL, EXIT_PASS, EXIT_USAGE, Style, UsageError, print_json, warn
from jittrainer.files import NotARegularFile, read_regular
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool, head_start
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import device_counts
from jittrainer.i18n import _, ljust
from jittrainer.session.progress import save_progress


def cmd_check(args: argparse.Namespace) -> int:
    if args.all or not args.id:
        return _check(args, None)
    with head_start() as pool:  # one grade: its worker starts now
        return _check(args, pool)


def _check(args: argparse.Namespace, started: WorkerPool | None) -> int:
    session = session_for(args)
    if args.format == "exercism":
        if args.all:
            raise UsageError(_("--format exercism describes one exercise: give its id instead of --all"))
        args.json = True  # results.json is JSON: the format implies --json
    if args.all:
        if args.id or args.path:
            raise UsageError(_("--all grades every draft: give no exercise or file with it"))
        return check_all(session, args)
    if not args.id:
        raise UsageError(_("which exercise? give its id, folder name or number (or --all)"))
    ex = find(session, args.id, to_grade=True)
    if started is not None:
        started.want(device_counts(ex))  # the counts it is graded with; a spare of another count stops
    draft = session.drafts.path(ex)
    path = given_file(args.path) if args.path else draft_path(session, ex)
    source = read_source(path)
    is_draft = path.resolve() == draft.resolve()
    timing = bool(args.timing) and not args.no_timing
    if args.analysis and args.no_review:
        raise UsageError(_("--analysis writes the review: drop --no-review"))
    # The review comes after a pass; results.json has no place for it, so only --analysis asks for it there.
    review = not args.no_review and (args.analysis or not (args.json and args.format == "exercism"))
    submission = on_device(Submission(ex, source, path.resolve(), seed=args.seed, timing=timing, lang=session.lang,
                                      review=review), device_choice(args, session.settings))
    style = Style(sys.stdout)
    concluded: list = []  # (verdict as shown, progress entry): once, as soon as the verdict and its timing are in

    def conclude(verdict):
        if concluded:
            return
        entry = None
        if is_draft and verdict.internal_error is None:
            entry = save_progress(session.record_verdict, ex, verdict)
        if args.advice:
            save_progress(session.request_advice, ex)
        entry = session.entry(ex) if entry is None or args.advice else entry
        concluded.append(entry)
        if not args.json:  # the verdict first: the review follows when it is ready
            shown = session.with_advice(ex, verdict, entry)
            print_verdict(shown, ex, path, style, locked_runs=session.advice_locked_hint(ex, shown, entry))
            if verdict.passed and review:
                print_review_pending(style)

    early = (lambda v: conclude(v) if v.timing.status != "pending" else None) if review else None
    verdict = Grading(submission, session.limits(ex, args.timeout),
                      take_worker=started.take if started else None).run(early, conclude if review else None)
    conclude(verdict)
    verdict = session.with_advice(ex, verdict, concluded[0])
    if args.json:
        data = exercism_json(verdict, ex) if args.format == "exercism" else verdict_json(verdict)
        print_json(data)
    elif verdict.review is not None:
        print_review(verdict.review, style, verdict.timing.platform)
    if args.analysis:
        write_analysis(Path(args.analysis).expanduser(), analysis_json(verdict))
    if verdict.internal_error is not None:
        warn(f"{verdict.internal_error.file}: {verdict.internal_error.message}")
        return EXIT_USAGE
    return EXIT_PASS if verdict.passed else EXIT_FAIL


def write_analysis(path: Path, data: dict) -> None:
    import json

    from jittrainer.files import atomic_write_text

    try:
        atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:
        warn(_("{path}: cannot write the analysis ({reason})").format(path=path, reason=exc.strerror or exc))


def check_all(session, args: argparse.Namespace) -> int:
    """Grade every draft that exists (after a JAX upgrade, or to see where you stand) and print a table. The runs
    update each exercise's status but do not count towards the advice rule."""
    style = Style(sys.stdout)
    pool = WorkerPool(spares=1)
    pool.start()
    rows = []
    try:
        for ex in session.course.available:
            path = session.drafts.path(ex)
            if not path.exists():
                rows.append({"id": ex.id, "number": ex.number, "status": "no draft"})
                continue
            try:
                source = read_regular(path)
            except OSError as exc:  # a FIFO or a folder in its place: said in the table, never waited on
                why = _("not a regular file") if isinstance(exc, NotARegularFile) else exc.strerror or str(exc)
                rows.append({"id": ex.id, "number": ex.number, "status": "unreadable", "message": why})
                if not args.json:
                    word = _("UNREADABLE")
                    print(f"  {ex.number:02d}  {ex.id:<24} {style.bad(ljust(word, 8))}  {why}", flush=True)
                continue
            submission = Submission(ex, source, path.resolve(), seed=args.seed, timing=False, lang=session.lang)
            verdict = Grading(submission, session.limits(ex, args.timeout), take_worker=pool.take).run()
            if verdict.internal_error is None:
                save_progress(partial(session.record_verdict, explicit=False), ex, verdict)
            first = verdict.first_failure
            rows.append({"id": ex.id, "number": ex.number, "status": verdict.status,
                         "first_failure": first.id if first else None, "message": verdict.message,
                         "seconds": verdict.duration_s})
            if not args.json:
                word = {"pass": _("PASSED"), "fail": _("FAILED"), "error": _("ERROR")}[verdict.status]
                paint = style.ok if verdict.passed else style.bad  # padded before painting: colour codes take no cells
                print(f"  {ex.number:02d}  {ex.id:<24} {paint(ljust(word, 8))}  {first.id if first else ''}",
                      flush=True)
    finally:
        pool.shutdown()
    if args.json:
        print_json(rows)
    else:
        graded = [r for r in rows if r["status"] != "no draft"]
        passed = sum(r["status"] == "pass" for r in graded)
        print(style.dim(_("{passed} of {graded} drafts pass; {missing} exercises have no draft yet").format(
            passed=passed, graded=len(graded), missing=len(rows) - len(graded))))
    return EXIT_PASS if all(r["status"] in ("pass", "no draft") for r in rows) else EXIT_FAIL


def add_check_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", nargs="?", help=_("the exercise: its id, folder name or number (in a pack: "
                                                        "<pack>:<id> where the id alone is ambiguous)"))
    p.add_argument("path", nargs="?", help=_("file to grade (default: your draft; only the draft records progress)"))
    p.add_argument("--json", action="store_true", help=_("print the verdict as one JSON object"))
    p.add_argument("--format", choices=("jittrainer", "exercism"), default="jittrainer",
                   help=_("the JSON to print: jittrainer's verdict (default, with --json) or Exercism's results.json "
                          "v3 (exercism implies --json)"))
    p.add_argument("--seed", type=int, help=_("seed for the grader's inputs (default: random, shown in the verdict)"))
    from jittrainer.cli.argtypes import positive_float

    from jittrainer.grading.limits import DEFAULT_TIMEOUT_S

    p.add_argument("--timeout", type=positive_float, metavar="S", help=_(
        "time limit in seconds, from when a worker process takes the job to the verdict (default: the exercise's "
        "own limit, grading.timeout_s in its manifest.toml, else {default:g})").format(default=DEFAULT_TIMEOUT_S))
    p.add_argument("--timing", action="store_true", help=_("also measure timing after the verdict (slower)"))
    add_device_option(p)
    p.add_argument("--no-timing", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--all", action="store_true", help=_("grade every draft you have and print a table"))
    p.add_argument("--no-review", action="store_true",
                   help=_("skip the review of a passing program (its cost against the reference, its approach)"))
    p.add_argument("--analysis", metavar="FILE",
                   help=_("also write the review as Exercism's analysis.json to FILE"))
    p.add_argument("--advice", action="store_true",
                   help=_("show the advice (the code to write) now, without waiting for hints or repeated failures"))
