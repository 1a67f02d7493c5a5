"""Hostile submissions, round 3 (issue 31): a host that believes nothing the job wrote, and the forgeries through
paths the README calls closed. Each runs as a learner would (``jittrainer check`` in a fresh home, or a grade
through the real worker) against the fixture exercise double(x) = 2x, and fails on the grader before issue 31.

The end of the file keeps, as tests, what the red team found already held."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from helpers import REPO, clean_env, grade_source, jittrainer_cmd
from test_hostile_parts import _Keys, _Screen, wait_until  # imports jax's modules at collection (see there)

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "def double(x):\n    return 2 * x\n"
LIMIT_S = 4.0
SLACK_S = 5.0 + 25.0  # a command's wall time also holds a cold worker start-up on a loaded machine
RAW = ("\x1b", "\x9b", "\u202e")


@pytest.fixture(scope="module")
def double():
    from jittrainer.course.exercises import find_exercise, load_exercises

    return find_exercise(load_exercises(FIXTURES), "double")


def cli(tmp_path: Path, *args: str, code: str | None = None, path: Path | None = None, timeout: float = LIMIT_S,
        env: dict[str, str] | None = None) -> tuple[int, bytes, str, float]:
    """``jittrainer check double [FILE] ARGS`` in a fresh home: (exit code, stdout as bytes, stderr, wall s). With
    ``code`` and no ``path``, the code is the draft (so the grade is recorded as an attempt)."""
    home = tmp_path / "home"
    target: list[str] = []
    if code is not None:
        if path is None:
            (home / "workspace").mkdir(parents=True, exist_ok=True)
            (home / "workspace" / "double.py").write_text(code)
        else:
            path.write_text(code)
    if path is not None:
        target = [str(path)]
    command, rest = (args[0], list(args[1:])) if args else ("check", [])
    if command == "check":
        rest += ["--seed", "1", "--no-review"]
    cmd = [*jittrainer_cmd(), "--exercises", str(FIXTURES), command, "double", *target, "--timeout", str(timeout),
           *rest]
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, env=clean_env(JITTRAINER_HOME=str(home), **(env or {})),
                          stdin=subprocess.DEVNULL, timeout=timeout + 150)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"), time.monotonic() - started


def attempts(tmp_path: Path) -> int:
    progress = json.loads((tmp_path / "home" / "progress.json").read_text())
    return progress["exercises"]["double"]["attempts"]


def line_of(code: str, text: str) -> int:
    return next(n for n, line in enumerate(code.splitlines(), 1) if text in line)


# ------------------------------------------------------------------------------ B1. the stack pipe is not believed


FORGED_STACK = textwrap.dedent('''\
    import os, signal, sys
    fd = int(sys.argv[sys.argv.index("--stack-fd") + 1])

    def answer(signum, frame):  # the host's SIGUSR1, answered in faulthandler's stead
        forged = ("Current thread 0x0 (most recent call first):\\n"
                  f'  File "{__file__}", line {"9" * 5000} in double\\n'
                  f'  File "{__file__}", line 12 in \\x1b[2J\\x1b[1;32mPASSED\\u202e\\x9b\\n'
                  f'  File "{__file__}", line 12 in double\\n')
        os.write(fd, forged.encode())

    signal.signal(signal.SIGUSR1, answer)
    def double(x):
        while True:
            pass
''')


@pytest.mark.parametrize("form", ["text", "--json"])
def test_a_stack_forged_on_the_stack_pipe_is_neither_obeyed_nor_a_crash(tmp_path, form):
    """A 5,000-digit line number made the host raise (exit 2, no attempt); a function name holding escape sequences
    reached the headline raw. Only a real line of the file, in the function defined there, is believed."""
    assert line_of(FORGED_STACK, "def double") == 12
    rc, out, err, wall = cli(tmp_path, *(["check", "--json"] if form == "--json" else []), code=FORGED_STACK)
    text = out.decode("utf-8")
    assert rc == 1, (rc, err)
    assert not any(raw in text for raw in RAW) and "PASSED" not in text, text
    message = json.loads(text)["message"] if form == "--json" else text
    assert "timed out after 4 s during call 1 of double: line 12 of your file (in double) was still running" in message
    assert attempts(tmp_path) == 1
    assert wall < LIMIT_S + SLACK_S


# --------------------------------------------------------------------------------- B2. lone surrogates in output


@pytest.mark.parametrize("form", ["text", "--json"])
def test_lone_surrogates_never_reach_stdout_raw(tmp_path, form):
    """print("\\udc9b2J") went out as the raw byte 0x9b (an 8-bit CSI), --json was then not UTF-8, and a strict
    UTF-8 stdout made the CLI die with UnicodeEncodeError (exit 2)."""
    code = 'print("\\udc9b2J\\udc9b32mPASSED \\ud800")\n' + DOUBLE
    args = ["check", "--json"] if form == "--json" else []
    rc, out, err, wall = cli(tmp_path, *args, code=code, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert rc == 0, (rc, err)
    assert b"\x9b" not in out
    text = out.decode("utf-8")  # strict: stdout is UTF-8
    shown = json.loads(text)["output"] if form == "--json" else text
    assert "\\udc9b2J\\udc9b32mPASSED \\ud800" in shown


# -------------------------------------------------------------- B3, C6. the learner's failures are the learner's


RAISING_STR = "class Bad(Exception):\n    def __str__(self):\n        raise ValueError('no str for you')\n"
HOSTILE_CLASS = textwrap.dedent("""\
    import jax

    class Evil:  # the grader must not ask: isinstance() would read this property
        @property
        def __class__(self):
            raise RuntimeError("gotcha")

    jax.tree_util.register_pytree_node(Evil, lambda e: ((), None), lambda aux, children: Evil())

    def double(x):
        return Evil()
""")
NO_SIGNATURE = textwrap.dedent("""\
    class Double:
        def __call__(self, x):
            return 2 * x

        @property
        def __signature__(self):
            raise RuntimeError("no signature for you")

    double = Double()
""")


@pytest.mark.parametrize(("code", "status", "words"), [
    (RAISING_STR + "def double(x):\n    raise Bad()\n", "fail",
     "double raised Bad on call 1, line 5: (its message could not be read: str() raised ValueError)"),
    (RAISING_STR + "raise Bad()\n" + DOUBLE, "error",
     "your file raised Bad on line 4 while being imported: (its message could not be read: str() raised ValueError)"),
    (HOSTILE_CLASS, "fail", "call 1's result is a Evil, which is not a number or an array of numbers"),
    (NO_SIGNATURE, "error", "your code raised RuntimeError on line 7 when the grader called a method of one of your "
                            "objects"),
], ids=["str-raises-in-a-call", "str-raises-at-import", "class-property-in-compare", "signature-property"])
def test_what_the_learner_s_objects_raise_is_their_failure_not_an_internal_error(tmp_path, code, status, words):
    rc, out, err, wall = cli(tmp_path, "check", "--json", code=code)
    verdict = json.loads(out)
    assert rc == 1 and verdict["status"] == status and verdict["internal_error"] is None, (rc, verdict["message"], err)
    assert verdict["message"].startswith(words), verdict["message"]
    assert attempts(tmp_path) == 1


def test_a_folder_3000_deep_left_at_import_is_the_learner_s_grade_and_is_removed(tmp_path):
    code = "import os\nfor _ in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\n" + DOUBLE.replace("2 *", "3 *")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    try:
        rc, out, err, wall = cli(tmp_path, "check", "--json", code=code, timeout=30, env={"TMPDIR": str(scratch)})
        verdict = json.loads(out)
        assert rc == 1 and verdict["status"] == "fail" and verdict["checks"][1]["status"] == "fail", (rc, err)
        assert attempts(tmp_path) == 1
        assert list(scratch.iterdir()) == []  # the worker's folder went with the job
    finally:  # whatever is left: pytest's own clean-up of old tmp folders recurses too (3.11)
        subprocess.run(["rm", "-rf", str(scratch)], check=False)


# ---------------------------------------------------------------------- B5. files the learner controls


def test_a_draft_replaced_by_a_symlink_to_a_fifo_is_refused_at_once(tmp_path):
    home = tmp_path / "home"
    (home / "workspace").mkdir(parents=True)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (home / "workspace" / "double.py").symlink_to(fifo)
    for command in ("check", "run"):
        rc, out, err, wall = cli(tmp_path, command, timeout=10)
        assert rc == 2 and "double.py: not a regular file (a pipe, a device or a folder)" in err, (command, rc, err)
        assert wall < 60


def test_a_file_name_holding_escape_sequences_is_printed_escaped(tmp_path):
    """Also where the timeout names the line: faulthandler writes such a name escaped, and it is still matched."""
    path = tmp_path / "evil\x1b[2J\u202eyp.py"
    code = "def double(x):\n    while True: pass\n"  # one line: the stack names line 2 wherever the loop is
    rc, out, err, wall = cli(tmp_path, code=code, path=path)
    text = out.decode("utf-8")
    assert not any(raw in text + err for raw in RAW), text
    assert "evil\\x1b[2J\\u202eyp.py" in text
    assert "line 2 of your file (in double) was still running" in text, text


def test_a_draft_that_appends_to_itself_is_graded_twice_not_for_ever(tmp_path, monkeypatch):
    """watch kept regrading a draft that writes to its own file (32-65 grades in 20 s). A change made while a grade
    runs is graded once more; a draft that changes again while that grade runs waits for r or the next change."""
    from jittrainer.cli import watch
    from jittrainer.session import Session

    session = Session(FIXTURES, lang="en")
    ex = session.find("double")
    draft = session.drafts.ensure(ex)
    draft.write_text("with open(__file__, 'a') as fh:\n    fh.write('# again\\n')\n" + DOUBLE)
    screen, keys = _Screen(), _Keys()
    monkeypatch.setattr(sys, "stdout", screen)  # the verdict is printed there
    loop = watch.WatchLoop(session, ex, screen, keys, poll=True)
    thread = threading.Thread(target=loop.loop, daemon=True)
    thread.start()
    try:
        wait_until(lambda: "Your draft changed while it was being graded" in screen.text(), 240, screen.text())
        assert screen.text().count("grading double.py…") == 2 and "PASSED" in screen.text(), screen.text()
    finally:
        keys.lines.put("q\n")
        thread.join(60)
    assert "Stopped watching." in screen.text()
    assert screen.text().count("grading double.py…") == 2, screen.text()


# ------------------------------------------------------------------- C7. "already jitted" is not constructible


def test_a_spy_built_by_hand_around_plain_python_is_jitted_by_the_grader(double, tmp_path):
    """type(jax.jit(f))(jax.jit.__self__, plain, "double") is of the spy's exact type; only a spy the grader made
    counts as jitted, so this one is wrapped in jax.jit like any function: its Python body runs once, tracing."""
    code = textwrap.dedent("""
        import jax
        calls = []

        def plain(x):
            calls.append(1)
            return 2 * x if len(calls) == 1 else 3 * x

        double = type(jax.jit(lambda v: v))(jax.jit.__self__, plain, "double")
    """)
    v = grade_source(double, code, tmp_path, warm=True)
    assert v.status == "pass", v.message


# ------------------------------------------------------------------------- C8. what the snapshot covers


WORKER_MODULE = ("import sys\nworker = next(m for m in list(sys.modules.values()) if getattr(getattr(m, '__spec__', None),"
                 " 'name', None) == 'jittrainer.grading.sandbox.worker')\n")


@pytest.mark.parametrize(("patch", "named"), [
    ("v = sys.modules['jittrainer.grading.sandbox.checks.values']\n"
     "v.compare.__kwdefaults__['rtol'] = 1e9\nv.compare.__kwdefaults__['atol'] = 1e9", "compare.__kwdefaults__"),
    ("sys.modules['jittrainer.grading.sandbox.checks.values'].plain_numbers.__defaults__ = (40,)",
     "plain_numbers.__defaults__"),
    ("calls = sys.modules['jittrainer.grading.sandbox.checks.calls']\n"
     "calls.GradedCalls.ok.fget.__code__ = (lambda self: True).__code__", "GradedCalls.ok.__code__"),
    ("j = sys.modules['jittrainer.grading.sandbox.checks.jit_calls']\n"
     "vars(j.JitCall)['at_call'].__func__.__code__ = (lambda *a, **k: None).__code__", "JitCall.at_call.__code__"),
    (WORKER_MODULE + "vars(worker.Worker)['facts'].__func__.__code__ = (lambda: {}).__code__", "Worker.facts.__code__"),
    (WORKER_MODULE + "real = worker.Worker.send\nworker.Worker.send = lambda self, m: real(self, m)", "Worker.send"),
    ("import jax\ng = jax.jit.__self__.context\ng.failed = lambda check_id, *a, **k: g.passed(check_id)",
     "CheckContext.failed"),
], ids=["kwdefaults", "defaults", "property", "classmethod", "staticmethod", "worker-module", "instance"])
def test_patches_the_snapshot_missed_are_refused(double, tmp_path, patch, named):
    code = "import sys\n" + patch + "\ndef double(x):\n    return 3 * x\n"
    v = grade_source(double, code, tmp_path, warm=True)
    assert v.status == "error" and v.error.type == "GraderTampered", v.message
    assert named in v.message, v.message


# --------------------------------------------------------------- C9. results rewritten after their check ran


def test_a_thread_that_rewrites_failed_results_after_their_check_ran_cannot_pass(double, tmp_path):
    """A thread started at import turns every failed result in g.results into a pass once the values check has
    recorded its failure. (To be sure it runs in that window, it is woken, and waited for, from a property the
    grader reads while explaining the compiles: inspect.unwrap reads __wrapped__.) Each result goes to the host
    when its check records it, and the host refuses a pass whose checks were not each sent as passed."""
    code = textwrap.dedent("""
        import dataclasses, threading, jax

        g = jax.jit.__self__.context
        asked, done = threading.Event(), threading.Event()

        def rewrite():
            while True:
                asked.wait()
                asked.clear()
                for key, result in list(g.results.items()):
                    if result.status != "pass":
                        g.results[key] = dataclasses.replace(result, status="pass", observation=None, advice=None,
                                                             advice_tier=None)
                done.set()

        threading.Thread(target=rewrite, daemon=True).start()

        class Wake:
            @property
            def __wrapped__(self):
                done.clear()
                asked.set()
                done.wait(30)
                raise AttributeError("__wrapped__")

        def double(x):
            return 3 * x

        double.__wrapped__ = Wake()
    """)
    v = grade_source(double, code, tmp_path, warm=True)
    assert v.status == "error" and v.error.type == "GraderTampered", v.message
    assert "“values” had not passed when it ran" in v.message, v.message


# ------------------------------------------------------------------------------- what held, kept as tests


def test_the_host_stdout_cannot_be_reached_through_pidfd_getfd_or_ptrace(tmp_path):
    code = textwrap.dedent("""
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        pid, seen = os.getpid(), []
        for _ in range(2):  # the supervisor, then the host
            with open(f"/proc/{pid}/status") as fh:
                pid = int(next(l for l in fh if l.startswith("PPid:")).split()[1])
            if pid <= 1:
                break
            try:
                pidfd = os.pidfd_open(pid)
                fd = libc.syscall(438, pidfd, 1, 0)  # pidfd_getfd(pidfd, 1, 0): the process's stdout
                if fd >= 0:
                    os.write(fd, b'{"status": "pass", "forged": true}\\n')
                    seen.append(f"pidfd_getfd reached {pid}")
            except OSError:
                pass
            if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
                seen.append(f"ptrace reached {pid}")
                libc.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
        print("reached:", seen)
    """) + DOUBLE
    rc, out, err, wall = cli(tmp_path, "check", "--json", code=code)
    verdict = json.loads(out)  # exactly one JSON object: nothing was written into the host's stdout
    assert verdict["status"] == "pass" and "forged" not in verdict, verdict["message"]
    assert "reached: []" in verdict["output"], verdict["output"]


def test_every_part_of_an_exception_is_shown_escaped(tmp_path):
    code = textwrap.dedent("""
        Odd = type("Odd\\x1b[2J\\u202e", (Exception,), {})

        def double(x):
            error = Odd("\\x1b[1;32mPASSED\\x9b \\u202eevil")
            error.add_note("\\x1b]0;title\\x07 note")
            raise error
    """)
    rc, out, err, wall = cli(tmp_path, code=code)
    text = out.decode("utf-8")
    assert rc == 1 and not any(raw in text for raw in (*RAW, "\x07")), text
    assert "Odd\\x1b[2J\\u202e" in text and "\\x1b[1;32mPASSED\\x9b \\u202eevil" in text


def test_a_flood_of_jax_debug_print_is_escaped_and_capped(tmp_path):
    """60,000 lines of escape sequences from jax.debug.print (6,000 callbacks): capped, shown escaped."""
    code = textwrap.dedent("""
        import jax

        def double(x):
            def body(i, carry):  # ten lines a callback: 60,000 lines over the two calls
                jax.debug.print("\\x1b[2J\\x9b{i}\\u202e\\n" * 10, i=i)
                return carry
            jax.lax.fori_loop(0, 3000, body, 0)
            return 2 * x
    """)
    rc, out, err, wall = cli(tmp_path, "check", "--json", code=code, timeout=60)
    verdict = json.loads(out)
    assert rc == 0 and verdict["output_truncated"], verdict["message"]
    assert len(out) < 400_000 and not any(raw in verdict["output"] for raw in RAW)
    assert "\\x1b[2J\\x9b0\\u202e" in verdict["output"]


def test_atexit_del_and_non_daemon_threads_never_delay_the_end(tmp_path):
    code = textwrap.dedent("""
        import atexit, threading, time
        atexit.register(time.sleep, 600)

        class Slow:
            def __del__(self):
                time.sleep(600)

        kept = Slow()
        threading.Thread(target=time.sleep, args=(600,)).start()
    """) + DOUBLE
    rc, out, err, wall = cli(tmp_path, "check", "--json", code=code)
    assert rc == 0 and json.loads(out)["status"] == "pass", err
    assert wall < LIMIT_S + SLACK_S


@pytest.mark.parametrize(("body", "words"), [
    ("r = x\n    for _ in range(400):\n        r = (r,)\n    return r", "is a tuple, which is not a number"),
    ("r = []\n    r.append(r)\n    return r", "double raised"),  # RecursionError, or SystemError from jaxlib
    ("import jax.numpy as jnp\n    return jnp.zeros((2**24,))", "has shape (16777216,); expected shape (8,)"),
], ids=["deep", "recursive", "huge"])
def test_deep_recursive_and_huge_results_are_ordinary_failures(double, tmp_path, body, words):
    v = grade_source(double, "def double(x):\n    " + body + "\n", tmp_path, warm=True)
    assert v.status == "fail" and v.internal_error is None, v.message
    assert words in v.message, v.message


def test_a_timing_phase_that_loops_is_stopped_and_the_verdict_kept(double, tmp_path):
    from jittrainer.grading.host.run import GradingRun, Submission
    from jittrainer.grading.limits import Limits

    code = textwrap.dedent("""
        import jax

        _calls = [0]

        def _spin():
            _calls[0] += 1
            while _calls[0] > 2:  # the graded calls are the first two; timing runs it again
                pass

        def double(x):
            jax.debug.callback(_spin)
            return 2 * x
    """)
    path = tmp_path / "loops_while_timed.py"
    path.write_text(code)
    run = GradingRun(Submission(double, path.read_bytes(), path, seed=1, timing=True),
                     Limits(timeout_s=20, timing_timeout_s=3))
    verdict = run.run()
    assert verdict.status == "pass", verdict.message
    assert verdict.timing.status == "failed" and verdict.timing.note.render("en") == "timing ran over 3 s"
