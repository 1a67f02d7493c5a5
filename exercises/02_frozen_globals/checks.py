"""Checks for frozen_globals: one x, three scales drawn from the seed. Right before call i the grader sets the
module's SCALE to a fresh float equal to scale_i (whether or not the file defines SCALE); right after it, SCALE
must still be that very object.

A function that reads SCALE under jit gets it frozen at trace time (calls 2 and 3 reuse call 1's value); one that
makes scale static gets the right numbers but compiles once per value; one that copies scale into SCALE (while
tracing, or from a callback at run time) writes module state. The fix multiplies by the traced scale argument.
"""

import inspect
import types

import numpy as np

from jittrainer.authoring import (
    as_floats,
    at_line,
    compare,
    is_tracer,
    iter_eqns,
    mismatch,
    msg,
    one_compile,
    refuse_fetching,
    tracer_error,
    type_name,
    when_eager,
    when_eager_in_callback,
    when_new_function,
    when_nothing,
    when_static,
)

CHECKS = {
    "runs": "scaled_relu runs under jax.jit",
    "follows_scale": "each call returns maximum(0, x) * its own scale",
    "one_compile": "three scales compile once (scale is traced)",
    "leaves_scale": "scaled_relu does not assign the global SCALE",
}

SIZE = 32
CALLS = 3
ARG_TIER = 2  # the hint tier that says: use the scale argument, not SCALE, and nothing static
_GONE = object()


# -- graded values ---------------------------------------------------------------------------------------------


def make_x(rng: np.random.Generator) -> np.ndarray:
    """float32[32]: mixed signs, magnitudes from 0.01 to 100, a few exact zeros."""
    while True:
        x = rng.choice([-1.0, 1.0], SIZE) * 10.0 ** rng.uniform(-2.0, 2.0, SIZE)
        x[rng.choice(SIZE, int(rng.integers(1, 4)), replace=False)] = 0.0
        x = x.astype(np.float32)
        if 8 <= int((x > 0).sum()) and 8 <= int((x < 0).sum()):
            return x


def draw_scales(rng: np.random.Generator) -> list[float]:
    """Three different Python floats, in random order: an ordinary positive scale, a negative one, and one edge
    (zero, one, a tiny or a large scale). Never 2.0, the starter's SCALE, and no two of them close together."""
    edges = {
        "zero": lambda: 0.0,
        "one": lambda: 1.0,
        "tiny": lambda: round(float(rng.uniform(0.001, 0.05)), 4),
        "large": lambda: round(float(rng.uniform(20.0, 500.0)), 2),
    }
    while True:
        ordinary = round(float(rng.choice([rng.uniform(0.2, 0.8), rng.uniform(1.25, 9.0)])), 3)
        negative = -round(float(rng.uniform(0.25, 4.0)), 3)
        scales = [ordinary, negative, edges[str(rng.choice(sorted(edges)))]()]
        rng.shuffle(scales)
        apart = all(not _near(abs(a), abs(b)) for i, a in enumerate(scales) for b in scales[i + 1:])
        if apart and all(abs(abs(s) - 2.0) > 0.05 for s in scales):
            return [float(s) for s in scales]


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 0.05 * max(abs(a), abs(b)) + 1e-4


def expected(x: np.ndarray, scale: float) -> np.ndarray:
    return np.maximum(0.0, x.astype(np.float64)) * scale


def factor(result, x: np.ndarray) -> float | None:
    """k when result == maximum(0, x) * k for one number k, else None."""
    arr = as_floats(result, x.shape)
    if arr is None:
        return None
    relu = np.maximum(0.0, x.astype(np.float64))
    pos = x > 0
    k = float(np.median(arr[pos] / relu[pos]))
    return k if np.allclose(arr, relu * k, rtol=1e-4, atol=1e-5) else None


def _same(a: float | None, b: float) -> bool:
    return a is not None and bool(np.isclose(a, b, rtol=1e-4, atol=1e-6))


# -- advice ----------------------------------------------------------------------------------------------------


def use_argument():
    return msg("advice.argument", "multiply by the scale argument itself, jnp.maximum(0, x) * scale, and leave SCALE "
               "out of scaled_relu: an argument is traced, so every call brings its own value into the same program")


def runs_advice(error):
    if tracer_error(error):
        return msg("advice.no_value", "you do not need scale's value while tracing: multiply by it as it is, "
                   "jnp.maximum(0, x) * scale, with no float(), if or NumPy on it")
    if error.type == "UnexpectedTracerError":
        return msg("advice.no_store", "keep traced values out of globals: scaled_relu only returns "
                   "jnp.maximum(0, x) * scale")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    scaled_relu = g.graded(params=2)
    x = make_x(g.rng)
    scales = draw_scales(g.rng)
    # SCALE is set to a fresh float per call (the value of that call's scale, a different object from the argument):
    # afterwards the module must hold that very object, so any assignment, even of an equal value, shows.
    fresh: dict[int, float] = {}
    assigned: list[tuple[int, object]] = []

    def before(i, args):
        fresh[i] = float(repr(args[1]))
        g.set_global("SCALE", fresh[i])

    def after(i, args):
        now = getattr(g.module, "SCALE", _GONE)
        if now is not fresh[i] and not assigned:
            assigned.append((i, now))

    calls = g.calls(scaled_relu, [(x, s) for s in scales], before=before, after=after)
    g.check_ran("runs", calls, runs_advice, tier=ARG_TIER)

    _check_values(g, x, scales, calls.results)
    _check_compiles(g, calls)
    _check_scale_left(g, assigned, fresh)


def _check_values(g, x, scales, results):
    ks = [factor(r, x) for r in results]
    why = mismatch(results, (expected(x, s) for s in scales), rtol=1e-5, atol=1e-5,
                   slip=lambda i, result: _value_slip(g, x, scales, i, ks[i - 1], ks, result))
    if why is not None:
        g.failed("follows_scale", why, use_argument(), tier=ARG_TIER)
        return
    refuse_fetching(g, "follows_scale", msg(
        "values.host", "the results match, but scaled_relu hands its arrays to Python through a callback "
        "({callbacks}) and uses what comes back: the numbers are computed on the host, outside the compiled program, "
        "not by jit") if _host_computes(g) else msg(
        "values.fetched", "the results match, but scaled_relu fetches a number from Python while the program runs "
        "({callbacks}) instead of using its scale argument: they matched only because the grader had just set SCALE "
        "to the same value"), use_argument(), tier=ARG_TIER,
        passed=msg("values.ok", "all {n} calls followed their own scale ({scales})", n=CALLS,
                   scales=[f"{s:g}" for s in scales]))


def _value_slip(g, x, scales, i, k, ks, result):
    """The observation for call i's wrong result when a known slip explains it, else None."""
    s, s1, k1 = scales[i - 1], scales[0], ks[0]
    if i > 1 and _same(k, s1) and _same(k1, s1):
        if _reads_scale(g):
            return at_line(_scale_lines(g), msg(
                "values.frozen_line", "call {i} scaled by {used:g}, call 1's scale, instead of its own {want:g}: line "
                "{line} reads SCALE, which jit read once, while tracing scaled_relu during call 1, and baked into the "
                "compiled program as a constant; later calls reuse that program and never read SCALE again", i=i,
                used=s1, want=s), msg(
                "values.frozen", "call {i} scaled by {used:g}, call 1's scale, instead of its own {want:g}: your code "
                "reads SCALE, which jit read once, while tracing during call 1, and baked into the compiled program as "
                "a constant; later calls reuse that program and never read SCALE again", i=i, used=s1, want=s))
    if _same(k, 1.0):
        return msg("values.unscaled", "call {i} returned maximum(0, x) unscaled, but its scale was {want:g}", i=i,
                   want=s)
    if i > 1 and _same(k, s1) and _same(k1, s1):
        return msg("values.stuck", "call {i} scaled by {used:g}, call 1's scale, instead of its own {want:g}: the "
                   "factor did not follow the scale argument after the first call", i=i, used=s1, want=s)
    if k is not None and all(_same(other, k) for other in ks):
        return msg("values.fixed", "every call scaled by the same number, {k:g}, whatever its scale argument (call "
                   "{i} asked for {want:g}): the factor is fixed in your code", k=k, i=i, want=s)
    if _same(k, s * s):
        return msg("values.squared", "call {i} scaled by {k:g}, the square of its scale {want:g}: the scale was "
                   "applied twice", i=i, k=k, want=s)
    if k is not None and _same(k, abs(s)):
        return msg("values.abs", "call {i} scaled by {k:g}, but its scale was {want:g}: the sign of a negative scale "
                   "was lost", i=i, k=k, want=s)
    if k is not None:
        return msg("values.factor", "call {i} returned maximum(0, x) * {k:g}, but its scale was {want:g}", i=i, k=k,
                   want=s)
    x64 = x.astype(np.float64)
    if s < 0 and compare(result, np.maximum(0.0, x64 * s), rtol=1e-5, atol=1e-5)[0]:
        return msg("values.relu_after", "call {i} (scale {want:g}) returned maximum(0, x * scale): with a negative "
                   "scale that keeps the entries where x is negative and zeroes the others, while maximum(0, x) * "
                   "scale keeps those where x is positive", i=i, want=s)
    if compare(result, x64 * s, rtol=1e-5, atol=1e-5)[0]:
        return msg("values.no_relu", "call {i} returned x * scale: the negative entries of x were scaled too, where "
                   "maximum(0, x) makes them 0", i=i)
    return None


def _host_computes(g) -> bool:
    """Whether a callback whose result the program uses is handed operands (it computes on the host)."""
    closed = g.graded_jaxpr()
    return closed is not None and any(eqn.primitive.name in ("pure_callback", "io_callback") and eqn.invars
                                      and eqn.outvars for eqn in iter_eqns(closed))


def _learner_codes(g) -> list[types.CodeType]:
    """Code objects of the graded function and of every function or class defined in the learner's file."""
    roots = []
    try:
        roots.append(inspect.unwrap(g.function()))
    except Exception:
        pass
    for value in list(vars(g.module).values()) if g.module is not None else []:
        try:
            value = inspect.unwrap(value)
        except Exception:
            continue
        if isinstance(value, type):
            roots.extend(v for v in vars(value).values() if isinstance(v, types.FunctionType))
        else:
            roots.append(value)
    codes = [getattr(root, "__code__", None) for root in roots]
    return [code for code in codes if isinstance(code, types.CodeType) and code.co_filename == g.filename]


def _reads_scale(g) -> bool:
    """Whether a function in the learner's file (or one nested in it) names SCALE or globals()."""
    codes = _learner_codes(g)
    while codes:
        code = codes.pop()
        if {"SCALE", "globals"} & set(code.co_names):
            return True
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return False


def _scale_lines(g) -> list[int]:
    """Lines that name SCALE inside a function: in scaled_relu first, else anywhere indented."""
    return (g.lines_calling(r"\bSCALE\b|\bglobals\s*\(", g.function_name)
            or g.lines_calling(r"^\s+\S.*(\bSCALE\b|\bglobals\s*\()"))


def _check_compiles(g, calls):
    name = g.graded_params[1] if len(g.graded_params) > 1 else "scale"
    one_compile(g, calls, msg("compiles.head", "{calls} with one x and different scales gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused for every scale"), [
        when_nothing(msg("compiles.none", "{head}: nothing was compiled during the graded calls")),
        when_static(msg("compiles.static", "{head}: {name} is a static argument, so each value is baked into its "
                        "own compiled program, the way a global is, and every new scale traces and compiles again",
                        name=name),
                    msg("advice.traced", "pass scale as an ordinary argument (no static_argnums or static_argnames): "
                        "it is then traced, and one program serves every scale"), tier=ARG_TIER),
        when_new_function(advice=msg("advice.jit_once", "jit scaled_relu once, at module level, and keep every "
                                     "helper it calls defined once too")),
        when_eager_in_callback(advice=msg("advice.asarray", "convert in the callback first, np.asarray(v), or drop "
                                          "the callback: scaled_relu needs none")),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program"),
                   msg("advice.inside", "keep the work inside scaled_relu, which jit compiles once"))])


def _check_scale_left(g, assigned, fresh):
    if not assigned:
        g.passed("leaves_scale", msg("scale.ok", "after every call SCALE still held the value the grader had set"))
        return
    call, now = assigned[0]
    want = fresh[call]
    advice = msg("advice.leave_scale", "leave SCALE alone: no global statement and no callback that writes it; "
                 "scaled_relu needs only its scale argument, jnp.maximum(0, x) * scale")
    if now is _GONE:
        observation = msg("scale.deleted", "after call {call}, SCALE was gone from your module: your code deleted the "
                          "global during the call", call=call)
    elif is_tracer(now):
        observation = at_line(g.lines_calling(r"\bglobal\b.*\bSCALE\b"), msg(
            "scale.tracer_line", "after call {call}, SCALE held {type}: line {line} makes SCALE global in a function "
            "that jit traces, so the assignment ran while tracing and leaked a tracer out of jit into your module",
            call=call, type=type_name(now)), msg(
            "scale.tracer", "after call {call}, SCALE held {type}: your code assigned the global while jit traced it, "
            "which leaked a tracer out of jit into your module", call=call, type=type_name(now)))
    elif isinstance(now, (int, float)) and not isinstance(now, bool) and _same(float(now), want):
        observation = msg("scale.same_value", "after call {call}, SCALE held {value:g}, the number the grader had "
                          "set, but as a different object: your code assigned the global during the call (a callback "
                          "that writes SCALE at run time does this too), and scaled_relu must not write it", call=call,
                          value=float(now))
    elif isinstance(now, (int, float)) and not isinstance(now, bool):
        observation = msg("scale.other_value", "after call {call}, SCALE held {value:g}, not the {want:g} the grader "
                          "had set right before the call: your code assigned the global during the call", call=call,
                          value=float(now), want=want)
    else:
        observation = msg("scale.other_type", "after call {call}, SCALE held {type}, not the float {want:g} the "
                          "grader had set right before the call: your code assigned the global during the call",
                          call=call, type=type_name(now), want=want)
    g.failed("leaves_scale", observation, advice)  # hint 3 says: no global, no callback that writes SCALE
