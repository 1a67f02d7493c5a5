"""Checks for host_callbacks: two calls of train on float32[5]; after each update report(t, s) must run on the host.

Before the first call the grader swaps the module's ``report`` for a recorder (as a test would), so the learner's
code must look ``report`` up by name when it traces. The recorder notes the graded call it ran in and whether its
arguments were concrete numbers or tracers. The original ``report`` is watched too, so a callback bound to the
import-time object (``_report = report``) is recognised instead of looking like "never called".
"""

import re
import types
from dataclasses import dataclass

import numpy as np

from jittrainer.core.jaxwatch import iter_eqns
from jittrainer.core.toolkit import compare, is_tracer, plural

CHECKS = {
    "runs": "train runs under jax.jit",
    "values": "returns the final running sum of squares",
    "one_compile": "two calls of one shape compile once",
    "reports_every_call": "report runs on the host on every call, with real numbers",
    "reports_in_order": "each call reports steps 0 to 4 in order, each with its running sum",
}

STEPS = 5
CALLS = 2
RTOL = 1e-5
ATOL = 1e-6


@dataclass
class Report:
    call: int | None  # graded call it ran in (None: outside the graded calls)
    step: float | None  # None: a tracer, missing or not a number
    value: float | None
    traced: bool  # an argument was a tracer: report ran while JAX traced the function
    problem: str = ""  # arguments that do not fit report(step, value)


def number(value) -> float | None:
    """A concrete scalar (Python, NumPy, jax.Array, also of shape (1,)), else None. Never raises, never warns."""
    if is_tracer(value):
        return None
    try:
        arr = np.asarray(value)
        if arr.size != 1 or arr.dtype.kind not in "biuf":
            return None
        return float(arr.reshape(()))
    except Exception:
        return None


def shown(value) -> str:
    if is_tracer(value):
        return repr(value)
    v = number(value)
    return repr(value) if v is None else (str(int(v)) if v == int(v) and abs(v) < 1e9 else f"{v:.6g}")


def make_recorder(g, log: list[Report], label: str | None = "report"):
    def recorder(*args, **kwargs):
        try:
            bound = dict(zip(("step", "value"), args))
            problem = ""
            if len(args) > 2 or set(kwargs) - {"step", "value"} or set(kwargs) & set(bound):
                problem = f"report got arguments {_signature(args, kwargs)}; it takes (step, value)"
            bound.update({k: v for k, v in kwargs.items() if k in ("step", "value")})
            if not problem and len(bound) < 2:
                problem = f"report got only {_signature(args, kwargs)}; it takes (step, value)"
            step, value = bound.get("step"), bound.get("value")
            traced = any(is_tracer(v) for v in (*args, *kwargs.values()))
            log.append(Report(g.current_call, number(step), number(value), traced, problem))
            if label:  # the learner sees in the output pane when report ran, and with what
                when = " (while tracing)" if traced else ""
                print(f"{label}(step={shown(step)}, value={shown(value)}){when}")
        except Exception:  # the recorder must never raise into the learner's program
            pass

    return recorder


def _signature(args, kwargs) -> str:
    parts = [shown(a) for a in args] + [f"{k}={shown(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def watch_original(g, original, stale: list[Report]) -> None:
    """Make calls of the import-time ``report`` object visible: its code is swapped for a trampoline that records
    the call and then runs the original body. Only plain functions without a closure can be watched."""
    if not isinstance(original, types.FunctionType) or original.__closure__:
        return
    try:
        body = types.FunctionType(
            original.__code__, original.__globals__, original.__name__, original.__defaults__, None
        )
        body.__kwdefaults__ = original.__kwdefaults__
        record = make_recorder(g, stale, label=None)  # the original body prints its own line

        def spy(*args, **kwargs):
            record(*args, **kwargs)
            return body(*args, **kwargs)

        def trampoline(*args, _jittrainer_spy=None, **kwargs):
            return _jittrainer_spy(*args, **kwargs)

        original.__code__ = trampoline.__code__
        original.__defaults__ = None
        original.__kwdefaults__ = {"_jittrainer_spy": spy}
    except Exception:
        pass


def make_xs(rng: np.random.Generator) -> np.ndarray:
    """float32[5], magnitudes 0.5..2 with random signs: every square adds at least 0.25 to the running sum."""
    return (rng.choice([-1.0, 1.0], STEPS) * rng.uniform(0.5, 2.0, STEPS)).astype(np.float32)


def running(xs: np.ndarray) -> np.ndarray:
    return np.cumsum(xs.astype(np.float64) ** 2)


def primitives(g) -> set[str]:
    """Primitive names in the graded program, nested jaxprs included; empty if it did not trace."""
    closed = g.graded_jaxpr()
    return {eqn.primitive.name for eqn in iter_eqns(closed)} if closed is not None else set()


LOOP_PRIMITIVES = ("scan", "while")
CALLBACKS = ("debug_callback", "io_callback", "pure_callback")  # the ones that can call report


def callback_layout(g) -> tuple[int, bool]:
    """(callback equations in the graded program, whether one of them sits inside a scan or while loop)."""
    closed = g.graded_jaxpr()
    if closed is None:
        return 0, True  # cannot tell: do not fail on it
    counts = [0, False]

    def walk(jaxpr, in_loop: bool) -> None:
        inner = getattr(jaxpr, "jaxpr", jaxpr)
        for eqn in inner.eqns:
            name = eqn.primitive.name
            if name in CALLBACKS:
                counts[0] += 1
                counts[1] = counts[1] or in_loop
            for value in eqn.params.values():
                for sub in value if isinstance(value, (tuple, list)) else (value,):
                    if hasattr(sub, "eqns") or hasattr(getattr(sub, "jaxpr", None), "eqns"):
                        walk(sub, in_loop or name in LOOP_PRIMITIVES)

    walk(closed, False)
    return counts[0], counts[1]


def make_advice(wrapped_whole: bool):
    wrapped = " (train itself is not jitted, so the grader wrapped all of it in jax.jit)" if wrapped_whole else ""

    def advice(error) -> str:
        return _advice(error, wrapped)

    return advice


def _advice(error, wrapped: str) -> str:
    if error.type in ("ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError"):
        return (
            f"While jit traces train{wrapped}, xs and every value computed from it (s too) are tracers: float(), "
            "int() and NumPy cannot read them. Let a callback do it: jax.debug.callback(report, t, s) calls report "
            "with real numbers at run time"
        )
    if "callback error" in error.message.lower():
        lines = [ln.strip() for ln in error.message.splitlines() if ln.strip()]
        cause = next((ln for ln in reversed(lines) if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln)), "")
        return (
            "The function you passed to the callback raised on the host"
            + (f" ({cause})" if cause and not cause.startswith("INTERNAL") else "")
            + ": check that it accepts what you pass it; report takes (step, value)"
        )
    return ""




def grade(g):
    wrapped_whole = g.wrapped_host_code
    train = g.graded(params=1)
    reports: list[Report] = []
    stale: list[Report] = []
    original = g.replace("report", make_recorder(g, reports))
    watch_original(g, original, stale)

    xs = [make_xs(g.rng) for _ in range(CALLS)]
    # g.calls starts from empty caches, so a train traced at import (a demo call at the top of the file) is
    # traced again here, with the recorder in place of report.
    calls = g.calls(train, [(x,) for x in xs])
    g.check_ran("runs", calls, advice=make_advice(wrapped_whole))

    for i, (x, result) in enumerate(zip(xs, calls.results), 1):
        ok, why = compare(result, running(x)[-1], rtol=RTOL, atol=ATOL, what=f"the result of call {i}")
        if not ok:
            g.check("values", False, why + "; train must return s = xs[0]**2 + ... + xs[4]**2")
            break
    else:
        g.check("values", True, passed="both results match")

    g.check(
        "one_compile",
        calls.compiles == 1,
        f"{CALLS} calls with one shape gave {plural(calls.compiles, 'compile')}; expected 1"
        + (f" ({calls.why_compiled()})" if calls.compiles > 1 else ""),
        passed="compiled once, then reused",
    )

    if not check_every_call(g, xs, calls, reports, stale):
        return
    check_order(g, xs, reports)


def check_every_call(g, xs, calls, reports: list[Report], stale: list[Report]) -> bool:
    graded = [r for r in reports if r.call is not None]
    traced = [r for r in graded if r.traced]
    per_call = [[r for r in graded if r.call == i and not r.traced] for i in range(1, CALLS + 1)]
    stale_graded = [r for r in stale if r.call is not None]
    fail = lambda message: g.check("reports_every_call", False, message)  # noqa: E731

    if not graded and stale_graded:
        when = ", while tracing (with tracers)" if all(r.traced for r in stale_graded) else ""
        return fail(
            f"your code called the report it captured at import ({plural(len(stale_graded), 'time')}{when}), not "
            "the module's report: the grader replaced report by name before the first call (as a test or a "
            "logger set up later would), and the replacement was never called. Look report up by name inside "
            "train, e.g. jax.debug.callback(report, t, s) written in the loop"
        )
    bad = next((r for r in graded if r.problem), None)
    if bad is not None:
        return fail(bad.problem)
    if traced:
        counts = ", ".join(f"{plural(len(c), 'time')} on call {i}" for i, c in enumerate(per_call, 1))
        if not any(per_call):
            return fail(
                f"report was called {plural(len(traced), 'time')}, {'all ' if len(traced) > 1 else ''}while "
                f"tracing (its arguments were tracers, not numbers), and never with real numbers in {CALLS} calls: a "
                "Python call inside jit runs only while JAX traces the function. Call it through "
                "jax.debug.callback(report, t, s), which runs it on every call"
            )
        return fail(
            f"report was called {plural(len(traced), 'time')} while tracing, with tracers, besides the run-time "
            f"reports ({counts}): call report only through a callback, never directly inside train"
        )
    if not graded:
        prims = primitives(g)
        printed = sum(len([ln for ln in out.splitlines() if ln.strip()]) for out in calls.outputs)
        if "pure_callback" in prims:
            return fail(
                "report was never called: jax.pure_callback is for pure host computations whose result you use, "
                "and JAX removes one whose result is unused. For a side effect use jax.debug.callback(report, t, s) "
                "or jax.experimental.io_callback"
            )
        if printed:
            return fail(
                f"report was never called, though train printed {plural(printed, 'line')}: the grader only sees "
                "calls of report, so hand report itself to a callback: jax.debug.callback(report, t, s)"
            )
        return fail(
            f"report was never called in {plural(CALLS, 'call')}: call it after each update through "
            "jax.debug.callback(report, t, s)"
        )
    wrong = next(((i, len(c)) for i, c in enumerate(per_call, 1) if len(c) != STEPS), None)
    if wrong is not None:
        i, n = wrong
        return fail(
            f"call {i} reported {plural(n, 'time')}; expected {STEPS}, one after each update of s "
            f"(steps 0 to {STEPS - 1}): put the callback inside the loop"
        )
    total, in_loop = callback_layout(g)
    if total and not in_loop and total < STEPS:
        return fail(
            f"report ran {STEPS} times per call, but the program holds only {plural(total, 'callback')}, outside "
            "any loop: the reports did not come from the loop as it runs (one callback made them all, e.g. by "
            "replaying the sums on the host). Call jax.debug.callback(report, t, s, ordered=True) inside the loop, "
            "right after each update of s"
        )
    return g.check("reports_every_call", True, passed=f"{STEPS} reports with real numbers on each of {CALLS} calls")


def check_order(g, xs, reports: list[Report]) -> None:
    fail = lambda message: g.check("reports_in_order", False, message)  # noqa: E731
    expected_steps = list(range(STEPS))
    for i, x in enumerate(xs, 1):
        mine = [r for r in reports if r.call == i]
        steps = [r.step for r in mine]
        if None in steps or any(s != round(s) for s in steps):
            return fail(f"call {i} reported steps {_list(steps)}; a step must be the loop index t, 0 to {STEPS - 1}")
        steps = [int(round(s)) for s in steps]
        if sorted(steps) != expected_steps:
            if steps == [s + 1 for s in expected_steps]:
                return fail(f"call {i} reported steps 1 to {STEPS}; count them from 0, like t in xs[t]")
            return fail(f"call {i} reported steps {_list(steps)}; expected 0 to {STEPS - 1}, each once")
        sums = running(x)
        values = {s: r.value for s, r in zip(steps, mine)}
        for t in expected_steps:
            v = values[t]
            if v is not None and np.isclose(v, sums[t], rtol=RTOL, atol=ATOL):
                continue
            shown_v = "no number" if v is None else f"{v:.6g}"
            why = f"call {i}, step {t}: report got {shown_v} where s = {sums[t]:.6g} after that update"
            before = sums[t - 1] if t else 0.0
            if v is not None and np.isclose(v, before, rtol=RTOL, atol=ATOL):
                why += " (that is s before the update: report after adding xs[t]**2)"
            elif v is not None and np.isclose(v, float(x[t]) ** 2, rtol=RTOL, atol=ATOL):
                why += " (that is xs[t]**2 alone: report the running sum s)"
            return fail(why)
        if steps != expected_steps:
            if _ordered_callbacks(g):
                return fail(
                    f"call {i} reported steps {_list(steps)}: out of order. Your callbacks are ordered, so they run "
                    "in the order your program issues them: issue report(t, s) right after each update, "
                    f"from step 0 up to step {STEPS - 1}"
                )
            return fail(
                f"call {i} reported steps {_list(steps)}: out of order. Debug callbacks may run in any order "
                "unless you ask for program order: jax.debug.callback(report, t, s, ordered=True)"
            )
    g.check("reports_in_order", True, passed=f"steps 0 to {STEPS - 1} in order, with the right sums, on every call")


def _ordered_callbacks(g) -> bool:
    """The graded program carries an ordered effect (ordered=True on a debug or io callback)."""
    closed = g.graded_jaxpr()
    return closed is not None and any("Ordered" in type(e).__name__ for e in closed.effects)


def _list(values) -> str:
    return ", ".join("?" if v is None else (str(int(v)) if v == round(v) else f"{v:.4g}") for v in values)
