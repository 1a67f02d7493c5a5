"""Checks for static_argnums: reshape_rows(x, rows) with a static rows = 3, 4, 3, 2, 4; one compile per value."""

import linecache
import re

import numpy as np

from jittrainer.core.toolkit import compare, is_jitted, plural

CHECKS = {
    "runs": "reshape_rows runs under jax.jit",
    "values": "returns x.reshape((rows, -1)) for rows = 3, 4, 3, 2, 4",
    "static_rows": "rows is static: one compile per distinct value (3 compiles for 5 calls)",
}

SIZE = 12
ROWS = (3, 4, 3, 2, 4)
DISTINCT = len(set(ROWS))
STATIC_HOW = "mark rows static (static_argnums=1 or static_argnames='rows')"


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[12] with distinct elements far from 0, so any reordering shows."""
    sign = rng.choice([-1.0, 1.0])
    return (sign * (np.arange(1, SIZE + 1) + rng.uniform(0.1, 0.9, SIZE))).astype(np.float32)


ARRAY_OF_ROWS = re.compile(r"(asarray|jnp\.array|numpy\.array|jnp\.int32|jnp\.int64)\s*\(\s*rows\b")


def source_code(filename: str) -> str:
    """The learner's file without comments (the worker registers it with linecache)."""
    return "".join(line.split("#", 1)[0] + "\n" for line in linecache.getlines(filename))


def make_advice(jitted_by_learner: bool, code: str):
    def advice(error) -> str:
        text = error.message
        if "Non-hashable static arguments" in text:
            if "Tracer" in text and jitted_by_learner:
                return (
                    "A traced value reached a static argument: an outer jax.jit (a second @jax.jit stacked on the "
                    "static one, or a jit around the call) traced rows before the inner jit could treat it as "
                    "static. Jit reshape_rows once, with rows static: @partial(jax.jit, static_argnums=1)"
                )
            if "Tracer" in text:
                return (
                    "A traced value was passed as a static argument: your reshape_rows is not jitted itself, so the "
                    "grader wrapped it in jax.jit with no options and rows was already a tracer when it reached the "
                    "inner jitted function. Put the static marking on reshape_rows itself: "
                    "@partial(jax.jit, static_argnums=1)"
                )
            return (
                "An array was marked static: x is argument 0, and arrays cannot be hashed, so they cannot be static. "
                "Leave x traced and make only rows static (static_argnums=1 or static_argnames='rows')"
            )
        if error.type == "TracerArrayConversionError":
            return (
                "NumPy cannot read a traced value: "
                + ("" if jitted_by_learner else "your reshape_rows is not jitted, so the grader wrapped it in jax.jit "
                   "with no options, and ")
                + "x is a tracer inside. Reshape the JAX array itself, x.reshape((rows, -1)), and jit reshape_rows "
                "with rows static (static_argnums=1 or static_argnames='rows')"
            )
        shape_error = "Shapes must be 1D sequences" in text or error.type in (
            "ConcretizationTypeError",
            "TracerIntegerConversionError",
        )
        if shape_error and ARRAY_OF_ROWS.search(code):
            return (
                "rows was turned into a JAX array (jnp.asarray / jnp.array), and inside jit that array is traced "
                "again, even when rows is static. Use the Python int rows directly in the shape"
            )
        if shape_error and not jitted_by_learner:
            return (
                "rows is traced: your reshape_rows is not jitted, so the grader wrapped it in jax.jit with no "
                f"options, and reshape needs a concrete size. Jit it yourself and {STATIC_HOW}"
            )
        if shape_error and error.type != "TypeError":
            return f"rows is traced, so int(rows) or range(rows) has no value to read; {STATIC_HOW}"
        if shape_error:
            return f"rows is traced: reshape needs a concrete size; {STATIC_HOW}"
        return ""

    return advice


def shape_of(result) -> tuple | None:
    try:
        return tuple(np.shape(result))
    except Exception:
        return None


def wrong_shape(results: list, xs: list) -> str:
    """A specific reason when the shapes or the order show a typical mistake, or ""."""
    shapes = [shape_of(r) for r in results]
    wanted = [(rows, SIZE // rows) for rows in ROWS]
    if shapes == wanted:
        for result, x, rows in zip(results, xs, ROWS):
            try:
                arr = np.asarray(result, dtype=np.float64)
            except Exception:
                return ""
            cols = SIZE // rows
            if rows != cols and np.allclose(arr, x.reshape(cols, rows).T, rtol=1e-5, atol=1e-5):
                return (
                    f"for rows = {rows} the shape is right but the elements are transposed: x.reshape((rows, -1)) "
                    "fills the rows in order (row-major), with no transpose"
                )
        return ""
    if len(set(shapes)) == 1:
        return (
            f"every call returned shape {shapes[0]}, whatever rows was ({', '.join(map(str, ROWS))}): the number "
            "of rows must come from the rows argument"
        )
    if shapes == [(SIZE // rows, rows) for rows in ROWS]:
        return (
            f"for rows = {ROWS[0]} the result has shape {shapes[0]}; expected {wanted[0]}: rows is the size of the "
            "first axis. Reshape to (rows, -1), not (-1, rows)"
        )
    return ""


def too_many(calls, distinct: str) -> str:
    """Why more than one compile per distinct rows value happened, in words."""
    misses = calls.reasons()
    eager = [m for m in misses if m.kind == "jax_internal"]  # JAX explains only functions from the learner's file
    own = [m for m in misses if m.kind != "jax_internal"]
    head = (
        f"{len(ROWS)} calls with {DISTINCT} distinct rows values ({distinct}) gave "
        f"{plural(calls.compiles, 'compile')}; expected {DISTINCT}"
    )
    parts = []
    if eager:
        names = ", ".join(dict.fromkeys(m.function for m in eager))
        parts.append(
            f"{plural(len(eager), 'compile')} came from jax.numpy operations run eagerly, outside the compiled "
            f"program ({names}): compute the shape with Python ints, e.g. x.shape[0] // rows"
        )
    if len(own) > DISTINCT:
        repeats = "; ".join(f"call {m.call}: {m.reason}" for m in own if m.call and ROWS[m.call - 1] in ROWS[: m.call - 1])
        parts.append(
            "a repeated rows value compiled again, so it did not reuse its program"
            + (f" ({repeats})" if repeats else f" ({calls.why_compiled()})")
            + ". Jit reshape_rows once, at module level, with rows static"
        )
    if not parts:
        parts.append(calls.why_compiled())
    return head + ": " + "; ".join(parts)


def grade(g):
    jitted_by_learner = is_jitted(g.function())
    reshape_rows = g.graded(params=2)
    xs = [batch(g.rng) for _ in ROWS]
    calls = g.calls(reshape_rows, list(zip(xs, ROWS)))
    g.check_ran("runs", calls, advice=make_advice(jitted_by_learner, source_code(g.filename)))

    why = wrong_shape(calls.results, xs)
    if not why:
        for x, rows, result in zip(xs, ROWS, calls.results):
            expected = x.astype(np.float64).reshape((rows, -1))
            ok, why = compare(result, expected, rtol=1e-6, atol=1e-6, what=f"the result for rows = {rows}")
            # compare() accepts any shape holding the same elements once squeezed; here the shape is the point
            if ok and shape_of(result) != expected.shape:
                ok, why = False, f"the result for rows = {rows} has shape {shape_of(result)}; expected {expected.shape}"
            if not ok:
                break
        else:
            why = ""
    if why:
        g.check("values", False, why)
    else:
        g.check("values", True, passed=f"all {len(ROWS)} shapes and values match")

    distinct = ", ".join(str(r) for r in dict.fromkeys(ROWS))
    reasons = calls.why_compiled()
    if calls.compiles == DISTINCT:
        g.check(
            "static_rows",
            True,
            passed=f"{plural(calls.compiles, 'compile')}, one per rows value ({distinct}); the repeated 3 and 4 "
            "reused their programs" + (f" ({reasons})" if reasons else ""),
        )
    elif calls.compiles > DISTINCT:
        g.check("static_rows", False, too_many(calls, distinct))
    else:
        g.check(
            "static_rows",
            False,
            f"{len(ROWS)} calls with {DISTINCT} distinct rows values gave only {plural(calls.compiles, 'compile')}; "
            f"expected {DISTINCT}: each distinct shape of the result needs its own program",
        )
