"""Checks for inplace_update: update_stock(stock, items, deltas) adds every movement to its item, repeats included.
Three calls of one shape (n drawn per grading, 0 and n - 1 and a thrice-repeated item in every call); the stock
passed in must be intact afterwards (not donated); one compile."""

import jax
import numpy as np

from jittrainer.authoring import (as_floats, count, msg, one_compile, refuse_fetching, unique_promises, values_match,
                                  when_eager)

CHECKS = {
    "runs": "update_stock runs under jax.jit",
    "in_program": "updates inside the compiled program, without a host callback",
    "values": "adds every movement to its item, repeated items included",
    "keeps_input": "the stock array passed in is left as it was",
    "one_compile": "three calls of one shape compile once",
}

CALLS = 3
MOVES = 24
MIN_N, MAX_N = 8, 32
RTOL, ATOL = 1e-5, 1e-3
AT_TIER = 2  # the hint tier that names the .at[] family
REPEAT_TIER = 3  # the hint tier on repeated items and on keeping the input


def draw_n(rng: np.random.Generator) -> int:
    return int(rng.integers(MIN_N, MAX_N + 1))


def movements(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(stock, items, deltas) for one call. items holds 0 and n - 1, one item three times (its deltas of one sign,
    so losing any of them shows) and the rest drawn from 0..n-1 (more repeats likely); deltas are 0.5..9.5 in size,
    either sign, two decimals; stock is 20..80."""
    triple = int(rng.integers(0, n))
    items = np.concatenate([[0, n - 1, triple, triple, triple], rng.integers(0, n, MOVES - 5)])
    signs = rng.choice([-1.0, 1.0], MOVES)
    signs[2:5] = signs[2]
    order = rng.permutation(MOVES)
    items, signs = items[order].astype(np.int32), signs[order]
    deltas = (signs * np.round(rng.uniform(0.5, 9.5, MOVES), 2)).astype(np.float32)
    stock = np.round(rng.uniform(20.0, 80.0, n), 2).astype(np.float32)
    return stock, items, deltas


def expected(stock, items, deltas) -> np.ndarray:
    return stock.astype(np.float64) + np.bincount(items, weights=deltas.astype(np.float64), minlength=stock.size)


# -- runs -------------------------------------------------------------------------------------------------------

def at_advice():
    return msg("advice.at", "write the change as a new array and keep that: s = s.at[i].add(v) (a loop body returns "
               "it as the new carry), or post every movement at once with stock.at[items].add(deltas)")


def explain(error):
    if "immutable" in error.message:
        return msg("explain.immutable", "JAX arrays cannot be changed in place, inside jit or outside it: x[i] = v "
                   "and x[i] += v are refused, for the loop's carry too")
    return None


def advice(error):
    text = error.message
    if "immutable" in text:
        return at_advice()
    if error.type == "TracerArrayConversionError":
        return msg("advice.numpy", "a NumPy copy of a traced array cannot be made inside jit (np.array or "
                   "np.asarray need its values, which do not exist while tracing). Stay with the JAX array: {at}",
                   at=at_advice())
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError"):
        return msg("advice.int_index", "int() or a Python index needs the value of a traced number. Index with the "
                   "traced value itself; the .at[] methods accept it: s.at[items[j]].add(deltas[j])")
    if error.type == "TracerBoolConversionError":
        return msg("advice.branch", "a Python if on a traced value needs its value while tracing. You need no "
                   "branch here: {at}", at=at_advice())
    return None


# -- values -----------------------------------------------------------------------------------------------------

def _close(a, b) -> bool:
    return bool(np.allclose(a, b, rtol=RTOL, atol=ATOL))


def _value_slip(call, result, stock, items, deltas):
    """A known slip that explains a wrong result, in words, or None."""
    got = as_floats(result, stock.shape)
    if got is None:
        return None
    s = stock.astype(np.float64)
    d = deltas.astype(np.float64)
    if _close(got, s):
        return msg("values.unchanged", "call {call} returned the stock exactly as it came in: no movement was posted. "
                   "An .at[] update does not change the array it is called on; it returns a new one, and that new "
                   "array was dropped instead of kept (assigned back, or returned from the loop body)", call=call)
    counts = np.bincount(items, minlength=s.size)
    last_set, first_set, last_gather, first_gather = s.copy(), s.copy(), s.copy(), s.copy()
    for j, i in enumerate(items):
        last_set[i] = d[j]
        last_gather[i] = s[i] + d[j]
    for j, i in reversed(list(enumerate(items))):
        first_set[i] = d[j]
        first_gather[i] = s[i] + d[j]
    if _close(got, last_set) or _close(got, first_set):
        return msg("values.set", "call {call}: every item that moved now holds one movement's amount instead of its "
                   "old stock plus the movements: the amounts were written over the stock (set), not added to it",
                   call=call)
    if _close(got, last_gather) or _close(got, first_gather):
        repeated = int(np.flatnonzero(counts == counts.max())[0])
        return msg("values.gather_set", "call {call}: item {item} appears {times} in items, but only one of its "
                   "movements was added: each of its movements was added to the stock as it came in, and the writes "
                   "to that item replaced each other instead of adding up. Reading stock[items] + deltas and writing "
                   "it back with .set does exactly this (and which write wins is not even specified)", call=call,
                   item=repeated, times=count("time", int(counts.max())))
    if _close(got, s - np.bincount(items, weights=d, minlength=s.size)):
        return msg("values.subtracted", "call {call}: the movements were subtracted from the stock; they are added "
                   "(a delivery is a positive delta, a use a negative one)", call=call)
    return None


def check_values(g, inputs, results):
    promises, counts = unique_promises(g.graded_jaxpr()), np.bincount(inputs[0][1])
    if promises:  # items repeat in every call: a broken promise, whatever the numbers
        return g.failed("values", msg(
            "values.unique_promise", "the program's {primitive} updates {positions} positions at once with "
            "unique_indices=True, a promise to JAX that no position repeats, but items repeats positions (in call 1, "
            "item {item} appears {times}): JAX leaves the output of a scatter whose promise is broken undefined, "
            "even where it happens to add up on this machine", primitive=promises[0][0], positions=promises[0][1],
            item=int(np.argmax(counts)), times=count("time", int(counts.max()))),
            msg("advice.unique", "drop unique_indices=True: stock.at[items].add(deltas) adds up repeated positions"),
            tier=REPEAT_TIER)
    values_match(g, "values", results, (expected(*case) for case in inputs), rtol=RTOL, atol=ATOL,
                 what=lambda call: msg("what.call", "the result of call {call}", call=call),
                 slip=lambda call, result: _value_slip(call, result, *inputs[call - 1]),
                 advice=msg("advice.add", "add, do not set, and let repeated items add up: s.at[items[j]].add("
                            "deltas[j]) one movement at a time, or stock.at[items].add(deltas) for all of them (.add "
                            "accumulates repeated positions)"), tier=REPEAT_TIER,
                 ok=msg("values.ok", "all {n} stock lists match, repeated items included", n=len(inputs)))


# -- the input is kept ------------------------------------------------------------------------------------------

def check_keeps_input(g, passed, originals):
    for call, (arr, original) in enumerate(zip(passed, originals), 1):
        if arr.is_deleted():
            g.failed("keeps_input", msg("keeps_input.deleted", "the stock array passed to call {call} was deleted "
                     "by the call: its buffer was donated (donate_argnums / donate_argnames) and reused for the "
                     "result, so the caller's stock is gone (reading it raises RuntimeError: Array has been "
                     "deleted)", call=call),
                     msg("advice.no_donate", "do not donate stock: the caller still needs it. .at[] inside jit "
                         "already lets XLA update in place whenever the old value is not used again"),
                     tier=REPEAT_TIER)
            return
        try:
            now = np.asarray(arr)
        except Exception:
            now = None
        if now is None or not np.array_equal(now, original):
            g.failed("keeps_input", msg("keeps_input.changed", "the stock array passed to call {call} holds other "
                     "values after the call than before it", call=call),
                     msg("advice.keep", "return a new array and leave the argument alone"), tier=REPEAT_TIER)
            return
    g.passed("keeps_input", msg("keeps_input.ok", "every stock array passed in is intact after its call"))


def grade(g):
    update_stock = g.graded(params=3)
    n = draw_n(g.rng)
    inputs = [movements(g.rng, n) for _ in range(CALLS)]
    # Built before the counted calls (device_put compiles nothing); the stock copies are what "intact" means.
    originals = [stock.copy() for stock, _, _ in inputs]
    args = [(jax.device_put(stock), jax.device_put(items), jax.device_put(deltas)) for stock, items, deltas in inputs]
    calls = g.calls(update_stock, args)
    g.check_ran("runs", calls, advice, tier=AT_TIER, explain=explain)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "update_stock hands its result to Python through a host callback ({callbacks}) whose "
        "result the program uses: the stock is updated on the host, outside the compiled program, which dodges the "
        "lesson"), at_advice(), tier=AT_TIER, passed=msg("in_program.ok", "the update happens inside the compiled "
                                                         "program"))

    check_values(g, inputs, calls.results)
    check_keeps_input(g, [a[0] for a in args], originals)
    one_compile(g, calls, msg("compiles.head", "{calls} with the same shapes and dtypes gave {compiles}; expected 1"),
                causes=[when_eager(advice=msg("advice.inside", "keep all the work inside update_stock, which jit "
                                              "compiles once"), tier=AT_TIER)])
