"""Checks for host_callbacks: two calls of train on float32[5]; after each update report(t, s) must run on the host.

Before the first call the grader swaps the module's ``report`` for a recorder (as a test would), so the learner's
code must look ``report`` up by name. The recorder notes the graded call it ran in and whether its arguments were
concrete numbers or tracers. The original ``report`` is watched too, so a callback bound to the import-time object
(``_report = report``) is recognised instead of looking like "never called".

The reports are the lesson, so their checks come before the compile count: an eager operation inside a callback
that replays the sums on the host compiles too, and must not hide that the reports do not come from the loop.
"""

import re
from dataclasses import dataclass

import numpy as np

from jittrainer.authoring import (
    at_line,
    count,
    eqns_within,
    first_slip,
    is_compiled,
    is_tracer,
    msg,
    msgn,
    one_compile,
    outer_jit_advice,
    primitive_names,
    tracer_error,
    values_match,
    watch_calls,
    when_eager,
    when_eager_in_callback,
)

CHECKS = {
    "runs": "train runs under jax.jit",
    "values": "returns the final running sum of squares",
    "reports_every_call": "report runs on the host on every call, with real numbers, from inside the loop",
    "reports_in_order": "each call reports steps 0 to 4 in order, each with its running sum",
    "one_compile": "two calls of one shape compile once",
}

STEPS = 5
CALLS = 2
RTOL = 1e-5
ATOL = 1e-6
LOW, HIGH = 0.1, 10.0  # magnitudes of the graded elements (log-uniform), either sign; one element is exactly 0
CALLBACK_TIER = 2  # the hint tier that names jax.debug.callback and ordered=True
CODE_TIER = 3  # the hint tier that shows the line to write


@dataclass
class Report:
    call: int | None  # graded call it ran in (None: outside the graded calls)
    step: float | None  # None: a tracer, missing or not a number
    value: float | None
    traced: bool  # an argument was a tracer: report ran while JAX traced the function
    problem: object = None  # a msg when the arguments do not fit report(step, value)


def number(value) -> float | None:
    """A concrete scalar (Python, NumPy, jax.Array, also of shape (1,)), else None. Never raises, never compiles."""
    if is_tracer(value):
        return None
    try:
        arr = np.asarray(value)
    except Exception:
        return None
    return float(arr.reshape(())) if arr.size == 1 and arr.dtype.kind in "biuf" else None


def shown(value) -> str:
    v = number(value)  # None for a tracer too: shown as JAX writes it
    return repr(value) if v is None else (str(int(v)) if v == int(v) and abs(v) < 1e9 else f"{v:.6g}")


def make_recorder(g, log: list[Report]):
    def recorder(*args, **kwargs):
        try:
            bound = dict(zip(("step", "value"), args))
            problem = None
            if len(args) > 2 or set(kwargs) - {"step", "value"} or set(kwargs) & set(bound):
                problem = msg("args.extra", "report got the arguments {args}; it takes (step, value)",
                              args=_signature(args, kwargs))
            bound.update({k: v for k, v in kwargs.items() if k in ("step", "value")})
            if problem is None and len(bound) < 2:
                problem = msg("args.missing", "report got only {args}; it takes (step, value)",
                              args=_signature(args, kwargs))
            step, value = bound.get("step"), bound.get("value")
            traced = any(is_tracer(v) for v in (*args, *kwargs.values()))
            log.append(Report(g.current_call, number(step), number(value), traced, problem))
            when = " (while tracing)" if traced else ""  # the output pane shows when report ran, and with what
            print(f"report(step={shown(step)}, value={shown(value)}){when}")
        except Exception:  # the recorder must never raise into the learner's program
            pass

    return recorder


def _signature(args, kwargs) -> str:
    parts = [shown(a) for a in args] + [f"{k}={shown(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


# -- graded values -------------------------------------------------------------------------------------------


def make_inputs(rng: np.random.Generator) -> list[np.ndarray]:
    """Two different float32[5] arrays: magnitudes log-uniform in [0.1, 10], random signs. One element after the
    first, in one call (both chosen by the seed), is exactly 0: there the running sum stays the same for a step, and
    a report after the update equals the one before."""
    xs = []
    for _ in range(CALLS):
        mags = np.exp(rng.uniform(np.log(LOW), np.log(HIGH), STEPS))
        xs.append((rng.choice([-1.0, 1.0], STEPS) * mags).astype(np.float32))
    xs[int(rng.integers(CALLS))][int(rng.integers(1, STEPS))] = 0.0
    return xs


def running(xs: np.ndarray) -> np.ndarray:
    return np.cumsum(xs.astype(np.float64) ** 2)


# -- the program -----------------------------------------------------------------------------------------------

CALLBACKS = ("debug_callback", "io_callback", "pure_callback")  # the ones that can call report


def callback_layout(g) -> tuple[int, bool, bool]:
    """(callback equations in the graded program, whether one of them sits inside a scan or while loop, whether the
    program carries an ordered effect: ordered=True on a debug or io callback)."""
    closed = g.graded_jaxpr()
    if closed is None:
        return 0, True, False  # cannot tell: do not fail on it
    in_loop = [bool({"scan", "while"} & set(holders)) for eqn, holders in eqns_within(closed)
               if eqn.primitive.name in CALLBACKS]
    return len(in_loop), any(in_loop), any("Ordered" in type(e).__name__ for e in closed.effects)


# -- advice (the code to write) --------------------------------------------------------------------------------


def run_advice(error):
    if tracer_error(error):
        return msg("advice.tracer",
                   "while jit traces train, xs and every value computed from it (s too) are tracers, which "
                   "float(), int() and NumPy cannot read. Leave the numbers to a callback: "
                   "jax.debug.callback(report, t, s, ordered=True) calls report with real numbers at run time")
    if "callback" in error.message.lower():
        return msg("advice.callback_raised",
                   "the callback calls its function with the values you pass after it: "
                   "jax.debug.callback(report, t, s) calls report(t, s), and report takes (step, value)")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    advice = outer_jit_advice(g, run_advice, msg(
        "advice.tracer_wrapped", "train itself is not jitted, so the grader wrapped all of it in jax.jit: xs and every "
        "value computed from it are tracers there, which float(), int() and NumPy cannot read. Leave the numbers to a "
        "callback: jax.debug.callback(report, t, s, ordered=True) calls report with real numbers at run time"))
    train = g.graded(params=1)
    reports: list[Report] = []
    original = g.replace("report", make_recorder(g, reports))
    stale: list[int | None] = []  # the graded call of each call of the original report (it prints its own line)
    watch_calls(original, lambda *args, **kwargs: stale.append(g.current_call))

    xs = make_inputs(g.rng)
    # g.calls starts from empty caches, so a train traced at import (a demo call at the top of the file) is
    # traced again here, with the recorder in place of report.
    calls = g.calls(train, [(x,) for x in xs])
    g.check_ran("runs", calls, advice, tier=CALLBACK_TIER)

    check_values(g, xs, calls)
    if check_every_call(g, xs, calls, reports, stale):
        check_order(g, xs, reports)
    check_compiles(g, calls)


def check_values(g, xs, calls) -> None:
    values_match(g, "values", calls.results, [running(x)[-1] for x in xs], rtol=RTOL, atol=ATOL,
                 slip=lambda i, result: value_slip(result, xs[i - 1], i),
                 advice=msg("advice.return", "return s after the loop: xs[0] ** 2 + xs[1] ** 2 + ... + xs[4] ** 2"),
                 tier=CODE_TIER, ok=msg("values.ok", "both results match"))


def value_slip(result, x, i):
    """A known slip that explains a result that differs from the sum (values_match asks about no other), or None."""
    got = number(result)
    x64 = x.astype(np.float64)
    sums = running(x)
    common = {"i": i, "got": got, "want": sums[-1]}
    return first_slip(got, [
        (x64.sum(), msg("values.not_squared", "call {i} returned {got:.6g}, the sum of xs without squaring; expected "
                        "the sum of squares, {want:.6g}", **common)),
        (sums[-2], msg("values.short", "call {i} returned {got:.6g}, the sum of the first {n} squares: the last step "
                       "(t = {last}) is missing from the result; expected {want:.6g}", n=STEPS - 1, last=STEPS - 1,
                       **common)),
        (x64[-1] ** 2, msg("values.last_square", "call {i} returned {got:.6g}, the square of the last element alone, "
                           "not the running sum of all five; expected {want:.6g}", **common))], rtol=RTOL, atol=ATOL)


def _alias_lines(g) -> list[int]:
    """The lines outside train's body that hold report as a value, not a call (an alias, a partial, a default
    argument): what keeps the import-time report."""
    value_use = re.compile(r"(?<![\w.'\"])report\b(?!\s*\()")
    return [n for n, line in enumerate(g.code.splitlines(), 1) if not re.match(r"\s*def\s+report\b", line)
            and value_use.search(line) and (not line[:1].isspace() or re.match(r"\s*def\s", line))]


def check_every_call(g, xs, calls, reports: list[Report], stale: list[int | None]) -> bool:
    graded = [r for r in reports if r.call is not None]
    traced = [r for r in graded if r.traced]
    per_call = [[r for r in graded if r.call == i and not r.traced] for i in range(1, CALLS + 1)]
    stale_graded = [call for call in stale if call is not None]

    def fail(observation, advice=None):
        return g.failed("reports_every_call", observation, advice or msg(
            "advice.callback", "hand report to a host callback right after each update of s, inside the loop: "
            "jax.debug.callback(report, t, s, ordered=True) calls it at run time, on every call, with real numbers"),
            tier=CALLBACK_TIER)

    if not graded and stale_graded:
        common = {"times": count("time", len(stale_graded))}
        if is_compiled(g.graded_function):
            observation = msg(
                "stale.aot", "your train was compiled ahead of time at import, and its callback holds the report of "
                "that moment; it called that one ({times}), not the module's report: the grader replaced report by "
                "name before the first call (as a test or a logger set up later would), and the replacement was "
                "never called", **common)
        else:
            observation = at_line(_alias_lines(g), msg(
                "stale.line", "your code called the report that line {line} keeps from import ({times}), not the "
                "module's report: the grader replaced report by name before the first call (as a test or a logger "
                "set up later would), and the replacement was never called", **common), msg(
                "stale", "your code called the report it captured at import ({times}), not the module's report: the "
                "grader replaced report by name before the first call (as a test or a logger set up later would), "
                "and the replacement was never called", **common))
        return fail(observation, msg("advice.by_name", "name report inside train, where the callback is made "
                                     "(jax.debug.callback(report, t, s, ordered=True)), or inside a function the "
                                     "callback runs (lambda t, s: report(t, s)), not through an alias, a default "
                                     "argument or a partial made at import"))
    bad = next((r for r in graded if r.problem is not None), None)
    if bad is not None:
        return fail(bad.problem, msg("advice.signature", "pass the step first and the running sum second: "
                                     "jax.debug.callback(report, t, s, ordered=True)"))
    # the lines of train that call report directly (a line with a lambda hands report to a callback)
    direct = g.lines_calling(r"^(?!.*lambda).*(?<![\w.'\"])report\s*\(", g.function_name)
    if traced and not any(per_call):
        common = {"n": len(traced), "calls": count("call", CALLS)}
        return fail(at_line(direct, msgn(
            "traced_only.line",
            "report was called once, while tracing (its arguments were tracers, not numbers), and never with real "
            "numbers in {calls}: line {line} calls report inside train, which jit traces once; a plain Python call "
            "is not part of the compiled program, so it never runs again",
            "report was called {n} times, all while tracing (its arguments were tracers, not numbers), and never "
            "with real numbers in {calls}: line {line} calls report inside train, which jit traces once; a plain "
            "Python call is not part of the compiled program, so it never runs again", **common), msgn(
            "traced_only",
            "report was called once, while tracing (its arguments were tracers, not numbers), and never with real "
            "numbers in {calls}: a plain Python call inside jit runs only while JAX traces the function, and is not "
            "part of the compiled program",
            "report was called {n} times, all while tracing (its arguments were tracers, not numbers), and never "
            "with real numbers in {calls}: a plain Python call inside jit runs only while JAX traces the function, "
            "and is not part of the compiled program", **common)))
    if traced:
        counts = [msg("per_call", "{times} on call {i}", times=count("time", len(c)), i=i)
                  for i, c in enumerate(per_call, 1)]
        common = {"times": count("time", len(traced)), "counts": counts}
        observation = at_line(direct, msg(
            "traced_extra.line", "report was called {times} while tracing, with tracers, besides the run-time "
            "reports ({counts}): line {line} calls report directly inside train", **common), msg(
            "traced_extra", "report was called {times} while tracing, with tracers, besides the run-time reports "
            "({counts}): a direct call inside the traced code runs while jit traces it", **common))
        return fail(observation, msg("advice.only_callback", "call report only through the callback, never directly "
                                     "inside train"))
    if not graded:
        printed = sum(len([ln for ln in out.splitlines() if ln.strip()]) for out in calls.outputs)
        if "pure_callback" in primitive_names(g.graded_jaxpr()) or "pure_callback" in g.code:
            return fail(
                msg("never.pure", "report was never called in {calls}: a pure_callback promises a pure computation "
                    "whose result you use, and JAX removes one whose result is unused, so its function never runs",
                    calls=count("call", CALLS)),
                msg("advice.side_effect", "for a side effect use jax.debug.callback(report, t, s, ordered=True) or "
                    "jax.experimental.io_callback(report, None, t, s, ordered=True)"))
        if printed:
            return fail(msg("never.printed", "report was never called, though train printed {lines}: the grader "
                            "watches the calls of report itself (it replaced report, as a test or a logger would), "
                            "and printing the numbers is not calling report", lines=count("line", printed)))
        return fail(msg("never", "report was never called in {calls}, neither while tracing nor at run time",
                        calls=count("call", CALLS)))
    total, in_loop, _ = callback_layout(g)
    i = next((i for i, c in enumerate(per_call, 1) if len(c) != STEPS), None)
    if i is not None:
        n = len(per_call[i - 1])
        steps = [r.step for r in per_call[i - 1]]
        common = {"i": i, "reports": count("report", n), "steps": STEPS}
        missing = [t for t in range(STEPS) if t not in steps]
        if n < STEPS and None not in steps and len(missing) == 1 and xs[i - 1][missing[0]] == 0:
            return fail(msg("reports.skipped_zero", "call {i} made {reports}; expected {steps}: step {t} has none, and "
                            "there xs[{t}] is 0, so s stayed the same. Every step reports, whether s changed or not",
                            t=missing[0], **common),
                        msg("advice.every_step", "let the callback call report on every step, with no condition: "
                            "jax.debug.callback(report, t, s, ordered=True)"))
        if total and not in_loop and total == n < STEPS:
            observation = msg(
                "reports.outside_loop", "call {i} made {reports}; expected {steps}, one after each update of s: the "
                "program holds {callbacks}, outside any loop, so each call reports only that often",
                callbacks=count("callback", total), **common)
        else:
            observation = msg("reports.count", "call {i} made {reports}; expected {steps}, one after each update of s "
                              "(steps 0 to 4)", **common)
        return fail(observation)
    if total and not in_loop and total < STEPS:
        return fail(msg("replay", "report ran {steps} times per call, but the program holds only {callbacks}, "
                        "outside any loop: one callback made all the reports on the host (replaying the sums), so "
                        "they do not come from the loop as it runs", steps=STEPS, callbacks=count("callback", total)))
    return g.passed("reports_every_call", msg("every_call.ok", "{steps} reports with real numbers on each of {calls}",
                                              steps=STEPS, calls=count("call", CALLS)))


def check_order(g, xs, reports: list[Report]) -> None:
    def fail(observation, advice, tier=CALLBACK_TIER):
        g.failed("reports_in_order", observation, advice, tier=tier)

    expected_steps = list(range(STEPS))
    step_advice = msg("advice.step", "pass the loop index t itself as the step: jax.debug.callback(report, t, s, "
                      "ordered=True)")
    for i, x in enumerate(xs, 1):
        mine = [r for r in reports if r.call == i]
        steps = [r.step for r in mine]
        if None in steps or any(s != round(s) for s in steps):
            return fail(msg("steps.not_index", "call {i} reported the steps {steps}; a step is the loop index t, a "
                            "whole number from 0 to 4", i=i, steps=_shown_list(steps)), step_advice)
        steps = [int(round(s)) for s in steps]
        if sorted(steps) != expected_steps:
            if sorted(steps) == [s + 1 for s in expected_steps]:
                return fail(msg("steps.one_based", "call {i} reported the steps 1 to 5: they count from 1, but t in "
                                "xs[t] counts from 0", i=i), step_advice)
            return fail(msg("steps.wrong", "call {i} reported the steps {steps}; expected 0 to 4, each once", i=i,
                            steps=_shown_list(steps)), step_advice)
        sums = running(x)
        values = {s: r.value for s, r in zip(steps, mine)}
        for t, want in enumerate(sums):
            v = values[t]
            common = {"i": i, "t": t, "want": want}
            if v is None:
                return fail(msg("value.none", "call {i}, step {t}: report got no number where s = {want:.6g} after "
                                "that update", **common), step_advice)
            if np.isclose(v, want, rtol=RTOL, atol=ATOL):
                continue
            if np.isclose(v, sums[t - 1] if t else 0.0, rtol=RTOL, atol=ATOL):  # the sum before this update
                return fail(msg("value.before", "call {i}, step {t}: report got {got:.6g}, the running sum before "
                                "that step's update; after adding xs[{t}]**2, s = {want:.6g}", got=v, **common),
                            msg("advice.after", "update s first (s = s + xs[t] ** 2), then make the callback with "
                                "the new s"), tier=CODE_TIER)
            if np.isclose(v, float(x[t]) ** 2, rtol=RTOL, atol=ATOL):
                return fail(msg("value.square", "call {i}, step {t}: report got {got:.6g}, xs[{t}]**2 alone, not the "
                                "running sum s = {want:.6g}", got=v, **common),
                            msg("advice.running", "report the running sum s, not the square just added"),
                            tier=CODE_TIER)
            return fail(msg("value.wrong", "call {i}, step {t}: report got {got:.6g} where s = {want:.6g} after that "
                            "update", got=v, **common), step_advice)
        if steps != expected_steps:
            if callback_layout(g)[2]:  # ordered
                return fail(
                    msg("order.ordered", "call {i} reported the steps in the order {steps}. Your callbacks are "
                        "ordered, so they run in the order your program makes them: it makes them in that order",
                        i=i, steps=_shown_list(steps)),
                    msg("advice.issue_order", "make the callback for step t right after the update of step t, from "
                        "step 0 up to step 4"), tier=CODE_TIER)
            return fail(
                msg("order.unordered", "call {i} reported the steps in the order {steps}: nothing ties your "
                    "callbacks to one another, so the compiler was free to run them in any order, and did",
                    i=i, steps=_shown_list(steps)),
                msg("advice.ordered", "ask for program order: jax.debug.callback(report, t, s, ordered=True)"))
    g.passed("reports_in_order", msg("order.ok", "steps 0 to 4 in order, with the right sums, on every call"))


def check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused"), [
        when_eager_in_callback(msg(
            "compiles.callback_eager", "{head}: the extra compiles are {names}, JAX's own operations, run inside your "
            "callback: it receives jax.Arrays, and a jax.numpy or NumPy function, round() or a loop over one of them "
            "runs eagerly, which compiles"),
            msg("advice.convert", "convert in the callback first, with plain Python or NumPy: float(s), int(t), "
                "np.asarray(v); or hand report the values as they come"), tier=CALLBACK_TIER),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program (each new shape compiles them)"),
                   msg("advice.inside", "keep the work inside train, which jit compiles once"))])


def _shown_list(values) -> list[str]:
    return ["?" if v is None else (str(int(v)) if v == round(v) else f"{v:.4g}") for v in values]
