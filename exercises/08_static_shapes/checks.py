"""Checks for static_shapes: sum_first_n(x, n) with a traced n drawn over 0..16 (0 and 16 always); one compile."""

import numpy as np

from jittrainer.authoring import as_number, compare, msg, msgn, one_compile, refuse_fetching, tracer_error, when_eager

CHECKS = {
    "runs": "sum_first_n runs under jax.jit with a traced n",
    "in_program": "sums inside the compiled program, without a host callback",
    "values": "returns the sum of the first n elements, for every n from 0 to 16",
    "one_compile": "all values of n share one compile",
}

SIZE = 16
MIDDLE = 4  # distinct values of n drawn from 1..15, besides the edges 0 and 16
EXAMPLES = (0, 3, 16)  # the values statement.md shows
RTOL, ATOL = 1e-4, 1e-4
GAP = 0.02  # every partial sum and the last element lie at least this far apart, so a wrong number names its slip
MASK_TIER = 2  # the hint tier that names the fixed-length mask
EDGE_TIER = 3  # the hint tier that checks the edges n = 0 and n = 16


def draw_ns(rng: np.random.Generator) -> list[int]:
    """0 and 16 always, and MIDDLE distinct values from 1..15, in a random order."""
    ns = [0, SIZE, *(int(v) for v in rng.choice(np.arange(1, SIZE), MIDDLE, replace=False))]
    return [ns[i] for i in rng.permutation(len(ns))]


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[16] of one sign, every |element| >= 0.5: partial sums are monotone, distinct and far from 0, and
    the last element is none of them, so a wrong result can be traced back to the elements it holds."""
    while True:
        sign = rng.choice([-1.0, 1.0])
        x = (sign * rng.uniform(0.5, 3.0, SIZE)).astype(np.float32)
        values = np.sort(np.concatenate([prefixes(x), x[-1:]]))
        if np.min(np.diff(values)) > GAP:
            return x


def prefixes(x: np.ndarray) -> np.ndarray:
    """prefixes(x)[k] is the sum of the first k elements, k = 0..16."""
    return np.concatenate([[0.0], np.cumsum(x.astype(np.float64))])


def near(got: float, want: float) -> bool:
    return abs(got - want) <= ATOL + RTOL * abs(want)


# -- runs -------------------------------------------------------------------------------------------------------

def mask_advice():
    return msg("advice.mask", "Keep all 16 elements and let n choose which of them count: jnp.arange(x.shape[0]) "
               "< n is a bool[16] mask (its length comes from x.shape, known while tracing); sum jnp.where(mask, x, "
               "0.0), or pass where=mask to jnp.sum")


def make_advice(wrapped_whole: bool):
    """wrapped_whole: sum_first_n is not jitted but uses jit inside, as if its outer code ran on the host."""

    def advice(error):
        fix = _advice(error)
        if fix is not None and wrapped_whole and error.type in TRACER_ERRORS:
            return msg("advice.wrapped", "sum_first_n itself is not jitted, so the grader wrapped all of it in "
                       "jax.jit: n is a tracer in your outer code too. {fix}", fix=fix)
        return fix

    return advice


TRACER_ERRORS = (
    "ConcretizationTypeError",
    "TracerIntegerConversionError",
    "TracerBoolConversionError",
    "NonConcreteBooleanIndexError",
    "TypeError",  # Shapes must be 1D sequences of concrete values
    "IndexError",  # Slice entries must be static integers
)


def _advice(error):
    text = error.message
    code = "".join(ln for ln in error.traceback.splitlines(True) if ln.startswith("    "))  # the learner's lines
    if "Non-hashable static arguments" in text and "numpy.ndarray" in text:
        return msg("advice.static_x", "x is an array, and arrays cannot be hashed, so they cannot be static. Keep "
                   "both arguments traced. {mask}", mask=mask_advice())
    if "Non-hashable static arguments" in text:
        return msg("advice.static_n", "n arrives as a jnp.int32 array, which cannot be hashed, so it cannot be "
                   "static (and a static n would compile once per value). Keep n traced. {mask}", mask=mask_advice())
    if "dynamic_slice" in code and ("Shapes must be 1D sequences" in text or tracer_error(error, "int")):
        return msg("advice.dynamic_slice", "lax.dynamic_slice takes a traced start, but its size must be a fixed "
                   "number, so it cannot cut a traced length either. {mask}", mask=mask_advice())
    if "Slice entries must be static" in text:
        return msg("advice.slice", "x[:n] would have a length that depends on the value of n. {mask}",
                   mask=mask_advice())
    if error.type == "NonConcreteBooleanIndexError" or "boolean indices must be concrete" in text:
        return msg("advice.bool_index", "x[mask] keeps a number of elements that depends on the mask's values. Keep "
                   "the shape: jnp.where(mask, x, 0.0).sum(), or jnp.sum(x, where=mask)")
    if "nonzero" in code and error.type == "ConcretizationTypeError":
        return msg("advice.nonzero", "jnp.nonzero returns as many indices as there are True values, a length that "
                   "depends on the data. {mask}", mask=mask_advice())
    if "Shapes must be 1D sequences" in text:
        return msg("advice.shape", "a shape was built from n; under jit every shape is fixed while tracing. Take "
                   "lengths from x.shape. {mask}", mask=mask_advice())
    if error.type == "TracerBoolConversionError":
        return msg("advice.branch", "a Python if or while on n needs its value while tracing. Let the program choose "
                   "at run time (jnp.where, lax.cond) and keep the shapes fixed. {mask}", mask=mask_advice())
    if tracer_error(error, "int"):
        return msg("advice.concrete", "int(n), range(n) and jnp.arange(n) all need the value of n, which does not "
                   "exist while tracing. {mask}", mask=mask_advice())
    return None


# -- values -----------------------------------------------------------------------------------------------------

def elements_held(got: float, x: np.ndarray) -> int | None:
    """k when got is the sum of the first k elements of x, else None."""
    for k, total in enumerate(prefixes(x)):
        if near(got, total):
            return k
    return None


def check_values(g, xs, ns, results):
    rows = []  # (n, x, result, ok, held)
    for x, n, result in zip(xs, ns, results):
        ok, _ = compare(result, prefixes(x)[n], rtol=RTOL, atol=ATOL)
        got = as_number(result)
        rows.append((n, x, result, ok, None if got is None else elements_held(got, x), got))
    wrong = [r for r in rows if not r[3]]
    if not wrong:
        g.passed("values", msg("values.ok", "all {n} sums match (n = {ns})", n=len(ns), ns=sorted(ns)))
        return
    right = sorted(r[0] for r in rows if r[3])
    observation, advice = _value_slip(rows, wrong, right)
    if observation is None:
        n, x, result, *_ = min(wrong, key=lambda r: r[0])
        _, observation = compare(result, prefixes(x)[n], rtol=RTOL, atol=ATOL,
                                 what=msg("what.n", "the result for n = {n}", n=n))
        if right:
            observation = msg("values.mismatch_some_right", "{mismatch}; {right}", mismatch=observation,
                              right=right_words(right))
    g.failed("values", observation, advice or msg("advice.edges", "sum the positions 0 to n - 1 and nothing "
             "else: jnp.sum(jnp.where(jnp.arange(x.shape[0]) < n, x, 0.0)) gives 0 for n = 0 and the whole sum for "
             "n = 16"), tier=EDGE_TIER)


def right_words(right: list[int]):
    return msgn("values.right", "for n = {ns} the sum was right", "for n = {ns} the sums were right", count="k",
                ns=right, k=len(right))


def _value_slip(rows, wrong, right):
    """(observation, advice) when the numbers show a known slip, else (None, None)."""
    wrong_ns = sorted(r[0] for r in wrong)
    held = {r[0]: r[4] for r in wrong}
    got = {r[0]: r[5] for r in wrong}
    x_of = {r[0]: r[1] for r in rows}

    # The whole masked array (or the running totals) came back instead of one number.
    shaped = [r for r in wrong if np.size(r[2]) == SIZE]
    if len(shaped) == len(wrong):
        n, x, result = shaped[0][:3]
        try:
            arr = np.asarray(result, dtype=np.float64).reshape(-1)
        except Exception:
            arr = None
        if arr is not None and near(float(arr.sum()), prefixes(x)[n]):
            return (msg("values.not_summed", "for n = {n} it returned an array of 16 numbers whose sum is the right "
                        "answer: the elements were chosen but not added up into one number", n=n),
                    msg("advice.sum", "return a scalar: add the kept elements up, jnp.sum(...)"))
        if arr is not None and np.allclose(arr, prefixes(x)[1:], rtol=RTOL, atol=ATOL):
            return (msg("values.running", "for n = {n} it returned all 16 running totals, not the one for n", n=n),
                    msg("advice.pick_total", "return one number: the running total after n elements (0 for n = 0)"))

    # Only n = 0 is wrong: the empty sum.
    if wrong_ns == [0]:
        value, x = got[0], x_of[0]
        if value is not None and held[0] == 1:
            return (msg("values.zero_first", "for n = 0 it returned {got:.6g}, the first element x[0], instead of "
                        "0, while {right}: with n = 0 no element counts, yet x[0] was counted", got=value,
                        right=right_words(right)),
                    msg("advice.zero_first", "make n = 0 count nothing: a mask jnp.arange(x.shape[0]) < n is all "
                        "False for n = 0; a loop must start from 0.0 and run over positions 0 to n - 1 "
                        "(lax.fori_loop(0, n, ...)); a table of running totals needs a 0 in front, read at [n]"))
        if value is not None and held[0] == SIZE:
            return (msg("values.zero_total", "for n = 0 it returned {got:.6g}, the sum of all 16 elements, instead of "
                        "0, while {right}. The numbers fit a lookup of the running totals at position n - 1: for "
                        "n = 0 that is position -1, which means the last one", got=value, right=right_words(right)),
                    msg("advice.zero_index", "do not read position n - 1: put a 0 in front of the running totals, "
                        "jnp.concatenate([jnp.zeros(1, x.dtype), jnp.cumsum(x)]), and read it at [n]; or sum with "
                        "a mask, jnp.arange(x.shape[0]) < n"))
        if value is not None and near(value, float(x[-1])):
            return (msg("values.zero_last", "for n = 0 it returned {got:.6g}, the last element x[15], instead of 0, "
                        "while {right}. The numbers fit a lookup at position n - 1: for n = 0 that is position -1, "
                        "which means the last one", got=value, right=right_words(right)),
                    msg("advice.zero_index_x", "do not read position n - 1: sum with a mask, "
                        "jnp.arange(x.shape[0]) < n, which keeps nothing when n = 0"))

    # Every wrong sum holds one element too many (n + 1) or one too few (n - 1).
    if wrong_ns != [0] and all(held[n] == n + 1 for n in wrong_ns):
        return (msg("values.one_too_many", "for n = {ns} it returned the sum of the first n + 1 elements, one element "
                    "too many: off by one, position n itself was counted (positions 0 to n - 1 count, so n = 0 "
                    "sums nothing)", ns=wrong_ns), None)
    if wrong_ns != [SIZE] and all(held[n] == n - 1 for n in wrong_ns):
        return (msg("values.one_too_few", "for n = {ns} it returned the sum of the first n - 1 elements, one element "
                    "too few: off by one, position n - 1 was left out (positions 0 to n - 1 count, so n = 16 sums "
                    "all of x)", ns=wrong_ns), None)

    # Right only for values the statement shows as examples: code written for the examples, not for every n.
    if (any(n not in (0, SIZE) for n in right) and all(n in EXAMPLES for n in right)
            and not any(n in EXAMPLES for n in wrong_ns)):
        return (msg("values.examples_only", "the sums were right only for n = {right}, values the statement shows, and "
                    "wrong for n = {wrong}: the result must follow n over the whole range 0 to 16", right=right,
                    wrong=wrong_ns),
                msg("advice.any_n", "compute the sum from n itself, for any n: jnp.sum(jnp.where("
                    "jnp.arange(x.shape[0]) < n, x, 0.0))"))

    # A wrong sum that still is a prefix sum, of another length.
    first = wrong_ns[0]
    if held[first] == 0:
        return (msg("values.zero", "for n = {n} it returned 0, as if no element counted", n=first)
                if not right else
                msg("values.zero_some_right", "for n = {n} it returned 0, as if no element counted; {right}",
                    n=first, right=right_words(right)), None)
    if held[first] is not None:
        return (msg("values.other_length", "for n = {n} it returned the sum of the first {k} elements", n=first,
                    k=held[first])
                if not right else
                msg("values.other_length_some_right", "for n = {n} it returned the sum of the first {k} elements; "
                    "{right}", n=first, k=held[first], right=right_words(right)), None)
    return None, None


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls):
    one_compile(g, calls, msg("compiles.head", "{calls} with the same shapes and dtypes gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once; every n reused the same program"), [
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations run eagerly outside "
                       "the compiled program (inside a callback, a jax.Array is concrete, and jax.numpy on it "
                       "compiles)"), msg("advice.asarray", "in a callback, convert first: np.asarray(v)"),
                   tier=MASK_TIER)],
        advice=msg("advice.traced_n", "keep n a traced argument and every shape fixed. {mask}", mask=mask_advice()),
        tier=MASK_TIER)


def grade(g):
    import jax.numpy as jnp

    wrapped_whole = g.wrapped_host_code
    sum_first_n = g.graded(params=2)
    ns = draw_ns(g.rng)
    xs = [batch(g.rng) for _ in ns]
    n_arrays = [jnp.int32(n) for n in ns]  # built before counting: creating a jnp value compiles too
    calls = g.calls(sum_first_n, list(zip(xs, n_arrays)))
    g.check_ran("runs", calls, make_advice(wrapped_whole), tier=MASK_TIER)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "sum_first_n hands the sum to Python through a host callback ({callbacks}) whose "
        "result the program uses: the slicing happens outside the compiled program, with a concrete n, which dodges "
        "the lesson"), msg("advice.in_program", "keep the work in JAX, with fixed shapes. {mask}", mask=mask_advice()),
        tier=MASK_TIER, passed=msg("in_program.ok", "the sum is computed inside the compiled program"))

    check_values(g, xs, ns, calls.results)
    check_compiles(g, calls)
