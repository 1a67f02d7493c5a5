"""Checks for out_of_bounds: lookup_prices(prices, dishes) reads prices[d] for 0 <= d < n and gives -1.0 for every
other dish number, negative ones included. n is drawn per grading; every call's 16 dish numbers hold the edges 0,
n - 1, n, -1, n + k, one negative that wraps (-n..-2), one below -n and one far past the end; one compile."""

import jax
import numpy as np

from jittrainer.authoring import as_floats, at_line, compare, msg, one_compile, refuse_fetching, when_eager

CHECKS = {
    "runs": "lookup_prices runs under jax.jit",
    "in_program": "looks up inside the compiled program, without a host callback",
    "out_of_range": "every dish number outside 0 .. n - 1 gives -1.0",
    "in_range": "every dish number from 0 to n - 1 gives its price",
    "one_compile": "three calls of one shape compile once",
}

FILL = -1.0
CALLS = 3
DISHES = 16
MIN_N, MAX_N = 8, 32
RTOL, ATOL = 1e-6, 1e-6
BOUNDS_TIER = 2  # the hint tier that names explicit modes and bounds checks
NEGATIVE_TIER = 3  # the hint tier on negative numbers counting from the end


def draw_n(rng: np.random.Generator) -> int:
    return int(rng.integers(MIN_N, MAX_N + 1))


def menu(rng: np.random.Generator, n: int) -> np.ndarray:
    """n distinct prices from 1 to 100 with two decimals, at least 0.05 apart, so a value names the dish it came
    from."""
    while True:
        prices = np.round(rng.uniform(1.0, 100.0, n), 2)
        if np.min(np.diff(np.sort(prices))) >= 0.05:
            return prices.astype(np.float32)


def dish_numbers(rng: np.random.Generator, n: int) -> np.ndarray:
    """16 dish numbers: 0, n - 1, n, -1, n + k (k from 1 to 20), one from -n to -2, one from -1000 to -n - 1, one
    from 10,000 to 1,000,000, and 8 drawn from 0 .. n - 1, shuffled."""
    edges = [0, n - 1, n, -1, n + int(rng.integers(1, 21)), -int(rng.integers(2, n + 1)),
             -int(rng.integers(n + 1, 1001)), int(rng.integers(10_000, 1_000_001))]
    inside = rng.integers(0, n, DISHES - len(edges))
    return rng.permutation(np.concatenate([edges, inside])).astype(np.int32)


def expected(prices: np.ndarray, dishes: np.ndarray) -> np.ndarray:
    valid = (dishes >= 0) & (dishes < prices.size)
    return np.where(valid, prices.astype(np.float64)[np.clip(dishes, 0, prices.size - 1)], FILL)


def bounds_advice():
    return msg("advice.bounds", "say what an out-of-range number gives: test the bounds yourself, valid = (dishes >= "
               "0) & (dishes < prices.shape[0]), and return jnp.where(valid, prices[dishes], -1.0); prices[dishes] "
               "is harmless where valid is False, since jnp.where only keeps it where the number is in range")


# -- runs -------------------------------------------------------------------------------------------------------

def advice(error):
    text = error.message
    if error.type == "TracerBoolConversionError":
        return msg("advice.branch", "a Python if, and, or or on a traced dish number needs its value while tracing. "
                   "Compare whole arrays instead and choose with jnp.where: {bounds}", bounds=bounds_advice())
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError") and "fill_value" in text:
        return msg("advice.fill_value", "fill_value must be a number known while tracing (a constant such as -1.0), "
                   "not a traced value")
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError"):
        return msg("advice.concrete", "int(), float() or a Python index need the value of a traced number, which does "
                   "not exist while tracing. Index with the traced array itself: {bounds}", bounds=bounds_advice())
    if error.type == "TracerArrayConversionError":
        return msg("advice.numpy", "NumPy cannot read a traced array inside jit; stay with jax.numpy: {bounds}",
                   bounds=bounds_advice())
    if error.type == "IndexError":
        return msg("advice.index_error", "inside jit nothing raises IndexError for a bad number, and the grader wants "
                   "-1.0, not an error: {bounds}", bounds=bounds_advice())
    return None


# -- values -----------------------------------------------------------------------------------------------------

def _near(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=RTOL, atol=ATOL))


def _what_came_back(d: int, value: float, prices: np.ndarray):
    """(kind, rank, words): what a wrong value for an out-of-range dish number d is. Kinds are listed once each,
    the number nearest the edge first."""
    n = prices.size
    p = prices.astype(np.float64)
    common = {"dish": d, "value": value}
    if d >= n and _near(value, p[n - 1]):
        return "high", (0, d - n), msg("out.clamped_high", "dish {dish} gave {value:.2f}, the price of dish {last}, "
                                       "the last one: the read was clamped into range", last=n - 1, **common)
    if -n <= d < 0 and _near(value, p[d + n]):
        return "wrapped", (1, -d), msg("out.wrapped", "dish {dish} gave {value:.2f}, the price of dish {real}: a "
                                       "negative number counts from the end", real=d + n, **common)
    if d < -n and _near(value, p[0]):
        return "low", (2, -n - d), msg("out.clamped_low", "dish {dish} gave {value:.2f}, the price of dish 0, the "
                                       "first one: the read was clamped into range", **common)
    if np.isnan(value):
        return "nan", (3, abs(d)), msg("out.nan", "dish {dish} gave NaN (what jnp.take and mode=\"fill\" give "
                                       "without a fill_value)", **common)
    if _near(value, p[d % n]):
        return "modulo", (4, abs(d)), msg("out.modulo", "dish {dish} gave {value:.2f}, the price of dish {real}: the "
                                          "number wrapped around the menu (modulo n)", real=d % n, **common)
    if _near(value, 0.0):
        return "zero", (5, abs(d)), msg("out.zero", "dish {dish} gave 0.0", **common)
    return "other", (6, abs(d)), msg("out.other", "dish {dish} gave {value:.6g}", **common)


def check_out_of_range(g, inputs, results, n):
    for call, ((prices, dishes), result) in enumerate(zip(inputs, results), 1):
        want = expected(prices, dishes)
        got = as_floats(result, (DISHES,))
        if got is None:
            _, why = compare(result, want, what=msg("what.call", "the result of call {call}", call=call))
            g.failed("out_of_range", why, bounds_advice(), tier=BOUNDS_TIER)
            return False
        outside = [j for j, d in enumerate(dishes) if not 0 <= d < n]
        bad = [j for j in outside if not _near(got[j], FILL)]
        if not bad:
            continue
        bad_dishes = [int(dishes[j]) for j in bad]
        said, kinds = [], set()
        for kind, _, words in sorted((_what_came_back(int(dishes[j]), float(got[j]), prices) for j in bad),
                                     key=lambda found: found[1]):
            if kind not in kinds:
                kinds.add(kind)
                said.append(words)
        head = msg("out.head", "call {call} (n = {n}): {bad} of the {outside} dish numbers outside 0 .. {last} did not "
                   "give -1.0: {said}", call=call, n=n, bad=len(bad), outside=len(outside), last=n - 1, said=said)
        if all(-n <= d < 0 for d in bad_dishes):
            g.failed("out_of_range", msg("out.negatives", "{head}. Only negative numbers from -{n} to -1 are wrong: "
                     "by default JAX, like NumPy, reads them from the end of the array, mode=\"fill\" and "
                     "jnp.take included. Here a dish number is a position on the menu, and a negative one is "
                     "out of range", head=head, n=n),
                     msg("advice.negatives", "test the lower bound too: keep a number only where dishes >= 0 and "
                         "dishes < prices.shape[0], for example jnp.where(dishes >= 0, <your lookup>, -1.0); or "
                         "pass wrap_negative_indices=False to the .at[] method"),
                     tier=NEGATIVE_TIER)
        elif all(_near(got[j], prices[int(np.clip(dishes[j], 0, n - 1))]) or (-n <= dishes[j] < 0) for j in bad):
            silent = msg("out.silent", "{head}. Indexing a JAX array never raises IndexError: a read past either end "
                         "is clamped to the nearest element, and a number from -{n} to -1 counts from the end, "
                         "silently, inside jit and outside it", head=head, n=n)
            silent = at_line(_raw_index_lines(g), msg("out.silent_line", "{silent}. Line {line} indexes the prices "
                             "with the dish numbers as they come, and nothing else looks at them", silent=silent),
                             silent)
            g.failed("out_of_range", silent, bounds_advice(), tier=BOUNDS_TIER)
        else:
            g.failed("out_of_range", head, bounds_advice(), tier=BOUNDS_TIER)
        return False
    g.passed("out_of_range", msg("out.ok", "all {n} out-of-range dish numbers gave -1.0 (n, n + k, -1, below -n and "
                                 "far past the end)", n=len([d for _, ds in inputs for d in ds if not 0 <= d < n])))
    return True


def _raw_index_lines(g) -> list[int]:
    """Lines of lookup_prices that index an array with the dish numbers, when the function has no bounds test, mode
    or clipping anywhere: the starter's shape."""
    if g.lines_calling(r"\bwhere\b|\bmode\s*=|\bclip\b|<|>|%|\bif\b|one_hot|cond|select", g.function_name):
        return []
    return g.lines_calling(r"\[\s*dishes\s*\]|take\s*\(", g.function_name)


def check_in_range(g, inputs, results, n):
    for call, ((prices, dishes), result) in enumerate(zip(inputs, results), 1):
        got = as_floats(result, (DISHES,))
        if got is None:
            return  # out_of_range already said what the result is
        inside = [j for j, d in enumerate(dishes) if 0 <= d < n]
        bad = [j for j in inside if not _near(got[j], prices[dishes[j]])]
        if not bad:
            continue
        j = bad[0]
        d, value = int(dishes[j]), float(got[j])
        common = {"call": call, "dish": d, "value": value, "price": float(prices[d]), "n": n}
        wrong_dishes = sorted({int(dishes[i]) for i in bad})
        right_dishes = sorted({int(dishes[i]) for i in inside} - set(wrong_dishes))
        if all(_near(got[i], FILL) for i in bad) and wrong_dishes == [0]:
            observation = msg("in.zero", "call {call}: dish 0 is on the menu but gave -1.0: dish numbers start at 0, "
                              "so the lower bound must let 0 through", call=call)
        elif (all(_near(got[i], FILL) for i in bad) and right_dishes
              and min(wrong_dishes) > max(right_dishes)):
            observation = msg("in.short_menu", "call {call}: dishes {dishes} are on the menu (0 .. {last}) but gave "
                              "-1.0, as if the menu ended before dish {first}: this menu has n = {n} dishes, and n "
                              "changes from grading to grading", call=call,
                              dishes=wrong_dishes, last=n - 1, first=min(wrong_dishes), n=n)
        elif all(_near(got[i], FILL) for i in bad):
            observation = msg("in.fill", "call {call}: dishes {dishes} are on the menu (0 .. {last}) but gave -1.0: "
                              "the bounds test is off", call=call, dishes=wrong_dishes, last=n - 1)
        elif d + 1 < n and _near(value, prices[d + 1]):
            observation = msg("in.next", "call {call}: dish {dish} gave {value:.2f}, the price of dish {other}: "
                              "off by one", other=d + 1, **common)
        elif d >= 1 and _near(value, prices[d - 1]):
            observation = msg("in.previous", "call {call}: dish {dish} gave {value:.2f}, the price of dish {other}: "
                              "off by one", other=d - 1, **common)
        else:
            observation = msg("in.other", "call {call}: dish {dish} gave {value:.6g} where its price, {price:.2f}, "
                              "was expected", **common)
        return g.failed("in_range", observation, bounds_advice(), tier=BOUNDS_TIER)
    g.passed("in_range", msg("in.ok", "all {n} dish numbers on the menu gave their prices (0 and n - 1 included)",
                             n=len([d for _, ds in inputs for d in ds if 0 <= d < n])))


def grade(g):
    lookup_prices = g.graded(params=2)
    n = draw_n(g.rng)
    inputs = [(menu(g.rng, n), dish_numbers(g.rng, n)) for _ in range(CALLS)]
    args = [(jax.device_put(p), jax.device_put(d)) for p, d in inputs]  # before the counted calls
    calls = g.calls(lookup_prices, args)
    g.check_ran("runs", calls, advice, tier=BOUNDS_TIER)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "lookup_prices hands its result to Python through a host callback ({callbacks}) "
        "whose result the program uses: the bounds are checked on the host, outside the compiled program, which "
        "dodges the lesson"), bounds_advice(), tier=BOUNDS_TIER,
        passed=msg("in_program.ok", "the lookup happens inside the compiled program"))

    check_out_of_range(g, inputs, calls.results, n)
    check_in_range(g, inputs, calls.results, n)
    one_compile(g, calls, msg("compiles.head", "{calls} with the same shapes and dtypes gave {compiles}; expected 1"),
                causes=[when_eager(advice=msg("advice.inside", "keep all the work inside lookup_prices, which jit "
                                              "compiles once"), tier=BOUNDS_TIER)])
