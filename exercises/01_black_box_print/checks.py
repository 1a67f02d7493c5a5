"""Checks for black_box_print: three calls, one shape; one compile; each call prints its own mean at run time."""

import re

import numpy as np

from jittrainer.core.jaxwatch import CALLBACK_PRIMITIVES, iter_eqns
from jittrainer.core.toolkit import compare, numbers_in, plural

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


def make_advice(jitted_by_you: bool):
    # The error names no variable the grader could trust, so the advice follows the kind of error.
    fix = 'print with jax.debug.print("mean={m}", m=jnp.mean(x)), which shows the real number on every call'
    wrapped = "" if jitted_by_you else " (all of it: normalize is not jitted itself, so the grader wrapped it)"

    def advice(error) -> str:
        if error.type == "TracerBoolConversionError":
            return (
                f"A Python if or while needs True or False while jit traces normalize{wrapped}, but values "
                f"computed from x are tracers then, with no value. Do not branch on them; {fix}"
            )
        if error.type == "TracerArrayConversionError":
            return (
                f"NumPy (np.mean, np.asarray, ...) needs real numbers, but while jit traces normalize{wrapped}, x "
                f"and everything computed from it are tracers. Compute with jax.numpy, and {fix}"
            )
        if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError"):
            return (
                f"float(), int() and .item() need a value, but while jit traces normalize{wrapped}, every value "
                f"computed from x is a tracer. To show a number, {fix}"
            )
        return ""

    return advice




def grade(g):
    jitted_by_you = not g.wrapped_host_code
    normalize = g.graded(params=1)
    xs = [batch(g.rng) for _ in range(CALLS)]
    calls = g.calls(normalize, [(x,) for x in xs])
    g.check_ran("runs", calls, advice=make_advice(jitted_by_you))

    for i, (x, result) in enumerate(zip(xs, calls.results), 1):
        ok, why = compare(result, expected(x), rtol=1e-4, atol=1e-4, what=f"the result of call {i}")
        if not ok:
            g.check("values", False, why)
            break
    else:
        g.check("values", True, passed=f"all {CALLS} results match")

    _check_compiles(g, calls)
    _check_prints(g, calls, [float(x.astype(np.float64).mean()) for x in xs])


def _callbacks(g) -> set[str]:
    """The host-callback primitives in the graded program (nested jaxprs included)."""
    closed = g.graded_jaxpr()
    return {e.primitive.name for e in iter_eqns(closed)} & set(CALLBACK_PRIMITIVES) if closed is not None else set()


def _check_compiles(g, calls):
    n = calls.compiles
    if n == 1:
        g.check("one_compile", True, passed="compiled once, then reused")
        return
    head = f"{CALLS} calls with one shape gave {plural(n, 'compile')}; expected 1"
    eager = [m for m in calls.reasons() if m.kind == "jax_internal"]
    if n > 1 and eager and _callbacks(g) - {"debug_print"}:
        names = ", ".join(dict.fromkeys(m.function for m in eager))
        message = (
            f"{head}: the extra one is {names}, JAX's own operation. Your callback receives jax.Arrays, and a NumPy "
            "function on a jax.Array (np.mean(v)) runs jax.numpy eagerly, which compiles. Convert first: "
            "np.asarray(v).mean()"
        )
    elif n > 1 and eager:
        names = ", ".join(dict.fromkeys(m.function for m in eager))
        message = (
            f"{head}: the extra one is {names}, a jax.numpy operation run eagerly, outside the compiled program "
            "(each new shape compiles it). Keep the work inside normalize"
        )
    elif n > 1:
        message = f"{head} ({calls.why_compiled()})"
    else:
        message = f"{head}: nothing was compiled during the graded calls"
    g.check("one_compile", False, message)


_TRACER_TEXT = re.compile(r"\w*Tracer\([^)]*\)|Traced<[^>]*>(?:with<[^>]*>)?")


def _calls_words(indices: list[int]) -> str:
    if len(indices) == 1:
        return f"call {indices[0]}"
    return "calls " + ", ".join(map(str, indices[:-1])) + f" and {indices[-1]}"


def _check_prints(g, calls, means):
    outputs = calls.outputs
    shown = [any(abs(v - m) <= MEAN_TOLERANCE for v in numbers_in(out)) for out, m in zip(outputs, means)]
    if all(shown):
        g.check("prints_each_call", True, passed="each call printed its own mean")
        return
    lines = [len([ln for ln in out.splitlines() if ln.strip()]) for out in outputs]
    tracer = [_TRACER_TEXT.search(out) for out in outputs]
    later = list(range(2, CALLS + 1))
    run_time = 'print with jax.debug.print("mean={m}", m=jnp.mean(x)), which runs on every call with the real value'
    if all(tracer):
        message = (
            "every call printed a tracer's text instead of the mean's value: the line was formatted while "
            "tracing (an f-string or str() of a traced value). Let jax.debug.print fill a placeholder at run "
            'time: jax.debug.print("mean={m}", m=jnp.mean(x))'
        )
    elif sum(lines) == 0:
        message = f"normalize printed nothing over {CALLS} calls; every call must print its mean"
        if "pure_callback" in g.source:
            message += (
                " (a pure_callback whose result is unused is removed by JAX as dead code: print with "
                "jax.debug.print or jax.debug.callback)"
            )
    elif not shown[0] and not any(shown[1:]) and (tracer[0] or (lines[0] and not any(lines[1:]))):
        # Call 1 traced the function: a Python print ran then (showing a tracer, or no mean), and never again.
        first = f"call 1 printed {tracer[0].group()} where the mean should be" if tracer[0] else (
            f"call 1 printed {plural(lines[0], 'line')} but no mean"
        )
        rest = _calls_words(later)
        rest += " printed other lines but no mean" if any(lines[1:]) else " printed nothing"
        message = (
            f"{first}, and {rest}: a Python print inside jit runs once, while normalize is traced (with tracers), "
            f"and is not part of the compiled program. Instead, {run_time}"
        )
    else:
        i = shown.index(False)
        text = outputs[i].strip().splitlines()
        sample = text[0][:80] if text else ""
        if not text:
            message = f"call {i + 1} printed nothing; every call must print its own mean ({means[i]:.4f})"
        else:
            message = (
                f"call {i + 1} printed {plural(lines[i], 'line')} ({sample!r}) but none shows that call's mean, "
                f"{means[i]:.4f}"
            )
            printed = numbers_in(outputs[i])
            earlier = [j + 1 for j in range(i) if any(abs(v - means[j]) <= MEAN_TOLERANCE for v in printed)]
            if earlier:
                message += f": it shows call {earlier[0]}'s mean, a value kept from an earlier call"
            elif tracer[i]:
                message += f": {tracer[i].group()} is a tracer, printed while tracing. Instead, {run_time}"
    g.check("prints_each_call", False, message)
