"""Checks for normalize_rows: normalize_row applied to every row of a float32[B, F] batch, in one program that
handles the whole batch at once. Four batches (8 to 16 rows first, then 1, 2, and an odd 3 to 15) share a drawn F;
every batch of 2 rows or more holds a constant row (EPS decides it) and narrow rows (a large mean, a tiny spread:
a variance computed as mean(x**2) - mean(x)**2 loses its digits there). The values must match row by row, no host
callback may feed the result, and the program jit records for every batch is read: it must not grow with the
number of rows (a Python loop over rows or groups of rows writes copies of the work while tracing) nor hold a scan
or while loop (lax.map, fori_loop: the rows one after another). vmap and hand-batched jnp both pass."""

import numpy as np

from jittrainer.authoring import compare, count, float32_atol, iter_eqns, msg, msgn

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
NARROW = 3  # narrow rows per batch of 4 rows or more (fewer in smaller batches: one row stays constant)


# -- inputs and the reference ---------------------------------------------------------------------------------

def draw_rows(rng: np.random.Generator) -> list[int]:
    """8..16 first, then 1, 2 and an odd count from 3 to 15: two sizes of 2 rows or more always differ, and the 2-row
    program is the one every larger one is held to. No more rows: the unrolled starter compiles a program per batch
    that grows with its rows (hence also the manifest's long time limit)."""
    return [int(rng.integers(8, 17)), 1, 2, int(rng.choice(np.arange(3, 16, 2)))]


def batch(rng: np.random.Generator, rows: int, features: int) -> np.ndarray:
    """Each row with its own mean (-20..20) and spread (0.5..5): whole-batch statistics cannot pass for per-row. In a
    batch of 2 rows or more, one row is constant (variance 0: without EPS, 0 / 0) and min(3, rows - 1) are narrow
    (|mean| 10..20, spread 0.01..0.02: mean(x**2) - mean(x)**2 cancels to noise in float32)."""
    means = rng.uniform(-20.0, 20.0, (rows, 1))
    spreads = rng.uniform(0.5, 5.0, (rows, 1))
    if rows > 1:
        special = rng.permutation(rows)[: 1 + min(NARROW, rows - 1)]
        narrow = special[1:]
        means[narrow] = rng.choice([-1.0, 1.0], (narrow.size, 1)) * rng.uniform(10.0, 20.0, (narrow.size, 1))
        spreads[narrow] = rng.uniform(0.01, 0.02, (narrow.size, 1))
        spreads[special[0]] = 0.0
    return (means + spreads * rng.normal(0.0, 1.0, (rows, features))).astype(np.float32)


def normalized(xs: np.ndarray, axis: int | None, eps: float = EPS) -> np.ndarray:
    xs = xs.astype(np.float64)
    mean = xs.mean(axis=axis, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (xs - mean) / np.sqrt(var + eps)


def atol(xs: np.ndarray) -> np.ndarray:
    """64 float32 rounding steps of 1 + |mean| / sqrt(var + EPS) per row: subtracting a mean far larger than the
    spread leaves the rounding of the mean, magnified by 1 / spread."""
    xs = xs.astype(np.float64)
    mean = xs.mean(axis=1, keepdims=True)
    return float32_atol(1.0 + np.abs(mean) / np.sqrt(((xs - mean) ** 2).mean(axis=1, keepdims=True) + EPS))


def rows_of(n: int):
    return msgn("rows", "{n} row", "{n} rows", n=n)


def vmap_advice():
    return msg("advice.vmap", "return jax.vmap(normalize_row)(xs): vmap traces normalize_row once, on one row, and "
               "applies every operation to all the rows at once")


# -- the checks -----------------------------------------------------------------------------------------------

def _slip(xs, got, what):
    """A known slip that explains a wrong result, or None."""
    rows, tol = xs.shape[0], atol(xs)
    flat = np.flatnonzero(np.ptp(xs, axis=1) == 0)
    if flat.size and got is not None and not np.all(np.isfinite(got[flat])):
        return msg("values.no_eps", "{what}: row {row} holds one value {n} times, so its variance is 0, and it came "
                   "back as NaN: (x - mean) / sqrt(variance) is 0 / 0 there. normalize_row adds EPS inside the "
                   "square root", what=what, row=int(flat[0]) + 1, n=xs.shape[1])
    if got is None:
        return None
    varied = np.ptp(xs, axis=1) > 0
    if np.allclose(got[varied], normalized(xs, 1, eps=0.0)[varied], rtol=1e-4, atol=tol[varied]):
        return msg("values.eps", "{what} matches every row normalized without EPS, the constant one aside: "
                   "normalize_row adds EPS = 1e-5 to the variance inside the square root, which counts on rows with "
                   "a tiny spread (a variance near 1e-4) and keeps a constant row (variance 0) at 0", what=what)
    if compare(got, normalized(xs, None), rtol=1e-4, atol=1e-4)[0]:
        return msg("values.whole_batch", "{what} is normalized with the mean and variance of the whole batch, not of "
                   "each row: every row must be normalized on its own", what=what)
    if rows > 1 and compare(got, normalized(xs, 0), rtol=1e-4, atol=1e-4)[0]:
        return msg("values.columns", "{what} has each column normalized, not each row: vmap maps axis 0, the rows, "
                   "unless in_axes says otherwise", what=what)
    wrong = ~np.all(np.isclose(got, normalized(xs, 1), rtol=1e-4, atol=tol), axis=1)
    spread = xs.astype(np.float64).std(axis=1)
    if wrong.any() and np.all(spread[wrong] < 0.05 * np.abs(xs[wrong].astype(np.float64).mean(axis=1))):
        r = int(np.flatnonzero(wrong)[0])
        return msg("values.cancel", "{what}: only the rows whose spread is tiny beside their mean are off (row {row}: "
                   "mean {mean:.3g}, spread {spread:.2g}). A variance computed as mean(x**2) - mean(x)**2 (as "
                   "jax.nn.standardize does by default) subtracts two numbers near {square:.3g} that float32 holds to "
                   "about 7 digits, and little of the variance is left; normalize_row takes the mean of the squared "
                   "deviations", what=what, row=r + 1, mean=float(xs[r].mean()), spread=float(spread[r]),
                   square=float(xs[r].astype(np.float64).mean() ** 2))
    return None


def check_values(g, batches, results) -> None:
    for call, (xs, result) in enumerate(zip(batches, results), 1):
        what = msg("what.call", "the result of call {call} ({rows})", call=call, rows=rows_of(xs.shape[0]))
        ok, why = compare(result, normalized(xs, 1), rtol=1e-4, atol=atol(xs), what=what)
        if ok:
            continue
        got = np.asarray(result, dtype=np.float64) if np.shape(result) == xs.shape else None
        g.failed("values", _slip(xs, got, what) or why, msg("advice.values", "apply normalize_row, unchanged, to "
                 "each row: {how}", how=vmap_advice()), tier=VMAP_TIER)
        return
    g.passed("values", msg("values.ok", "all {calls} match normalize_row row by row",
                           calls=count("call", len(batches))))


def programs(g, normalize_rows, batches) -> list:
    """The program jit records for each batch, traced again (uncounted, muted): (rows, {primitive: count}) for each
    one that traces."""
    found = []
    for xs in batches:
        try:
            with g.recorder.mute():  # tracing runs the learner's Python again
                closed = normalize_rows.trace(xs).jaxpr
        except Exception:  # an ahead-of-time compiled function, or one that fails: the first call's program only
            closed = g.graded_jaxpr() if xs is batches[0] else None
        if closed is not None:
            counts: dict[str, int] = {}
            for eqn in iter_eqns(closed):
                counts[eqn.primitive.name] = counts.get(eqn.primitive.name, 0) + 1
            found.append((xs.shape[0], counts))
    return found


def check_program(g, found) -> None:
    base = next(((rows, counts) for rows, counts in found if rows == 2), None)
    grown = None
    for rows, counts in found if base is not None else ():
        if rows > 2 and counts != base[1]:
            # sorted first: among equal differences, the same operation on every run (a set's order is the hash seed's)
            op = max(sorted(set(counts) | set(base[1])), key=lambda p: abs(counts.get(p, 0) - base[1].get(p, 0)))
            grown = grown or (rows, op, counts.get(op, 0), base[1].get(op, 0))
    lines = g.lines_calling(r"\bfor\b|\bwhile\b|range\(", "normalize_rows")
    where = msg("where.line", " (line {line})", line=lines[0]) if lines else ""
    g.check("batched", grown is None,
            msg("batched.grows", "the program jit recorded for {rows} holds {op} {times}, and the one for 2 rows "
                "{base}: the recorded work depends on the number of rows. A Python loop{where} over the rows, or "
                "over groups of rows, runs while JAX traces and writes a copy of the work each time round, so a "
                "batch of 1,000 rows would record copies by the hundred, and trace and compile for as long",
                rows=rows_of(grown[0]) if grown else "", op=grown[1] if grown else "",
                times=count("time", grown[2] if grown else 0), base=count("time", grown[3] if grown else 0),
                where=where), vmap_advice(), tier=VMAP_TIER,
            passed=msg("batched.ok", "the programs for {sizes} rows hold the same operations: nothing is written once "
                       "per row", sizes=[rows for rows, _ in found if rows > 1]))
    loops = [(rows, name) for rows, counts in found for name in LOOPS if name in counts]
    g.check("no_loop", not loops,
            msg("no_loop.loop", "the program for {rows} holds a {loop} loop: it runs normalize_row on one row after "
                "another at run time (lax.map, scan and fori_loop all do), so the rows are not processed side by "
                "side", rows=rows_of(loops[0][0]) if loops else "", loop=loops[0][1] if loops else ""),
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
    check_program(g, programs(g, normalize_rows, batches))
