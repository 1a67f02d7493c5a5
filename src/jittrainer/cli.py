"""The headless face of jittrainer: ``jittrainer list/show/check/hint/reset/validate/doctor``.

No jax here and no learner code: grading happens in a worker process (``jittrainer.core.runner``).
``jittrainer`` with no command opens the app.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import jittrainer
from jittrainer.argtypes import positive_float, positive_int
from jittrainer.core import paths
from jittrainer.core.exercises import Exercise, ExerciseNotFound, default_root, find_exercise, load_exercises
from jittrainer.core.units import seconds
from jittrainer.core.verdict import Verdict
from jittrainer.drill_cli import add_drill_parser

EXIT_PASS, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """The command itself could not run: a one-line reason on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 too; keep its usage line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"jittrainer: {message}\n")


class Style:
    """ANSI colour only when writing to a terminal that wants it."""

    def __init__(self, stream: Any) -> None:
        self.on = stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text

    def ok(self, text: str) -> str:
        return self(text, "32")

    def bad(self, text: str) -> str:
        return self(text, "31")

    def warn(self, text: str) -> str:
        return self(text, "33")

    def dim(self, text: str) -> str:
        return self(text, "2")

    def bold(self, text: str) -> str:
        return self(text, "1")


# ---------------------------------------------------------------------------------------------------- helpers


def _exercises(args: argparse.Namespace) -> list[Exercise]:
    root = Path(args.exercises) if getattr(args, "exercises", None) else default_root()
    if not root.is_dir():
        raise UsageError(f"{root}: no exercises folder there")
    return load_exercises(root)


def _find(args: argparse.Namespace) -> tuple[list[Exercise], Exercise]:
    exercises = _exercises(args)
    try:
        ex = find_exercise(exercises, args.id)
    except ExerciseNotFound as exc:
        raise UsageError(str(exc)) from None
    return exercises, ex


def _available(ex: Exercise) -> Exercise:
    if not ex.available:
        raise UsageError(f"{ex.dir.name} is unavailable: {ex.problems[0]}")
    return ex


def _save_progress(action: Any, *args: Any) -> Any:
    """Record progress; a read-only or full disk is a warning, never a lost verdict."""
    try:
        return action(*args)
    except OSError as exc:
        print(f"jittrainer: warning: progress not saved ({exc.strerror or exc}: {exc.filename or paths.home()})", file=sys.stderr)
        return None


def _draft(ex: Exercise) -> Path:
    from jittrainer.core.store import Drafts

    try:
        return Drafts().ensure(ex)
    except OSError as exc:
        raise UsageError(f"{exc.filename or paths.workspace_dir()}: cannot create your draft ({exc.strerror or exc})") from None


def _status_word(status: str, style: Style) -> str:
    return {"passed": style.ok("passed"), "attempted": style.warn("attempted"), "new": style.dim("new")}.get(status, status)


# --------------------------------------------------------------------------------------------------- commands


def cmd_list(args: argparse.Namespace) -> int:
    from jittrainer.core.store import ProgressStore

    exercises = _exercises(args)
    store = ProgressStore()
    data = store.load()
    rows = []
    for ex in exercises:
        rows.append(
            {
                "id": ex.id,
                "number": ex.number,
                "title": ex.title,
                "topic": ex.topic,
                "status": store.status(ex.id, data) if ex.available else "unavailable",
                "available": ex.available,
                "problems": ex.problems,
            }
        )
    for notice in store.notices:
        print(f"jittrainer: {notice}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_PASS
    style = Style(sys.stdout)
    if not rows:
        print("No exercises found.")
        return EXIT_PASS
    width = max(len(r["id"]) for r in rows)
    topic = None
    for row in rows:
        if row["topic"] != topic:
            topic = row["topic"]
            print(style.bold(topic or "(no topic)"))
        if row["available"]:
            status = _status_word(row["status"], style)
            print(f"  {row['number']:02d}  {row['id']:<{width}}  {row['title']}  [{status}]")
        else:
            print(f"  {row['number']:02d}  {row['id']:<{width}}  {style.bad('unavailable')}: {row['problems'][0]}")
    passed = sum(r["status"] == "passed" for r in rows)
    print(style.dim(f"\n{passed} of {len(rows)} passed · jittrainer show ID · jittrainer check ID"))
    return EXIT_PASS


def cmd_show(args: argparse.Namespace) -> int:
    _, ex = _find(args)
    _available(ex)
    draft = _draft(ex)
    print(ex.statement(args.lang).rstrip())
    print(f"\n---\nYour draft: {draft}\nGrade it:   jittrainer check {ex.id}\nA hint:     jittrainer hint {ex.id}")
    return EXIT_PASS


def cmd_hint(args: argparse.Namespace) -> int:
    from jittrainer.core.store import ProgressStore

    _, ex = _find(args)
    _available(ex)
    hints = ex.hints(args.lang)
    store = ProgressStore()
    used = store.entry(ex.id)["hints_used"]
    if args.level is not None:
        if not 1 <= args.level <= len(hints):
            raise UsageError(f"--level must be between 1 and {len(hints)} for {ex.id}")
        level = args.level
    else:
        level = min(max(used, default=0) + 1, len(hints))
    hint = hints[level - 1]
    _save_progress(store.record_hint, ex.id, level)
    style = Style(sys.stdout)
    print(style.bold(f"Hint {level} of {len(hints)}: {hint.title}"))
    print()
    print(hint.body)
    if level < len(hints):
        print(style.dim(f"\n(run `jittrainer hint {ex.id}` again for the next hint)"))
    return EXIT_PASS


def cmd_reset(args: argparse.Namespace) -> int:
    from jittrainer.core.store import Drafts

    _, ex = _find(args)
    _available(ex)
    drafts = Drafts()
    try:
        kept = drafts.reset(ex)
    except OSError as exc:
        raise UsageError(f"{exc.filename or drafts.path(ex)}: cannot reset your draft ({exc.strerror or exc})") from None
    print(f"{drafts.path(ex)} is the starter again.")
    if kept is not None:
        print(f"Your previous draft is kept at {kept}")
    return EXIT_PASS


def cmd_check(args: argparse.Namespace) -> int:
    from jittrainer.core.runner import GradeRun, Limits, Submission
    from jittrainer.core.store import Drafts, ProgressStore

    _, ex = _find(args)
    _available(ex)
    drafts = Drafts()
    draft = drafts.path(ex)
    if args.path:
        path = Path(args.path).expanduser()
        if not path.is_file():
            raise UsageError(f"{path}: no such file")
    else:
        path = _draft(ex)
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    is_draft = path.resolve() == draft.resolve()
    limits = Limits()
    if args.timeout is not None:
        limits.timeout_s = args.timeout
    elif ex.timeout_s:
        limits.timeout_s = ex.timeout_s
    run = GradeRun(Submission(ex, source, path.resolve(), seed=args.seed, timing=not args.no_timing), limits)
    verdict = run.run()
    if is_draft and verdict.internal_error is None:
        _save_progress(ProgressStore().record_attempt, ex.id, verdict.status)
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=2))
    else:
        print_verdict(verdict, ex, path, Style(sys.stdout))
    if verdict.internal_error is not None:
        print(f"jittrainer: {verdict.internal_error.file}: {verdict.internal_error.message}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_PASS if verdict.passed else EXIT_FAIL


ICONS = {"pass": "✓", "fail": "✗", "error": "!", "skip": "·"}


def print_verdict(v: Verdict, ex: Exercise, path: Path, style: Style) -> None:
    word = {"pass": style.ok("PASSED"), "fail": style.bad("FAILED"), "error": style.bad("ERROR")}[v.status]
    print(f"{style.bold(ex.id)} · {word}   {style.dim(f'{path} · seed {v.seed} · {seconds(v.duration_s)}')}")
    print(f"  {v.message}")
    if v.checks:
        print()
        for check in v.checks:
            colour = {"pass": style.ok, "fail": style.bad, "error": style.bad, "skip": style.dim}[check.status]
            print(f"  {colour(ICONS[check.status])} {check.name}")
            if check.status != "pass" and check.message and check.message != v.message:
                print(style.dim(f"      {check.message}"))
    if v.error is not None and v.error.traceback:
        print()
        print(style.bold("Where your code failed") + (f" (line {v.error.line})" if v.error.line else ""))
        for line in v.error.traceback.splitlines()[-12:]:
            print(f"  {line}")
    if v.compiles is not None:
        print()
        print(f"  compiles {v.compiles} · traces {v.traces}")
        for miss in v.cache_misses[:6]:
            print(style.dim(f"    call {miss.call}: {miss.function}: {miss.reason}"))
        if len(v.cache_misses) > 6:
            print(style.dim(f"    … {len(v.cache_misses) - 6} more compiles"))
    if v.output.strip():
        print()
        print(style.bold("Output"))
        lines = v.output.rstrip().splitlines()
        for line in lines[:30]:
            print(f"  {line}")
        if len(lines) > 30:
            print(style.dim(f"  … {len(lines) - 30} more lines (see --json)"))
    t = v.timing
    if t.status == "measured":
        parts = [f"compile {seconds(t.compile_s)}", f"steady {seconds(t.steady_s)}/call"]
        if t.eager_s is not None:
            parts.append(f"eager {seconds(t.eager_s)}/call")
        if t.starter_calls_s is not None:
            parts.append(f"all graded calls {seconds(t.calls_s)} (starter: {seconds(t.starter_calls_s)}, {t.starter_compiles} compiles)")
        print()
        print(style.dim("  timing: " + " · ".join(parts)))
    if v.status != "pass" and v.internal_error is None:
        print(style.dim(f"\n  stuck? jittrainer hint {ex.id}"))


def cmd_validate(args: argparse.Namespace) -> int:
    from jittrainer.core.validate import validate

    exercises = _exercises(args)
    if args.ids:
        try:
            exercises = [find_exercise(exercises, key) for key in args.ids]
        except ExerciseNotFound as exc:
            raise UsageError(str(exc)) from None
    style = Style(sys.stdout)

    def progress(line: str, ok: bool) -> None:
        if not args.json:
            print(f"  {style.ok('✓') if ok else style.bad('✗')} {line}", flush=True)

    deck = None
    if not args.ids:  # the whole pack: its drill cards too (if it has any), each proof run on the installed JAX
        from jittrainer.core.drills import default_root as drills_root
        from jittrainer.core.drills import load_drills

        drills = Path(args.exercises) / "drills" if args.exercises else drills_root()
        if drills.is_dir():
            deck = load_drills(drills)
    report = validate(exercises, seed=args.seed, jobs=args.jobs, on_result=progress, deck=deck)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print()
        for problem in report.problems:
            print(style.bad(f"  {problem}"))
        summary = f"{report.exercises} exercises, {report.grades} grades in {report.seconds:.1f} s (seed {report.seed})"
        if deck is not None:
            summary += f"; {report.cards} drill cards proved in {report.cards_seconds:.1f} s"
        print(style.ok(f"All good: {summary}") if report.ok else style.bad(f"{len(report.problems)} problem(s): {summary}"))
    return EXIT_PASS if report.ok else EXIT_FAIL


def cmd_doctor(args: argparse.Namespace) -> int:
    from jittrainer.core.runner import probe_worker

    style = Style(sys.stdout)
    exercises = _exercises(args)
    rows = [
        ("jittrainer", jittrainer.__version__),
        ("python", sys.version.split()[0] + f" ({sys.executable})"),
    ]
    import importlib.metadata as md

    for package in ("jax", "jaxlib", "numpy", "textual"):
        try:
            rows.append((package, md.version(package)))
        except md.PackageNotFoundError:
            rows.append((package, style.bad("not installed")))
    rows += [
        ("home", str(paths.home())),
        ("workspace", str(paths.workspace_dir())),
        ("progress", str(paths.progress_path())),
        ("exercises", f"{default_root() if not args.exercises else args.exercises} ({len(exercises)} found, "
                      f"{sum(not e.available for e in exercises)} unavailable)"),
    ]
    probe = probe_worker()
    if probe.get("ok"):
        devices = probe["devices"]
        rows.append(("worker", f"started and imported jax in {probe['start_s']:.2f} s"))
        rows.append(("devices", f"{devices['count']} × {devices['platform']} ({devices['kind']})"))
    else:
        rows.append(("worker", style.bad(f"failed: {probe.get('error')}")))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    return EXIT_PASS if probe.get("ok") else EXIT_FAIL


def cmd_bench(args: argparse.Namespace) -> int:
    from jittrainer.core.bench import TARGETS, meets, run_bench

    style = Style(sys.stdout)
    progress = (lambda line: print(style.dim(f"  {line}"), file=sys.stderr, flush=True)) if not args.json else None
    try:
        result = run_bench(args.runs, progress, args.exercises)
    except (RuntimeError, ExerciseNotFound) as exc:
        raise UsageError(f"bench could not run: {exc}") from None
    if args.json:
        print(json.dumps(result, indent=2))
        return EXIT_PASS
    verdicts = meets(result)
    rows = [
        ("cold grade (process start included)", "cold_grade_s", lambda v: f"{v:.3f} s"),
        ("warm grade (job handed over → verdict)", "warm_grade_s", lambda v: f"{v:.3f} s"),
        ("cold / warm", "cold_warm_ratio", lambda v: f"{v:.1f}×"),
        ("app launch → first frame", "startup_s", lambda v: f"{v:.3f} s"),
        ("app memory after start-up", "ui_rss_mb", lambda v: f"{v:.0f} MB"),
    ]
    print(f"jittrainer bench · {result['runs']} runs each · {result['machine']['cpus']} CPUs")
    for label, key, fmt in rows:
        value = result.get(key)
        if value is None:
            print(f"  {label:<42} {style.warn('not measured')}  {result.get('startup_error', '')}")
            continue
        shown = f"median {fmt(value['median'])} (min {fmt(value['min'])}, max {fmt(value['max'])})" if isinstance(value, dict) else fmt(value)
        target = TARGETS.get(key)
        ok = verdicts.get(key)
        mark = "" if target is None else (style.ok(" ✓") if ok else style.bad(f" ✗ target {target}"))
        print(f"  {label:<42} {shown}{mark}")
    return EXIT_PASS


def cmd_app(args: argparse.Namespace) -> int:
    try:
        from jittrainer.app import run
    except ImportError:
        return cmd_list(argparse.Namespace(json=False, exercises=args.exercises))
    return run(exercises_dir=args.exercises)


# ------------------------------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="jittrainer", description="Learn how jax.jit really behaves, one graded pitfall at a time.")
    parser.add_argument("--version", action="version", version=f"jittrainer {jittrainer.__version__}")
    parser.add_argument("--exercises", metavar="DIR", help="read exercises from DIR instead of the bundled ones")
    parser.set_defaults(func=cmd_app)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, func: Any, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--exercises", metavar="DIR", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        p.set_defaults(func=func)
        return p

    p = command("list", cmd_list, "exercises in course order with your status")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = command("show", cmd_show, "print an exercise's statement and the path of your draft")
    p.add_argument("id")
    p.add_argument("--lang", default="en", help=argparse.SUPPRESS)

    p = command("check", cmd_check, "grade your draft (or PATH) in an isolated worker process")
    p.add_argument("id")
    p.add_argument("path", nargs="?", help="file to grade (default: your draft; only the draft records progress)")
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.add_argument("--seed", type=int, help="seed for the grader's inputs (default: random, shown in the verdict)")
    p.add_argument("--timeout", type=positive_float, metavar="S", help="time limit in seconds (default 10)")
    p.add_argument("--no-timing", action="store_true", help="skip the timing measurements after the verdict")

    p = command("hint", cmd_hint, "show the next hint tier (recorded in your progress)")
    p.add_argument("id")
    p.add_argument("--level", type=int, metavar="N", help="show tier N instead of the next one")
    p.add_argument("--lang", default="en", help=argparse.SUPPRESS)

    p = command("reset", cmd_reset, "put your draft back to the starter (the old draft is kept as a backup)")
    p.add_argument("id")

    p = command("validate", cmd_validate, "authoring QA: starters fail, solutions pass, wrong fixes fail")
    p.add_argument("ids", nargs="*", metavar="ID", help="only these exercises")
    p.add_argument("--seed", type=int, help="seed for every grade (default: random)")
    p.add_argument("--jobs", type=int, default=None, help="parallel grades (default: number of CPUs)")
    p.add_argument("--json", action="store_true", help="print a JSON report")

    command("doctor", cmd_doctor, "versions, devices and data paths")

    add_drill_parser(sub)

    p = command("bench", cmd_bench, "measure grading speed (cold vs warm), app start-up and memory on this machine")
    p.add_argument("--json", action="store_true", help="print the measurements as JSON")
    p.add_argument("--runs", type=positive_int, default=7, metavar="N", help="runs per measurement (default 7)")
    return parser




def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "exercises"):
        args.exercises = None
    try:
        return args.func(args)
    except UsageError as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": str(exc)}))
        print(f"jittrainer: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("jittrainer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_PASS


if __name__ == "__main__":
    raise SystemExit(main())
