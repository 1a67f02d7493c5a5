"""Checks for black_box_print: three calls, one shape; one compile; each call prints its own mean at run time."""

import re

import numpy as np

from jittrainer.authoring import (
    as_floats,
    calls_words,
    count,
    first_slip,
    msg,
    numbers_in,
    one_compile,
    values_match,
    when_eager,
    when_eager_in_callback,
    when_nothing,
)

CHECKS = {
    "runs": "normalize runs under jax.jit",
    "values": "returns (x - mean) / std",
    "one_compile": "three calls of one shape compile once",
    "prints_each_call": "every call prints its own mean, at run time",
}

SIZE = 16
CALLS = 3
MEAN_TOLERANCE = 0.01  # any format that keeps two decimals passes
GAP = 0.05  # no other number a call might print (an element, a z-score, the std) lies this close to the mean
PRINT_TIER = 2  # the hint tier that names jax.debug.print


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[16] whose mean is far from 0, from integers, and from every other plausible printed number."""
    while True:
        loc = rng.choice([-1.0, 1.0]) * rng.uniform(3.0, 9.0)
        x = rng.normal(loc, rng.uniform(0.5, 2.0), SIZE).astype(np.float32)
        mean = float(x.astype(np.float64).mean())
        z = (x - mean) / x.std()
        others = np.concatenate([x, z, [x.std(), round(mean)]])
        if np.min(np.abs(others - mean)) > GAP:
            return x


def expected(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    return (x64 - x64.mean()) / x64.std()


def run_time_print():
    return msg("advice.debug_print", 'print with jax.debug.print("mean={{m}}", m=jnp.mean(x)): it is part of the '
               "compiled program, so it runs on every call, with the real value")


def make_advice(jitted_by_you: bool):
    # The error names no variable the grader could trust, so what to write follows the kind of error.
    def advice(error):
        if error.type == "TracerBoolConversionError":
            return msg("advice.no_branch", "do not branch on values computed from x; {fix}", fix=run_time_print())
        if error.type == "TracerArrayConversionError":
            return msg("advice.jnp", "compute with jax.numpy, not NumPy, and {fix}", fix=run_time_print())
        if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError"):
            return msg("advice.no_float", "do not convert traced values with float(), int() or .item(); to show a "
                       "number, {fix}", fix=run_time_print())
        return None

    return advice


def grade(g):
    jitted_by_you = not g.wrapped_host_code
    normalize = g.graded(params=1)
    xs = [batch(g.rng) for _ in range(CALLS)]
    calls = g.calls(normalize, [(x,) for x in xs])
    g.check_ran("runs", calls, make_advice(jitted_by_you), tier=PRINT_TIER)

    values_match(g, "values", calls.results, [expected(x) for x in xs], rtol=1e-4, atol=1e-4,
                 slip=lambda i, result: _value_slip(result, xs[i - 1], i),
                 advice=msg("advice.formula", "return (x - jnp.mean(x)) / jnp.std(x): jnp.std divides by n (ddof=0)"),
                 tier=1, ok=msg("values.ok", "all {n} results match", n=CALLS))
    one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused"), [
        when_nothing(msg("compiles.none", "{head}: nothing was compiled during the graded calls")),
        when_eager_in_callback(msg(
            "compiles.callback_eager", "{head}: the extra compiles are {names}, JAX's own operations, run inside your "
            "callback: it receives jax.Arrays, and a NumPy or jax.numpy function applied to one runs eagerly, which "
            "compiles"), msg("advice.asarray", "convert in the callback first: np.asarray(v).mean()"), tier=3),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program (each new shape compiles them)"),
                   msg("advice.inside", "keep the work inside normalize, which jit compiles once"), tier=1)])
    _check_prints(g, calls, [float(x.astype(np.float64).mean()) for x in xs])


def _value_slip(result, x, i):
    """A known slip that explains a wrong result (ddof=1, dividing by the variance), or None."""
    x64 = x.astype(np.float64)
    centred = x64 - x64.mean()
    return first_slip(as_floats(result, x.shape), [
        (centred / x64.std(ddof=1), msg("values.ddof1", "call {i} divided by the sample standard deviation (n - 1 in "
                                        "the denominator, ddof=1); the statement asks for the population one, which "
                                        "divides by n", i=i)),
        (centred / x64.var(), msg("values.variance", "call {i} divided by the variance, not by the standard "
                                  "deviation (its square root)", i=i)),
        (centred, msg("values.not_scaled", "call {i} subtracted the mean but did not divide by the standard "
                      "deviation", i=i))], rtol=1e-4, atol=1e-4)


_TRACER_TEXT = re.compile(r"\w*Tracer\([^)]*\)|Traced<[^>]*>(?:with<[^>]*>)?")


def _print_lines(g) -> list[int]:
    return g.lines_calling(r"(?<![\w.])print\s*\(", g.function_name)


def _check_prints(g, calls, means):
    outputs = calls.outputs
    shown = [any(abs(v - m) <= MEAN_TOLERANCE for v in numbers_in(out)) for out, m in zip(outputs, means)]
    if all(shown):
        g.passed("prints_each_call", msg("prints.ok", "each call printed its own mean"))
        return
    lines = [len([ln for ln in out.splitlines() if ln.strip()]) for out in outputs]
    tracer = [_TRACER_TEXT.search(out) for out in outputs]
    silent = [i for i in range(1, CALLS + 1) if not lines[i - 1]]
    fail = lambda observation, advice=None, tier=PRINT_TIER: g.failed(  # noqa: E731
        "prints_each_call", observation, advice or run_time_print(), tier=tier)

    if all(tracer):
        fail(msg("prints.formatted_tracer",
                 "every call printed a tracer's text instead of the mean's value: the line was formatted while jit "
                 "traced normalize (an f-string or str() of a traced value), so the text holds the tracer, not a "
                 "number"),
             msg("advice.placeholder", 'let jax.debug.print fill a placeholder at run time: '
                 'jax.debug.print("mean={{m}}", m=jnp.mean(x)), not an f-string'))
    elif sum(lines) == 0:
        if "pure_callback" in g.code:
            fail(msg("prints.dead_callback", "normalize printed nothing over {calls}: a pure_callback whose result is "
                     "unused is removed by JAX as dead code, so its function never runs", calls=count("call", CALLS)),
                 msg("advice.side_effect_callback", "for printing use jax.debug.print or jax.debug.callback, which are "
                     "kept for their side effect"))
        else:
            fail(msg("prints.nothing", "normalize printed nothing over {calls}; every call must print its mean",
                     calls=count("call", CALLS)))
    elif not shown[0] and not any(shown[1:]) and (tracer[0] or (lines[0] and not any(lines[1:]))):
        # Call 1 traced the function: a Python print ran then (showing a tracer, or no mean), and never again.
        where = _print_lines(g)
        printed = (msg("prints.first_tracer", "call 1 printed {tracer} where the mean should be",
                       tracer=tracer[0].group()) if tracer[0] else
                   msg("prints.first_no_mean", "call 1 printed {lines} but no mean", lines=count("line", lines[0])))
        rest = (msg("prints.later_other", "{calls} printed other lines but no mean", calls=calls_words(silent or [2, 3]))
                if any(lines[1:]) else msg("prints.later_nothing", "{calls} printed nothing",
                                           calls=calls_words(silent)))
        if where:
            fail(msg("prints.once_at_line",
                     "{printed}, and {rest}: line {line} calls print inside normalize, which jit traces once (with "
                     "tracers, not values); a Python print is not part of the compiled program, so it never runs "
                     "again", printed=printed, rest=rest, line=where[0]))
        else:
            fail(msg("prints.once",
                     "{printed}, and {rest}: a Python print inside jit runs once, while normalize is traced (with "
                     "tracers), and is not part of the compiled program", printed=printed, rest=rest))
    else:
        i = shown.index(False)
        text = outputs[i].strip().splitlines()
        if not text:
            fail(msg("prints.call_silent", "call {n} printed nothing; every call must print its own mean ({mean:.4f})",
                     n=i + 1, mean=means[i]))
            return
        printed = numbers_in(outputs[i])
        earlier = [j + 1 for j in range(i) if any(abs(v - means[j]) <= MEAN_TOLERANCE for v in printed)]
        common = {"n": i + 1, "lines": count("line", lines[i]), "sample": text[0][:80], "mean": means[i]}
        if earlier:
            fail(msg("prints.stale", "call {n} printed {lines} ({sample!r}) but none shows that call's mean, "
                     "{mean:.4f}: it shows call {earlier}'s mean, a value kept from an earlier call",
                     earlier=earlier[0], **common),
                 msg("advice.pass_value", "hand the mean computed in this call to jax.debug.print, not a value kept "
                     "from before"))
        elif tracer[i]:
            fail(msg("prints.tracer", "call {n} printed {lines} ({sample!r}) but none shows that call's mean, "
                     "{mean:.4f}: {tracer} is a tracer, printed while tracing", tracer=tracer[i].group(), **common))
        else:
            fail(msg("prints.no_mean", "call {n} printed {lines} ({sample!r}) but none shows that call's mean, "
                     "{mean:.4f}", **common), msg("advice.print_mean", "print the mean itself, jnp.mean(x), with "
                     "jax.debug.print"))
