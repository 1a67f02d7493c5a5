"""Reports that say what happened (issue 30, class 4): a gradient's backward program is named as the learner's, a
later counting window is counted apart, a scratch call that raised is no cache hit and a static argument shows
its value, the panes count what the worker dropped, and the review names only the figures it measured."""

from __future__ import annotations

import io
import textwrap

import pytest

from helpers import exercise
from jittrainer.grading.review import Comment, ProgramMeasures
from jittrainer.grading.review.rules import lean_comment, summary
from jittrainer.grading.sandbox.compile_watch import CountingWindow, Event, Miss
from jittrainer.grading.scratch import ScratchCall
from jittrainer.grading.verdict import CacheMiss, OutputSection, Verdict
from jittrainer.i18n import set_language
from jittrainer.i18n.message import Msg

FIRST = "TRACING CACHE MISS at /w/a.py:13:8 (<module>):\n  never seen function:\n    f id=1 defined at /w/a.py:6"
AGAIN = FIRST.replace("id=1", "id=2") + ("\n  but seen another function defined on the same line; maybe the function "
                                         "is\n  being re-defined repeatedly, preventing caching?")


# -- jax.grad of a jitted function: two programs from one trace ------------------------------------------------

def _grad_window(second_miss: bool) -> CountingWindow:
    """What jax.grad(f)(x) of a jitted f records (JAX 0.10 explains the first compile only; 0.12 calls the second a
    re-defined function): compile jit(f), an eager conversion, compile jit(f) again, with no trace of f between."""
    window = CountingWindow()
    window.events = [Event("compile", "jit(f)", 0.1, 1), Event("trace", "convert_element_type", 0.0, 1),
                     Event("compile", "jit(convert_element_type)", 0.0, 1), Event("compile", "jit(f)", 0.1, 1)]
    window.misses = [Miss(FIRST, 1, "f")] + ([Miss(AGAIN, 1, "f")] if second_miss else [])
    return window


@pytest.mark.parametrize("second_miss", [False, True], ids=["jax-0.10", "jax-0.12"])
def test_the_backward_program_of_a_jitted_function_is_named_as_the_learners(second_miss):
    explained = _grad_window(second_miss).explained()
    assert [m.kind for m in explained] == ["first", "jax_internal", "derived"]
    reason = str(explained[2].reason)
    assert reason.startswith("jit(f) again, with no new trace: a program JAX derived from your f")
    assert "backward pass of f" in reason and "not a function from your file" not in reason


def test_a_function_made_again_and_traced_again_is_still_a_new_function():
    window = CountingWindow()
    window.events = [Event("trace", "<lambda>", 0.0, 1), Event("compile", "jit(<lambda>)", 0.1, 1),
                     Event("trace", "<lambda>", 0.0, 1), Event("compile", "jit(<lambda>)", 0.1, 1)]
    lam = FIRST.replace(" f id", " <lambda> id")
    window.misses = [Miss(lam, 1, "<lambda>"), Miss(lam.replace("id=1", "id=2") + AGAIN[len(FIRST):], 1, "<lambda>")]
    assert [m.kind for m in window.explained()] == ["first", "new_function"]


def test_a_call_recorded_under_an_eager_grad_keeps_its_primal_values():
    import jax
    import jax.numpy as jnp
    import numpy as np

    from jittrainer.grading.sandbox.checks.jit_calls import JitCall

    recorded = []

    def spy(w, x):
        recorded.append(JitCall.at_call(1, "loss", loss, (w, x), {}))
        return loss(w, x)

    loss = jax.jit(lambda w, x: jnp.sum((x @ w) ** 2))
    w, x = np.ones(3, np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    jax.grad(spy)(w, x)
    call = recorded[0]
    assert len(call.arrays) == 2 and np.array_equal(call.arrays[0], w)  # the weights, not a dead JVP tracer
    np.testing.assert_allclose(np.asarray(call.reinvoke(*call.arguments())), np.sum((x @ w) ** 2))


# -- the summary line counts each window the checks count ------------------------------------------------------

def _verdict(**fields) -> Verdict:
    return Verdict(exercise="where_nan_gradient", status="pass", headline=Msg("all_passed", "All checks passed."),
                   **fields)


def test_the_summary_line_splits_a_later_window_the_checks_count_apart(capsys):
    from pathlib import Path

    from jittrainer.cli.report import print_verdict
    from jittrainer.cli.style import Style

    set_language("en")
    misses = [CacheMiss(1, "jit(lengths)", Msg("t", "first call of lengths")),
              CacheMiss(1, "jit(gradient_of_lengths)", Msg("t", "first call of it"), window="jax.grad")]
    print_verdict(_verdict(compiles=2, traces=2, cache_misses=misses), exercise("where_nan_gradient"),
                  Path("x.py"), Style(io.StringIO()))
    out = capsys.readouterr().out
    assert "compiles 2 · traces 2 (1 in the graded calls and 1 in the calls of jax.grad)" in out
    assert "    call 1: jit(lengths): first call of lengths" in out
    assert "    jax.grad, call 1: jit(gradient_of_lengths)" in out


# -- the scratch run: a call that raised, a static argument ----------------------------------------------------

def test_a_scratch_call_that_raised_is_no_cache_hit():
    set_language("en")
    assert ScratchCall(2, "pyramid_pool", raised="ValueError").outcome() == "raised ValueError"
    assert ScratchCall(1, "f", traces=0, compiles=0).outcome() == "cached"
    assert ScratchCall(1, "f", traces=1, compiles=1).outcome() == "compiled"


@pytest.mark.worker
def test_the_scratch_run_of_exercise_13_shows_the_failed_call_and_the_static_value():
    from jittrainer.grading.host.run import Submission
    from jittrainer.grading.host.scratch import scratch_run
    from jittrainer.grading.limits import limits_for

    ex = exercise("unhashable_static")
    result = scratch_run(Submission(ex, ex.starter_path.read_bytes(), ex.starter_path, timing=False, lang="en"),
                         limits_for(ex))
    first, second = result.calls
    assert first.types == ["float32[24]", "windows=(12, 24)"] and first.compiles == 1 and not first.raised
    assert second.types == ["float32[24]", "windows=[12, 24]"] and second.raised == "ValueError"


# -- the panes count what the worker dropped -------------------------------------------------------------------

def test_the_output_pane_counts_what_the_worker_dropped():
    from jittrainer.app.widgets.panes.common import PaneContext
    from jittrainer.app.widgets.panes.output import render_output

    set_language("en")
    verdict = _verdict(output_sections=[OutputSection("call 1", "x" * 100, dropped=44_000_000)])
    text = render_output(verdict, PaneContext()).plain
    assert "[… 44,000,000 more characters not shown here]" in text


def test_the_scratch_pane_counts_what_the_worker_dropped():
    from jittrainer.app.widgets.panes.common import PaneContext
    from jittrainer.app.widgets.panes.scratch import render_scratch_output
    from jittrainer.grading.scratch import ScratchRun

    set_language("en")
    run = ScratchRun(exercise="double", headline=Msg("t", "ran"), calls=[ScratchCall(1, "double")],
                     output_sections=[OutputSection("call 1", "spam\n" * 10, dropped=16_384)])
    assert "[… 16,384 more characters not shown here]" in render_scratch_output(run, PaneContext()).plain


# -- the review names only what it measured --------------------------------------------------------------------

def test_a_program_not_measured_has_no_zero_equations():
    set_language("en")
    none = ProgramMeasures(compiles=3, traces=3)
    comment = lean_comment(none, none)
    assert str(comment.message) == "As lean as the reference: 3 compiles (no program of its own to measure)."


def test_leaner_than_the_reference_is_not_summed_up_as_as_lean():
    set_language("en")
    leaner = [Comment("review.leaner", "celebratory", Msg("t", "x"))]
    assert str(summary(leaner)) == "It passes, and it is leaner than the reference."
    assert str(summary([Comment("review.lean", "celebratory", Msg("t", "x"))])) == \
        "It passes, and it is as lean as the reference."


def test_eager_grad_alternative_exists_for_the_compile_list():
    # The worker-level proof: tests/alt_submissions/jit_in_loop/fail_eager_grad_of_jitted_loss.py and its golden.
    from helpers import ALT

    text = (ALT / "jit_in_loop" / "fail_eager_grad_of_jitted_loss.py").read_text()
    assert text.startswith("# expect: one_compile") and "jax.grad(loss)" in textwrap.dedent(text)
