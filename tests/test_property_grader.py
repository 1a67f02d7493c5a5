"""Property: whatever bytes a learner submits, the grader answers with a structured verdict — never a crash of the
grader, never an exercise fault, and never a pass unless every check passed."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import REPO
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import Limits
from jittrainer.grading.verdict import Verdict

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
EXAMPLES = settings(
    max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

TOKENS = [
    "def", "double", "(", "x", ")", ":", "return", "2", "*", "\n", "    ", "import", "jax", "jax.numpy", "as", "jnp",
    "print", "'", '"', "=", "lambda", "while", "True", "pass", "[", "]", "{", "}", "#", "\\", "@", "jax.jit", "yield",
    "x.shape", "None", "raise", "class", ",", ".", "0x", "1e", "**", "not", "async", "await", "with", "f'{", "\t",
]
BODY = [
    "return 2 * x", "return x", "return x * 3", "print(x)", "jax.debug.print('x={}', x)", "x = jnp.sin(x) + x",
    "return None", "return 'twice'", "return x.sum()", "raise ValueError('no')", "x = x * 1.0",
    "for _ in range(3):\n        x = x + 0", "if x.shape[0] > 3:\n        x = x * 1", "return jnp.concatenate([x, x])",
    "return float(x[0])", "return x / 0", "import sys", "y = [x]", "return (2 * x, x)",
]
TOP = ["print('hello')", "X = 1", "def helper(v):\n    return v", "import numpy as np", "jnp.ones(3)", "LOG = []"]


@st.composite
def valid_python(draw) -> bytes:
    top = draw(st.lists(st.sampled_from(TOP), max_size=3))
    body = draw(st.lists(st.sampled_from(BODY), min_size=1, max_size=4))
    decorate = draw(st.booleans())
    lines = ["import jax", "import jax.numpy as jnp", *top]
    lines += ["@jax.jit" if decorate else "", "def double(x):", *("    " + b for b in body)]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def grader():
    ex = find_exercise(load_exercises(FIXTURES), "double")
    pool = WorkerPool(spares=2)
    pool.start()

    def grade(source: bytes, tmp_path) -> Verdict:
        path = tmp_path / "generated.py"
        path.write_bytes(source)
        run = pool.grade_run(Submission(ex, source, path, seed=3, timing=False), Limits(timeout_s=15))
        return run.run()

    yield grade
    pool.shutdown()


def assert_structured(verdict: Verdict) -> None:
    assert verdict.status in ("pass", "fail", "error")
    assert verdict.internal_error is None, verdict.internal_error
    assert verdict.message.strip()
    assert Verdict.from_dict(json.loads(json.dumps(verdict.to_dict()))) == verdict
    if verdict.status == "pass":
        assert verdict.checks and all(c.status == "pass" for c in verdict.checks)
    else:
        assert not verdict.checks or any(c.status != "pass" for c in verdict.checks)
    if verdict.status == "fail":
        assert verdict.message == verdict.first_failure.message


@EXAMPLES
@given(source=st.binary(max_size=400))
def test_random_bytes(grader, tmp_path, source):
    assert_structured(grader(source, tmp_path))


@EXAMPLES
@given(source=st.lists(st.sampled_from(TOKENS), max_size=60).map(lambda t: " ".join(t).encode()))
def test_token_soup(grader, tmp_path, source):
    assert_structured(grader(source, tmp_path))


@EXAMPLES
@given(source=valid_python())
def test_valid_python(grader, tmp_path, source):
    verdict = grader(source, tmp_path)
    assert_structured(verdict)
    if verdict.status == "pass":
        body = source.decode().split("def double(x):")[1]
        first_return = next(line.strip() for line in body.splitlines() if line.strip().startswith(("return", "raise")))
        assert first_return in ("return 2 * x",), source.decode()
