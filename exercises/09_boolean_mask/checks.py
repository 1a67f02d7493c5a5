"""Checks for boolean_mask: pick_good(x) returns the good (> 0) values moved to the front of a fixed 16-slot array,
their count and their mean, for inputs with 0, 16 and several counts in between (exact zeros included, which are
not good); all calls share one compile: a boolean index x[x > 0] has no shape jit can know."""

import numpy as np

from jittrainer.authoring import compare, is_tracer, msg, msgn, one_compile, refuse_fetching, type_name, when_eager

CHECKS = {
    "runs": "pick_good runs under jax.jit",
    "in_program": "selects inside the compiled program, without a host callback",
    "values": "returns the good values first, their count and their mean, for any number of good values",
    "one_compile": "every count of good values shares one compile",
}

SIZE = 16
MIDDLE = 4  # counts drawn from 2..14, besides 0, 16 and one of 1 or 15
RTOL, ATOL = 1e-5, 1e-5
FIXED_TIER = 2  # the hint tier that names nonzero(size=...) and masked reductions
EDGE_TIER = 3  # the hint tier that spells out padding, the count and the empty mean


# -- inputs and the reference ---------------------------------------------------------------------------------

def draw_counts(rng: np.random.Generator) -> list[int]:
    """0 and 16 always, 1 or 15, and four distinct counts from 2..14, in a random order."""
    counts = [0, SIZE, int(rng.choice([1, SIZE - 1])),
              *(int(v) for v in rng.choice(np.arange(2, SIZE - 1), MIDDLE, replace=False))]
    return [counts[i] for i in rng.permutation(len(counts))]


def scores(rng: np.random.Generator, good: int) -> np.ndarray:
    """float32[16] with exactly ``good`` values above 0 (0.5..5), the rest negative (-5..-0.5) with one to three exact
    zeros among them; positions shuffled. x[0] and x[15] are never 0, so padding copied from them shows."""
    while True:
        bad = SIZE - good
        rest = -rng.uniform(0.5, 5.0, bad)
        if bad:
            rest[: min(bad, int(rng.integers(1, 4)))] = 0.0
        x = np.concatenate([rng.uniform(0.5, 5.0, good), rest])[rng.permutation(SIZE)]
        if x[0] != 0.0 and x[-1] != 0.0:
            return x.astype(np.float32)


def reference(x: np.ndarray, keep=lambda v: v > 0):
    mask = keep(x)
    good = x[mask].astype(np.float64)
    kept = np.zeros(SIZE)
    kept[: good.size] = good
    return kept, good.size, (good.mean() if good.size else 0.0)


# -- runs -------------------------------------------------------------------------------------------------------

def fixed_advice():
    return msg("advice.fixed", "keep every shape fixed at 16: jnp.nonzero(x > 0, size=16, fill_value=16) gives 16 "
               "indices, the good positions first, then the padding index; read jnp.append(x, 0.0)[idx]. Count with "
               "jnp.sum(x > 0), and take the mean as a masked sum divided by the count, guarding the count 0")


def explain_error(error):
    text = error.message
    if error.type == "NonConcreteBooleanIndexError" or "boolean indices must be concrete" in text:
        return msg("why.bool_index", "x[x > 0] has as many elements as x has positive values, a number known only "
                   "when the program runs, but under jit every shape is fixed while tracing")
    if "size argument" in text or "nonzero" in text:
        return msg("why.nonzero", "jnp.nonzero (like jnp.argwhere and one-argument jnp.where) returns as many "
                   "indices as there are True values: under jit it needs a fixed size=")
    if "Shapes must be 1D sequences" in text or error.type == "TracerIntegerConversionError":
        return msg("why.shape", "a shape or a padding width was computed from the traced count, and under jit every "
                   "shape is fixed while tracing")
    if error.type in ("TracerBoolConversionError", "ConcretizationTypeError"):
        return msg("why.concrete", "the value of a traced number was needed while tracing (an if on the count, "
                   "int() or .item()): the count only exists when the program runs")
    return None


def make_advice(error):
    if explain_error(error) is not None:
        return fixed_advice()
    return None


# -- values -----------------------------------------------------------------------------------------------------

def split(result):
    """(kept, count, mean) as NumPy, or a message saying what came back instead."""
    if not isinstance(result, (tuple, list)) or len(result) != 3:
        return None, msg("values.structure", "pick_good returned {type}; expected a tuple (kept, count, mean)",
                         type=type_name(result) if not isinstance(result, (tuple, list)) else
                         msg("values.n_items", "a {kind} of {n} items", kind=type(result).__name__, n=len(result)))
    parts = []
    for part in result:
        if is_tracer(part):
            return None, msg("values.tracer", "pick_good returned a tracer: it leaked out of a traced function")
        try:
            parts.append(np.asarray(part, dtype=np.float64))
        except Exception:
            return None, msg("values.not_numbers", "pick_good returned {type} where a number or an array was "
                             "expected", type=type_name(part))
    return parts, None


def check_values(g, xs, counts, results):
    for i, (x, result) in enumerate(zip(xs, results), 1):
        parts, problem = split(result)
        if problem is not None:
            return g.failed("values", problem, msg("advice.return", "return a tuple of three: kept (float32[16]), "
                            "count and mean"), tier=EDGE_TIER)
        observation = _problem(i, x, *parts)
        if observation is not None:
            right = [c for c, (xx, r) in zip(counts, zip(xs, results)) if _all_right(xx, r)]
            generic = observation.key.startswith("compare.")  # what differs, no known slip
            if generic and right and all(c in (0, SIZE) for c in right):
                observation = msg("values.edges_only", "{problem}; only the inputs with 0 or 16 good values came out "
                                  "right, the edge cases the statement shows: the result must follow any count",
                                  problem=observation)
            return g.failed("values", observation, msg("advice.values", "move the good values to the front in their "
                            "order and fill the rest with 0.0 (mask the padding slots, or pad the indices with one "
                            "past the end and append a 0.0 to x); count = jnp.sum(x > 0); mean = masked sum / count, "
                            "and 0.0 when the count is 0"), tier=EDGE_TIER)
    g.passed("values", msg("values.ok", "all {n} results match (good values per input: {counts})", n=len(xs),
                           counts=[str(c) for c in counts]))


def _all_right(x, result) -> bool:
    parts, problem = split(result)
    return problem is None and _problem(0, x, *parts) is None


def _problem(i, x, kept, n, mean):
    """What is wrong with call i's (kept, count, mean), in words, or None."""
    want_kept, want_n, want_mean = reference(x)
    good = int(want_n)
    common = {"i": i, "good": good}
    if kept.shape != (SIZE,):
        return msg("values.kept_shape", "call {i}: kept has shape {shape}; expected (16,), the same size whatever "
                   "the count", shape=str(kept.shape), **common)
    ge_kept, ge_n, ge_mean = reference(x, lambda v: v >= 0)
    zeros = int(np.sum(x == 0))
    if zeros and _same(kept, ge_kept) and _same(n, ge_n) and not _same(n, want_n):
        return msg("values.zeros_kept", "call {i}: the exact zeros were kept and counted ({n:.0f} instead of {good}): "
                   "a value is good only when it is above 0", n=float(n.reshape(-1)[0]), **common)
    if not _same(kept, want_kept):
        return _kept_problem(i, x, kept, want_kept, good)
    if n.ndim != 0:
        return msg("values.count_shape", "call {i}: count has shape {shape}; expected a scalar", shape=str(n.shape),
                   **common)
    if not _same(n, want_n):
        return msg("values.count", "call {i}: count is {got:.6g}, expected {good}", got=float(n.reshape(())),
                   **common)
    if mean.ndim != 0:
        return msg("values.mean_shape", "call {i}: mean has shape {shape}; expected a scalar", shape=str(mean.shape),
                   **common)
    got = float(mean.reshape(()))
    if good == 0 and np.isnan(got):
        return msg("values.mean_nan", "call {i} had no good value, and its mean came back NaN: the mean of nothing is "
                   "0 / 0; the statement asks for 0.0 then", **common)
    if not _same(mean, want_mean):
        if good and _same(mean, np.sum(want_kept) / SIZE):
            return msg("values.mean_over_all", "call {i}: the mean is the sum of the good values divided by 16, not "
                       "by their count ({good})", **common)
        if good:
            return msgn("values.mean", "call {i}: the mean is {got:.6g}, expected {want:.6g} (1 good value)",
                        "call {i}: the mean is {got:.6g}, expected {want:.6g} ({good} good values)", count="good",
                        got=got, want=want_mean, **common)
        return msg("values.mean_empty", "call {i} had no good value: its mean must be 0.0, not {got:.6g}", got=got,
                   **common)
    return None


def _kept_problem(i, x, kept, want_kept, good):
    common = {"i": i, "good": good}
    head, tail = kept[:good], kept[good:]
    front_ok = _same(head, want_kept[:good])
    for slot, value in ((0, x[0]), (SIZE - 1, x[-1])):
        if not (front_ok and tail.size and _same(tail, np.full(tail.size, value))):
            continue
        why = (msg("values.why_first", "padding the indices with 0 (fill_value=0, the default) makes them read "
                   "element 0 again") if slot == 0 else
               msg("values.why_last", "a padding index of -1 (or 16, clamped to 15) reads the last element"))
        if good == 0:
            return msg("values.pad_empty", "call {i} had no good value, yet every slot holds x[{slot}] ({value:.4g}) "
                       "instead of 0.0: {why}", slot=slot, value=float(value), why=why, **common)
        return msgn("values.pad", "call {i}: the good value is at the front, but the padding slots hold x[{slot}] "
                    "({value:.4g}) instead of 0.0: {why}",
                    "call {i}: the {good} good values are at the front, but the padding slots hold x[{slot}] "
                    "({value:.4g}) instead of 0.0: {why}", count="good", slot=slot, value=float(value), why=why,
                    **common)
    in_place = np.where(x > 0, x, 0.0)
    if good not in (0, SIZE) and _same(kept, in_place):
        return msg("values.in_place", "call {i}: the good values stayed where they were, with 0.0 in between; they "
                   "must move to the front, in their order, with the zeros after them", **common)
    if _same(np.sort(head), np.sort(want_kept[:good])) and _same(tail, np.zeros(tail.size)):
        return msg("values.order", "call {i}: the front slots hold the right good values, but not in their order in "
                   "x", **common)
    _, why = compare(kept, want_kept, rtol=RTOL, atol=ATOL,
                     what=msgn("what.kept", "kept for call {i} (1 good value)", "kept for call {i} ({good} good "
                               "values)", count="good", **common))
    return why  # no known slip: what differs, as compare says it


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size != b.size:
        return False
    return bool(np.allclose(a.reshape(-1), b.reshape(-1), rtol=RTOL, atol=ATOL))


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls, counts):
    one_compile(g, calls, msgn("compiles.head", "{calls} with {k} different count of good values gave {compiles}; "
                               "expected 1", "{calls} with {k} different counts of good values gave {compiles}; "
                               "expected 1", count="k", k=len(set(counts))),
                msg("compiles.ok", "compiled once; from no good value to all 16, every input ran the same program"), [
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations run eagerly outside "
                       "the compiled program, once for every new shape"),
                   msg("advice.inside", "keep all the work inside pick_good, with fixed shapes"), tier=FIXED_TIER)],
        advice=fixed_advice(), tier=FIXED_TIER)


def grade(g):
    pick_good = g.graded(params=1)
    counts = draw_counts(g.rng)
    xs = [scores(g.rng, c) for c in counts]
    calls = g.calls(pick_good, [(x,) for x in xs])
    g.check_ran("runs", calls, make_advice, tier=FIXED_TIER, explain=explain_error)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "pick_good gets its answer from Python through a host callback ({callbacks}) whose "
        "result the program uses: the boolean indexing runs on the host, with concrete values, outside the compiled "
        "program, which dodges the lesson"), msg("advice.in_program", "keep the selection in JAX; {fix}",
                                                 fix=fixed_advice()), tier=FIXED_TIER,
        passed=msg("in_program.ok", "the selection is made inside the compiled program"))

    check_values(g, xs, counts, calls.results)
    check_compiles(g, calls, counts)
