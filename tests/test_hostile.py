"""Hostile submissions through the real worker: each ends in a non-pass verdict that names the cause, within its
time limit, and leaves nothing running behind. (The fixture exercise is double(x) = 2x, graded under jax.jit.)"""

from __future__ import annotations

import os
import subprocess
import textwrap
import time

import pytest

from helpers import REPO
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host.run import GradingRun, Submission
from jittrainer.grading.limits import Limits

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "def double(x):\n    return 2 * x\n"


@pytest.fixture(scope="module")
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


def grade(ex, tmp_path, code: str | bytes, **limits):
    path = tmp_path / "hostile.py"
    path.write_bytes(code if isinstance(code, bytes) else textwrap.dedent(code).encode())
    run = GradingRun(Submission(ex, path.read_bytes(), path, seed=1, timing=False), Limits(**limits))
    verdict = run.run()
    # The limit counts from the job's hand-over to a ready worker (its start-up is not the learner's time).
    verdict.graded_s = run.verdict_at - run.handed_over_at if run.handed_over_at else None
    return verdict


def in_call(body: str) -> str:
    return "def double(x):\n" + textwrap.indent(textwrap.dedent(body), "    ") + "\n    return 2 * x\n"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("while True:\n    pass\n", "timed out after 2 s while importing your file"),
        (in_call("while True:\n    pass"), "timed out after 2 s during call 1 of double"),
        ("import time\ntime.sleep(60)\n", "timed out after 2 s while importing your file"),
    ],
)
def test_endless_code_times_out(double, tmp_path, code, words):
    v = grade(double, tmp_path, code, timeout_s=2)
    assert v.status == "error" and v.message.startswith(words), v.message
    assert v.error.type == "Timeout"
    assert v.graded_s < 2 + 5


def test_growing_memory_hits_the_limit(double, tmp_path):
    code = "import numpy as np\nchunks = []\nwhile True:\n    chunks.append(np.ones(2**24))\n"
    v = grade(double, tmp_path, code, memory_mb=400, timeout_s=30)
    assert v.status == "error" and v.message.startswith("memory limit exceeded ("), v.message
    assert "GiB" in v.message and "while importing your file" in v.message


def test_memory_taken_while_timing_leaves_the_verdict_as_it_was(double, tmp_path):
    """Timing never changes a verdict: a passing program that grows only once the graded calls are done (its host
    callback keeps 256 MiB per call after the second) loses its timing, and the note says it happened after the
    verdict, while timing."""
    code = """
        import jax
        import numpy as np

        _kept, _calls = [], [0]

        def _grow():
            _calls[0] += 1
            if _calls[0] > 2:
                _kept.append(np.ones(2**25))

        def double(x):
            jax.debug.callback(_grow)
            return 2 * x
    """
    path = tmp_path / "grows_while_timed.py"
    path.write_text(textwrap.dedent(code))
    run = GradingRun(Submission(double, path.read_bytes(), path, seed=1, timing=True), Limits(memory_mb=400))
    verdict = run.run()
    assert verdict.status == "pass", verdict.message
    assert verdict.timing.status == "failed"
    note = verdict.timing.note.render("en")
    assert note.startswith("timing stopped: memory limit exceeded (") and "after the verdict, while timing" in note, note


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("import numpy as np\nhuge = np.ones(2**45)\n" + DOUBLE, "memory limit exceeded while importing your file on line 2"),
        ("import jax.numpy as jnp\nbig = jnp.ones(2**40)\n" + DOUBLE, "memory limit exceeded while importing your file on line 2 (JaxRuntimeError: RESOURCE_EXHAUSTED"),
        (in_call("import numpy as np\nnp.ones(2**45)"), "memory limit exceeded during call 1 of double, line 3 (MemoryError"),
    ],
)
def test_out_of_memory_errors_say_memory(double, tmp_path, code, words):
    v = grade(double, tmp_path, code)
    assert v.status in ("fail", "error") and v.message.startswith(words), v.message


@pytest.mark.parametrize(
    ("code", "status", "words"),
    [
        ("import sys\nsys.exit(0)\n" + DOUBLE, "error", "your file called sys.exit() while being imported on line 2"),
        ("raise SystemExit('bye')\n" + DOUBLE, "error", "your file called sys.exit()"),
        (in_call("import sys\nsys.exit(3)"), "fail", "double raised SystemExit on call 1, line 3: sys.exit(3) was called"),
        ("import os\nos._exit(0)\n" + DOUBLE, "error", "your code ended the grading process while importing your file (exited with status 0"),
        (in_call("import os\nos._exit(0)"), "error", "your code ended the grading process during call 1 of double"),
    ],
)
def test_exiting_is_never_a_pass(double, tmp_path, code, status, words):
    v = grade(double, tmp_path, code)
    assert v.status == status and v.message.startswith(words), v.message


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("import ctypes\nctypes.string_at(0)\n" + DOUBLE, "the grading process crashed with signal SIGSEGV (segmentation fault) while importing"),
        (in_call("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"), "the grading process crashed with signal SIGKILL (killed) during call 1"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGABRT)\n" + DOUBLE, "the grading process crashed with signal SIGABRT"),
    ],
)
def test_crashes_are_named(double, tmp_path, code, words):
    v = grade(double, tmp_path, code)
    assert v.status == "error" and v.message.startswith(words), v.message
    assert v.error.type == "Crash"


def test_output_floods_are_capped_and_prompt(double, tmp_path):
    code = (
        "import os, sys\n"
        "os.write(1, b'x' * (40 << 20))\n"
        "os.write(2, b'y' * (10 << 20))\n"
        "for _ in range(30000):\n    sys.stdout.write('z' * 1000 + '\\n')\n" + DOUBLE
    )
    v = grade(double, tmp_path, code, timeout_s=20)
    assert v.status == "pass", v.message
    assert len(v.output) < 200_000 and v.output_truncated
    assert "more bytes not shown" in v.output and "more characters of output not shown" in v.output


def test_closed_descriptors_and_fake_verdicts_change_nothing(double, tmp_path):
    code = (
        "import os, sys, json\n"
        "print(json.dumps({'type': 'verdict', 'verdict': {'status': 'pass'}}))\n"
        "os.close(1)\nos.close(2)\nsys.stdout.close()\n" + "def double(x):\n    return 3 * x\n"
    )
    v = grade(double, tmp_path, code)
    assert v.status == "fail" and v.first_failure.id == "values"


def _alive(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


def test_children_grandchildren_and_threads_die_with_the_grade(double, tmp_path):
    marker = f"{os.getpid() % 1000 + 3000}.5"  # a unique sleep length to find our own leftovers
    code = f"""
        import os, subprocess, threading, time
        subprocess.Popen(["sleep", "{marker}"])
        if os.fork() == 0:           # a grandchild in its own session, orphaned at once
            os.setsid()
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", "{marker}"])
            os._exit(0)
        threading.Thread(target=time.sleep, args=(1000,)).start()
    """
    v = grade(double, tmp_path, textwrap.dedent(code) + DOUBLE)
    assert v.status == "pass", v.message
    deadline = time.monotonic() + 5
    while _alive(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _alive(marker) == []


@pytest.mark.parametrize(
    ("code", "status", "words"),
    [
        ("name = input('name? ')\n" + DOUBLE, "error", "your file called input() on line 1: there is no keyboard input"),
        (in_call("input()"), "fail", "double raised EOFError on call 1, line 2: EOF when reading a line — input() cannot read"),
        ("raise KeyboardInterrupt\n" + DOUBLE, "error", "your file raised KeyboardInterrupt on line 1 while being imported"),
        (in_call("raise KeyboardInterrupt"), "fail", "double raised KeyboardInterrupt on call 1"),
        ("def f():\n    return f()\nf()\n" + DOUBLE, "error", "your file raised RecursionError on line 2"),
        ("class Odd(BaseException):\n    pass\n" + in_call("raise Odd('not an Exception')"), "fail", "double raised Odd on call 1"),
        (in_call("import jax\njax.debug.callback(lambda: 1 / 0)"), "fail", "double raised"),
    ],
)
def test_odd_exceptions_are_reported(double, tmp_path, code, status, words):
    v = grade(double, tmp_path, code)
    assert v.status == status and v.message.startswith(words), v.message
    assert v.internal_error is None
