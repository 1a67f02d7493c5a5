"""Counting traces and compiles and explaining them, in-process (this test process may import jax; the UI may not)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from jittrainer.grading.sandbox.checks.jaxprs import jaxpr_report  # noqa: E402
from jittrainer.grading.sandbox.checks.spies import JitSpy  # noqa: E402
from jittrainer.grading.sandbox.compile_watch import CompileWatch as JaxWatch  # noqa: E402


@pytest.fixture(scope="module")
def watch():
    return JaxWatch()


def test_counts_only_inside_the_window(watch):
    f = jax.jit(lambda x: x + 1)
    f(np.ones(3, np.float32))  # outside: not counted
    x4 = np.ones(4, np.float32)
    with watch.counting() as window:
        watch.call = 1
        f(x4)
        watch.call = 2
        f(x4)
    assert window.compiles == 1 and window.traces == 1
    assert window.compiles_in_call(1) == 1 and window.compiles_in_call(2) == 0


def test_function_recreated_per_call_is_explained(watch):
    x = np.ones(3, np.float32)
    with watch.counting() as window:
        for call in (1, 2):
            watch.call = call
            jax.jit(lambda v: v * 2)(x)
    reasons = window.explained()
    assert [m.call for m in reasons] == [1, 2]
    assert "first call" in str(reasons[0].reason)
    assert "new function object" in str(reasons[1].reason)


def test_static_argument_change_is_named(watch):
    # Through the jit spy, as the grader runs the learner's jitted functions: JAX 0.10 names the changed static
    # value itself; 0.12 says "explanation unavailable" and the spy's own record of the calls names it instead.
    def reshape_rows(x, rows):
        return x.reshape((rows, -1))

    f = JitSpy(None, keys=watch.keys).jit(reshape_rows, static_argnums=1)
    x = jnp.arange(12.0)
    with watch.counting() as window:
        for call, rows in enumerate((3, 4, 3), 1):
            watch.call = call
            f(x, rows)
    reasons = window.explained(params=("x", "rows"), function="reshape_rows")
    assert "#2 (positional)" in str(window.explained(params=("x", "rows"), function="other")[1].reason)
    assert len(reasons) == 2
    assert str(reasons[1].reason).startswith("static argument rows changed from 3 to 4")
    assert [m.kind for m in reasons] == ["first", "static"]
    assert "TRACING CACHE MISS" in reasons[1].detail


def test_eager_ops_on_new_shapes_count_and_are_attributed(watch):
    arrays = [np.ones(n, np.float32) for n in (5, 6, 7)]
    with watch.counting() as window:
        for call, a in enumerate(arrays, 1):
            watch.call = call
            jnp.pad(a, (0, 2))
    reasons = window.explained()
    assert window.compiles >= 3
    assert all("not a function from your file" in str(m.reason) for m in reasons)
    assert {m.kind for m in reasons} == {"jax_internal"}


def test_jaxpr_report_shows_callbacks_and_constants():
    table = np.arange(6, dtype=np.float32)

    def f(x):
        jax.debug.print("x={x}", x=x)
        return x * table

    closed = jax.jit(f).trace(np.ones(6, np.float32)).jaxpr
    report = jaxpr_report(closed, "f")
    assert report.callbacks == ["debug_print"]
    assert report.primitives["mul"] == 1
    assert report.constants and report.constants[0].startswith("float32[6]")
    assert "DebugEffect" in report.effects
