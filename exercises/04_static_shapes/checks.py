"""Checks for static_shapes: sum_first_n(x, n) with a traced n = 0, 3, 7, 16; one compile for all four."""


import numpy as np

from jittrainer.core.toolkit import compare, concrete_float, plural

CHECKS = {
    "runs": "sum_first_n runs under jax.jit with a traced n",
    "values": "returns the sum of the first n elements (n = 0, 3, 7, 16)",
    "in_program": "sums inside the compiled program, without a host callback",
    "one_compile": "all four values of n share one compile",
}

SIZE = 16
NS = (0, 3, 7, 16)
RTOL, ATOL = 1e-4, 1e-4


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[16] of one sign, every |element| >= 0.5: partial sums are distinct, monotone and far from 0."""
    sign = rng.choice([-1.0, 1.0])
    return (sign * rng.uniform(0.5, 3.0, SIZE)).astype(np.float32)


def prefix(x: np.ndarray, n: int) -> float:
    return float(x[:n].astype(np.float64).sum())


def make_advice(wrapped_whole: bool):
    """wrapped_whole: sum_first_n is not jitted but jits something inside, as if its outer code ran on the host."""

    def advice(error) -> str:
        extra = _advice(error)
        if extra and wrapped_whole and error.type in TRACER_ERRORS:
            extra += (
                " (sum_first_n itself is not jitted, so the grader wrapped all of it in jax.jit: n is a tracer in "
                "your outer code too)"
            )
        return extra

    return advice


TRACER_ERRORS = (
    "ConcretizationTypeError",
    "TracerIntegerConversionError",
    "TracerBoolConversionError",
    "NonConcreteBooleanIndexError",
    "TypeError",  # Shapes must be 1D sequences of concrete values
    "IndexError",  # Slice entries must be static integers
)


def _advice(error) -> str:
    text = error.message
    code = "".join(ln for ln in error.traceback.splitlines(True) if ln.startswith("  "))  # your frames, not the message
    if "dynamic_slice" in code and (
        "Shapes must be 1D sequences" in text or error.type in ("TracerIntegerConversionError", "ConcretizationTypeError")
    ):
        return (
            "lax.dynamic_slice needs a static size; only its start may be traced. A slice of length n is still a "
            "traced shape. Keep the full length and mask instead: jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)"
        )
    if "Slice entries must be static" in text:
        return (
            "x[:n] slices with a traced bound: the result's length would depend on the value of n, which jit does "
            "not know while tracing. Keep all 16 elements and mask the ones at positions >= n"
        )
    if "Non-hashable static arguments" in text and "numpy.ndarray" in text:
        return (
            "x is marked static, but arrays cannot be hashed, so they cannot be static. Keep both arguments traced "
            "and let n choose elements through a mask: jnp.arange(x.shape[0]) < n"
        )
    if "Non-hashable static arguments" in text:
        return (
            "n is marked static, but it arrives as a jnp.int32 array, which cannot be hashed; and a static n would "
            "compile once per value anyway. Leave n traced: the shape of x[:n] would depend on its value, so use "
            "a mask such as jnp.arange(x.shape[0]) < n instead of slicing"
        )
    if error.type == "NonConcreteBooleanIndexError" or "boolean indices must be concrete" in text:
        return (
            "x[mask] keeps a value-dependent number of elements, so its shape is unknown while tracing. Keep the "
            "shape: jnp.where(mask, x, 0.0), or jnp.sum(x, where=mask)"
        )
    if "Shapes must be 1D sequences" in text:
        return (
            "a shape was built from the traced n. Under jit every shape must be fixed; derive lengths from "
            "x.shape (static) and let n choose elements through a mask"
        )
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError", "TracerBoolConversionError"):
        return (
            "n is a tracer with no value while jit traces: int(n), range(n), jnp.arange(n) and Python if/while on n "
            "all need the value. Compare n with the fixed-length jnp.arange(x.shape[0]) to build a mask instead"
        )
    return ""


def diagnose(result, x: np.ndarray, n: int, one_too_many_later: bool = False) -> str:
    """A reason for a wrong result at n, or "" when nothing specific fits."""
    try:
        got = concrete_float(np.asarray(result).reshape(())) if np.size(result) == 1 else None
    except Exception:  # an odd return value: compare() explains it
        got = None
    if got is None:
        return ""

    def near(value: float) -> bool:
        return abs(got - value) <= ATOL + RTOL * abs(value)

    if n == 0 and near(float(x[-1])):
        return (
            f"with n = 0 it returned {got:.6g}, the last element of x, instead of 0: an index n - 1 is -1 when n = 0, "
            "and negative indices wrap around to the end. Prepend a 0 to the cumulative sum and index it at [n], "
            "or use a mask"
        )
    if n == 0 and near(prefix(x, SIZE)):
        return (
            f"with n = 0 it returned {got:.6g}, the sum of all 16 elements, instead of 0: cumsum(x)[n - 1] reads "
            "index -1 (the total) when n = 0. Prepend a 0 and index at [n], or use a mask"
        )
    if n == 0 and near(float(x[0])):
        if one_too_many_later:
            return (
                f"with n = 0 it returned {got:.6g}, the first element, instead of 0, and the other sums also hold one "
                "element too many: off by one. Position n itself must not count: keep positions < n, not <= n"
            )
        return (
            f"with n = 0 it returned {got:.6g}, the first element, instead of 0: clipping the index n - 1 to 0 "
            "still reads x[0]. Prepend a 0 to the cumulative sum and index it at [n], or use a mask"
        )
    if n < SIZE and near(prefix(x, n + 1)):
        return (
            f"with n = {n} it returned the sum of the first {n + 1} elements: off by one (position n itself must "
            "not count: compare positions with < n, not <= n)"
        )
    if n > 0 and near(prefix(x, n - 1)):
        return f"with n = {n} it returned the sum of the first {n - 1} elements: off by one (positions 0..n-1 count)"
    return ""


def grade(g):
    import jax.numpy as jnp

    wrapped_whole = g.wrapped_host_code
    sum_first_n = g.graded(params=2)
    xs = [batch(g.rng) for _ in NS]
    ns = [jnp.int32(n) for n in NS]  # built before counting: creating a jnp value compiles too
    calls = g.calls(sum_first_n, list(zip(xs, ns)))
    g.check_ran("runs", calls, advice=make_advice(wrapped_whole))

    results = calls.results
    # the result for n = 3 holding 4 elements tells a "<= n" mask from a clipped index at n = 0
    later = compare(results[1], prefix(xs[1], NS[1] + 1), rtol=RTOL, atol=ATOL)[0]
    for x, n, result in zip(xs, NS, results):
        ok, why = compare(result, prefix(x, n), rtol=RTOL, atol=ATOL, what=f"the result for n = {n}")
        if not ok:
            g.check("values", False, diagnose(result, x, n, later) or why)
            break
    else:
        g.check("values", True, passed=f"all {len(NS)} sums match")

    fetched = g.feeding_callbacks()
    g.check(
        "in_program",
        not fetched,
        f"sum_first_n hands the work to Python through a host callback ({' and '.join(dict.fromkeys(fetched))}): "
        "the slicing happens outside the compiled program, which dodges the lesson. Keep the work in JAX with a "
        "fixed shape: mask the positions >= n (jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)) or pad, then sum",
        passed="the sum is computed inside the compiled program",
    )

    g.check(
        "one_compile",
        calls.compiles == 1,
        f"{len(NS)} calls with the same shapes gave {plural(calls.compiles, 'compile')}; expected 1: n must stay "
        "traced, so its value never changes the program"
        + (f" ({calls.why_compiled()})" if calls.compiles > 1 else ""),
        passed="compiled once; every n reused the same program",
    )


