"""Checks for unhashable_static: pyramid_pool(x, windows), called as plain Python with windows a list or a tuple of
divisors of 24. Three distinct values of windows (one the reverse of another, 1 or 24 in one of them), eight calls:
each value first as a list, then again as fresh lists and tuples. Each distinct value compiles once, every equal
value reuses it, and the pooling is computed by jitted code from x (proved by running those jitted calls again on
other data)."""

from __future__ import annotations

import jax
import numpy as np

from jittrainer.authoring import count, float32_atol, is_tracer, msg, refuse_fetching, rerun, tracer_error, values_match

CHECKS = {
    "runs": "pyramid_pool runs for windows given as a list or a tuple",
    "values": "returns the window means for every window, in the order given",
    "reaches_jit": "the means are computed by jitted code, from x",
    "one_per_value": "one compile per distinct windows value; an equal value reuses it without tracing again",
}

SIZE = 24
DIVISORS = (1, 2, 3, 4, 6, 8, 12, 24)
REPEATS = 5  # calls that repeat a value already seen (as a fresh list or a tuple)
RTOL = 1e-5  # and atol(): float32 rounding of the sums a mean may be computed from
HASHABLE_TIER = 2  # the hint tier that names hashable, value-compared static arguments
WRAPPER_TIER = 3  # the hint tier with the plain-Python wrapper


# -- inputs -----------------------------------------------------------------------------------------------------

def draw_values(rng: np.random.Generator) -> list[tuple[int, ...]]:
    """Three distinct window sequences: the first has 2 or 3 windows, holds 1 or 24 and one from 2 to 12 (a grouping
    slip shows there); the second is the first reversed (another value); the third has 1 to 3 windows."""
    while True:
        first = [int(v) for v in rng.choice(DIVISORS, int(rng.integers(2, 4)), replace=False)]
        if (1 in first or SIZE in first) and any(1 < v < SIZE for v in first):
            break
    third = tuple(int(v) for v in rng.choice(DIVISORS, int(rng.integers(1, 4)), replace=False))
    values = [tuple(first), tuple(reversed(first)), third]
    return values if len(set(values)) == 3 else draw_values(rng)


def draw_calls(rng: np.random.Generator, values: list[tuple[int, ...]]) -> list[tuple[int, object]]:
    """Eight (value index, windows object) pairs: each value first as a list, every later call with a new object,
    alternating tuple and list; no value twice in a row."""
    while True:
        labels = [0, 1, 2, 0, 1, 2] + [int(v) for v in rng.choice(3, REPEATS - 3)]
        order = [labels[i] for i in rng.permutation(len(labels))]
        if all(a != b for a, b in zip(order, order[1:])):
            break
    seen: dict[int, int] = {}
    out = []
    for label in order:
        times = seen.get(label, 0)
        seen[label] = times + 1
        value = values[label]
        out.append((label, list(value) if times % 2 == 0 else tuple(value)))
    return out


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[24], values far apart so every window mean is distinct."""
    return (rng.permutation(SIZE) * 1.5 + rng.uniform(0.1, 0.9, SIZE) + rng.choice([-40.0, 5.0])).astype(np.float32)


def expected(x: np.ndarray, windows) -> np.ndarray:
    x64 = x.astype(np.float64)
    return np.concatenate([x64.reshape(-1, w).mean(axis=1) for w in windows])


def atol(x: np.ndarray, windows) -> np.ndarray:
    """64 float32 rounding steps of the sum of |x|: a mean taken from running sums carries their rounding."""
    return float32_atol(np.full(sum(SIZE // w for w in windows), np.abs(x.astype(np.float64)).sum()))


def shown(windows) -> str:
    """A windows object as the learner would write it: [2, 3] or (2, 3)."""
    return repr(windows)


# -- runs -------------------------------------------------------------------------------------------------------

def wrapper_advice():
    return msg("advice.wrapper", "keep windows static and give the jitted function a hashable copy: a plain-Python "
               "pyramid_pool that calls your jitted function with tuple(windows)")


def make_explain(g):
    def explain(error):
        text = error.message
        if "Non-hashable static arguments" in text and "Tracer" not in text:
            why = msg("explain.unhashable", "a static argument is part of the compile cache's key, which JAX looks up "
                      "by hash and ==; a list (or dict, or array) can change after it is hashed, so Python gives it no "
                      "hash at all")
            lines = g.lines_calling(r"static_arg(nums|names)")
            if lines:
                return msg("explain.unhashable_line", "{why} (line {line} marks the argument static)", why=why,
                           line=lines[0])
            return why
        return None

    return explain


def advice(error):
    text = error.message
    if "Non-hashable static arguments" in text and "Tracer" in text:
        return msg("advice.outer_jit", "a traced value reached the static argument: an outer jax.jit traced windows "
                   "before your jitted function could treat it as static. pyramid_pool itself must stay plain Python; "
                   "{wrapper}", wrapper=wrapper_advice())
    if "Non-hashable static arguments" in text:
        return wrapper_advice()
    if "Shapes must be 1D sequences" in text or tracer_error(error, "int", "bool"):
        return msg("advice.traced", "windows was traced, so its numbers have no value while tracing, yet they decide "
                   "the output's shape. Do not turn it into an array or a traced pytree: {wrapper}",
                   wrapper=wrapper_advice())
    if "abstract array" in text:
        return msg("advice.not_static", "only arrays (and pytrees of arrays) can be traced arguments; windows decides "
                   "shapes, so it must be static and hashable: {wrapper}", wrapper=wrapper_advice())
    return None


# -- values -----------------------------------------------------------------------------------------------------

def check_values(g, xs, plan, values, results):
    values_match(g, "values", results, (expected(x, values[label]) for x, (label, _) in zip(xs, plan)), rtol=RTOL,
                 atol=lambda call: atol(xs[call - 1], values[plan[call - 1][0]]),
                 what=lambda call: msg("what.call", "the result of call {call} (windows = {windows})", call=call,
                                       windows=shown(plan[call - 1][1])),
                 slip=lambda call, result: _value_slip(call, xs[call - 1], plan[call - 1][1], values, result),
                 advice=msg("advice.values", "for each window w in the order given, the means of consecutive groups "
                            "of w: x.reshape(-1, w).mean(axis=1), all of them joined with jnp.concatenate"), tier=1,
                 ok=msg("values.ok", "all {n} results match", n=len(plan)))


def _value_slip(call, x, windows, values, result):
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return None
    value = tuple(windows)
    for other in values:
        if other != value and sorted(other) == sorted(value):
            want = expected(x, other)
            if got.shape == want.shape and np.allclose(got, want, rtol=RTOL, atol=atol(x, other)):
                return msg("values.order", "call {call}: windows = {windows}, but the means came in the order of "
                           "{other}: the same windows in another order are another value, and the result follows the "
                           "order given (a sorted tuple or a frozenset as the static value loses it)", call=call,
                           windows=shown(windows), other=str(other))
    ordered = expected(x, sorted(value))
    if got.shape == ordered.shape and np.allclose(got, ordered, rtol=RTOL, atol=atol(x, sorted(value))) \
            and list(value) != sorted(value):
        return msg("values.sorted", "call {call}: windows = {windows}, but the means came in sorted order of the "
                   "windows: the result follows the order given (a sorted tuple or a frozenset as the static value "
                   "loses it)", call=call, windows=shown(windows))
    as_set = list(frozenset(value))  # a set's own order: the same shape as the sorted one
    if as_set != list(value) and got.shape == ordered.shape and np.allclose(got, expected(x, as_set), rtol=RTOL,
                                                                             atol=atol(x, as_set)):
        return msg("values.set_order", "call {call}: windows = {windows}, but the means came in the order {order}, "
                   "the order a set of these numbers iterates in: a frozenset (or set) as the static value keeps the "
                   "numbers and loses the order given, which the result must follow", call=call,
                   windows=shown(windows), order=str(tuple(as_set)))
    return None


# -- computed under jit -----------------------------------------------------------------------------------------

def _swap(call, x: np.ndarray, replacement: np.ndarray):
    """The jitted call's (args, kwargs) with every concrete array equal to x (any shape) replaced by replacement,
    reshaped alike; None when no argument holds x."""
    found = []

    def swap(leaf):
        if isinstance(leaf, (np.ndarray, jax.Array)) and not is_tracer(leaf):
            try:
                arr = np.asarray(leaf)
            except Exception:
                return leaf
            if arr.size == x.size and np.array_equal(arr.reshape(-1).astype(np.float64), x.astype(np.float64)):
                found.append(True)
                new = replacement.reshape(arr.shape).astype(arr.dtype)
                return jax.device_put(new) if isinstance(leaf, jax.Array) else new
        return leaf

    swapped = jax.tree_util.tree_map(swap, (call.args, call.kwargs))
    return swapped if found else None


def check_reaches_jit(g, xs, plan, values, results):
    advice = msg("advice.jit", "compute the means inside the jitted function, from the x it receives, with windows "
                 "static: {wrapper}", wrapper=wrapper_advice())
    for call, (x, (label, windows)) in enumerate(zip(xs, plan), 1):
        jitted = [c for c in g.jit_spy.calls if c.call == call]
        other = batch(g.rng)  # other data: every window mean moves
        want = expected(other, values[label])
        moved = False
        holding = False
        for record in jitted:
            swapped = _swap(record, x, other)
            if swapped is None:
                continue
            holding = True
            flat = rerun(g, record, *swapped).flat
            if flat.shape == want.shape and np.allclose(flat, want, rtol=RTOL, atol=atol(other, values[label])):
                moved = True
                break
        if moved:
            continue
        if not jitted:
            observation = msg("jit.none", "call {call} ran no jitted function at all: the means were computed in "
                              "plain Python or NumPy, so windows was never a static argument of anything", call=call)
        elif not holding:
            observation = msg("jit.no_x", "in call {call}, x was not among the arrays passed to a jitted function: "
                              "the means were computed before (outside jit) and only handed through", call=call)
        else:
            observation = msg("jit.not_following", "in call {call}, the jitted function that receives x did not "
                              "return the window means of the data it was given: run again by the grader with other "
                              "numbers in place of x, its result did not follow them", call=call)
        g.failed("reaches_jit", observation, advice, tier=WRAPPER_TIER)
        return
    refuse_fetching(g, "reaches_jit", advice=advice, tier=WRAPPER_TIER,
                    passed=msg("jit.ok", "every call computed its means in jitted code, from x"))


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls, plan, values):
    want, got = len(values), calls.compiles
    firsts = {}
    for call, (label, _) in enumerate(plan, 1):
        firsts.setdefault(label, call)
    head = msg("compiles.head", "{calls} with {n} distinct values of windows gave {compiles} and {traces}; "
               "expected {want} of each", calls=count("call", len(plan)), n=len(values),
               compiles=count("compile", got), traces=count("trace", calls.traces), want=want)
    repeats = [(call, label, windows) for call, (label, windows) in enumerate(plan, 1)
               if firsts[label] != call and (calls.compiles_in_call(call) or _traces_in(calls, call))]
    if got == want and not repeats:
        g.passed("one_per_value", msg("compiles.ok", "{compiles}, one per distinct value; every equal list or tuple "
                                      "reused its program without tracing again", compiles=count("compile", got)))
        return
    if repeats:
        call, label, windows = repeats[0]
        earlier = firsts[label]
        misses = [m for m in calls.reasons() if m.call == call]
        kinds = {m.kind for m in misses}
        reason = misses[0].reason if misses else calls.why_compiled()
        common = {"head": head, "call": call, "windows": shown(windows), "earlier": earlier,
                  "before": shown(plan[earlier - 1][1]), "reason": reason}
        if not calls.compiles_in_call(call):
            observation = msg("compiles.retraced", "{head}: call {call} passed windows = {windows}, equal to call "
                              "{earlier}'s {before}, and JAX traced your function again; the trace came out the same, "
                              "so it found the compiled program only afterwards. The cache lookup missed because the "
                              "static value you built hashes differently although it compares equal (a hash taken "
                              "from id(), for example): equal values must have equal hashes", **common)
            advice = msg("advice.by_value", "use a static value that hashes and compares by its contents: a tuple of "
                         "ints, or a frozen dataclass or NamedTuple holding one; {wrapper}", wrapper=wrapper_advice())
        elif "new_function" in kinds:
            observation = msg("compiles.new_function", "{head}: call {call} passed windows = {windows}, equal to call "
                              "{earlier}'s {before}, and compiled again because the jitted function itself was new "
                              "({reason})", **common)
            advice = msg("advice.jit_once", "jit once, at module level, so the compile cache lives across calls; "
                         "{wrapper}", wrapper=wrapper_advice())
        elif "static" in kinds:
            observation = msg("compiles.identity", "{head}: call {call} passed windows = {windows}, equal to call "
                              "{earlier}'s {before}, yet JAX saw a new static value ({reason}). The static value you "
                              "built is hashed or compared by identity, not by its numbers: two equal windows made "
                              "two different keys", **common)
            advice = msg("advice.by_value", "use a static value that hashes and compares by its contents: a tuple of "
                         "ints, or a frozen dataclass or NamedTuple holding one; {wrapper}", wrapper=wrapper_advice())
        else:
            observation = msg("compiles.repeat", "{head}: call {call} passed windows = {windows}, equal to call "
                              "{earlier}'s {before}, and compiled again ({reason})", **common)
            advice = wrapper_advice()
        g.failed("one_per_value", observation, advice, tier=HASHABLE_TIER)
        return
    shuffled = [(str(a), str(b)) for a in values for b in values if a < b and sorted(a) == sorted(b)]
    if got < want and shuffled:
        return g.failed("one_per_value", msg(
            "compiles.order_lost", "{head}: windows {a} and {b} hold the same numbers in another order, and they "
            "shared one compiled program: the static value your code built keeps the numbers but not their order (a "
            "frozenset, or a sorted tuple), so two values that must give different results made one cache key",
            head=head, a=shuffled[0][0], b=shuffled[0][1]), wrapper_advice(), tier=WRAPPER_TIER)
    if got < want:
        g.failed("one_per_value", msg("compiles.too_few", "{head}: each distinct windows value gives the result "
                                      "another shape, so each needs a compile of its own in the jitted function",
                                      head=head), wrapper_advice(), tier=WRAPPER_TIER)
        return
    eager = calls.eager_compiles
    if eager:
        g.failed("one_per_value", msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations run "
                                      "eagerly outside the compiled program", head=head,
                                      names=eager),
                 msg("advice.inside", "keep the work inside the jitted function"), tier=WRAPPER_TIER)
        return
    g.failed("one_per_value", msg("compiles.why", "{head} ({why})", head=head, why=calls.why_compiled()),
             wrapper_advice(), tier=HASHABLE_TIER)


def _traces_in(calls, call: int) -> int:
    return sum(1 for e in getattr(calls.window, "events", []) if e.kind == "trace" and e.call == call)


def grade(g):
    pyramid_pool = g.graded(params=2)
    values = draw_values(g.rng)
    plan = draw_calls(g.rng, values)
    xs = [batch(g.rng) for _ in plan]
    args = [(jax.device_put(x), windows) for x, (_, windows) in zip(xs, plan)]  # before the counted calls
    calls = g.calls(pyramid_pool, args)
    g.check_ran("runs", calls, advice, tier=WRAPPER_TIER, explain=make_explain(g))
    check_values(g, xs, plan, values, calls.results)
    check_reaches_jit(g, xs, plan, values, calls.results)
    check_compiles(g, calls, plan, values)
