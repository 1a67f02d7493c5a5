"""Checks for pytree_metadata: make_readout(w, b, columns) builds a registered pytree whose metadata records which of
32 features it reads; predict(readout, x) = x[:, columns] @ w + b. Eight calls, each with a readout loaded afresh
(new arrays, new objects) from one of three selections: A, A reversed (same features, another order) and C. Calls
1 and 2 load A, so a NumPy array in the metadata fails at call 2 on every seed; each selection comes at least twice.

Measured on 0.10.2 and 0.12.0.1 (PYTHONHASHSEED 0-5 alike): a NumPy array as metadata traces once, then the next
equal readout raises ValueError "... checking equality of metadata fields ..." (jit's key compares the metadata with
==, and == on two arrays is an array); a fresh object per load (identity equality) traces on every call; a list
traces once per value (the tree structure's hash leaves metadata out, and == on lists is by value), yet breaks the
documented contract: a list changed in place after a compile still equals the cached one, and the stale program
runs. A tuple of ints traces once per selection. Nothing here depends on the hash seed: hashes are only compared
within one process.
"""

import numpy as np

from jittrainer.authoring import count, float32_atol, metadata_problem, msg, values_match

CHECKS = {
    "runs": "predict runs for every readout, however often one is loaded again",
    "values": "returns x[:, columns] @ w + b",
    "one_per_selection": "one trace per column selection: an equal selection loaded again reuses it",
    "hashable": "equal selections give metadata that is hashable, equal and equally hashed",
}

FEATURES, OUT = 32, 3
CALLS = 8
RTOL = 1e-5  # plus float32_atol of |x[:, columns]| @ |w| + |b|
FIX_TIER = 2  # the hint tier on hashable, value-compared metadata (a tuple)


# -- graded values ---------------------------------------------------------------------------------------------


def draw_selections(rng: np.random.Generator) -> list[tuple[int, ...]]:
    """A (2 to 16 features), A reversed, and C (1 to 16 features), three distinct values."""
    while True:
        first = tuple(int(c) for c in rng.choice(FEATURES, int(rng.integers(2, 17)), replace=False))
        third = tuple(int(c) for c in rng.choice(FEATURES, int(rng.integers(1, 17)), replace=False))
        if third not in (first, first[::-1]):
            return [first, first[::-1], third]


def draw_plan(rng: np.random.Generator) -> list[int]:
    """Which selection each call loads: A twice first, then A, A reversed and C twice each and one more, shuffled."""
    rest = [0, 1, 1, 2, 2, int(rng.integers(3))]
    return [0, 0] + [rest[i] for i in rng.permutation(len(rest))]


def make_inputs(rng: np.random.Generator, rows: int, columns: tuple[int, ...]):
    w = rng.normal(0.0, rng.uniform(0.5, 2.0), (len(columns), OUT)).astype(np.float32)
    b = rng.normal(0.0, 1.0, OUT).astype(np.float32)
    x = rng.normal(0.0, rng.uniform(0.5, 3.0), (rows, FEATURES)).astype(np.float32)
    return w, b, np.array(columns, dtype=np.int64), x  # a new columns array per load, as read from a file


def expected(w, b, columns, x) -> np.ndarray:
    return x.astype(np.float64)[:, list(columns)] @ w.astype(np.float64) + b.astype(np.float64)


def atol(w, b, columns, x) -> np.ndarray:
    return float32_atol(np.abs(x.astype(np.float64))[:, list(columns)] @ np.abs(w.astype(np.float64)) + np.abs(b))


# -- advice ----------------------------------------------------------------------------------------------------


def tuple_advice():
    return msg("advice.tuple", "keep the selection as metadata, but as a tuple of Python ints: "
               "tuple(int(c) for c in columns) in make_readout. It hashes and compares by value, so an equal "
               "selection loaded again is the same key; turn it back into an index inside predict")


def explain(error):
    if "equality of metadata" in error.message or "truth value of an array" in error.message:
        return msg("explain.array", "jit compares each call's tree structure, metadata included, with the ones it "
                   "compiled for, using ==; for two NumPy arrays == gives an array, not True or False, so the "
                   "comparison fails as soon as an equal readout comes back")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    predict = g.graded(params=2)
    make = g.function("make_readout", params=3)
    rows = int(g.rng.integers(1, 65))
    selections = draw_selections(g.rng)
    plan = draw_plan(g.rng)
    inputs = [make_inputs(g.rng, rows, selections[label]) for label in plan]
    made = g.calls(make, [(w, b, columns) for w, b, columns, _ in inputs], name="make_readout")
    if not made.ok:
        g.check_ran("runs", made, tier=FIX_TIER)
    readouts = made.results
    calls = g.calls(predict, [(r, item[3]) for r, item in zip(readouts, inputs)])
    g.check_ran("runs", calls, lambda error: tuple_advice() if explain(error) else None, tier=FIX_TIER,
                explain=explain)
    values_match(g, "values", calls.results, [expected(*item) for item in inputs], rtol=RTOL,
                 atol=lambda call: atol(*inputs[call - 1]), refuse=True,
                 what=lambda call: msg("what.call", "the result of call {call} (columns {columns})", call=call,
                                       columns=str(list(selections[plan[call - 1]]))),
                 slip=lambda call, result: _order_slip(call, result, inputs[call - 1], selections[plan[call - 1]]),
                 advice=msg("advice.values", "index x with the selected columns in the order given, then "
                            "x[:, columns] @ w + b"), ok=msg("values.ok", "all {n} results match", n=CALLS))
    _check_traces(g, calls, plan, selections, readouts)
    _check_hashable(g, plan, readouts)


def _order_slip(call, result, item, columns):
    w, b, _, x = item
    for other in (tuple(sorted(columns)), tuple(frozenset(columns)), columns[::-1]):
        want = expected(w, b, other, x)
        if other != columns and np.shape(result) == want.shape and np.allclose(
                np.asarray(result, np.float64), want, rtol=RTOL, atol=atol(w, b, other, x)):
            return msg("values.order", "call {call}: the features were read in the order {other}, not {columns}: "
                       "the selection's order matters (row i of w weighs feature columns[i]), so a sorted tuple or "
                       "a frozenset loses it", call=call, other=str(list(other)), columns=str(list(columns)))
    return None


def _check_traces(g, calls, plan, selections, readouts) -> None:
    distinct = len(set(plan))
    traced = [sum(1 for e in calls.window.events if e.kind == "trace" and e.call == i) for i in range(1, CALLS + 1)]
    seen: dict[int, int] = {}
    for call, (label, traces) in enumerate(zip(plan, traced), 1):
        if label in seen and traces:
            break
        seen.setdefault(label, call)
    else:
        g.passed("one_per_selection", msg("traces.ok", "{calls} over {n} selections: {traces} and {compiles}",
                                          calls=count("call", CALLS), n=distinct, traces=count("trace", sum(traced)),
                                          compiles=count("compile", calls.compiles)))
        return
    earlier = seen[label]
    common = {"call": call, "earlier": earlier, "columns": str(list(selections[label])),
              "head": msg("traces.head", "{calls} over {n} selections gave {traces}; expected {n}",
                          calls=count("call", CALLS), n=distinct, traces=count("trace", sum(traced)))}
    problem = metadata_problem(readouts[earlier - 1], readouts[call - 1])
    if problem is not None and problem.kind == "unequal":
        observation = msg("traces.identity", "{head}: call {call} loaded columns {columns} again, as call {earlier} "
                          "did, yet predict traced again. The two readouts' metadata ({value}) compare unequal: an "
                          "object made anew for each load and compared by identity makes every load a new key",
                          value=problem.value, **common)
    else:
        observation = msg("traces.again", "{head}: call {call} loaded columns {columns} again, as call {earlier} did, "
                          "yet predict traced again ({why})", why=calls.why_compiled(), **common)
    g.failed("one_per_selection", observation, tuple_advice(), tier=FIX_TIER)


def _check_hashable(g, plan, readouts) -> None:
    for label in sorted(set(plan)):
        first, second = [i for i, other in enumerate(plan) if other == label][:2]
        problem = metadata_problem(readouts[first], readouts[second])
        if problem is None:
            continue
        common = {"node": problem.node, "value": problem.value, "error": problem.error, "a": first + 1,
                  "b": second + 1}
        observation = {
            "unhashable": msg("hash.unhashable", "{node}'s metadata holds {value}, which cannot be hashed "
                              "({error}). jit ran because it compared it with ==, but JAX requires metadata to be "
                              "hashable and immutable: metadata changed in place after a compile still equals what "
                              "jit keeps (it is the same object), and the stale program runs", **common),
            "ambiguous": msg("hash.ambiguous", "{node}'s metadata holds {value}: == on the readouts of calls {a} "
                             "and {b} gives no True or False", **common),
            "unequal": msg("hash.unequal", "the readouts of calls {a} and {b} hold the same columns, but their "
                           "metadata ({value}) compare unequal: it compares by identity", **common),
            "hash_differs": msg("hash.differs", "the readouts of calls {a} and {b} hold the same columns and their "
                                "metadata ({value}) compare equal, but hash differently: Python requires equal "
                                "objects to hash alike", **common),
        }[problem.kind]
        g.failed("hashable", observation, tuple_advice(), tier=FIX_TIER)
        return
    g.passed("hashable", msg("hash.ok", "every loaded readout's metadata hashes, and equal selections compare equal "
                             "with equal hashes"))

