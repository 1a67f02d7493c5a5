"""The toolkit's cache helpers, on the installed JAX, with a real jit spy: live programs (``watch_live``), phases
inside one graded call (``PhaseLog``, ``mark_phase``), static arguments that kept changing (``static_churn``) and
what jitted calls returned (``keep_jit_outputs``, ``returned_by``)."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from jittrainer.authoring import (PhaseLog, keep_jit_outputs, mark_phase, returned_by, static_churn,  # noqa: E402
                                  watch_live)
from jittrainer.grading.sandbox.cache_keys import KeyLog  # noqa: E402
from jittrainer.grading.sandbox.checks.spies import JitSpy  # noqa: E402


class Context:
    """What the helpers ask of ``g``: the call being graded (the watch's), and a jit spy reporting to it."""

    def __init__(self, call=1):
        self.watch = SimpleNamespace(call=call, window=None)
        self.jit_spy = JitSpy(self, keys=KeyLog())

    @property
    def current_call(self):
        return self.watch.call


def context(call=1):
    return Context(call)


def test_live_programs_follow_compiles_and_clears():
    jax.clear_caches()
    g = context()
    live = watch_live(g)
    assert live.tracking
    f = g.jit_spy.jit(lambda x: jnp.tanh(x).sum())
    for n in (1, 2, 3):
        f(np.ones(n, np.float32))
    assert [s.live for s in live.samples] == [1, 2, 3]
    assert live.peak.live == 3 and live.peak.call == 1
    name = next(iter(live.peak.by_function()))
    assert live.peak.by_function()[name] == 3
    assert live.peak.inputs_of(name) == [("f32[1]",), ("f32[2]",), ("f32[3]",)]
    f(np.ones(3, np.float32))  # a cache hit: nothing new
    assert live.samples[-1].live == 3
    f.clear_cache()
    assert live.now().live == 0
    f(np.ones(2, np.float32))
    jnp.pad(np.ones(2, np.float32), (0, 1))  # JAX's own eager programs are alive too
    assert live.now().live > 1
    jax.clear_caches()
    assert live.now().live == 0


def test_a_new_jit_of_the_same_function_shares_its_cache_and_nothing_is_sampled_outside_a_call():
    jax.clear_caches()
    g = context(call=None)
    live = watch_live(g)

    def loss(x):
        return (x * 2.0).sum()

    for n in (4, 5):
        g.jit_spy.jit(loss)(np.ones(n, np.float32))
    assert live.samples == []  # no graded call was running
    assert live.now().live == 2
    g.jit_spy.jit(loss).clear_cache()  # the shared cache, emptied through another jax.jit of the same function
    assert live.now().live == 0


def test_phases_attribute_what_follows_a_report():
    g = context()
    report = PhaseLog(g)
    params = {"w": jnp.arange(3.0)}
    report(1, params)
    assert g.watch.call == 2 and report.phase == 2
    params["w"] = params["w"] + 1  # the report kept a copy, taken when it was made
    report(2, params)
    assert [e[0] for e in report.entries] == [1, 2]
    assert isinstance(report.entries[0][1]["w"], np.ndarray)
    np.testing.assert_array_equal(report.entries[0][1]["w"], [0.0, 1.0, 2.0])
    g.watch.call = None  # outside a graded call nothing is counted, so nothing is marked
    mark_phase(g, 7)
    assert g.watch.call is None
    report.reset()
    assert report.entries == [] and report.phase == 1


class Plain:
    def __init__(self, rate):
        self.rate = rate


def test_static_churn_tells_identity_from_values():
    g = context()
    step = functools.partial(g.jit_spy.jit, static_argnames="opt")(lambda x, opt: x * 2.0)
    rated = g.jit_spy.jit(lambda x, lr: x * lr, static_argnums=1)
    x = np.ones(2, np.float32)
    for phase, rate in enumerate((0.1, 0.05, 0.02), 1):
        g.watch.call = phase
        step(x, opt=Plain(rate))  # a new object, with no ==, every phase
        rated(x, rate)
        rated(x, rate)  # the same value again is no churn
    found = {c.argument: c for c in static_churn(g.jit_spy.calls)}
    assert found["opt"].values == 3 and found["opt"].by_identity and not found["opt"].own_eq
    assert found["opt"].type == "Plain" and found["opt"].new_in == [1, 2, 3]
    assert found["lr"].values == 3 and not found["lr"].by_identity and found["lr"].type == "float"
    assert static_churn(g.jit_spy.calls, "nothing") == []
    import optax

    churn = static_churn([c for c in _calls(g, step, [optax.adam(0.1), optax.adam(0.1)])])
    assert churn[0].by_identity and churn[0].own_eq  # a NamedTuple compares its fields: functions, by identity


def _calls(g, step, optimizers):
    kept = len(g.jit_spy.calls)
    for opt in optimizers:
        step(np.ones(2, np.float32), opt=opt)
    return g.jit_spy.calls[kept:]


def test_what_jitted_calls_returned_and_which_call_returned_it():
    g = context()
    keep_jit_outputs(g.jit_spy)
    double = g.jit_spy.jit(lambda x: (x * 2.0, x.sum()))
    outer = g.jit_spy.jit(lambda x: double(x)[0] + 1.0)  # double traced inside: it returns tracers, keeps nothing
    x = np.arange(3.0, dtype=np.float32)
    double(x)
    outer(x)
    first, last, inner = g.jit_spy.calls  # outer is recorded before it runs, and traces double inside
    np.testing.assert_array_equal(first.outputs[0], [0.0, 2.0, 4.0])
    assert inner.outputs is None
    np.testing.assert_array_equal(last.outputs[0], [1.0, 3.0, 5.0])
    assert returned_by(g.jit_spy.calls, [np.array([0.0, 2.0, 4.0])]) is first
    assert returned_by(g.jit_spy.calls, [np.array([1.0, 3.0, 5.0])]) is last
    assert returned_by(g.jit_spy.calls, [np.array([0.0, 2.0, 4.0]), np.float32(3.0)]) is first
    assert returned_by(g.jit_spy.calls, [np.array([9.0, 9.0, 9.0])]) is None

    def broken(v):
        raise ValueError("no")

    failing = g.jit_spy.jit(broken)
    with pytest.raises(ValueError):
        failing(x)
    double(x + 1)  # a call that raised never returned: the next one still keeps its own outputs
    np.testing.assert_array_equal(g.jit_spy.calls[-1].outputs[0], [2.0, 4.0, 6.0])


def test_made_by_names_the_jitted_call_that_made_a_result_from_its_input():
    from jittrainer.authoring import made_by

    g = context()
    keep_jit_outputs(g.jit_spy)
    step = g.jit_spy.jit(lambda w, x: w - 0.1 * x.mean(axis=0))
    passthrough = g.jit_spy.jit(lambda w, x: (w, x.sum()))  # the result made on the host, handed through jit
    w, x = np.ones(3, np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.asarray(step(w, x))
    found = made_by(g.jit_spy.calls, [out], [x])
    assert found.problem == "" and found.call is g.jit_spy.calls[0]
    host = w - 0.1 * x.mean(axis=0)
    passthrough(host, x)
    found = made_by(g.jit_spy.calls, [host], [x])
    assert found.problem == "not_following" and found.call is g.jit_spy.calls[1]
    assert made_by(g.jit_spy.calls, [out], [x + 7]).problem == "no_input"
    assert made_by(g.jit_spy.calls, [np.full(3, 9.0)], [x]) == type(found)(None, "not_returned")


def test_best_fit_finds_the_number_that_explains_a_result():
    from jittrainer.authoring import best_fit

    def decay(lr):  # ten steps of w <- w - lr * w
        return 2.0 * (1 - lr) ** 10

    got = decay(0.037)
    assert best_fit(lambda lr: (decay(lr) - got) ** 2, 1e-4, 0.5) == pytest.approx(0.037, rel=1e-6)
    assert best_fit(lambda v: (v - 3.0) ** 2, 0.01, 100.0) == pytest.approx(3.0, rel=1e-6)
