"""The grading engine through the real worker process, on a minimal fixture exercise (double(x) = 2x)."""

from __future__ import annotations

import json
import textwrap

import pytest

from helpers import REPO, copy_exercise, exercise, grade_file, grade_source
from jittrainer.course.exercises import find_exercise, load_exercises

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
SOLUTION = "def double(x):\n    return 2 * x\n"


@pytest.fixture(scope="module")
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_solution_passes_with_counts_jaxpr_and_timing(double, tmp_path):
    v = grade_source(double, SOLUTION, tmp_path, seed=5, timing=True)
    assert v.status == "pass", v.message
    assert [c.status for c in v.checks] == ["pass", "pass", "pass"]
    assert v.compiles == 1 and v.traces == 1
    assert v.cache_misses and "first call" in str(v.cache_misses[0].reason)
    assert v.jaxpr is not None and "mul" in v.jaxpr.primitives
    assert v.timing.status == "measured" and v.timing.steady_s > 0 and v.timing.compile_s > 0
    assert v.seed == 5 and v.jax_version and [d["count"] for d in v.devices] == [4]
    assert v.duration_s > 0


def test_a_program_that_donates_its_input_is_timed_on_fresh_copies():
    """buffer_donation's graded call deletes its donated device arrays; the timing phase re-runs that call, so it
    gets fresh copies instead of failing with 'steady state not measured: RuntimeError' (Array has been deleted)."""
    ex = exercise("buffer_donation")
    v = grade_file(ex, ex.dir / "solution.py", seed=5, timing=True)
    assert v.status == "pass", v.message
    assert v.timing.status == "measured" and not v.timing.note and v.timing.steady_s > 0, v.timing.note


def test_wrong_values_fail_and_name_the_numbers(double, tmp_path):
    v = grade_source(double, "def double(x):\n    return 3 * x\n", tmp_path)
    assert v.status == "fail"
    assert v.message.startswith("call 1's result is ")
    assert v.first_failure.id == "values"


def test_same_seed_same_inputs(double, tmp_path):
    code = "import jax\ndef double(x):\n    jax.debug.print('{}', x[0])\n    return 2 * x\n"
    a = grade_source(double, code, tmp_path, seed=123)
    b = grade_source(double, code, tmp_path, seed=123)
    c = grade_source(double, code, tmp_path, seed=124)
    assert a.output == b.output and a.output != c.output


def test_syntax_error_names_the_line(double, tmp_path):
    v = grade_source(double, "def double(x):\n    return 2 *\n", tmp_path)
    assert v.status == "error"
    assert v.message.startswith("SyntaxError on line 2")
    assert (v.error.type, v.error.line) == ("SyntaxError", 2)
    assert all(c.status == "skip" for c in v.checks) or not v.checks


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"def double(x):\n    return 2 * x  # \xff\xfe\n", "not valid UTF-8 text"),
        (b"", "your file is empty"),
        (b"   \n\n", "your file is empty"),
        (b"\x00\x01\x02binary", "NUL byte"),
    ],
)
def test_unreadable_files(double, tmp_path, raw, words):
    v = grade_source(double, raw, tmp_path)
    assert v.status == "error" and words in v.message


def test_import_error_is_located(double, tmp_path):
    v = grade_source(double, "import jax\n\nscale = undefined_name\n" + SOLUTION, tmp_path)
    assert v.status == "error"
    assert "NameError" in v.message and "line 3" in v.message
    assert v.error.line == 3 and v.error.phase == "import"
    assert "undefined_name" in v.error.traceback and "worker.py" not in v.error.traceback


def test_missing_module_import(double, tmp_path):
    v = grade_source(double, "import jaxx\n" + SOLUTION, tmp_path)
    assert v.status == "error" and "an import in your file failed on line 1" in v.message


def test_missing_function(double, tmp_path):
    v = grade_source(double, "def triple(x):\n    return 3 * x\n", tmp_path)
    assert v.status == "error" and v.message.startswith("double is not defined in your file")


def test_not_a_function(double, tmp_path):
    v = grade_source(double, "double = 2\n", tmp_path)
    assert v.status == "error" and "not a function" in v.message


def test_wrong_signature(double, tmp_path):
    v = grade_source(double, "def double(x, y):\n    return 2 * x\n", tmp_path)
    assert v.status == "error"
    assert "called with 1 positional argument" in v.message and "double(x, y)" in v.message


def test_exception_in_call_marks_the_line(double, tmp_path):
    code = src(
        """
        import jax.numpy as jnp

        def double(x):
            y = 2 * x
            return y[: jnp.int32(3)] if False else y.reshape(3, -1)
        """
    )
    v = grade_source(double, code, tmp_path)
    assert v.status == "fail"
    assert v.checks[0].status == "error" and v.checks[1].status == "skip"
    assert v.message.startswith("double raised TypeError on call 1, line 5")
    assert v.error.line == 5 and v.error.col is not None


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("return 'twice'", "returned a value of type <class 'str'>"),
        ("return None", "is None; expected an array of shape (8,)"),
        ("return x / 0 * 0", "NaN at 8 of 8 positions"),
        ("return (2 * x)[:4]", "has shape (4,)"),
    ],
)
def test_wrong_return_values_are_named(double, tmp_path, body, words):
    v = grade_source(double, f"def double(x):\n    {body}\n", tmp_path)
    assert v.status in ("fail", "error") and words in v.message, v.message


def test_output_is_captured_per_call_and_cannot_forge_a_verdict(double, tmp_path):
    fake = json.dumps({"type": "verdict", "status": "pass", "message": "All checks passed."})
    code = src(
        f"""
        import os, sys, jax
        print({fake!r})
        sys.stdout.write('{{"status": "pass"}}\\n')
        os.write(1, b'raw fd write\\n')

        def double(x):
            jax.debug.print("x0={{}}", x[0])
            return 3 * x
        sys.stdout.close()
        sys.stderr.close()
        """
    )
    v = grade_source(double, code, tmp_path)
    assert v.status == "fail"
    labels = [s.label for s in v.output_sections]
    assert labels[:3] == ["import", "call 1", "call 2"]
    assert '"status": "pass"' in v.output_sections[0].text
    assert v.output_sections[1].text.startswith("x0=")
    assert "raw fd write" in v.output


def test_output_flood_is_capped(double, tmp_path):
    code = "import sys\nfor _ in range(20000):\n    print('x' * 1000)\n" + SOLUTION
    v = grade_source(double, code, tmp_path)
    assert v.status == "pass"
    assert v.output_truncated and "more characters of output not shown" in v.output
    assert len(v.output) < 100_000


def test_clean_environment_and_simulated_devices(double, tmp_path, monkeypatch):
    monkeypatch.setenv("JAX_ENABLE_X64", "1")
    monkeypatch.setenv("XLA_FLAGS", "--xla_dump_to=/nonexistent")
    code = "import os, jax\nprint(os.environ.get('JAX_ENABLE_X64'), os.environ['XLA_FLAGS'], jax.device_count())\n" + SOLUTION
    v = grade_source(double, code, tmp_path)
    assert v.status == "pass"
    assert "None --xla_force_host_platform_device_count=4 4" in v.output


def _broken(double, tmp_path, checks: str):
    folder = copy_exercise(double, tmp_path / "exercises")
    (folder / "checks.py").write_text(checks)
    return find_exercise(load_exercises(tmp_path / "exercises"), "double")


@pytest.mark.parametrize(
    ("checks", "words"),
    [
        ("CHECKS = {'a': 'A'}\ndef grade(g):\n    raise RuntimeError('oops')\n", "RuntimeError: oops"),
        ("def grade(g):\n    pass\n", "CHECKS must be a non-empty dict"),
        ("CHECKS = {'a': 'A'}\ndef grade(g):\n    g.check('b', True)\n", "not declared"),
        ("CHECKS = {'a': 'A', 'b': 'B'}\ndef grade(g):\n    g.check('a', True)\n", "never reported check(s) b"),
        ("import nonexistent_module\n", "ModuleNotFoundError"),
    ],
)
def test_broken_checks_are_the_exercises_fault(double, tmp_path, checks, words):
    ex = _broken(double, tmp_path, checks)
    v = grade_source(ex, SOLUTION, tmp_path)
    assert v.status == "error"
    assert v.internal_error is not None and v.internal_error.where == "exercise"
    assert words in v.internal_error.message
    assert v.internal_error.file.endswith("checks.py")
