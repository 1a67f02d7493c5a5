"""Checks for side_effect_log: three calls with different Python floats; afterwards log holds the three inputs.

A plain ``log.append(x)`` inside jit runs once, while tracing, and stores a tracer. The fix hands the value back
to Python at run time with a callback that is part of the compiled program (jax.debug.callback or io_callback).
"""

import functools

import jax
import numpy as np

from jittrainer.core.toolkit import LearnerFailure, compare, concrete_float, is_tracer, plural, type_name

CHECKS = {
    "runs": "compute runs under jax.jit",
    "values": "returns x * 2",
    "logs_each_call": "every call appends its own input to log, at run time",
    "one_compile": "three calls compile once",
}

CALLS = 3

# How often the learner's file called jax.pure_callback (while tracing): an unused result is dead code.
_SPY = {"pure_callback": 0}


def setup(g):
    _SPY["pure_callback"] = 0
    real = jax.pure_callback

    @functools.wraps(real)
    def pure_callback(*args, **kwargs):
        _SPY["pure_callback"] += 1
        return real(*args, **kwargs)

    jax.pure_callback = pure_callback


def draw(rng: np.random.Generator) -> list[float]:
    """Three different Python floats (3 decimals, mixed signs), none of them near another or near twice another."""
    while True:
        values = [round(float(rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 9.5)), 3) for _ in range(CALLS)]
        apart = all(abs(a - b) > 0.5 for i, a in enumerate(values) for b in values[i + 1 :])
        doubles = all(abs(2 * a - b) > 0.2 for a in values for b in values)
        if apart and doubles:
            return values


def show(v: float) -> str:
    return repr(round(float(v), 4))


def shown(values) -> str:
    return "[" + ", ".join(show(v) for v in values) + "]"


def close(a: float | None, b: float) -> bool:
    return a is not None and abs(a - b) <= 1e-4 * max(1.0, abs(b))


def make_advice(jitted_by_you: bool, code: str):
    wrapped = "" if jitted_by_you else " (compute is not jitted itself, so the grader wrapped all of it in jax.jit)"
    tracer_errors = (
        "ConcretizationTypeError",
        "TracerArrayConversionError",
        "TracerIntegerConversionError",
        "TracerBoolConversionError",
    )

    def advice(error) -> str:
        if error.type in tracer_errors and "disable_jit" in code:
            return (
                "jax.disable_jit() inside a function that is being traced changes nothing: the grader's jax.jit is "
                "already tracing compute, so x is a tracer when the with block runs. Leave jit on and append from a "
                "callback: jax.debug.callback(lambda v: log.append(float(v)), x)"
            )
        if error.type in tracer_errors:
            return (
                f"While jit traces compute{wrapped}, x is a tracer: float(), .item() and NumPy cannot read a value "
                "that does not exist yet. Convert it inside a callback that runs at run time: "
                "jax.debug.callback(lambda v: log.append(float(v)), x)"
            )
        if error.type == "UnexpectedTracerError":
            return (
                "A tracer stored while tracing was used later: keep tracers out of log; append values from a callback"
            )
        if "callback" in error.message.lower() and ("shape" in error.message or "dtype" in error.message):
            return (
                "The callback's return value must match the result shape you declared; to only record a value, use "
                "jax.debug.callback, which returns nothing"
            )
        return ""

    return advice




def grade(g):
    code = g.source
    jitted_by_you = not g.wrapped_host_code
    compute = g.graded(params=1)
    log = g.attr("log")
    if not isinstance(log, list):
        raise LearnerFailure(
            f"log in your file is {type_name(log)}, not a list; keep log = [] at the top of your file "
            "(see the statement)"
        )
    log.clear()  # in place: the list your code appends to, emptied of anything your file did while importing
    values = draw(g.rng)

    calls = g.calls(compute, [(v,) for v in values])
    final = getattr(g.module, "log", None)  # read again: a callback may have rebound the name
    g.check_ran("runs", calls, advice=make_advice(jitted_by_you, code))

    for i, (v, result) in enumerate(zip(values, calls.results), 1):
        ok, why = compare(result, 2 * v, rtol=1e-5, atol=1e-5, what=f"the result of call {i} (x = {show(v)})")
        if not ok:
            g.check("values", False, why)
            break
    else:
        g.check("values", True, passed=f"all {CALLS} results are x * 2")

    _check_log(g, final, values, calls, jitted_by_you)
    _check_compiles(g, calls)


def _check_log(g, final, values, calls, jitted_by_you):
    if not isinstance(final, list):
        g.check("logs_each_call", False, f"after the calls, log is {type_name(final)}, not a list: keep log a list")
        return
    items = list(final)
    n = len(items)
    got = [concrete_float(item) for item in items]
    if n == CALLS and all(close(a, b) for a, b in zip(got, values)):
        g.check("logs_each_call", True, passed=f"log holds the {CALLS} inputs in call order: {shown(values)}")
        return

    tracers = [i for i, item in enumerate(items, 1) if is_tracer(item)]
    after = f"after {CALLS} calls"
    if n == 0:
        if _SPY["pure_callback"]:
            message = (
                f"log is empty {after}: pure_callback's result is unused, so JAX removed it (dead code) and your "
                "function never ran; use jax.debug.callback or io_callback, which are kept for their side effect"
            )
        elif any(out.strip() for out in calls.outputs):
            message = (
                f"log is empty {after}, but compute printed something: printing shows a value, it does not store "
                "it. Append at run time with jax.debug.callback(log.append, x)"
            )
        else:
            message = (
                f"log is empty {after}: nothing was appended to your module's log list. Append to it at run "
                "time with jax.debug.callback(log.append, x)"
            )
    elif tracers and len(tracers) == n:
        message = (
            f"log holds {plural(n, 'item')} {after}, "
            + ("a tracer" if n == 1 else "all tracers")
            + ": "
            + ("" if jitted_by_you else "compute is not jitted itself, so the grader wrapped all of it in jax.jit, ")
            + ("" if jitted_by_you else "and ")
            + "the append ran "
            + ("once, " if n == 1 else "")
            + "while tracing, never when the compiled program ran. Hand the value to Python at run time: "
            "jax.debug.callback(log.append, x)"
        )
    elif tracers:
        message = (
            f"log holds {plural(n, 'item')} {after}, and item {tracers[0]} is a tracer: a plain log.append(x) still "
            "runs while tracing. Remove it and keep only the run-time callback"
        )
    elif None in got:
        i = got.index(None)
        message = (
            f"log item {i + 1} is {type_name(items[i])}, not a number: append the value itself "
            "(something float() accepts), e.g. log.append(float(v)) inside the callback"
        )
    elif n == 1 and CALLS > 1 and close(got[0], values[-1]):
        message = (
            f"log holds only the last input, {shown(got)}, {after}: each call replaced what was in log instead of "
            "adding to it. Append to the one module-level list: log.append(value)"
        )
    elif n == CALLS and all(close(a, float(int(b))) for a, b in zip(got, values)):
        message = (
            f"log holds {shown(got)} for the inputs {shown(values)}: the values were cut to whole numbers (int()). "
            "Append float(v), which keeps the fraction"
        )
    elif n != CALLS:
        message = (
            f"log holds {plural(n, 'item')} {after}: {shown(got[:8])}{' …' if n > 8 else ''}; expected exactly one "
            f"per call, the inputs {shown(values)}"
        )
    elif all(close(a, 2 * b) for a, b in zip(got, values)):
        message = (
            f"log holds the results {shown(got)}, not the inputs {shown(values)}: append x itself, not x * 2"
        )
    elif all(any(close(a, b) for a in got) for b in values) and all(any(close(a, b) for b in values) for a in got):
        message = (
            f"log holds the right values in the wrong order: {shown(got)} for calls with {shown(values)}; "
            "append each value at the end of the list, as the call runs"
        )
    else:
        i = next(k for k, (a, b) in enumerate(zip(got, values)) if not close(a, b))
        message = f"log item {i + 1} is {show(got[i])}, but call {i + 1}'s input was {show(values[i])}"
    g.check("logs_each_call", False, message)


def _check_compiles(g, calls):
    n = calls.compiles
    if n <= 1:
        g.check("one_compile", True, passed="compiled once, then reused")
        return
    misses = calls.reasons()
    name = g.graded_params[0] if g.graded_params else "x"
    if any(m.kind == "static" for m in misses):
        message = (
            f"{name} is static: {CALLS} values gave {plural(n, 'compile')}. A static argument is part of the "
            "compiled program, so every new value compiles again; keep x traced and log it with a callback"
        )
    else:
        message = f"{CALLS} calls gave {plural(n, 'compile')}; expected 1 ({calls.why_compiled()})"
    g.check("one_compile", False, message)
