"""Drive the real trainer in a real terminal (tmux), the way a learner does.

Launch, see the starter, ctrl+r, see FAILED; quit; put the reference solution in the draft file (as if written in
another editor); relaunch, see it in the editor, ctrl+r, see PASSED, read the review at the top of the Why tab, and
find the pass in the progress file.

A second run kills the app with SIGKILL a second after typing and finds the typing in the draft.

``keyboard_only_desk`` is issue 22's walk with no mouse event: open exercise 1, scroll the Task to "How it is
graded", return to the editor, dedent a selected block, grade, pass.

Run it alone with ``.venv/bin/python tests/e2e/tmux_drive.py`` (prints the screens it saw), or through pytest
(tests/e2e/test_tmux.py, skipped where tmux is missing). It uses its own tmux server socket and kills only that.
"""

from __future__ import annotations

import contextlib
import json
import re
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 120, 40
SHOWN = 24  # characters of a code line the editor pane surely shows at WIDTH
GRADE_TIMEOUT = 120.0  # a cold worker imports jax; CI machines are slow


class TmuxError(AssertionError):
    pass


class Terminal:
    def __init__(self, home: Path, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.socket = f"jt-e2e-{os.getpid()}-{time.monotonic_ns() % 100000}"
        self.session = "jt"
        self.home = home
        self.width, self.height = width, height
        self.started = False

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                                capture_output=True, text=True)
        if check and result.returncode != 0:
            raise TmuxError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def launch(self, *args: str, env: dict[str, str] | None = None) -> None:
        """Run ``jittrainer ARGS`` (the app when no args) in the pane, in English unless ``env`` says otherwise."""
        # COLUMNS/LINES (pytest's environment has them) would override the pane's real size in the app.
        jittrainer = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "jittrainer", *args))
        command = f"unset COLUMNS LINES; cd {shlex.quote(str(REPO))} && {jittrainer}; echo EXITED rc=$?; sleep 60"
        settings = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "JITTRAINER_HOME": str(self.home),
                    "JITTRAINER_EXERCISES": "", "JITTRAINER_LANG": "en", **(env or {})}
        options = [item for key, value in settings.items() for item in ("-e", f"{key}={value}")]
        if not self.started:
            # By default the server exits with its last session, so a new-session right after a kill-session can
            # reach a server that is exiting ("server exited unexpectedly", CI stop 39). Ours lives until close().
            self.tmux("start-server", ";", "set-option", "-s", "exit-empty", "off")
            self.started = True
        self.tmux("new-session", "-d", "-s", self.session, "-x", str(self.width), "-y", str(self.height),
                  *options, command)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session, check=False)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > end:
                raise TmuxError(f"timed out after {timeout:g} s waiting for {text!r}; the screen was:\n{screen}")
            time.sleep(0.1)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def open_app(self, **env: str) -> None:
        self.launch(env=env or None)
        self.wait_for("^r Run", 30)
        time.sleep(0.3)  # the footer is drawn last; give the app a moment to take keys

    def quit_app(self) -> None:
        self.keys("C-q")
        self.wait_for("EXITED rc=0", 15)

    def draft(self, exercise_id: str) -> Path:
        return self.home / "workspace" / f"{exercise_id}.py"

    def close(self) -> None:
        socket_path = self.tmux("display", "-p", "#{socket_path}", check=False).strip()
        self.tmux("kill-server", check=False)  # our own socket: only our session lives there
        if socket_path.endswith(self.socket):
            Path(socket_path).unlink(missing_ok=True)


@contextlib.contextmanager
def terminal() -> Iterator[Terminal]:
    """A tmux terminal with a fresh learner home (``term.home``), killed at the end whatever happened."""
    with tempfile.TemporaryDirectory(prefix="jt-e2e-home-") as tmp:
        term = Terminal(Path(tmp))
        try:
            yield term
        finally:
            term.close()


def first_exercise():
    sys.path.insert(0, str(REPO / "src"))
    from jittrainer.course.exercises import load_exercises

    return next(ex for ex in load_exercises(REPO / "exercises") if ex.available)


def distinctive_line(source: str, other: str) -> str:
    """The start of a line of ``source`` that ``other`` lacks, short enough to show whole in the editor pane."""
    others = {line.strip()[:SHOWN] for line in other.splitlines()}
    for line in source.splitlines():
        start = line.strip()[:SHOWN]
        if start and start not in others and not start.startswith("#"):
            return start
    raise TmuxError("starter and solution have no line that tells them apart in a narrow pane")


def drive(verbose: bool = False) -> None:
    ex = first_exercise()
    starter, solution = ex.starter_path.read_text(), ex.solution_path.read_text()
    with terminal() as term:
        term.open_app()
        shown = term.wait_for(distinctive_line(starter, solution), 10)
        term.keys("C-r")
        failed = term.wait_for("FAILED", GRADE_TIMEOUT)
        term.quit_app()
        term.tmux("kill-session", "-t", term.session)

        term.draft(ex.id).write_text(solution)
        term.open_app()
        term.wait_for(distinctive_line(solution, starter), 10)
        term.keys("C-r")
        passed = term.wait_for("PASSED", GRADE_TIMEOUT)
        term.keys("F4", "F4", "F4")  # Checks → Hints → Task → Why: the review of the pass tops it
        review = term.wait_for("As lean as the reference", GRADE_TIMEOUT)
        assert "Review of your program" in review, review
        if verbose:
            print(shown, failed, passed, review, sep="\n")
        entry = json.loads((term.home / "progress.json").read_text())["exercises"][ex.id]
        assert entry["status"] == "passed" and entry["attempts"] == 2, entry
        term.quit_app()


def app_pid(term: Terminal) -> int:
    """The trainer's process: the child of the shell that tmux runs in the pane."""
    shell = int(term.tmux("display", "-p", "-t", term.session, "#{pane_pid}").strip())
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    if not children:
        raise TmuxError("the app process is not running in the pane")
    return int(children[0])


def kill_while_typing(verbose: bool = False) -> None:
    """SIGKILL a second after the last keystroke: the typing is already in the draft file."""
    ex = first_exercise()
    with terminal() as term:
        term.open_app()
        term.keys("-l", "# typed just before a crash")
        term.wait_for("# typed just before a", 5)
        time.sleep(1.0)
        os.kill(app_pid(term), 9)
        term.wait_for("EXITED rc=137", 10)
        draft = term.draft(ex.id).read_text()
        if verbose:
            print(draft)
        assert draft.startswith("# typed just before a crash"), draft


def watch_grades_each_save(verbose: bool = False) -> None:
    """`jittrainer watch` in one terminal, the draft saved by another program: the save is graded, and passes."""
    ex = first_exercise()
    with terminal() as term:
        term.launch("watch", ex.id)
        term.wait_for("Watching", 30)
        draft = term.draft(ex.id)
        assert draft.read_text() == ex.starter_path.read_text()
        time.sleep(0.5)  # the file watcher is armed once the banner is out; a breath for inotify
        temporary = draft.with_suffix(".tmp")
        temporary.write_text(ex.solution_path.read_text())
        temporary.replace(draft)  # as editors save: write aside, then rename over the draft
        passed = term.wait_for("PASSED", GRADE_TIMEOUT)
        if verbose:
            print(passed)
        entry = json.loads((term.home / "progress.json").read_text())["exercises"][ex.id]
        assert entry["status"] == "passed", entry
        term.keys("q")
        term.wait_for("Stopped watching.", 15)
        term.wait_for("EXITED rc=0", 15)


def external_editor_round_trip(verbose: bool = False) -> None:
    """ctrl+o hands the terminal to $EDITOR on the draft; back in the app, the editor shows what was written there."""
    ex = first_exercise()
    with terminal() as term:
        editor = term.home / "fake-editor"
        editor.write_text('#!/bin/sh\nprintf "# written in the other editor\\n" > "$1.new"\n'
                          'cat "$1" >> "$1.new" && mv "$1.new" "$1"\necho EDITOR-RAN\nsleep 0.5\n')
        editor.chmod(0o755)
        term.open_app(EDITOR=str(editor), VISUAL="")
        term.keys("C-o")
        term.wait_for("# written in the other", 15)
        # The editor's text can be drawn before the footer is: the app is back once its footer is too.
        shown = term.wait_for("^r Run", 5)
        if verbose:
            print(shown)
        assert "# written in the other" in shown and "^r Run" in shown, "the app is back on screen"
        draft = term.draft(ex.id).read_text()
        assert draft.startswith("# written in the other editor\n") and draft.endswith(ex.starter_path.read_text())
        term.quit_app()


def live_grading_keeps_the_cursor(verbose: bool = False) -> None:
    """Live grading marks an error while the learner pauses; the next keystrokes still land where the cursor was."""
    ex = first_exercise()
    with terminal() as term:
        term.open_app()
        term.keys("C-l")
        term.wait_for("live grading on", 5)
        term.keys("-l", "x = (")
        term.keys("Enter")  # the cursor is now on line 2; the unclosed bracket is an error on line 1
        shown = term.wait_for("⚠ ERROR", GRADE_TIMEOUT)  # the panel keeps its tab: the verdict is in its title
        if verbose:
            print(shown)
        term.keys("-l", "XYZ")
        draft = term.draft(ex.id)
        end = time.monotonic() + 10
        while "XYZ" not in draft.read_text() and time.monotonic() < end:
            time.sleep(0.1)
        text = draft.read_text()
        assert text.startswith("x = (\nXYZ"), text[:80]
        term.quit_app()


EDITOR_FOCUSED = "┏━ 01 · "  # the focused pane has a heavy border (app.tcss); the editor's title starts so
PANEL_FOCUSED = "┏━ Task and verdict"


def keyboard_only_desk(verbose: bool = False) -> None:
    """Keys only (tmux sends no mouse event): read the whole Task, fix the code by dedenting a block, pass."""
    import textwrap

    ex = first_exercise()
    starter = ex.starter_path.read_text()
    # The fix as a learner writes it: the solution's function, the starter's example block kept below it.
    solution = ex.solution_path.read_text().rstrip("\n") + "\n\n\n" + starter[starter.index("if __name__"):]
    with terminal() as term:
        term.open_app()
        term.wait_for(EDITOR_FOCUSED, 10)  # an exercise opens with the focus in the editor
        assert "How it is graded" not in term.screen(), "the grading rules start below the fold at 120x40"

        # Scroll the Task to "How it is graded": escape puts the focus in the panel, PageDown pages the tab.
        term.keys("Escape")
        term.wait_for(PANEL_FOCUSED, 10)
        for _ in range(8):
            if "How it is graded" in term.screen():
                break
            term.keys("PageDown")
            time.sleep(0.4)
        read = term.wait_for("How it is graded", 5)

        # Back to the editor: escape again. alt+PageUp then scrolls the Task back up without leaving it.
        term.keys("Escape")
        term.wait_for(EDITOR_FOCUSED, 10)
        term.keys("M-PPage", "M-PPage", "M-PPage", "M-PPage", "M-PPage")
        term.wait_for("A chef cooks a dish", 10)
        assert EDITOR_FOCUSED in term.screen()

        # A block one level too deep (what a paste from a nested scope gives): select it all and dedent it.
        term.keys("F7")  # select everything: the paste replaces it
        too_deep = textwrap.indent(solution, "    ")
        term.tmux("set-buffer", "-b", "jt-code", too_deep)
        term.tmux("paste-buffer", "-p", "-d", "-b", "jt-code", "-t", term.session)
        term.wait_for("5      @jax.jit", 10)
        term.keys("F7", "BTab")  # select all, shift+tab: one level less on every line
        term.wait_for("  5  @jax.jit", 10)

        # Try before grading: F6 runs the example block; jax.debug.print now speaks on both calls, with numbers.
        term.keys("F6")
        term.wait_for("▷ Scratch run · RAN", GRADE_TIMEOUT)
        tried = term.wait_for("── call 2 · normalize(float32[16]) ──", 10)
        assert "Output ▷" in tried and len(re.findall(r"mean of this batch: \d", tried)) == 2 and "Tracer" not in tried, \
            tried
        assert not json.loads((term.home / "progress.json").read_text() if (term.home / "progress.json").exists()
                              else '{"exercises": {}}')["exercises"].get(ex.id, {}).get("attempts"), "recorded"

        term.keys("C-r")
        passed = term.wait_for("PASSED", GRADE_TIMEOUT)
        if verbose:
            print(read, tried, passed, sep="\n")
        assert term.draft(ex.id).read_text() == solution
        entry = json.loads((term.home / "progress.json").read_text())["exercises"][ex.id]
        assert entry["status"] == "passed", entry
        term.quit_app()


if __name__ == "__main__":
    drive(verbose=True)
    kill_while_typing(verbose=True)
    watch_grades_each_save(verbose=True)
    external_editor_round_trip(verbose=True)
    live_grading_keeps_the_cursor(verbose=True)
    keyboard_only_desk(verbose=True)
    print("e2e: OK")
