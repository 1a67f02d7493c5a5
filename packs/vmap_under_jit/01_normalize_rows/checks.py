"""Checks for normalize_rows: normalize_row applied to every row of a float32[B, F] batch, in one program that
handles the whole batch at once. Four batches (8 to 16 rows first, then 1, an odd 3 to 15, and 2 to 16) share a
drawn F; the values must match row by row, no host callback may feed the result, and the program jit records for
the first batch must hold neither a copy of the per-row work per row (a Python loop, unrolled while tracing) nor a
scan or while loop (lax.map, fori_loop: the rows one after another). vmap and hand-batched jnp both pass."""

import numpy as np

from jittrainer.authoring import compare, count, iter_eqns, msg, msgn

CHECKS = {
    "runs": "normalize_rows runs under jax.jit",
    "values": "every row is normalize_row of that row",
    "in_program": "normalizes inside the compiled program, without a host callback",
    "batched": "the program does not hold a copy of the per-row work for each row",
    "no_loop": "the program holds no loop over the rows",
}

EPS = 1e-5
LOOPS = ("scan", "while")
VMAP_TIER = 2  # the hint tier that names jax.vmap


# -- inputs and the reference ---------------------------------------------------------------------------------

def draw_rows(rng: np.random.Generator) -> list[int]:
    """8..16 first (the program the checks read), then 1, an odd count from 3 to 15, and 2..16. No more: the unrolled
    starter compiles a program per batch that grows with its rows (hence also the manifest's long time limit)."""
    return [int(rng.integers(8, 17)), 1, int(rng.choice(np.arange(3, 16, 2))), int(rng.integers(2, 17))]


def batch(rng: np.random.Generator, rows: int, features: int) -> np.ndarray:
    """Each row with its own mean (-20..20) and spread (0.5..5): whole-batch statistics cannot pass for per-row."""
    means = rng.uniform(-20.0, 20.0, (rows, 1))
    spreads = rng.uniform(0.5, 5.0, (rows, 1))
    return (means + spreads * rng.normal(0.0, 1.0, (rows, features))).astype(np.float32)


def normalized(xs: np.ndarray, axis: int | None) -> np.ndarray:
    xs = xs.astype(np.float64)
    mean = xs.mean(axis=axis, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=axis, keepdims=True)
    return (xs - mean) / np.sqrt(var + EPS)


def rows_of(n: int):
    return msgn("rows", "{n} row", "{n} rows", n=n)


def vmap_advice():
    return msg("advice.vmap", "return jax.vmap(normalize_row)(xs): vmap traces normalize_row once, on one row, and "
               "applies every operation to all the rows at once")


# -- the checks -----------------------------------------------------------------------------------------------

def check_values(g, batches, results) -> None:
    for call, (xs, result) in enumerate(zip(batches, results), 1):
        rows = xs.shape[0]
        what = msg("what.call", "the result of call {call} ({rows})", call=call, rows=rows_of(rows))
        ok, why = compare(result, normalized(xs, 1), rtol=1e-4, atol=1e-4, what=what)
        if ok:
            continue
        if compare(result, normalized(xs, None), rtol=1e-4, atol=1e-4)[0]:
            why = msg("values.whole_batch", "{what} is normalized with the mean and variance of the whole batch, "
                      "not of each row: every row must be normalized on its own", what=what)
        elif rows > 1 and compare(result, normalized(xs, 0), rtol=1e-4, atol=1e-4)[0]:
            why = msg("values.columns", "{what} has each column normalized, not each row: vmap maps axis 0, the rows, "
                      "unless in_axes says otherwise", what=what)
        g.failed("values", why, msg("advice.values", "apply normalize_row, unchanged, to each row: {how}",
                                    how=vmap_advice()), tier=VMAP_TIER)
        return
    g.passed("values", msg("values.ok", "all {calls} match normalize_row row by row",
                           calls=count("call", len(batches))))


def check_program(g, rows: int) -> None:
    jaxpr = g.graded_jaxpr()
    counts: dict[str, int] = {}
    for eqn in iter_eqns(jaxpr) if jaxpr is not None else ():
        counts[eqn.primitive.name] = counts.get(eqn.primitive.name, 0) + 1
    top = max(counts, key=counts.get, default=None)
    lines = g.lines_calling(r"\bfor\b|\bwhile\b|range\(", "normalize_rows")
    where = msg("where.line", " (line {line})", line=lines[0]) if lines else ""
    g.check("batched", top is None or counts[top] < rows,
            msg("batched.copies", "the program jit recorded for {rows} holds {op} {times}: the Python loop{where} ran "
                "while JAX traced, and wrote one copy of normalize_row into the program for each row. A batch of "
                "1,000 rows would record 1,000 copies, and trace and compile for as long",
                rows=rows_of(rows), op=top or "", times=count("time", counts.get(top, 0)), where=where),
            vmap_advice(), tier=VMAP_TIER,
            passed=msg("batched.ok", "the program for {rows} holds {n}, none of them once per row",
                       rows=rows_of(rows), n=count("equation", sum(counts.values()))))
    loops = [name for name in LOOPS if name in counts]
    g.check("no_loop", not loops,
            msg("no_loop.loop", "the program holds a {loop} loop: it runs normalize_row on one row after another at "
                "run time (lax.map, scan and fori_loop all do), so the rows are not processed side by side",
                loop=loops[0] if loops else ""),
            vmap_advice(), tier=VMAP_TIER,
            passed=msg("no_loop.ok", "no loop: the whole batch is processed at once"))


def grade(g):
    normalize_rows = g.graded(params=1)
    features = int(g.rng.integers(2, 13))
    batches = [batch(g.rng, rows, features) for rows in draw_rows(g.rng)]
    calls = g.calls(normalize_rows, [(xs,) for xs in batches])
    g.check_ran("runs", calls)
    check_values(g, batches, calls.results)
    fetched = g.feeding_callbacks()
    g.check("in_program", not fetched,
            msg("in_program.callback", "normalize_rows gets its answer from Python through a host callback "
                "({callbacks}) whose result the program uses: the rows are normalized on the host, outside the "
                "compiled program, which dodges the lesson", callbacks=list(dict.fromkeys(fetched))),
            vmap_advice(), tier=VMAP_TIER,
            passed=msg("in_program.ok", "the rows are normalized inside the compiled program"))
    check_program(g, batches[0].shape[0])
