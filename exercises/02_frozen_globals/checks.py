"""Checks for frozen_globals: one x, three scales; before call i the grader sets SCALE = scale_i.

A function that reads SCALE under jit gets it frozen at trace time (calls 2 and 3 reuse call 1's value); one that
makes scale static gets the right numbers but compiles once per value. The fix passes scale as a traced argument.
"""

import inspect
import types

import numpy as np

from jittrainer.core.toolkit import compare, is_tracer, plural, type_name

CHECKS = {
    "runs": "scaled_relu runs under jax.jit",
    "follows_scale": "each call returns maximum(0, x) * its own scale",
    "one_compile": "three scales compile once (scale is traced)",
    "leaves_scale": "scaled_relu does not assign the global SCALE",
}

SIZE = 32
SCALES = (2.0, 3.0, 0.5)  # Python floats, as the statement says


def make_x(rng: np.random.Generator) -> np.ndarray:
    """float32[32] with mixed signs, no value near 0, positives summing well away from 0."""
    while True:
        x = (rng.choice([-1.0, 1.0], SIZE) * rng.uniform(0.2, 4.0, SIZE)).astype(np.float32)
        if 8 <= int((x > 0).sum()) <= SIZE - 8:
            return x


def expected(x: np.ndarray, scale: float) -> np.ndarray:
    return np.maximum(0.0, x.astype(np.float64)) * scale


def factor(result, x: np.ndarray) -> float | None:
    """k when result == maximum(0, x) * k for one number k, else None."""
    try:
        if is_tracer(result):
            return None
        arr = np.asarray(result, dtype=np.float64).reshape(x.shape)
    except Exception:
        return None
    relu = np.maximum(0.0, x.astype(np.float64))
    k = float(np.median(arr[x > 0] / relu[x > 0]))
    return k if np.allclose(arr, relu * k, rtol=1e-4, atol=1e-5) else None


def describe_factor(k: float) -> str:
    return repr(round(float(k), 6))  # 2.0, 0.5, 1.333333


def advice(error) -> str:
    if error.type in ("ConcretizationTypeError", "TracerBoolConversionError", "TracerArrayConversionError"):
        return (
            "Under jit, scale is a tracer with no value yet: float(), if and NumPy cannot read it. You do not need "
            "its value: multiply by it directly, jnp.maximum(0, x) * scale"
        )
    if error.type == "UnexpectedTracerError":
        return "A tracer from an earlier trace was kept in a global and used again; do not store values in globals"
    return ""


def grade(g):
    scaled_relu = g.graded(params=2)
    g.attr("SCALE")  # a clear error, before any call, if the file no longer defines it
    x = make_x(g.rng)

    # Before call i: note what SCALE holds now (did call i-1 assign it?), then set it to this call's scale.
    assigned: list[tuple[int, object]] = []

    def before(i, args):
        if i > 1:
            _note_assignment(g, i - 1, SCALES[i - 2], assigned)
        g.replace("SCALE", args[1])

    calls = g.calls(scaled_relu, [(x, s) for s in SCALES], before=before)
    if calls.ok:
        _note_assignment(g, len(SCALES), SCALES[-1], assigned)
    g.check_ran("runs", calls, advice=advice)

    _check_values(g, x, calls.results, g.feeding_callbacks())
    _check_compiles(g, calls)
    _report_assignment(g, assigned)


def _check_values(g, x, results, fetched: list[str]):
    first_k = factor(results[0], x)
    for i, (s, result) in enumerate(zip(SCALES, results), 1):
        ok, why = compare(result, expected(x, s), rtol=1e-5, atol=1e-5, what=f"the result of call {i}")
        if ok:
            continue
        k = factor(result, x)
        if k is not None and i > 1 and first_k is not None and np.isclose(k, first_k, rtol=1e-4) and np.isclose(
            first_k, SCALES[0], rtol=1e-4
        ):
            if _reads_scale(g):
                message = (
                    f"SCALE was read once while tracing and frozen as a constant: call {i} used "
                    f"{describe_factor(SCALES[0])} instead of {describe_factor(s)}; use the scale argument"
                )
            else:
                message = (
                    f"every call scaled by the same fixed number: call {i} used {describe_factor(SCALES[0])} "
                    f"instead of {describe_factor(s)}; use the scale argument"
                )
        elif k is not None and np.isclose(k, 1.0, rtol=1e-4):
            message = f"call {i} returned maximum(0, x) without scaling it; multiply by scale ({describe_factor(s)})"
        elif k is not None and np.isclose(k, s * s, rtol=1e-4):
            message = f"call {i} scaled by {describe_factor(k)}, which is scale squared; multiply by scale once"
        elif k is not None:
            message = (
                f"call {i} returned maximum(0, x) * {describe_factor(k)}; expected maximum(0, x) * "
                f"{describe_factor(s)} (its scale argument)"
            )
        else:
            message = why
            ok_scaled, _ = compare(result, x.astype(np.float64) * s, rtol=1e-5, atol=1e-5)
            if ok_scaled:
                message += " (the negative entries must become 0: apply maximum(0, x) before scaling)"
        g.check("follows_scale", False, message)
        return
    if fetched:
        how = " and ".join(dict.fromkeys(fetched))
        g.check(
            "follows_scale",
            False,
            f"scaled_relu fetches a value from Python at run time through a callback ({how}) instead of using its "
            "scale argument: the numbers came out right only because the grader kept SCALE equal to scale. Multiply "
            "by the argument itself: jnp.maximum(0, x) * scale",
        )
        return
    scales = ", ".join(map(str, SCALES))
    g.check("follows_scale", True, passed=f"all {len(SCALES)} calls followed their scale ({scales})")


def _reads_scale(g) -> bool:
    """Whether the learner's function (or a function or lambda defined in it) names SCALE or globals()."""
    try:
        fn = inspect.unwrap(g.attr(g.function_name))
        codes = [fn.__code__]
    except Exception:
        return True
    while codes:
        code = codes.pop()
        if {"SCALE", "globals"} & set(code.co_names):
            return True
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return False


def _check_compiles(g, calls):
    n = calls.compiles
    if n <= 1:
        g.check("one_compile", True, passed="compiled once, then reused for every scale")
        return
    misses = calls.reasons()
    static = any(m.kind == "static" for m in misses)
    redefined = any(m.kind == "new_function" for m in misses)
    why = calls.why_compiled()
    name = g.graded_params[1] if len(g.graded_params) > 1 else "scale"
    if static:
        message = (
            f"{name} is static: {len(SCALES)} values gave {plural(n, 'compile')}; pass it as a traced argument "
            f"(no static_argnums / static_argnames), so one program serves every scale"
        )
    elif redefined:
        message = (
            f"{len(SCALES)} calls gave {plural(n, 'compile')}: a new function or jax.jit was created on each call, "
            f"so nothing compiled before could be reused ({why})"
        )
    else:
        message = f"{len(SCALES)} calls with one x gave {plural(n, 'compile')}; expected 1 ({why})"
    g.check("one_compile", False, message)


def _note_assignment(g, call: int, set_value: float, assigned: list) -> None:
    module = g.module
    now = getattr(module, "SCALE", None) if module is not None else None
    if now is set_value or (not is_tracer(now) and isinstance(now, (int, float)) and now == set_value):
        return
    assigned.append((call, now))


def _report_assignment(g, assigned: list) -> None:
    if not assigned:
        g.check("leaves_scale", True, passed="SCALE kept the value the grader set")
        return
    call, value = assigned[0]
    if is_tracer(value):
        message = (
            f"after call {call} SCALE held {type_name(value)}: scaled_relu assigns the global (global SCALE), "
            f"which leaks a tracer out of jit. Leave SCALE alone and use the scale argument"
        )
    else:
        message = (
            f"after call {call} SCALE held {value!r}, not the value the grader set: scaled_relu assigns the global. "
            f"Leave SCALE alone and use the scale argument"
        )
    g.check("leaves_scale", False, message)
