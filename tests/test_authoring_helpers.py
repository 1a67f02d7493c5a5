"""The shared diagnoses of the authoring API, tested directly on hand-made calls (no worker, no learner's file): the
verdict tests cover them through whole grades, these pin down their rules."""

from __future__ import annotations

import contextlib
import re
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jittrainer.authoring import (
    Cause,
    array_types,
    call_signature,
    eager_source,
    first_wrong,
    keep_argument_copies,
    shape_changes,
    split_compiles,
    structure_text,
    ErrorInfo,
    EventLog,
    Hooked,
    HookedLowered,
    JitCall,
    as_floats,
    as_number,
    at_line,
    bare_name,
    batch_sizes,
    batch_values,
    calls_words,
    constants_of,
    doubled,
    eqns_within,
    fetching,
    filled,
    first_slip,
    hooked,
    ignores_mapped_result,
    jit_reach,
    lines_writing,
    later_misses,
    mismatch,
    missing_values,
    msg,
    one_compile,
    outer_jit_advice,
    reason_items,
    refuse_fetching,
    repeat_that_compiled,
    rerun,
    runs_in,
    places_of,
    shift_rerun,
    shifted,
    shortened,
    spy_clocks,
    spy_compiles,
    spy_waits,
    still_running,
    taken_by,
    tracer_error,
    type_of,
    values_match,
    watch_calls,
    when_eager,
    when_new_function,
    when_nothing,
    when_static,
)
from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
from jittrainer.grading.sandbox.compile_watch import CountingWindow, Event
from jittrainer.grading.verdict import CacheMiss


class Recorder:
    @contextlib.contextmanager
    def mute(self):
        yield


class FakeSpy:
    def __init__(self, calls=()):
        self.calls = list(calls)


class FakeContext:
    """What the helpers ask of ``g``: reporting, the program's callbacks and jaxpr, the jit spy, a muted recorder."""

    def __init__(self, fetched=(), jit_calls=()):
        self.results = {}
        self.fetched = list(fetched)
        self.recorder = Recorder()
        self.jit_spy = FakeSpy(jit_calls)

    def passed(self, check, observation=None):
        self.results[check] = ("pass", observation, None, None)
        return True

    def failed(self, check, observation, advice=None, *, tier=None):
        self.results[check] = ("fail", observation, advice, tier)
        return False

    def feeding_callbacks(self):
        return self.fetched

    def graded_jaxpr(self):
        return None


def compiled(*kinds, planned=3):
    """Graded calls that compiled once per kind ("first", "static", "jax_internal", …), in calls 1, 2, 3, …"""
    window = CountingWindow(aot=[CacheMiss(call=i, function="jit(_mean)" if kind == "jax_internal" else "jit(f)",
                                           reason=msg("r", "reason {i}", i=i), kind=kind)
                                 for i, kind in enumerate(kinds, 1)])
    return GradedCalls(name="f", planned=planned, window=window)


HEAD = msg("compiles.head", "{calls} gave {compiles}; expected 1")


# ------------------------------------------------------------------------------------------------ one_compile


def test_one_compile_passes_once_and_says_nothing_compiled_first():
    g = FakeContext()
    assert one_compile(g, compiled("first"), HEAD)
    assert str(g.results["one_compile"][1]) == "compiled once, then reused"
    assert not one_compile(g, compiled(), HEAD, check="other", causes=[when_static(advice=msg("a", "static"))])
    status, observation, advice, _ = g.results["other"]
    assert observation.key == "compiles.none" and advice is None
    assert str(observation) == "3 calls gave 0 compiles; expected 1: nothing was compiled during the graded calls"


def test_the_first_listed_cause_that_holds_explains_the_count():
    calls = compiled("first", "new_function", "jax_internal")
    g = FakeContext()
    one_compile(g, calls, HEAD, causes=[when_static(), when_eager(advice=msg("in", "inside"), tier=2),
                                        when_new_function()])
    _, observation, advice, tier = g.results["one_compile"]
    assert observation.key == "compiles.eager" and str(advice) == "inside" and tier == 2
    assert observation.params["names"] == ["jit(_mean)"]
    one_compile(g, calls, HEAD, check="again", causes=[when_new_function(), when_eager()])
    assert g.results["again"][1].key == "compiles.new_function"
    assert "call 2: reason 2" in str(g.results["again"][1])


def test_without_a_cause_the_reasons_and_the_exercises_advice():
    g = FakeContext()
    one_compile(g, compiled("first", "types"), HEAD, causes=[when_static()], advice=msg("once", "jit once"), tier=3)
    _, observation, advice, tier = g.results["one_compile"]
    assert observation.key == "compiles.why" and str(advice) == "jit once" and tier == 3
    assert str(observation).startswith("3 calls gave 2 compiles; expected 1 (call 2: reason 2")


def test_an_exercises_own_wording_keeps_its_parameters_and_gets_the_facts():
    g = FakeContext()
    own = msg("compiles.static", "{head}: {name} is static ({why})", name="lr", why="given")
    one_compile(g, compiled("first", "static"), msg("h", "{calls} and {compiles}", calls="two calls"),
                causes=[when_nothing(msg("n", "{head}: none")), when_static(own)])
    observation = g.results["one_compile"][1]
    assert str(observation) == "two calls and 2 compiles: lr is static (given)"


def test_a_cause_of_the_exercises_own_and_a_compile_budget():
    g = FakeContext()
    cause = Cause(lambda g, calls: calls.compiles > 2, msg("many", "{head}: too many"))
    one_compile(g, compiled("first", "types", "types"), HEAD, causes=[cause])
    assert str(g.results["one_compile"][1]) == "3 calls gave 3 compiles; expected 1: too many"
    assert one_compile(g, compiled(), HEAD, check="budget", at_most=2)
    assert one_compile(g, compiled("first", "types"), HEAD, check="budget", at_most=2)
    assert not one_compile(g, compiled("first", "types", "types"), HEAD, check="budget", at_most=2)


def test_a_repeated_key_that_compiled_again():
    window = CountingWindow(events=[Event("compile", "jit(f)", 0.0, call) for call in (1, 2, 4)])
    calls = GradedCalls(name="f", planned=4, window=window)
    call, earlier, reason = repeat_that_compiled(calls, [3, 5, 3, 5])
    assert (call, earlier) == (4, 2) and reason.key == "miss.jax_internal"
    assert repeat_that_compiled(calls, [3, 5, 3, 7]) is None  # call 3 repeated 3 and reused its program


def test_later_misses_reason_items_and_bare_names():
    misses = [CacheMiss(call=1, function="jit(f)", reason=msg("r", "first")),
              CacheMiss(call=2, function="jit(f)", reason=msg("r", "second"), kind="static")]
    assert [m.call for m in later_misses(misses)] == [2]
    assert [m.call for m in later_misses(misses[:1] * 2)] == [1]
    assert [str(item) for item in reason_items(misses)] == ["call 1: first", "call 2: second"]
    assert bare_name("jit(mean)") == "mean" and bare_name("mean") == "mean"


# ------------------------------------------------------------------------------------------------ callbacks


def test_refusing_a_callback_whose_result_the_program_uses():
    observation = msg("cb", "uses {callbacks}")
    g = FakeContext(fetched=["jax.pure_callback", "io_callback", "jax.pure_callback"])
    assert fetching(g) == ["jax.pure_callback", "io_callback"]
    assert not refuse_fetching(g, "in_program", observation, msg("a", "advice"), tier=2)
    _, said, advice, tier = g.results["in_program"]
    assert str(said) == "uses jax.pure_callback and io_callback" and tier == 2
    clean = FakeContext()
    assert refuse_fetching(clean, "in_program", observation, passed=msg("ok", "inside"))
    assert str(clean.results["in_program"][1]) == "inside"


# ------------------------------------------------------------------------------------------------ results


def test_values_match_names_the_first_slip_or_what_differs():
    g = FakeContext()
    results = [np.ones(3), np.full(3, 2.0), np.full(3, 9.0)]
    wanted = [np.ones(3), np.ones(3), np.ones(3)]
    slip = lambda i, result: msg("doubled", "call {i} doubled", i=i) if np.allclose(result, 2.0) else None  # noqa: E731
    assert not values_match(g, "values", results, wanted, slip=slip, advice=msg("a", "fix"), tier=1)
    assert str(g.results["values"][1]) == "call 2 doubled"
    why = mismatch(results[::2], wanted[::2], what=lambda i: msg("w", "result {i}", i=i))
    assert str(why).startswith("result 2 is 9 at index [0] where 1 was expected")
    assert values_match(g, "ok", results[:1], wanted[:1]) and str(g.results["ok"][1]) == "all 1 results match"
    twice = lambda i, result: msg("twice", "{why}: twice the sum")  # noqa: E731
    assert str(mismatch([2.0], [1.0], slip=twice)) == "the result of call 1 is 2 where 1 was expected: twice the sum"


def test_type_of_writes_types_as_jax_does():
    assert type_of(np.zeros((2, 3), np.float32)) == "float32[2, 3]" and type_of(np.int32(0)) == "int32[]"
    assert type_of(jax.random.key(0)) == "key<fry>[]" and type_of(3) == "int"


def test_reading_results_as_numbers():
    assert as_floats([1, 2, 3, 4], (2, 2)).shape == (2, 2)
    assert as_floats([[1, 2, 3, 4]], (4,), exact=True) is None
    assert as_floats([1, 2, 3], (4,)) is None and as_floats("text") is None
    assert as_number([[2.5]]) == 2.5 and as_number([1, 2]) is None and as_number(None) != as_number(None)
    slips = ((np.full(2, v), msg("s", "slip {v}", v=v)) for v in (1.0, 2.0))
    assert str(first_slip(np.full(2, 2.0), slips, rtol=1e-6, atol=0)) == "slip 2.0"
    assert first_slip(None, [(1.0, msg("s", "x"))], rtol=0, atol=0) is None


# ------------------------------------------------------------------------------------------------ wording


def test_wording_helpers():
    line = msg("k_line", "{what} on line {line}", what="print")
    assert str(at_line([7, 9], line, msg("k", "print"))) == "print on line 7"
    assert str(at_line([], line, msg("k", "print"))) == "print"
    assert str(calls_words([2])) == "call 2" and str(calls_words([2, 3, 5])) == "calls 2, 3 and 5"
    assert filled(msg("k", "{a} {b}", a=1), {"a": 5, "b": lambda: 2, "c": 3}).params == {"a": 1, "b": 2}
    assert shortened([8, 16, 32, 64], 3) == "8, 16, 32, …" and shortened(["a", "b"], 3) == "a, b"
    assert shortened([1, 2, 3], 3) == "1, 2, 3" and shortened([], 2) == ""


# ------------------------------------------------------------------------------------------------ reaches jit


def test_jit_reach_follows_the_data_into_jitted_code():
    x, other = np.arange(4.0, dtype=np.float32), np.ones(4, np.float32)
    doubling = JitCall.at_call(1, "double", jax.jit(lambda v: v * 2), (x,), {})
    constant = JitCall.at_call(2, "constant", jax.jit(lambda v: v * 0 + 1), (x,), {})
    g = FakeContext(jit_calls=[doubling, constant])
    assert jit_reach(g, 1, [x], x, other).problem == ""
    assert jit_reach(g, 2, [x], x, other).problem == "not_following"
    assert jit_reach(g, 3, [x]).problem == "no_jit"
    missing = jit_reach(g, 1, [x, other])
    assert (missing.problem, missing.index, missing.names) == ("missing", 1, ["double"])

    def broken(v):
        raise ValueError("no")

    g = FakeContext(jit_calls=[JitCall.at_call(1, "broken", broken, (x,), {})])
    failed = jit_reach(g, 1, [x], x, other)
    assert failed.problem == "rerun_failed" and failed.error == "ValueError: no"


def test_runs_shifted_and_a_rerun_that_moves_with_them():
    seq = np.array([1.5, -2.0, 3.25], np.float32)
    rows = np.zeros((2, 4), np.float32)
    rows[1, 1:] = seq
    cols = np.ascontiguousarray(rows.T)
    assert [list(idx) for idx in runs_in(rows, seq)] == [[5, 6, 7]]
    assert [list(idx) for idx in runs_in(cols, seq)] == [[3, 5, 7]]  # down a column
    assert runs_in(rows, seq + 1e-3) == [] and runs_in([1.5], seq) == []
    assert len(runs_in(rows, seq + 1e-7, tol=1e-3)) == 1 and runs_in(rows, seq + 1e-6, tol=0) == []
    moved = shifted(rows, [(np.concatenate(runs_in(rows, seq) * 2), 2.0)])  # a place found twice moves once
    assert np.array_equal(moved[1, 1:], seq + 2) and moved[0].sum() == 0 and rows[1, 1] == seq[0]
    call = JitCall.at_call(1, "total", jax.jit(lambda a: (a.sum(), a * 2)), (rows,), {})
    g = FakeContext()
    before, after = rerun(g, call), rerun(g, call, *call.arguments([moved]))
    assert before.scalars == [float(seq.sum())] and np.isclose(after.scalars[0] - before.scalars[0], 6.0)
    assert after.flat.shape == (9,) and before.function == "total"

    def broken(a):
        raise ValueError("no\nmore")

    failed = rerun(g, JitCall.at_call(1, "broken", broken, (rows,), {}))
    assert failed.outputs is None and failed.error == "ValueError: no" and failed.flat.size == 0


def test_each_vector_shifted_by_its_own_amount_and_how_the_outputs_moved():
    a, b = np.array([1.5, 2.5], np.float32), np.array([-3.0, 4.0, 0.5], np.float32)
    rows = np.zeros((2, 3), np.float32)
    rows[0, :2], rows[1] = a, b
    slots = places_of([rows, np.float32(1.0)], [a, b, np.array([9.0, 9.0])])
    assert {i: [(k, list(idx)) for k, idx in places] for i, places in slots.items()} == {0: [(0, [0, 1])],
                                                                                        1: [(0, [3, 4, 5])]}
    means = JitCall.at_call(1, "means", jax.jit(lambda r: (r[0, :2].mean(), r[1].mean())), (rows,), {})
    g = FakeContext()
    delta, error = shift_rerun(g, means, slots, [2.0, 10.0])
    assert error == "" and np.allclose(delta, [2.0, 10.0])
    delta, _ = shift_rerun(g, means, {1: slots[1]}, [2.0, 10.0])  # only b moves
    assert np.allclose(delta, [0.0, 10.0])

    def broken(r):
        raise ValueError("no")

    assert shift_rerun(g, JitCall.at_call(1, "broken", broken, (rows,), {}), slots, [1.0, 1.0]) == (
        None, "ValueError: no")


def test_advice_for_outer_code_the_grader_wrapped_in_jit():
    def error(kind):
        return SimpleNamespace(type=kind, message="")

    fix = lambda e: None if e.type == "TracerIntegerConversionError" else msg("fix", "use jnp.where")  # noqa: E731
    wrapped = msg("wrapped", "f is not jitted, so the grader wrapped it: {fix}")
    advice = outer_jit_advice(SimpleNamespace(wrapped_host_code=True), fix, wrapped, "bool")
    assert str(advice(error("TracerBoolConversionError"))) == "f is not jitted, so the grader wrapped it: use jnp.where"
    assert str(advice(error("TracerArrayConversionError"))) == "use jnp.where"  # not of the kinds named
    assert advice(error("TracerIntegerConversionError")) is None and str(advice(error("KeyError"))) == "use jnp.where"
    plain = outer_jit_advice(SimpleNamespace(wrapped_host_code=False), fix, wrapped)
    assert str(plain(error("TracerBoolConversionError"))) == "use jnp.where"


def test_tracer_errors_by_kind():
    error = lambda type_: ErrorInfo(type_, "")  # noqa: E731
    assert tracer_error(error("ConcretizationTypeError"), "int") and tracer_error(error("TracerBoolConversionError"))
    assert tracer_error(error("TracerIntegerConversionError"), "int", "bool")
    assert not tracer_error(error("TracerArrayConversionError"), "int", "bool")
    assert not tracer_error(error("TypeError")) and not tracer_error(error("UnexpectedTracerError"))


def _report(step, value=0.0, *, scale=1.0):
    return step + value * scale


def test_watch_calls_sees_every_alias_of_a_function():
    seen = []
    alias = _report
    assert watch_calls(_report, lambda *args, **kwargs: seen.append((args, kwargs)))
    assert alias(1, 2.0, scale=3.0) == 7.0 and _report(4) == 4 and seen == [((1, 2.0), {"scale": 3.0}), ((4,), {})]
    outer = 2.0
    assert not watch_calls(lambda v: v * outer, print) and not watch_calls(len, print)


def test_equations_with_what_holds_them():
    def f(x):
        return jax.lax.scan(lambda c, v: (c + jnp.sin(v), None), 0.0, x)[0] * 2

    found = [(eqn.primitive.name, holders) for eqn, holders in eqns_within(jax.make_jaxpr(f)(np.ones(3)))]
    assert ("sin", ("scan",)) in found and ("mul", ()) in found
    assert [name for name, _ in found].index("scan") < [name for name, _ in found].index("sin")


def test_captured_constants_nested_ones_too_each_once():
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.full(4, 2.0, np.float32)

    def f(x):  # w is captured by the program and again by the nested jit, b only by the nested jit
        inner = jax.jit(lambda v: v @ w + b)
        return jax.lax.cond(x.sum() > 0, lambda v: v @ w, lambda v: -v @ w, x) + inner(x)

    closed = jax.make_jaxpr(f)(np.ones(3, np.float32))
    found = constants_of(closed)
    assert [(c.type, c.nbytes) for c in found] == [("float32[3,4]", 48), ("float32[4]", 16)]
    assert np.array_equal(found[0].array, w) and np.array_equal(found[1].array, b)
    assert [c.type for c in constants_of(closed, nested=False)] == ["float32[3,4]"]
    assert constants_of(None) == [] and constants_of(jax.make_jaxpr(lambda x: x * 2)(1.0)) == []


# ------------------------------------------------------------------------------------------------ splits


def test_lines_writing_a_device_count():
    code = "mesh = jax.make_mesh((4,), ('i',))\nx = x.reshape(4, -1)\ny = x4 + 0.4 * 2 ** 14\nz = n*4\n"
    g = SimpleNamespace(lines_calling=lambda pattern: [i for i, line in enumerate(code.splitlines(), 1)
                                                       if re.search(pattern, line)])
    assert lines_writing(g, 4) == [1, 2] and lines_writing(g, 14) == [3] and lines_writing(g, 1) == []


def test_batch_sizes_surround_the_device_count():
    rng = np.random.default_rng(0)
    for devices in (1, 3, 6):
        for _ in range(20):
            sizes = batch_sizes(rng, devices)
            assert len(sizes) == (5 if devices > 1 else 4) and devices in sizes
            if devices > 1:
                assert min(sizes) < devices and sum(s % devices != 0 for s in sizes) >= 3


def test_batch_values_are_told_apart_from_padding():
    x = batch_values(np.random.default_rng(1), 200)
    assert x.dtype == np.float32 and x.shape == (200,) and (x < 0).any() and (x > 0).any()
    assert (x ** 2 >= 0.25).all() and (np.abs(x) <= 2.0).all()
    assert missing_values(x, [np.pad(x[:150], (0, 2))]) == 50  # each lost value shows, the padding zeros hold none


def test_missing_values_and_doubling():
    x = np.array([1.5, -2.0, 3.25], np.float32)
    assert missing_values(x, [np.array([[3.25, 0.0], [1.5, -2.0]], np.float64)]) == 0
    assert missing_values(x, [np.array([1.5, 9.0])]) == 2
    assert missing_values(x, [np.arange(3)]) == 3  # integers hold no x
    out = doubled({"a": np.ones(2, np.float32), "n": np.int32(3)})
    assert out["a"].tolist() == [2.0, 2.0] and out["n"] == 3


@pytest.mark.parametrize(("uses_it", "ignored"), [(True, None), (False, 1)])
def test_a_result_that_ignores_the_per_device_program(uses_it, ignored):
    state = {"double": False}
    mapped = lambda v: doubled(v) if state["double"] else v  # noqa: E731

    def graded(v):
        return np.sum(mapped(v)) if uses_it else np.sum(v)

    record = CallRecord(1, (np.ones(3),), result=3.0)
    calls = GradedCalls(name="f", planned=1, fn=graded, records=[record])
    assert ignores_mapped_result(FakeContext(), calls, record, lambda on: state.update(double=on)) == ignored
    ran = ignores_mapped_result(FakeContext(), calls, lambda i: i == 1, lambda on: state.update(double=on))
    assert ran == ignored and ignores_mapped_result(FakeContext(), calls, lambda i: False, print) is None
    assert state["double"] is False


def test_hooked_results_also_from_ahead_of_time_copies():
    class Lowered:
        def compile(self):
            return lambda v: v + 1

    def fn(v):
        return v + 1

    fn.lower = lambda *args: Lowered()
    wrapped = hooked(fn, lambda out: out * 10)
    assert wrapped(1) == 20 and wrapped.lower(1).compile()(1) == 20 and wrapped.__name__ == "fn"
    assert isinstance(wrapped.lower(1), HookedLowered)


def test_hooked_stand_in_keeps_its_name_and_hooks_every_result():
    real = jax.jit(lambda v: v + 1)
    step = Hooked(real, lambda out: out * 10, "step", "doc")
    assert float(step(1.0)) == 20.0 and float(step.lower(1.0).compile()(1.0)) == 20.0
    assert step.__name__ == "step" and step.__doc__ == "doc" and repr(step) == "<jitted function step>"
    assert step.eval_shape(1.0).shape == ()  # anything else is the jitted function's


def test_event_log_keeps_each_watched_call_apart():
    log, seen = EventLog(), []
    log.add("before")  # not watching: dropped

    def work(n):
        log.add("call", n)
        return n * 2

    watched = log.watching(work, reset=lambda: seen.append("reset"), keep=lambda: len(seen))
    assert watched(1) == 2 and watched(3) == 6
    log.add("after")
    assert log.runs == [([("call", 1)], 1), ([("call", 3)], 2)] and not log.active


def test_clock_spies_see_only_reads_from_the_watched_file(monkeypatch):
    import time
    import timeit

    for name in ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns"):
        monkeypatch.setattr(time, name, getattr(time, name))
    monkeypatch.setattr(timeit, "default_timer", timeit.default_timer)
    for fn in (timeit.Timer.__init__, timeit.timeit, timeit.repeat):
        monkeypatch.setattr(fn, "__defaults__", fn.__defaults__)
    reads, real = [], time.perf_counter
    spy_clocks(__file__, lambda seconds, name: reads.append((name, seconds)))
    time.perf_counter_ns()
    time.monotonic()
    exec(compile("import time; time.perf_counter()", "elsewhere.py", "exec"))  # another file: not seen
    assert [name for name, _ in reads] == ["perf_counter_ns", "monotonic"]
    assert abs(reads[0][1] - real()) < 60  # _ns reads come back in seconds
    timeit.timeit("pass", number=1)
    assert [name for name, _ in reads[2:]] == ["perf_counter", "perf_counter"]


def test_wait_spies_report_each_wait_once(monkeypatch):
    array_type = type(jax.device_put(np.float32(0.0)))
    monkeypatch.setattr(array_type, "block_until_ready", array_type.block_until_ready)
    monkeypatch.setattr(array_type, "is_ready", array_type.is_ready)
    monkeypatch.setattr(jax, "block_until_ready", jax.block_until_ready)
    waits = []
    spy_waits(lambda value, how: waits.append(how))
    x = jnp.ones(3) * 2
    x.block_until_ready()
    jax.block_until_ready([x, x + 1])
    assert x.is_ready()
    assert waits == ["method", "function", "is_ready"]
    assert still_running([x, x + 1]) == 0 and waits == ["method", "function", "is_ready"]


def test_compile_spy_names_what_compiled():
    names, on = [], [True]
    spy_compiles(lambda name: on[0] and names.append(name))
    try:
        jax.jit(lambda v: v * 3.5 + 0.25, inline=False)(np.arange(7.0, dtype=np.float32))
    finally:
        on[0] = False
    assert any("lambda" in name for name in names)


def test_taken_by_follows_selections_and_nested_calls():
    def fn(key):
        keys = jax.random.split(key, 3)
        inner = jax.jit(lambda k: jax.random.uniform(k))
        return inner(keys[1]), keys[0], keys[2]

    jaxpr = jax.make_jaxpr(fn)(jax.random.key(0)).jaxpr
    consumed = taken_by(jaxpr, {"random_bits", "random_split"})
    assert consumed(jaxpr.invars[0])  # split
    assert not consumed(jaxpr.outvars[1]) and not consumed(jaxpr.outvars[2])  # handed back, unused
    drawn = next(eqn for eqn in jaxpr.eqns if eqn.primitive.name in ("jit", "pjit")).invars[0]
    assert consumed(drawn)  # keys[1], drawn from inside a nested jit
    assert not taken_by(jaxpr, {"random_bits"})(jaxpr.invars[0])


def test_split_compiles_puts_eager_operations_first_only_when_they_explain_the_count():
    def misses(*functions):
        return [CacheMiss(call=i, function=f, reason=msg("r", "r")) for i, f in enumerate(functions, 1)]

    split = split_compiles(misses("jit(f)", "jit(_pad)", "jit(iota)", "jit(_pad)"), lambda f: f == "jit(f)")
    assert split.own == {"jit(f)": 1} and split.eager == {"jit(_pad)": 2, "jit(iota)": 1} and split.eager_first
    assert split.eager_names(eager_source) == ["jnp.pad", "jnp.arange"] and split.top == "jit(f)"
    storm = split_compiles(misses("jit(f)", "jit(f)", "jit(f)", "jit(_pad)"), lambda f: f == "jit(f)")
    assert not storm.eager_first and storm.top == "jit(f)" and eager_source("jit(mine)") == "mine"


def test_first_wrong_reports_the_first_rejected_item_in_the_exercises_words():
    g = FakeContext()
    assert not first_wrong(g, "values", [1, 2, 3, 4], lambda v: v < 3, lambda i, v: msg("w", "item {i} is {v}", i=i,
                           v=v), msg("a", "advice"), tier=2, ok=msg("ok", "fine"))
    status, why, advice, tier = g.results["values"]
    assert status == "fail" and why.params == {"i": 3, "v": 3} and tier == 2
    assert first_wrong(g, "other", [1], lambda v: True, None, ok=msg("ok", "fine")) and g.results["other"][0] == "pass"


def test_tree_texts_of_recorded_calls():
    one = JitCall.at_call(1, "f", None, ({"pred": np.zeros(3, np.float32), "aux": [np.ones(2)]},), {})
    two = JitCall.at_call(2, "f", None, ({"pred": np.zeros(4, np.float32), "aux": [np.ones(2)]},), {})
    assert structure_text(one) == "{'aux': [*], 'pred': *}"
    assert shape_changes([call_signature(one), call_signature(two)]) == "float32[3], float32[4]"
    assert shape_changes([call_signature(one)] * 2) == "?" and array_types([one, two], limit=1).endswith(", …")


def test_kept_argument_copies_do_not_follow_a_refilled_buffer():
    class Spy:
        def record(self, args, kwargs):
            return JitCall.at_call(1, "f", None, args, kwargs)

    spy, buffer = Spy(), np.zeros(3)
    keep_argument_copies(spy)
    call = spy.record((buffer,), {})
    buffer[:] = 7.0
    assert call.args[0].tolist() == [0.0, 0.0, 0.0]
