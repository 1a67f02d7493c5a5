"""``jittrainer list / show / hint / reset``: the course as a learner walks it, without the app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jittrainer.cli.style import EXIT_PASS, Style, UsageError, print_json, show_notices, shown, warn
from jittrainer.cli.terminal_markdown import join_soft_breaks, render_for_terminal, render_inline
from jittrainer.course.exercises import Exercise, ExerciseNotFound
from jittrainer.course.packs import FILE as PACK_FILE
from jittrainer.files import NotARegularFile, read_regular
from jittrainer.cli.device import device_choice
from jittrainer.course.device_check import set_platform
from jittrainer.i18n import _, language
from jittrainer.session import Session
from jittrainer.session.progress import save_progress


def check_packs(folders: list[str] | None) -> list[Path]:
    """The ``--pack DIR`` folders, each required to be a pack (UsageError naming the first that is not)."""
    found = []
    for folder in folders or []:
        path = Path(folder).expanduser()
        if not (path / PACK_FILE).is_file():
            raise UsageError(_("{path}: not a pack (a pack is a folder with {file}; `jittrainer new ID --pack "
                               "{path}` starts one)").format(path=path, file=PACK_FILE))
        found.append(path)
    return found


def session_for(args: argparse.Namespace) -> Session:
    session = Session(getattr(args, "exercises", None), lang=getattr(args, "lang", None),
                      packs=check_packs(getattr(args, "packs", None)))
    if not session.course.root.is_dir():
        raise UsageError(_("{root}: no exercises folder there").format(root=session.course.root))
    for notice in session.course.notices:
        warn(notice)
    if hasattr(args, "device"):  # which exercises' device checks this process can decide
        set_platform(device_choice(args, session.settings).platform)
    return session


def find(session: Session, key: str, *, to_grade: bool = False) -> Exercise:
    """The exercise ``key`` names. One that waits only for its device (an accelerator exercise in the CPU mode) can
    be read, hinted and run here; ``to_grade``: it must be gradable here too."""
    try:
        ex = session.find(key)
    except ExerciseNotFound as exc:
        raise UsageError(str(exc)) from None
    if not ex.available and (to_grade or ex.problems or not ex.applies):
        raise UsageError(_("{folder} is unavailable: {problem}").format(folder=ex.dir.name,
                                                                       problem=ex.unavailable_reason()))
    return ex


def read_source(path: Path) -> bytes:
    """The file to grade or run, read without ever waiting: a FIFO, device or folder in its place is a usage error."""
    try:
        return read_regular(path)
    except NotARegularFile:
        raise UsageError(_("{path}: not a regular file (a pipe, a device or a folder): only a file can be graded")
                         .format(path=shown(path))) from None
    except OSError as exc:
        raise UsageError(_("{path}: cannot read it ({reason})").format(path=shown(path),
                                                                     reason=exc.strerror or exc)) from None


def given_file(path_arg: str) -> Path:
    """A file named on the command line: a usage error when nothing is there."""
    path = Path(path_arg).expanduser()
    if not path.exists():
        raise UsageError(_("{path}: no such file").format(path=shown(path)))
    return path


def draft_path(session: Session, ex: Exercise):
    try:
        return session.drafts.ensure(ex)
    except OSError as exc:
        raise UsageError(_("{where}: cannot create your draft ({reason})").format(
            where=exc.filename or session.drafts.workspace, reason=exc.strerror or exc)) from None


def status_word(status: str, style: Style) -> str:
    words = {"passed": style.ok(_("passed")), "attempted": style.warn(_("attempted")), "new": style.dim(_("new")),
             "unavailable": style.bad(_("unavailable"))}
    return words.get(status, status)


def cmd_list(args: argparse.Namespace) -> int:
    session = session_for(args)
    progress = session.progress.load()
    statuses = session.statuses(progress)
    course = session.course
    rows = [
        {
            "id": ex.id,
            "pack": ex.pack,
            "number": ex.number,
            "title": session.title(ex),
            "topic": ex.topic,
            "status": statuses[ex.id],
            "available": ex.available,
            "problems": ex.problems,
        }
        for ex in session.exercises
    ]
    show_notices()
    if args.json:
        print_json(rows)
        return EXIT_PASS
    style = Style(sys.stdout)
    if not rows:
        print(_("No exercises found."))
        return EXIT_PASS
    width = max(len(course.typed_id(ex)) for ex in session.exercises)
    pack, topic = None, None
    for ex, row in zip(session.exercises, rows):
        if course.packs and ex.pack != pack:
            pack, topic = ex.pack, None
            print(style.bold(pack_heading(session, ex.pack)))
        if row["topic"] != topic:
            topic = row["topic"]
            print(style.bold(course.topic_title(topic) if topic else _("(no topic)")))
        shown = course.typed_id(ex)
        if row["available"]:
            print(f"  {row['number']:02d}  {shown:<{width}}  {row['title']}  [{status_word(row['status'], style)}]")
        else:
            print(f"  {row['number']:02d}  {shown:<{width}}  {style.bad(_('unavailable'))}: {ex.unavailable_reason()}")
    passed = sum(r["status"] == "passed" for r in rows)
    print(style.dim("\n" + _("{passed} of {total} passed · jittrainer show ID · jittrainer check ID").format(
        passed=passed, total=len(rows))))
    return EXIT_PASS


def pack_heading(session: Session, name: str) -> str:
    """``── vmap under jit · pack vmap_under_jit 1.0.0 ──``; the built-in course's for ``name`` ""."""
    pack = session.course.pack(name)
    if pack is None:
        return "── " + _("The course") + " ──"
    words = _("{title} · pack {name} {version}").format(title=pack.title_in(session.lang), name=pack.name,
                                                       version=pack.version)
    from jittrainer.course.versions import installed_jax

    if installed_jax() and pack.jax_validated and not pack.validated_on(installed_jax()):
        words += " " + _("(validated on JAX {versions}; this is JAX {version})").format(
            versions=", ".join(pack.jax_validated), version=installed_jax())
    return f"── {words} ──"


def fallback_note(ex: Exercise, name: str) -> str:
    """A line saying the text is shown in English because it has no translation yet, or ''."""
    if ex.translated(name, language()):
        return ""
    return _("(This text is not translated yet; it is shown in English.)")


def cmd_show(args: argparse.Namespace) -> int:
    session = session_for(args)
    ex = find(session, args.id)
    draft = draft_path(session, ex)
    style = Style(sys.stdout)
    note = fallback_note(ex, "statement")
    if note:
        print(style.dim(note))
    print(join_soft_breaks(ex.statement(session.lang)).rstrip())
    print("\n---")
    print(_("Your draft: {path}").format(path=style.path(draft)))
    print(_("Grade it:   jittrainer check {id}").format(id=ex.id))
    print(_("A hint:     jittrainer hint {id}").format(id=ex.id))
    return EXIT_PASS


def cmd_hint(args: argparse.Namespace) -> int:
    session = session_for(args)
    ex = find(session, args.id)
    hints = session.hints(ex)
    level = args.level if args.level is not None else session.next_hint_level(ex)
    if not 1 <= level <= len(hints):
        raise UsageError(_("--level must be between 1 and {n} for {id}").format(n=len(hints), id=ex.id))
    hint = hints[level - 1]
    save_progress(session.progress.record_hint, ex.id, level)
    style = Style(sys.stdout)
    note = fallback_note(ex, "hints")
    if note:
        print(style.dim(note))
    print(style.bold(_("Hint {level} of {total}: {title}").format(level=level, total=len(hints),
                                                                  title=render_inline(hint.heading, style))))
    print()
    print(render_for_terminal(hint.body, style))
    if level < len(hints):
        print(style.dim("\n" + _("(run `jittrainer hint {id}` again for the next hint)").format(id=ex.id)))
    return EXIT_PASS


def cmd_reset(args: argparse.Namespace) -> int:
    session = session_for(args)
    ex = find(session, args.id)
    drafts = session.drafts
    try:
        kept = drafts.reset(ex)
    except OSError as exc:
        raise UsageError(_("{where}: cannot reset your draft ({reason})").format(
            where=exc.filename or drafts.path(ex), reason=exc.strerror or exc)) from None
    style = Style(sys.stdout)
    print(_("{path} is the starter again.").format(path=style.path(drafts.path(ex))))
    if kept is not None:
        print(_("Your previous draft is kept at {path}").format(path=style.path(kept)))
    return EXIT_PASS
