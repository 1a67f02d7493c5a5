"""``jittrainer validate / doctor / bench``: for authors, for a machine that misbehaves, for speed targets."""

from __future__ import annotations

import argparse
import importlib.metadata as md
import sys
from pathlib import Path

import jittrainer
from jittrainer import paths
from jittrainer.cli.device import device_choice, device_rows
from jittrainer.cli.exercises import check_packs, session_for
from jittrainer.cli.style import EXIT_FAIL, EXIT_PASS, Style, UsageError, print_json
from jittrainer.course.exercises import ExerciseNotFound, default_root, find_exercise
from jittrainer.i18n import _, cells, ljust
from jittrainer.i18n.message import count
from jittrainer.session.settings import load_settings
from jittrainer.units import seconds


def cmd_validate(args: argparse.Namespace) -> int:
    from jittrainer.course.drills.loader import default_root as drills_root
    from jittrainer.course.drills.loader import load_drills
    from jittrainer.course.validate import validate

    session = session_for(args)
    if args.cards is not None:
        return _validate_cards(args, session)
    packs = []
    for folder in check_packs(args.packs):
        pack = next((p for p in session.course.packs if p.dir == folder.expanduser().resolve()), None)
        if pack is None:  # another pack took its name: the notice above says which
            raise UsageError(_("{path}: the pack was not loaded").format(path=folder))
        packs.append(pack)
    exercises = [ex for p in packs for ex in p.exercises] if packs else [ex for ex in session.exercises if not ex.pack]
    if args.ids:
        try:
            exercises = [find_exercise(exercises if packs else session.exercises, key) for key in args.ids]
        except ExerciseNotFound as exc:
            raise UsageError(str(exc)) from None
    style = Style(sys.stdout)
    went_well: list[bool] = []

    def progress(line: str, ok: bool) -> None:
        went_well.append(ok)
        if not args.json:
            print(f"  {style.ok('✓') if ok else style.bad('✗')} {line}", flush=True)

    course_problems = list(session.course.problems) if not packs else [q for p in packs for q in p.problems]
    for problem in course_problems:
        progress(problem, False)
    deck = None
    if not args.ids and not packs:  # the whole course: its drill cards too, each proof run on the installed JAX
        drills = Path(args.exercises) / "drills" if args.exercises else drills_root()
        if drills.is_dir():
            deck = load_drills(drills)
    # The shipped course and a pack must be complete in each edition they promise; a test folder need not be.
    languages = (not args.exercises or bool(packs)) if args.languages is None else args.languages
    report = validate(exercises, seed=args.seed, jobs=args.jobs, on_result=progress, deck=deck, languages=languages,
                      device=device_choice(args, session.settings))
    report.problems[:0] = course_problems
    if args.json:
        print_json(report.to_dict())
    else:
        print()
        if any(went_well):  # the problems together again, below the lines that went well; else all are just above
            for problem in report.problems:
                print(style.bad(f"  {problem}"))
        summary = _("{exercises}, {grades} in {seconds:.1f} s (seed {seed})").format(
            exercises=count("exercise", report.exercises), grades=count("grade", report.grades),
            seconds=report.seconds, seed=report.seed)
        if deck is not None:
            summary += _("; {cards} proved in {seconds:.1f} s").format(cards=count("drill card", report.cards),
                                                                       seconds=report.cards_seconds)
        if report.ok:
            print(style.ok(_("All good: {summary}").format(summary=summary)))
        else:
            print(style.bad(_("{problems}: {summary}").format(problems=count("problem", len(report.problems)),
                                                             summary=summary)))
        _jax_validated_note(packs, report.ok, style)
    return EXIT_PASS if report.ok else EXIT_FAIL


def _jax_validated_note(packs: list, ok: bool, style: Style) -> None:
    """After a clean run of a pack, say when its pack.toml does not list this JAX yet."""
    from jittrainer.course.versions import installed_jax

    version = installed_jax()
    for pack in packs:
        if ok and version and not pack.validated_on(version):
            print(style.warn(_("{file}: jax_validated does not list {version} yet, and the pack validates on it: add "
                               "it").format(file=pack.dir / "pack.toml", version=version)))


def _validate_cards(args: argparse.Namespace, session) -> int:
    """``validate --cards [ID ...]``: only drill cards (all, or the named ones), each proof run on this JAX."""
    from jittrainer.course.drills.loader import load_drills
    from jittrainer.course.drills.proofs import verify_cards

    style = Style(sys.stdout)
    deck = load_drills(session.course.root / "drills")
    cards = deck.cards if not args.cards else [c for c in deck.cards if c.id in set(args.cards)]
    unknown = set(args.cards) - {c.id for c in cards}
    if unknown:
        raise UsageError(_("no drill card called {ids}").format(ids=", ".join(sorted(unknown))))

    def progress(line: str, ok: bool) -> None:
        if not args.json:
            print(f"  {style.ok('✓') if ok else style.bad('✗')} {line}", flush=True)

    languages = not args.exercises if args.languages is None else args.languages
    problems = ([] if args.cards else list(deck.problems)) + verify_cards(cards, jobs=args.jobs, on_result=progress,
                                                                           languages=languages)
    if args.json:
        print_json({"ok": not problems, "cards": len(cards), "problems": problems})
    else:
        print()
        for problem in problems:
            print(style.bad(f"  {problem}"))
        summary = _("{cards} proved").format(cards=count("drill card", len(cards)))
        print(style.ok(_("All good: {summary}").format(summary=summary)) if not problems else
              style.bad(_("{problems}: {summary}").format(problems=count("problem", len(problems)), summary=summary)))
    return EXIT_PASS if not problems else EXIT_FAIL


def cmd_doctor(args: argparse.Namespace) -> int:
    from jittrainer.grading.host.tasks import probe

    style = Style(sys.stdout)
    session = session_for(args)
    exercises = session.exercises
    rows = [
        ("jittrainer", jittrainer.__version__),
        ("python", sys.version.split()[0] + f" ({sys.executable})"),
    ]
    for package in ("jax", "jaxlib", "numpy", "textual"):
        try:
            rows.append((package, md.version(package)))
        except md.PackageNotFoundError:
            rows.append((package, style.bad(_("not installed"))))
        else:
            if package == "jax":
                rows[-1] = (package, _jax_span(rows[-1][1], style))
    rows += [
        (_("language"), session.lang),
        (_("home"), str(paths.home())),
        (_("workspace"), str(paths.workspace_dir())),
        (_("progress"), str(paths.progress_path())),
        (_("exercises"), _("{root} ({n} found, {bad} unavailable)").format(
            root=args.exercises or default_root(), n=len(exercises), bad=sum(not e.available for e in exercises))),
        (_("packs"), "; ".join(f"{p.name} {p.version} ({p.dir})" for p in session.course.packs) or _("none")),
    ]
    outcome = probe()
    if outcome.ok:
        devices = outcome.data["devices"]
        rows.append((_("worker"), _("started and imported jax in {seconds:.2f} s").format(seconds=outcome.start_s)))
        rows.append((_("devices"), f"{devices['count']} × {devices['platform']} ({devices['kind']})"))
    else:
        rows.append((_("worker"), style.bad(_("failed: {error}").format(error=outcome.error))))
    rows.append((_("isolation"), _isolation(style)))
    rows += device_rows(device_choice(args, session.settings))
    width = max(cells(k) for k, _v in rows)  # a Chinese label takes two cells a character
    for key, value in rows:
        print(f"{ljust(key, width)}  {value}")
    return EXIT_PASS if outcome.ok else EXIT_FAIL


def _isolation(style: Style) -> str:
    """Which worker start is in force for the app, watch, validate and check --all (README, "What holds")."""
    from jittrainer.grading.host.zygote import Zygote

    server = Zygote()
    try:
        if not server.wait_ready():
            return style.bad(_("no fork server ({why}): every job is spawned").format(
                why=server.broken or _("it did not start")))
        if server.mode == "namespaces":
            return _("namespaces: each job runs in its own PID, IPC and mount namespaces, forked from a fork server")
        return style.bad(_("plain: no namespaces here ({why}); a job can see and signal your other processes").format(
            why=server.hello.get("why", "") if server.hello else ""))
    finally:
        server.close()


def _jax_span(version: str, style: Style) -> str:
    from jittrainer.course.versions import TESTED_JAX, tested

    span = _("{low} to {high}.x").format(low=TESTED_JAX[0], high=TESTED_JAX[1])
    if tested(version):
        return _("{version} (inside the span the course is tested on: {span})").format(version=version, span=span)
    return style.bad(_("{version} (outside the span the course is tested on: {span}; drills and verdicts may differ)")
                     .format(version=version, span=span))


def cmd_bench(args: argparse.Namespace) -> int:
    from jittrainer.bench import TARGETS, meets, run_bench

    style = Style(sys.stdout)
    progress = (lambda line: print(style.dim(f"  {line}"), file=sys.stderr, flush=True)) if not args.json else None
    try:
        result = run_bench(args.runs, progress, args.exercises, device_choice(args, load_settings()).platform)
    except (RuntimeError, ExerciseNotFound) as exc:
        raise UsageError(_("bench could not run: {error}").format(error=exc)) from None
    if args.json:
        print_json(result)
        return EXIT_PASS
    verdicts = meets(result)
    rows = [
        (_("cold grade (process start included)"), "cold_grade_s", lambda v: f"{v:.3f} s"),
        (_("forked grade (fork server ready, no spare)"), "forked_grade_s", lambda v: f"{v:.3f} s"),
        (_("warm grade (job handed over → verdict)"), "warm_grade_s", lambda v: f"{v:.3f} s"),
        (_("cold / warm"), "cold_warm_ratio", lambda v: f"{v:.1f}×"),
        (_("review after a pass (reference cached)"), "review_s", lambda v: f"{v:.3f} s"),
        (_("first review (reference measured once)"), "review_first_s", lambda v: f"{v:.3f} s"),
        (_("jittrainer check → verdict (timing off)"), "check_s", lambda v: f"{v:.3f} s"),
        (_("bare python + jax process"), "bare_jax_s", lambda v: f"{v:.3f} s"),
        (_("check / bare jax"), "check_vs_jax_ratio", lambda v: f"{v:.2f}×"),
        (_("app launch → first frame"), "startup_s", lambda v: f"{v:.3f} s"),
        (_("app memory after start-up"), "ui_rss_mb", lambda v: f"{v:.0f} MB"),
    ]
    if "device_start_s" in result or "device_error" in result:  # --device: the executor and its timing
        rows += [(_("device executor start (device opened)"), "device_start_s", lambda v: f"{v:.3f} s"),
                 (_("verdict → timing on the device"), "device_timing_s", lambda v: f"{v:.3f} s"),
                 (_("steady state on the device"), "device_steady_s", seconds)]
    print(_("jittrainer bench · {runs} runs each · {cpus} CPUs").format(runs=result["runs"],
                                                                      cpus=result["machine"]["cpus"]))
    for label, key, fmt in rows:
        value = result.get(key)
        if value is None:
            missing = _("not measured")
            why = result.get("device_error" if key.startswith("device") else "startup_error", "")
            print(f"  {ljust(label, 42)} {style.warn(missing)}  {why}")
            continue
        shown = (_("median {median} (min {low}, max {high})").format(median=fmt(value["median"]), low=fmt(value["min"]),
                                                                     high=fmt(value["max"]))
                 if isinstance(value, dict) else fmt(value))
        target = TARGETS.get(key)
        ok = verdicts.get(key)
        mark = "" if target is None else (style.ok(" ✓") if ok else style.bad(" ✗ " + _("target {t}").format(t=target)))
        print(f"  {ljust(label, 42)} {shown}{mark}")
    return EXIT_PASS
