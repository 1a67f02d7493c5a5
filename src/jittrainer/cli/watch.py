"""``jittrainer watch [ID]``: the rustlings loop for people who live in their own editor.

A plain terminal loop (it works over ssh and in any terminal): it grades the draft every time it is saved, on a
warm worker, and prints the verdict; after a pass it offers the next exercise. Keys: ``h`` a hint, ``a`` the advice,
``r`` grade again, ``n`` the next exercise (after a pass), ``q`` quit. Every save counts as a run, for progress and
for the advice rule. It never hangs silently: a grade in flight says so, runs under the exercise's time limit, and a
newer save (or ``q``) stops it; the learner's output arrives capped inside the verdict; a grade that fails on the
host is said in one line, and watching goes on.

What counts as a save (the learner's code can write to its own file while it is graded, and must not keep watch
grading for ever): a change is a save when the draft's bytes differ from those last graded and from those found when
the last grade ended (the job's processes are all dead by then, so nothing of it can write later). A save during a
grade stops it and grades the new draft; a draft that changes again while that second grade runs is not graded a
third time by itself: watch shows the verdict, says the draft changed while it was graded, and waits for ``r`` or
the next change.

Saves are seen through ``watchfiles`` (inotify and friends); where that is not available, the draft is polled.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from jittrainer.cli.device import add_device_option, device_choice
from jittrainer.cli.exercises import draft_path, find, session_for
from jittrainer.cli.report import print_verdict
from jittrainer.cli.style import EXIT_PASS, Style, UsageError, crash_line, show_notices, shown
from jittrainer.cli.terminal_markdown import render_for_terminal, render_inline
from jittrainer.course.exercises import Exercise
from jittrainer.files import NotARegularFile, read_regular
from jittrainer.grading.host.device import Choice
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import device_counts
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _
from jittrainer.session import Session
from jittrainer.session.progress import save_progress

POLL_S = 0.3


@dataclass
class Event:
    kind: str  # "saved" | "key" | "verdict" | "eof"
    value: Any = None


def _watch_file(path: Path, events: queue.Queue[Event], stop: threading.Event, poll: bool) -> None:
    """Put a "saved" event whenever ``path`` changes (an editor's atomic replace included)."""
    if not poll:
        try:
            from watchfiles import watch

            for changes in watch(path.parent, stop_event=stop, debounce=150, rust_timeout=500, yield_on_timeout=False,
                                 raise_interrupt=False):
                if any(Path(p).name == path.name for _c, p in changes):
                    events.put(Event("saved"))
            return
        except Exception:  # no inotify (limits, a network file system): fall back to polling
            pass
    last = _stamp(path)
    while not stop.wait(POLL_S):
        now = _stamp(path)
        if now != last:
            last = now
            events.put(Event("saved"))


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _read_keys(inp: IO[str], events: queue.Queue[Event], stop: threading.Event) -> None:
    """Single keys from a terminal (no Enter needed); lines from a pipe."""
    if hasattr(inp, "isatty") and inp.isatty():
        import termios
        import tty

        fd = inp.fileno()
        old = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while not stop.is_set():
                ch = os.read(fd, 1).decode("utf-8", "replace")
                if not ch:
                    break
                events.put(Event("key", ch.lower()))
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        return
    for line in inp:
        key = line.strip().lower()[:1]
        if key:
            events.put(Event("key", key))
    events.put(Event("eof"))


class WatchLoop:
    def __init__(self, session: Session, exercise: Exercise, out: IO[str], inp: IO[str], *, poll: bool = False,
                 pool: WorkerPool | None = None, device: Choice | None = None) -> None:
        self.session = session
        self.device = device or Choice("cpu", "")  # --device other than cpu: each grade is timed there too
        self.exercise = exercise
        self.out = out
        self.inp = inp
        self.poll = poll
        self.style = Style(out)
        self.events: queue.Queue[Event] = queue.Queue()
        self.pool = pool or WorkerPool(spares=1, devices=device_counts(exercise))
        self.run: Grading | None = None
        self.passed = False
        self.generation = 0
        self.graded: bytes | None = None  # the draft as the grade in flight (or the last one) read it
        self.settled: bytes | None = None  # the draft as it was when the last grade ended
        self.again = False  # the grade in flight (or the last one) was started by a change made during a grade

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def header(self) -> None:
        ex = self.exercise
        path = draft_path(self.session, ex)
        self.say()
        self.say(self.style.bold(f"── {ex.number:02d} {self.session.title(ex)} ──"))
        self.say(_("Watching {path}: save it in your editor and it is graded.").format(path=self.style.path(path)))
        self.say(self.style.dim(_("keys: h hint · a advice · r grade again · n next (after a pass) · q quit")))

    def read(self) -> bytes | None:
        """The draft's bytes, never waiting (a FIFO in its place is refused); None, said, when it cannot be read."""
        path = self.session.drafts.path(self.exercise)
        try:
            return read_regular(path)
        except NotARegularFile:
            self.say(self.style.bad(_("{path}: not a regular file (a pipe, a device or a folder): only a file can be "
                                      "graded").format(path=shown(path))))
        except OSError as exc:
            self.say(self.style.bad(_("cannot read {path}: {reason}").format(path=shown(path),
                                                                          reason=exc.strerror or exc)))
        return None

    def saved(self) -> None:
        """The watcher saw the draft change: grade it if that is a save (the module's docstring says when)."""
        source = self.read()
        if source is None or source in (self.graded, self.settled):
            return  # unreadable (said), as graded, or as the last grade left it: nothing new since
        if self.run is not None and self.again:
            return  # a second change while a grade runs: said when it ends, not graded by itself
        self.grade(again=self.run is not None, source=source)

    def grade(self, again: bool = False, source: bytes | None = None) -> None:
        """Start grading the draft in a thread; a grade still in flight is stopped (the newer save wins)."""
        self.cancel()
        ex = self.exercise
        path = self.session.drafts.path(ex)
        source = source if source is not None else self.read()
        if source is None:
            return
        self.generation += 1
        generation = self.generation
        self.graded, self.again = source, again
        timed = self.device.mode != "cpu"
        submission = Submission(ex, source, path.resolve(), timing=timed, lang=self.session.lang).on_device(self.device)
        run = self.run = Grading(submission, self.session.limits(ex), take_worker=self.pool.take)
        self.say(self.style.dim(_("grading {name}…").format(name=shown(path.name))))

        def work() -> None:
            try:
                outcome: Any = run.run()
            except Exception as exc:  # noqa: BLE001 - a bug on the host path: said, never "grading…" for ever
                outcome = exc
            self.events.put(Event("verdict", (generation, outcome)))

        threading.Thread(target=work, daemon=True).start()

    def cancel(self) -> None:
        """Stop the grade in flight, if any; a failure to clean up after it is said, never the end of watching."""
        run, self.run = self.run, None
        if run is not None:
            try:
                run.cancel()
            except Exception as exc:  # noqa: BLE001 - a bug on the host path
                self.say(self.style.bad(crash_line(exc)))

    def ended(self, outcome: Verdict | Exception) -> None:
        """A grade ended (every process of its job is dead): show it, and grade again once if the draft changed
        while it ran, unless this grade was itself that once."""
        self.run = None
        self.settled = self.read()
        if isinstance(outcome, Exception):
            self.say(self.style.bad(crash_line(outcome)))
        else:
            self.show(outcome)
        if self.settled is None or self.settled == self.graded:
            return
        if self.again:
            self.say(self.style.warn(_("Your draft changed while it was being graded (does your code write to its own "
                                       "file?): it is not graded again by itself. Press r to grade it now; any later "
                                       "change grades it.")))
            return
        self.grade(again=True, source=self.settled)

    def show(self, verdict: Verdict) -> None:
        ex, session = self.exercise, self.session
        entry = None
        if verdict.internal_error is None and verdict.headline.key != "run.cancelled":
            entry = save_progress(session.record_verdict, ex, verdict)
        entry = entry or session.entry(ex)
        verdict = session.with_advice(ex, verdict, entry)
        self.last = verdict
        self.say()
        print_verdict(verdict, ex, session.drafts.path(ex), self.style,
                      locked_runs=session.advice_locked_hint(ex, verdict, entry), watching=True)
        show_notices()
        self.passed = verdict.passed
        if verdict.passed:
            nxt = session.next_exercise(ex)
            if nxt is None:
                self.say(self.style.ok(_("That was the last exercise. Well done!")))
            else:
                self.say(self.style.ok(_("Next: {number:02d} {title}. Press n to open it, or keep editing.").format(
                    number=nxt.number, title=session.title(nxt))))

    def key(self, key: str) -> bool:
        """Handle one key; False to quit."""
        ex, session = self.exercise, self.session
        if key == "q":
            return False
        if key == "h":
            try:
                hint, _used = session.take_hint(ex)
            except (IndexError, OSError):
                hints = session.hints(ex)
                hint = hints[-1] if hints else None
            if hint is not None:
                self.say()
                self.say(self.style.bold(_("Hint {level} of {total}: {title}").format(
                    level=hint.level, total=len(session.hints(ex)), title=render_inline(hint.heading, self.style))))
                self.say(render_for_terminal(hint.body, self.style))
        elif key == "a":
            save_progress(session.request_advice, ex)
            verdict = getattr(self, "last", None)
            if verdict is not None:
                advice = session.with_advice(ex, verdict).advice
                self.say(self.style.bold(_("Advice: ")) + (render_for_terminal(advice, self.style) if advice
                                                           else _("this verdict has no advice to give")))
        elif key == "r":
            self.grade()
        elif key == "n" and self.passed:
            nxt = session.next_exercise(ex)
            if nxt is not None:
                return self.switch(nxt)
        return True

    def switch(self, exercise: Exercise) -> bool:
        self.stop_watch.set()
        self.exercise = exercise
        self.passed = False
        self.graded = self.settled = None  # another draft
        self.pool.want(device_counts(exercise))
        self.start_watching()
        self.header()
        self.grade()
        return True

    def start_watching(self) -> None:
        self.stop_watch = threading.Event()
        path = draft_path(self.session, self.exercise)
        threading.Thread(target=_watch_file, args=(path, self.events, self.stop_watch, self.poll), daemon=True).start()

    def loop(self) -> int:
        stop_keys = threading.Event()
        self.pool.start()
        self.start_watching()
        threading.Thread(target=_read_keys, args=(self.inp, self.events, stop_keys), daemon=True).start()
        self.header()
        self.grade()
        try:
            while True:
                event = self.events.get()
                if event.kind == "saved":
                    self.saved()
                elif event.kind == "verdict":
                    generation, outcome = event.value
                    if generation == self.generation:
                        self.ended(outcome)
                elif event.kind == "key":
                    if not self.key(event.value):
                        break
                elif event.kind == "eof":
                    continue  # a pipe ended: keep watching until interrupted
        except KeyboardInterrupt:
            pass
        finally:
            stop_keys.set()
            self.stop_watch.set()
            self.cancel()
            self.pool.shutdown()
        self.say(_("Stopped watching."))
        return EXIT_PASS


def cmd_watch(args: argparse.Namespace) -> int:
    session = session_for(args)
    if args.id:
        ex = find(session, args.id, to_grade=True)
    else:
        progress = session.progress.load()
        available = [e for e in session.exercises if e.available]
        if not available:
            raise UsageError(_("no exercises to watch"))
        ex = next((e for e in available if e.id == progress.last_open), None) or next(
            (e for e in available if progress.peek(e.id).status != "passed"), available[0])
    return WatchLoop(session, ex, sys.stdout, sys.stdin, poll=args.poll,
                     device=device_choice(args, session.settings)).loop()


def add_watch_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", nargs="?", help=_("the exercise (default: the one you were on, else the first not passed)"))
    p.add_argument("--poll", action="store_true", help=_("check the file for changes by polling (no inotify)"))
    add_device_option(p)

