"""The private channel: typed frames decode or are refused, and a submission cannot forge or patch a pass."""

from __future__ import annotations

import json
import textwrap

import pytest

from helpers import REPO, grade_source
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading import protocol
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n.message import msg

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
DOUBLE = "def double(x):\n    return 2 * x\n"


@pytest.fixture(scope="module")
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


# ------------------------------------------------------------------------------------------------- framing


def test_frames_round_trip_and_jobs_carry_bytes():
    job = protocol.GradeJob(exercise="e", function="f", call="jit", checks_path="c", starter_path="s",
                            filename="/tmp/x.py", source=b"\xff\x00 bytes", seed=3, token="t", lang="zh")
    payload = protocol.encode(job)[protocol.HEADER.size:]
    back = protocol.decode_job(payload)
    assert back == job
    frame = protocol.VerdictFrame("tok", {"a": 1})
    assert protocol.decode_frame(protocol.encode(frame)[protocol.HEADER.size:]) == frame


@pytest.mark.parametrize("payload", [b"not json", b"[1, 2]", b'{"type": "nope"}', b'{"type": "phase"}',
                                     b'{"type": "ready", "pid": "x", "import_s": 1, "devices": 4}',
                                     b'{"type": "verdict", "token": 5, "verdict": {}}', b"\xff\xfe"])
def test_a_frame_that_does_not_decode_is_a_protocol_error(payload):
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_frame(payload)


@pytest.mark.parametrize("data", [
    {},
    {"exercise": "e", "status": "pass"},  # no headline
    {"exercise": "e", "status": "maybe", "headline": {"$msg": {"key": "k", "text": "t"}}},
    {"exercise": "e", "status": "fail", "headline": {"$msg": {"key": "k", "text": "t"}}, "checks": [{"id": "x"}]},
    {"exercise": "e", "status": "fail", "headline": "plain text"},
    {"exercise": 3, "status": "pass", "headline": {"$msg": {"key": "k", "text": "t"}}},
])
def test_a_malformed_verdict_is_a_value_error_not_a_type_error(data):
    with pytest.raises(ValueError):
        Verdict.from_dict(data)


def test_a_verdict_round_trips_with_its_messages():
    v = Verdict.failure("e", msg("k", "{n} things", n=3))
    back = Verdict.from_dict(json.loads(json.dumps(v.to_dict())))
    assert back.message == "3 things" and back.headline == v.headline


# ------------------------------------------------------------------------------------------------ forgery


WRONG = "def double(x):\n    return 3 * x\n"


def forge_frame(body: dict, every_fd: bool = False) -> str:
    """Wrong code that writes a length-prefixed frame to the result fd it was handed: the one a spawned worker's
    command line names, else (a forked worker has no such line) the lowest pipe it holds above stderr; with
    ``every_fd``, to every pipe the process holds (from ``/proc/self/fd``), as a more determined forger would."""
    return textwrap.dedent(f"""
        import json, os, pathlib, stat, struct
        cmd = pathlib.Path("/proc/self/cmdline").read_bytes().split(b"\\0")
        held = sorted(int(n) for n in os.listdir("/proc/self/fd") if int(n) > 2)
        fds = [int(cmd[cmd.index(b"--result-fd") + 1])] if b"--result-fd" in cmd else held[:1]
        if {every_fd!r}:
            fds = held
        payload = json.dumps({body!r}).encode()
        for fd in fds:
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    os.write(fd, struct.pack(">I", len(payload)) + payload)
            except OSError:
                pass
    """) + WRONG


@pytest.mark.worker
def test_a_verdict_frame_written_by_the_submission_is_not_a_pass(double, tmp_path):
    fake = {"type": "verdict", "token": "guess", "verdict": Verdict(
        exercise="double", status="pass", headline=msg("all_passed", "All good.")).to_dict()}
    v = grade_source(double, forge_frame(fake), tmp_path)
    assert v.status != "pass"
    v = grade_source(double, forge_frame(fake, every_fd=True), tmp_path)  # found the channel, but not the token
    assert v.status == "error" and v.error.type == "ForgedVerdict"


@pytest.mark.worker
def test_a_malformed_frame_is_an_error_verdict_not_a_traceback(double, tmp_path):
    v = grade_source(double, forge_frame({"type": "verdict", "token": "x", "verdict": {"status": "pass"}},
                                         every_fd=True), tmp_path)
    assert v.status == "error" and v.internal_error is None and v.error.type == "ForgedVerdict"
    assert "cannot count as a verdict" in v.message


@pytest.mark.worker
def test_patching_the_grader_through_sys_modules_is_refused(double, tmp_path):
    code = textwrap.dedent("""
        import sys
        ctx = sys.modules["jittrainer.grading.sandbox.checks.context"].CheckContext
        ctx.failed = lambda self, check_id, *a, **k: ctx.passed(self, check_id)
        ctx.check = lambda self, check_id, ok, *a, **k: ctx.passed(self, check_id)

        def double(x):
            return 3 * x
    """)
    v = grade_source(double, code, tmp_path)
    assert v.status == "error" and v.error.type == "GraderTampered"
    assert "changed the grader itself" in v.message


@pytest.mark.worker
def test_removing_the_compile_listener_is_refused(double, tmp_path):
    code = "import jax.monitoring\njax.monitoring.clear_event_listeners()\n" + DOUBLE
    v = grade_source(double, code, tmp_path)
    assert v.status == "error" and v.error.type == "GraderTampered"


@pytest.mark.worker
@pytest.mark.parametrize(("patch", "named"), [
    # a grader function's code swapped in place: the function object stays the same one
    ("ctx = sys.modules['jittrainer.grading.sandbox.checks.context'].CheckContext\n"
     "def failed(self, check_id, observation, advice=None, *, tier=None):\n"
     "    return self.passed(check_id)\n"
     "ctx.failed.__code__ = failed.__code__", "CheckContext.failed.__code__"),
    # a class given a new attribute that changes what its instances do
    ("ctx = sys.modules['jittrainer.grading.sandbox.checks.context'].CheckContext\n"
     "ctx.__getattribute__ = lambda self, name: object.__getattribute__(self, name)", "CheckContext.__getattribute__"),
    ("import builtins\nbuiltins.all = lambda items: True", "builtins.all"),
    ("import numpy\nnumpy.isclose = lambda *a, **k: numpy.ones(numpy.shape(a[0]), bool)", "numpy.isclose"),
])
def test_white_box_patches_the_snapshot_covers_are_refused(double, tmp_path, patch, named):
    code = "import sys\n" + patch + "\ndef double(x):\n    return 3 * x\n"
    v = grade_source(double, code, tmp_path)
    assert v.status == "error" and v.error.type == "GraderTampered", v.message
    assert named in v.message


@pytest.mark.worker
def test_a_subclass_of_the_spys_jitted_type_is_not_taken_for_jitted_code(double, tmp_path):
    """Under the spy, jax.jit returns the spy's own type; an instance of a subclass that runs plain Python must be
    wrapped in jax.jit like any other function (so its Python side runs while tracing, and only then)."""
    code = textwrap.dedent("""
        import jax
        calls = []

        class Fake(type(jax.jit(lambda v: v))):
            def __init__(self):
                pass

            def __call__(self, x):
                calls.append(1)
                return 2 * x if len(calls) == 1 else 3 * x

        double = Fake()
    """)
    v = grade_source(double, code, tmp_path)
    assert v.status == "pass", v.message  # jitted by the grader: the Python body ran once, while tracing


def test_compare_reads_no_code_the_learners_value_brings():
    import numpy as np

    from jittrainer.grading.sandbox.checks.values import compare, plain_numbers

    class Sneaky:
        def __array__(self, *args, **kwargs):
            raise AssertionError("the grader ran the learner's __array__")

        def __eq__(self, other):
            raise AssertionError("the grader ran the learner's __eq__")

    class Number(float):
        def __float__(self):
            raise AssertionError("the grader ran the learner's __float__")

    for value in (Sneaky(), Number(2.0), [Sneaky()], (1.0, Number(1.0))):
        ok, why = compare(value, 2.0)
        assert not ok and why.key == "compare.not_numbers"
    assert plain_numbers((np.float32(1), 2, [3.0, 4.0])) is None  # ragged
    assert plain_numbers([np.ones(2), (1, 2)]).tolist() == [[1, 1], [1, 2]]
