"""Checks for side_effect_log: three calls with different Python floats; afterwards log holds the three inputs.

A plain ``log.append(x)`` inside jit runs once, while tracing, and stores a tracer. The fix hands the value back
to Python at run time with a callback that is part of the compiled program (jax.debug.callback or io_callback).
"""

import functools

import jax
import numpy as np

from jittrainer.authoring import (
    LearnerFailure,
    at_line,
    compare,
    concrete_float,
    count,
    is_tracer,
    msg,
    msgn,
    one_compile,
    tracer_error,
    type_name,
    values_match,
    when_eager,
    when_eager_in_callback,
    when_new_function,
    when_nothing,
    when_static,
)

CHECKS = {
    "runs": "compute runs under jax.jit",
    "values": "returns x * 2",
    "logs_each_call": "every call appends its own input to log, at run time",
    "one_compile": "three calls compile once",
}

CALLS = 3
CALLBACK_TIER = 2  # the hint tier that names jax.debug.callback and io_callback

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


# -- graded values ---------------------------------------------------------------------------------------------


def draw(rng: np.random.Generator) -> list[float]:
    """Three different Python floats, in random order: one with six decimal places (so a cut to a whole number, or
    rounding, shows) and two of zero, a whole number, a tiny value and a large one, with random signs. No value is
    close to another, or to twice another (so a logged result never passes for an input)."""
    sign = lambda: float(rng.choice([-1.0, 1.0]))  # noqa: E731
    kinds = {
        "zero": lambda: 0.0,
        "whole": lambda: sign() * float(rng.integers(1, 100)),
        "tiny": lambda: sign() * round(float(rng.uniform(0.001, 0.01)), 5),
        "large": lambda: sign() * round(float(rng.uniform(1e4, 1e6)), 2),
    }
    while True:
        fraction = sign() * round(float(rng.uniform(0.5, 9.5)), 6)
        if abs(fraction - round(fraction)) < 0.05 or abs(fraction * 1000 - round(fraction * 1000)) < 0.1:
            continue  # far from a whole number, and from three decimals
        picked = rng.choice(sorted(kinds), size=2, replace=False)
        values = [fraction] + [kinds[str(k)]() for k in picked]
        rng.shuffle(values)
        pairs = [(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j]
        if all(not _near(a, b) and not _near(2 * a, b) for a, b in pairs):
            return values


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 0.05 * max(abs(a), abs(b)) + 1e-4


def show(values) -> str:
    """'[-3.217, 0, 48213.55]': numbers as the learner would write them, float32 noise rounded away."""
    return "[" + ", ".join(f"{float(v):.7g}" for v in values) + "]"


def close(a: float | None, b: float) -> bool:
    """Equal up to float32 precision (x is a float32 under jit): a relative 1e-6, absolute near 0."""
    return a is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b))


# -- advice ----------------------------------------------------------------------------------------------------


def use_callback():
    return msg("advice.callback", "hand the value to Python at run time, with a callback that is part of the "
               "compiled program: jax.debug.callback(log.append, x)")


def make_advice(code: str):
    def advice(error):
        if tracer_error(error) and "disable_jit" in code:
            return msg("advice.disable_jit", "jax.disable_jit() inside a function that jit is already tracing changes "
                       "nothing: leave jit on and append from a callback, jax.debug.callback(lambda v: "
                       "log.append(float(v)), x)")
        if tracer_error(error):
            return msg("advice.convert_in_callback", "convert x inside a callback, which runs with the real value: "
                       "jax.debug.callback(lambda v: log.append(float(v)), x)")
        if error.type == "UnexpectedTracerError":
            return msg("advice.no_tracers", "keep tracers out of log: append values from a callback, "
                       "jax.debug.callback(log.append, x)")
        if "callback" in error.message.lower() and ("shape" in error.message or "dtype" in error.message):
            return msg("advice.result_shape", "the callback's return value must match the result shape you declared; "
                       "to only record a value, use jax.debug.callback, which returns nothing")
        return None

    return advice


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    compute = g.graded(params=1)
    log = g.attr("log")
    if not isinstance(log, list):
        raise LearnerFailure(msg("contract.log_type", "log in your file is {type}, not a list; the statement asks for "
                                 "a module-level list, log = []", type=type_name(log)))
    log.clear()  # in place: the list your code appends to, emptied of anything your file did while importing
    values = draw(g.rng)

    calls = g.calls(compute, [(v,) for v in values])
    final = getattr(g.module, "log", None)  # read again: a callback may have rebound the name
    g.check_ran("runs", calls, make_advice(g.code), tier=CALLBACK_TIER)

    values_match(g, "values", calls.results, [2 * v for v in values], rtol=1e-5, atol=1e-5,
                 what=lambda i: msg("what.call", "the result of call {i} (x = {x:.7g})", i=i, x=values[i - 1]),
                 slip=lambda i, result: _identity(i, values[i - 1], result),
                 advice=msg("advice.double", "return x * 2, and log x beside it"), tier=1,
                 ok=msg("values.ok", "all {n} results are x * 2", n=CALLS))

    _check_log(g, final, values, calls)
    _check_compiles(g, calls)


def _identity(i, v, result):
    if v != 0 and compare(result, v, rtol=1e-5, atol=1e-5)[0]:
        return msg("values.identity", "call {i} returned x itself ({x:.7g}), not x * 2", i=i, x=v)
    return None


def _append_lines(g) -> tuple[list[int], bool]:
    """Lines that append to log in plain Python: inside compute first (True), else anywhere in a function."""
    pattern = r"\blog\s*(\.\s*(append|extend|insert)\s*\(|\+=)"
    inside = g.lines_calling(pattern, g.function_name)
    if inside:
        return inside, True
    return g.lines_calling(r"^\s+\S.*" + pattern), False


def _check_log(g, final, values, calls):
    fail = lambda observation, advice=None, tier=CALLBACK_TIER: g.failed(  # noqa: E731
        "logs_each_call", observation, advice or use_callback(), tier=tier)
    if not isinstance(final, list):
        fail(msg("log.not_list", "after the calls, log is {type}, not a list: your code rebound it",
                 type=type_name(final)),
             msg("advice.keep_list", "keep log the module-level list and append to it"))
        return
    items = list(final)
    n = len(items)
    got = [concrete_float(item) for item in items]
    if n == CALLS and all(close(a, b) for a, b in zip(got, values)):
        g.passed("logs_each_call", msg("log.ok", "log holds the {n} inputs in call order: {values}", n=CALLS,
                                       values=show(values)))
        return

    calls_n = count("call", CALLS)
    tracers = [i for i, item in enumerate(items, 1) if is_tracer(item)]
    if n == 0:
        if _SPY["pure_callback"]:
            fail(msg("log.dead_pure_callback", "log is empty after {calls}: your pure_callback's result is unused, so "
                     "JAX removed it as dead code and its function never ran", calls=calls_n),
                 msg("advice.effect_callback", "for a side effect use jax.debug.callback or io_callback, which JAX "
                     "keeps for their effect: jax.debug.callback(log.append, x)"))
        elif any(out.strip() for out in calls.outputs):
            fail(msg("log.printed", "log is empty after {calls}, though compute printed each time: printing shows a "
                     "value, it does not store it in log", calls=calls_n))
        else:
            fail(msg("log.empty", "log is empty after {calls}: nothing was appended to your module's log list",
                     calls=calls_n))
    elif len(tracers) == n:
        fail(_all_tracers(g, n, calls_n))
    elif tracers:
        fail(at_line(_append_lines(g)[0], msg(
            "log.some_tracer_line", "log holds {items} after {calls}, and item {i} is a tracer: line {line} still "
            "appends to log in plain Python, which runs while jit traces, beside what reaches log at run time",
            items=count("item", n), calls=calls_n, i=tracers[0]), msg(
            "log.some_tracer", "log holds {items} after {calls}, and item {i} is a tracer: a plain append still runs "
            "while jit traces, beside what reaches log at run time", items=count("item", n), calls=calls_n,
            i=tracers[0])), msg("advice.only_callback", "remove the plain log.append(x) and keep only the run-time "
                                "callback"))
    elif None in got:
        i = got.index(None)
        fail(msg("log.not_number", "log item {i} is {type}, not a number", i=i + 1, type=type_name(items[i])),
             msg("advice.append_number", "append the value itself, something float() accepts: "
                 "log.append(float(v)) inside the callback"))
    elif n == 1 and close(got[0], values[-1]):
        fail(msg("log.only_last", "log holds only the last input, {got}, after {calls}: each call replaced what log "
                 "held instead of adding to it", got=show(got), calls=calls_n),
             msg("advice.append_one_list", "append to the one module-level list, log.append(value), instead of "
                 "building a new one"))
    elif n == CALLS and all(close(a, float(int(b))) for a, b in zip(got, values)):
        fail(msg("log.whole", "log holds {got} for the inputs {values}: the fractions were cut off, so the values were "
                 "made whole numbers (int())", got=show(got), values=show(values)),
             msg("advice.keep_fraction", "append float(v), which keeps the fraction"))
    elif n == CALLS and (places := _rounded_to(got, values)) is not None:
        fail(msg("log.rounded", "log holds {got} for the inputs {values}: the values were rounded to {places} "
                 "decimal places", got=show(got), values=show(values), places=places),
             msg("advice.no_rounding", "append the value as it is, float(v), without rounding it"))
    elif n != CALLS:
        fail(msg("log.count", "log holds {items} after {calls}: {got}; expected exactly one per call, the inputs "
                 "{values}", items=count("item", n), calls=calls_n,
                 got=show(got[:8]) + (" …" if n > 8 else ""), values=show(values)),
             msg("advice.one_per_call", "append exactly once per call, from one run-time callback"))
    elif all(close(a, 2 * b) for a, b in zip(got, values)):
        fail(msg("log.results", "log holds the results {got}, not the inputs {values}", got=show(got),
                 values=show(values)),
             msg("advice.log_input", "append x itself, not x * 2"))
    elif all(any(close(a, b) for a in got) for b in values) and all(
            any(close(a, b) for b in values) for a in got):
        fail(msg("log.order", "log holds the right values in the wrong order: {got} for calls with {values}",
                 got=show(got), values=show(values)),
             msg("advice.append_end", "append each value at the end of the list, as its call runs"))
    else:
        i = next(k for k, (a, b) in enumerate(zip(got, values)) if not close(a, b))
        fail(msg("log.wrong_item", "log item {i} is {got:.7g}, but call {i}'s input was {want:.7g}", i=i + 1,
                 got=got[i], want=values[i]))


def _rounded_to(got, values) -> int | None:
    """k when every logged value is its input rounded to k decimal places (0 to 5), else None."""
    for places in range(6):
        if all(close(a, round(b, places)) for a, b in zip(got, values)):
            return places
    return None


def _all_tracers(g, n, calls_n):
    """Every item in log is a tracer: the append ran while jit traced compute, never at run time."""
    lines, inside = _append_lines(g)
    where = at_line(lines, msg("where.line", "line {line} appends to log inside compute") if inside else msg(
        "where.helper_line", "line {line} appends to log, in a function that compute calls"), msg(
        "where.code", "your code appends to log in plain Python"))
    if g.wrapped_host_code:
        return msgn("log.tracer_wrapped",
                    "log holds {n} item after {calls}, a tracer: compute is not jitted itself, so the grader wrapped "
                    "all of it in jax.jit, and {where}; that append ran once, while jit traced compute, and stored "
                    "the tracer; the compiled program that every call ran does not contain it",
                    "log holds {n} items after {calls}, all tracers: compute is not jitted itself, so the grader "
                    "wrapped all of it in jax.jit, and {where}; each append ran while jit traced compute and stored a "
                    "tracer; the compiled program that every call ran does not contain them", n=n, calls=calls_n,
                    where=where)
    return msgn("log.tracer",
                "log holds {n} item after {calls}, a tracer: {where}; that append ran once, while jit traced compute, "
                "and stored the tracer; the compiled program that every call ran does not contain it",
                "log holds {n} items after {calls}, all tracers: {where}; each append ran while jit traced compute "
                "and stored a tracer; the compiled program that every call ran does not contain them", n=n,
                calls=calls_n, where=where)


def _check_compiles(g, calls):
    name = g.graded_params[0] if g.graded_params else "x"
    one_compile(g, calls, msg("compiles.head", "{calls} with scalars of one dtype gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused"), [
        when_nothing(msg("compiles.none", "{head}: nothing was compiled during the graded calls")),
        when_static(msg("compiles.static", "{head}: {name} is a static argument, so every new value is part of a "
                        "new compiled program; log filled up only because each call traced compute again", name=name),
                    msg("advice.traced", "keep x an ordinary, traced argument (no static_argnums) and log it from a "
                        "callback: jax.debug.callback(log.append, x)"), tier=CALLBACK_TIER),
        when_eager_in_callback(advice=msg("advice.asarray", "convert in the callback first, with float(v) or "
                                          "np.asarray(v), and do any rounding or arithmetic on that")),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program"),
                   msg("advice.inside", "keep the work inside compute, which jit compiles once")),
        when_new_function(advice=msg("advice.jit_once", "jit compute once, at module level"))])
