"""Hostile round 3 (issue 31), the parts that need no worker: what the host believes of the stack pipe, what it lets
through to a terminal, what the grader's own code runs of a learner's object, what the integrity snapshot covers, a
pass the host refuses, a draft that is not a file, and watch mode when a grade fails on the host. Each test fails
on the grader before issue 31."""

from __future__ import annotations

import io
import os
import queue
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from helpers import REPO

# Imported at collection: importing jax sets environment variables, which a test must not leave behind (conftest).
from jittrainer.grading.sandbox.checks import results as _results, values as _values  # noqa: F401, E402
from jittrainer.grading.sandbox import integrity as _integrity, learner_errors as _learner_errors  # noqa: F401, E402

FIXTURES = REPO / "tests" / "fixtures" / "exercises"


# ----------------------------------------------------------------------------------------- B1. the stack pipe


SOURCE = b"def step(v):\n    n = 0\n    while True: n += 1\n\ndef double(x):\n    y = x\n    step(y)\n    return 2 * x\n"


def test_a_stack_line_is_believed_only_where_the_learner_s_file_has_it():
    """The stack pipe is the learner's to write: a 5,000-digit line number, a function name holding escape
    sequences, a line the file does not have, a function that is not at that line and another file's frames are
    not believed; the real frames are, and everything is said escaped."""
    from jittrainer.grading.host.mishaps import timeout_words
    from jittrainer.grading.host.stacks import dumped

    filename = "/tmp/evil\x1b[2J\u202e.py"
    at = dumped(filename)
    stacks = (f"Current thread 0x01 (most recent call first):\n"
              f'  File "{at}", line {"9" * 5000} in double\n'
              f'  File "{at}", line 3 in \x1b[2J\x1b[1;32mPASSED\u202e\x9b\n'
              f'  File "{at}", line 99 in double\n'
              f'  File "{at}", line 3 in double\n'
              f'  File "/elsewhere.py", line 3 in step\n'
              f'  File "{at}", line 3 in step\n'
              f'  File "{at}", line 7 in double\n')
    headline, error = timeout_words(stacks, filename, "double", 4, "call 1", SOURCE)
    text = headline.render("en")
    assert text.startswith("timed out after 4 s during call 1 of double: line 7 of your file (in double) was still "
                           "running, and inside it line 3 (in step)"), text
    assert error.line == 7
    shown = error.traceback
    assert shown.splitlines()[1:] == ['  File "/tmp/evil\\x1b[2J\\u202e.py", line 3 in step',
                                      '  File "/tmp/evil\\x1b[2J\\u202e.py", line 7 in double']
    forged_only = stacks.replace(f'  File "{at}", line 3 in step\n', "").replace(f'  File "{at}", line 7 in double\n', "")
    headline, error = timeout_words(forged_only, filename, "double", 4, "call 1", SOURCE)
    assert headline.key == "run.timeout" and error.line is None and error.traceback == ""


# ------------------------------------------------------------------------------------- B2. lone surrogates


def test_lone_surrogates_are_written_out_and_pairs_are_kept():
    from jittrainer.grading.host import untrusted

    data = untrusted.bounded({"output": "\udc9b2J\udc9b32mPASSED \ud800 \U0001f600", "k\udcff": ["\udc80"]})
    assert data == {"output": "\\udc9b2J\\udc9b32mPASSED \\ud800 \U0001f600", "k\\udcff": ["\\udc80"]}
    encoded = str(data).encode("utf-8")  # strict: nothing unencodable is left
    assert b"\x9b" not in encoded


# ----------------------------------------------------------------------- B3, C6. the learner's objects


class _Meta(type):
    def __eq__(cls, other):
        raise AssertionError("the grader called the metaclass's __eq__")

    def __hash__(cls):
        raise AssertionError("the grader called the metaclass's __hash__")

    @property
    def __mro__(cls):
        raise AssertionError("the grader read a metaclass's __mro__")


def _hostile_values():
    class Lying(metaclass=_Meta):
        @property
        def __class__(self):
            raise AssertionError("the grader read __class__")

    class PretendsToBeAList(list):
        def __iter__(self):
            raise AssertionError("the grader iterated with the value's own __iter__")

        @property
        def __class__(self):
            raise AssertionError("the grader read __class__")

    return [Lying(), [Lying()], (1.0, Lying()), PretendsToBeAList([Lying()])]


def test_compare_and_what_it_uses_never_call_into_the_learner_s_value():
    """isinstance asks a value's __class__ (a property can run anything, even write compare's own locals through
    its frame); `in` a set of types asks a metaclass's __hash__ and __eq__; type names and MROs can be metaclass
    properties. compare reads types with type() and compares them by identity."""
    from jittrainer.grading.sandbox.checks.results import mismatch
    from jittrainer.grading.sandbox.checks.values import compare, is_tracer, plain_numbers, type_name

    slips = []
    for value in _hostile_values():
        ok, why = compare(value, 2.0)
        assert not ok and why.key == "compare.not_numbers", why
        assert plain_numbers(value) is None and not is_tracer(value)
        type_name(value).render("en")
        assert mismatch([value], [2.0], slip=lambda i, result: slips.append(result)) is not None
    assert slips == []  # an exercise's slip never gets a value whose methods are the learner's
    assert compare([1.0, 2.0], [1.0, 2.0]) == (True, None)


def test_describing_an_exception_never_raises_and_says_what_it_could_not_read():
    from jittrainer.grading.sandbox.learner_errors import describe, warning_line

    class NoStr(Exception):
        def __str__(self):
            raise ValueError("no str for you")

    class NoClass(Exception):
        @property
        def __class__(self):
            raise RuntimeError("no class either")

    class NoTraceback(Exception):
        @property
        def __traceback__(self):
            raise RuntimeError("no traceback")

    class BadCode:
        def __repr__(self):
            raise RuntimeError("no repr")

    def raised(exc):
        try:
            raise exc
        except BaseException as caught:  # noqa: BLE001
            return caught

    info = describe(raised(NoStr()), __file__, "call 1")
    assert info.type == "NoStr" and info.message == "(its message could not be read: str() raised ValueError)"
    assert info.line is not None
    assert describe(raised(NoClass("boom")), __file__, "call 1").message == "boom"
    assert describe(raised(NoTraceback("boom")), __file__, "import").type == "NoTraceback"
    assert describe(raised(SystemExit(BadCode())), __file__, "call 1").message.startswith(
        "sys.exit((its message could not be read: repr() raised RuntimeError)")
    caught = types.SimpleNamespace(category=type("W", (UserWarning,), {}), message=NoStr())
    assert warning_line(caught) == "W: (its message could not be read: str() raised ValueError)"


# ------------------------------------------------------------------------------------- C8. the snapshot


def _grader_module() -> types.ModuleType:
    mod = types.ModuleType("jittrainer_fake_checks")
    exec(
        "import functools\n"
        "def _inner():\n    return 1\n"
        "def helper(a, b=1, *, at_most=1):\n    return _inner()\n"
        "def _wrap(f):\n    @functools.wraps(f)\n    def wrapper(*a):\n        return f(*a)\n    return wrapper\n"
        "@_wrap\ndef decorated():\n    return 1\n"
        "class Grader:\n"
        "    @property\n    def ok(self):\n        return False\n"
        "    @staticmethod\n    def static():\n        return False\n"
        "    @classmethod\n    def klass(cls):\n        return False\n"
        "    def method(self):\n        return False\n",
        mod.__dict__)
    return mod


def test_the_snapshot_covers_defaults_closures_descriptors_and_the_grader_s_objects():
    from jittrainer.grading.sandbox.integrity import Snapshot

    mod = _grader_module()
    grader = mod.Grader()
    snap = Snapshot([mod], instances={"Grader": grader})
    assert snap.changed() == []
    yes = (lambda *a: True).__code__
    mod.helper.__kwdefaults__["at_most"] = 10**6  # the one_compile.__kwdefaults__["at_most"]
    mod.helper.__defaults__ = (2,)
    mod.decorated.__closure__[0].cell_contents = lambda: 2  # the function a decorator wraps, replaced
    vars(mod.Grader)["ok"].fget.__code__ = yes
    vars(mod.Grader)["static"].__func__.__code__ = yes
    vars(mod.Grader)["klass"].__func__.__code__ = yes
    grader.method = lambda: True  # an instance attribute hides the class's method
    changed = set(snap.changed())
    assert {"jittrainer_fake_checks.helper.__kwdefaults__", "jittrainer_fake_checks.helper.__defaults__",
            "jittrainer_fake_checks.decorated.__closure__", "jittrainer_fake_checks.Grader.ok.__code__",
            "jittrainer_fake_checks.Grader.static.__code__", "jittrainer_fake_checks.Grader.klass.__code__",
            "Grader.method"} <= changed, changed


def test_the_snapshot_sees_the_code_of_a_function_a_decorator_wrapped():
    from jittrainer.grading.sandbox.integrity import Snapshot

    mod = _grader_module()
    snap = Snapshot([mod])
    mod.decorated.__wrapped__.__code__ = (lambda: 2).__code__
    assert "jittrainer_fake_checks.decorated.__closure__.__code__" in snap.changed()


# ------------------------------------------------------------------------- C9. a pass the checks never sent


def test_a_pass_is_refused_unless_each_check_was_sent_as_passed_when_it_ran():
    from jittrainer.course.exercises import find_exercise, load_exercises
    from jittrainer.grading import protocol
    from jittrainer.grading.host.run import GradingRun, Submission
    from jittrainer.grading.verdict import CheckResult, Verdict
    from jittrainer.i18n.message import msg

    ex = find_exercise(load_exercises(FIXTURES), "double")
    run = GradingRun(Submission(ex, b"", Path("x.py"), seed=1))

    def passing() -> protocol.VerdictFrame:
        verdict = Verdict(exercise="double", status="pass", headline=msg("all_passed", "all good"))
        verdict.checks = [CheckResult(cid, msg(cid, cid), "pass") for cid in ("runs", "values", "one_compile")]
        return protocol.VerdictFrame(run.token, verdict.to_dict())

    for check, status in (("runs", "pass"), ("values", "fail"), ("one_compile", "pass")):
        assert run._reported(protocol.CheckFrame(run.token, check, status)) == ""
    refused = run._outcome(passing())
    assert refused.status == "error" and refused.error.type == "GraderTampered"
    assert "“values” had not passed when it ran" in refused.message
    assert run._reported(protocol.CheckFrame("guess", "values", "pass")) == "a check result without this run's token"
    assert run._reported(protocol.CheckFrame(run.token, "values", "pass")) == "a check reported twice"
    run.reported["values"] = "pass"
    assert run._outcome(passing()).status == "pass"


# ------------------------------------------------------------------------ B5. a draft that is not a file


def test_a_fifo_a_folder_or_a_device_in_a_draft_s_place_is_refused_at_once(tmp_path):
    from jittrainer.files import NotARegularFile, read_regular

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "draft.py"
    link.symlink_to(fifo)
    for path in (link, fifo, tmp_path, Path("/dev/zero")):
        with pytest.raises(NotARegularFile):
            read_regular(path)
    (tmp_path / "file.py").write_bytes(b"x = 1\n")
    assert read_regular(tmp_path / "file.py") == b"x = 1\n"


# --------------------------------------------------------------------- B3. watch when a grade raises


class _Keys(io.TextIOBase):
    """Lines for watch's key reader, handed over one by one by the test."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()

    def isatty(self) -> bool:
        return False

    def __iter__(self):
        while (line := self.lines.get()) != "":
            yield line


class _Screen(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def write(self, text: str) -> int:
        with self.lock:
            return super().write(text)

    def text(self) -> str:
        with self.lock:
            return self.getvalue()


def wait_until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


class _NoWorkers:
    def start(self) -> None: ...
    def shutdown(self) -> None: ...
    def want(self, devices) -> None: ...
    def take(self, devices=1):
        return None


def test_watch_says_a_grade_that_failed_on_the_host_and_keeps_watching(monkeypatch):
    """A bug on the host path (the issue's: removing a 3,000-deep folder raised RecursionError) killed the grading
    thread, and the screen said "grading…" for ever. Now it is one line, and watch goes on."""
    from jittrainer.cli import watch
    from jittrainer.session import Session

    def broken(self, *args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(watch.Grading, "run", broken)
    session = Session(FIXTURES, lang="en")
    ex = session.find("double")
    screen, keys = _Screen(), _Keys()
    monkeypatch.setattr(sys, "stdout", screen)
    loop = watch.WatchLoop(session, ex, screen, keys, poll=True, pool=_NoWorkers())
    thread = threading.Thread(target=loop.loop, daemon=True)
    thread.start()
    wait_until(lambda: "internal error (a bug in jittrainer): RecursionError" in screen.text(), 30, screen.text())
    keys.lines.put("r\n")  # and again: still watching
    wait_until(lambda: screen.text().count("internal error (a bug in jittrainer)") == 2, 30, screen.text())
    keys.lines.put("q\n")
    thread.join(30)
    assert not thread.is_alive() and "Stopped watching." in screen.text()
