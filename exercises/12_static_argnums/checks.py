"""Checks for static_argnums: reshape_rows(x, rows) with a static rows drawn from the divisors of 12, with repeats;
one compile per distinct value, and every repeat reuses its program."""

import re

import numpy as np

from jittrainer.authoring import compare, count, is_jitted, msg, msgn, refuse_fetching, repeat_that_compiled
CHECKS = {
    "runs": "reshape_rows runs under jax.jit",
    "values": "returns x.reshape((rows, -1)) for every rows that divides 12",
    "static_rows": "rows is static: one compile per distinct value, and a repeated value reuses its program",
}

SIZE = 12
DIVISORS = (1, 2, 3, 4, 6, 12)
DISTINCT = 4  # distinct values of rows per grading, at least one of them an edge (1 or 12)
REPEATS = 3  # extra calls, each repeating a different one of the distinct values
EXAMPLES = (2, 3, 4)  # the values statement.md shows
STATIC_TIER = 2  # the hint tier that names static_argnums / static_argnames
RESHAPE_TIER = 1  # the reshape itself is in the statement: no hint hides it


def draw_rows(rng: np.random.Generator) -> list[int]:
    """DISTINCT divisors of 12 (1 or 12 among them), each called once, and REPEATS of them a second time; no value
    twice in a row, so a repeat has to find its program among several."""
    while True:
        distinct = [int(v) for v in rng.choice(DIVISORS, DISTINCT, replace=False)]
        if 1 in distinct or SIZE in distinct:
            break
    while True:
        rows = distinct + [int(v) for v in rng.choice(distinct, REPEATS, replace=False)]
        rows = [rows[i] for i in rng.permutation(len(rows))]
        if all(a != b for a, b in zip(rows, rows[1:])):
            return rows


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[12] with distinct elements far from 0, so any reordering shows."""
    sign = rng.choice([-1.0, 1.0])
    return (sign * (np.arange(1, SIZE + 1) + rng.uniform(0.1, 0.9, SIZE))).astype(np.float32)


# -- runs -------------------------------------------------------------------------------------------------------

ARRAY_OF_ROWS = re.compile(r"(asarray|jnp\.array|numpy\.array|jnp\.int32|jnp\.int64)\s*\(\s*rows\b")


def static_how():
    return msg("advice.static_how", "@partial(jax.jit, static_argnums=1) on reshape_rows, or reshape_rows = "
               "jax.jit(f, static_argnames=\"rows\")")


def make_advice(jitted_by_learner: bool, code: str):
    def advice(error):
        text = error.message
        if "Non-hashable static arguments" in text:
            if "Tracer" in text and jitted_by_learner:
                return msg("advice.outer_jit", "a traced value reached the static argument: an outer jax.jit (a "
                           "second @jax.jit stacked on the static one, or a jit around the call) traced rows before "
                           "the inner jit could treat it as static. Jit reshape_rows once, with rows static: {how}",
                           how=static_how())
            if "Tracer" in text:
                return msg("advice.wrapped_static", "your reshape_rows is not jitted itself, so the grader wrapped it "
                           "in jax.jit with no options, and rows was already a tracer when it reached your inner "
                           "jitted function. Put the static marking on reshape_rows itself: {how}",
                           how=static_how())
            return msg("advice.static_x", "x is argument 0, an array, and arrays cannot be hashed, so they cannot be "
                       "static. Leave x traced and make only rows static: static_argnums=1 or "
                       "static_argnames=\"rows\"")
        if "cannot reshape" in text:
            return msg("advice.columns", "the number of columns must follow rows: x.reshape((rows, -1)) lets JAX work "
                       "it out, or 12 // rows")
        if error.type == "TracerArrayConversionError":
            if jitted_by_learner:
                return msg("advice.numpy", "NumPy cannot read a traced value: reshape the JAX array itself, "
                           "x.reshape((rows, -1)), in a reshape_rows jitted with rows static: {how}",
                           how=static_how())
            return msg("advice.numpy_wrapped", "your reshape_rows is not jitted, so the grader wrapped it in jax.jit "
                       "with no options and x is a tracer inside, which NumPy cannot read. Reshape the JAX array "
                       "itself, x.reshape((rows, -1)), and jit reshape_rows with rows static: {how}",
                       how=static_how())
        shape_error = "Shapes must be 1D sequences" in text or error.type in (
            "ConcretizationTypeError", "TracerIntegerConversionError")
        if shape_error and ARRAY_OF_ROWS.search(code):
            return msg("advice.asarray", "rows was turned into a JAX array, and inside jit that array is traced again, "
                       "even when rows is static. Use the Python int rows directly in the shape")
        if shape_error and not jitted_by_learner:
            return msg("advice.not_jitted", "your reshape_rows is not jitted, so the grader wrapped it in jax.jit with "
                       "no options, and rows is traced there. Jit it yourself, with rows static: {how}",
                       how=static_how())
        if shape_error:
            return msg("advice.traced", "rows is traced, so a shape built from it has no concrete size. Mark rows "
                       "static: {how}", how=static_how())
        return None

    return advice


# -- values -----------------------------------------------------------------------------------------------------

def shape_of(result) -> tuple | None:
    try:
        return tuple(int(d) for d in np.shape(result))
    except Exception:
        return None


def check_values(g, xs, rows_list, results):
    shapes = [shape_of(r) for r in results]
    wanted = [(rows, SIZE // rows) for rows in rows_list]
    distinct = list(dict.fromkeys(rows_list))
    wrong = []  # (index, observation) of every wrong call
    for i, (x, rows, result) in enumerate(zip(xs, rows_list, results)):
        expected = x.astype(np.float64).reshape((rows, -1))
        what = msg("what.rows", "the result for rows = {rows}", rows=rows)
        if shapes[i] != expected.shape:  # compare() squeezes shapes; here the shape is the point
            why = msg("values.shape", "{what} has shape {got}; expected {want}", what=what, got=str(shapes[i]),
                      want=str(expected.shape))
        else:
            ok, why = compare(result, expected, rtol=1e-6, atol=1e-6, what=what)
            if ok:
                continue
            if np.allclose(np.asarray(result, dtype=np.float64), x.reshape(SIZE // rows, rows).T, rtol=1e-5,
                           atol=1e-5):
                why = msg("values.column_major", "for rows = {rows} the shape is right but the elements run down the "
                          "columns (x[0], x[1], … fill the first column, then the next), while the statement asks for them "
                          "row by row: the first row holds x[0] to x[{last}]", rows=rows, last=SIZE // rows - 1)
        wrong.append((i, why))
    if not wrong:
        refuse_fetching(g, "values", passed=msg("values.ok", "all {n} shapes and values match (rows = {rows})",
                                                n=len(rows_list), rows=distinct))
        return
    right = sorted({rows_list[i] for i in range(len(rows_list))} - {rows_list[i] for i, _ in wrong})
    wrong_rows = sorted({rows_list[i] for i, _ in wrong})
    first_why = wrong[0][1]
    advice = msg("advice.reshape", "return x.reshape((rows, -1)): rows rows, and as many columns as it takes "
                 "(12 // rows)")
    if len(set(shapes)) == 1 and len(distinct) > 1:
        observation = msg("values.one_shape", "every call returned shape {shape}, whatever rows was ({rows}): the "
                          "result does not follow rows", shape=str(shapes[0]), rows=distinct)
    elif all(s == (SIZE // r, r) for s, r in zip(shapes, rows_list)):
        first = rows_list[0]
        observation = msg("values.swapped", "for rows = {rows} the result has shape {got}; expected {want}: the "
                          "value of rows became the number of columns (the second axis), not the number of rows",
                          rows=first, got=str(shapes[0]), want=str(wanted[0]))
    elif right and all(r in EXAMPLES for r in right) and not any(r in EXAMPLES for r in wrong_rows):
        observation = msg("values.examples_only", "the results were right only for rows = {right}, values the "
                          "statement shows, and wrong for rows = {wrong} ({first}): the result must follow rows for "
                          "every divisor of 12", right=right, wrong=wrong_rows, first=first_why)
    else:
        observation = first_why
    g.failed("values", observation, advice, tier=RESHAPE_TIER)


# -- compiles ---------------------------------------------------------------------------------------------------

def check_static(g, calls, rows_list):
    distinct = list(dict.fromkeys(rows_list))
    want, got = len(distinct), calls.compiles
    if got == want:
        g.passed("static_rows", msg("static.ok", "{compiles}, one per rows value ({rows}); every repeat reused its "
                                    "program", compiles=count("compile", got), rows=distinct))
        return
    head = msgn("static.head", "{calls} with {n} distinct value of rows ({rows}) gave {compiles}; expected {want}",
                "{calls} with {n} distinct values of rows ({rows}) gave {compiles}; expected {want}",
                calls=count("call", len(rows_list)), n=want, rows=distinct, compiles=count("compile", got),
                want=want)
    if got < want:
        g.failed("static_rows", msg("static.too_few", "{head}: each value of rows gives the result another shape, so "
                                    "each needs a program of its own", head=head),
                 msg("advice.static", "mark rows static: {how}", how=static_how()), tier=STATIC_TIER)
        return
    eager = calls.eager_compiles
    if eager:
        g.failed("static_rows", msg("static.eager", "{head}: the extra compiles are {names}, JAX operations run "
                                    "eagerly outside the compiled program (inside a callback, a jax.Array is "
                                    "concrete, and jax.numpy on it compiles for every new shape)", head=head,
                                    names=eager),
                 msg("advice.numpy_in_callback", "in a callback, convert first and work with NumPy: np.asarray(y)"),
                 tier=STATIC_TIER)
        return
    jit_once = msg("advice.jit_once", "jit reshape_rows once, at module level, so its cache lives across calls: "
                   "{how}", how=static_how())
    repeat = repeat_that_compiled(calls, rows_list)  # a repeated value that compiled again did not reuse its program
    if repeat is not None:
        call, earlier, reason = repeat
        g.failed("static_rows", msg("static.recompiled", "{head}: call {call} repeated rows = {rows} from call "
                                    "{earlier} and compiled again instead of reusing that program ({reason})",
                                    head=head, call=call, rows=rows_list[call - 1], earlier=earlier, reason=reason),
                 jit_once, tier=STATIC_TIER)
        return
    g.failed("static_rows", msg("static.why", "{head} ({why})", head=head, why=calls.why_compiled()), jit_once,
             tier=STATIC_TIER)


def grade(g):
    jitted_by_learner = is_jitted(g.function())
    reshape_rows = g.graded(params=2)
    rows_list = draw_rows(g.rng)
    xs = [batch(g.rng) for _ in rows_list]
    calls = g.calls(reshape_rows, list(zip(xs, rows_list)))
    g.check_ran("runs", calls, make_advice(jitted_by_learner, g.code), tier=STATIC_TIER)
    check_values(g, xs, rows_list, calls.results)
    check_static(g, calls, rows_list)
