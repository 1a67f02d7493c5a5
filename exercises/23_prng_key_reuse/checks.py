"""Checks for prng_key_reuse: two dropout views of one x per call, and a new key for the next call.

Three chains of four calls, every call given the key the previous one returned, run as twelve graded calls (one
compile) under jax.debug_key_reuse(True): chain 1 from key(s1), chain 2 from a fresh key(s1) (must repeat chain 1
exactly), chain 3 from key(s2) (must differ). JAX's checker sees typed keys used twice inside a call and consumed keys
passed again; it does not look at what a call returns, so the jaxpr is read for that: the returned key must not feed
random_bits or random_split.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import jax
import numpy as np
from jax.extend.core import ClosedJaxpr

from jittrainer.authoring import (count, independence_failure, is_compiled, is_typed_key, msg, one_compile,
                                  refuse_fetching, taken_by, tracer_error, type_name, when_nothing)

CHECKS = {
    "runs": "two_views returns for every call",
    "returns_key": "two_views returns (view_a, view_b, new_key) with a typed key",
    "no_reuse": "JAX's key-reuse checker reports nothing",
    "samples_differ": "the views differ within a call, between calls and between keys",
    "fresh_key": "the returned key is not one the call already used",
    "deterministic": "the same key gives the same views",
    "values": "every element is kept (scaled by 1/0.75) or dropped, about 3 in 4 kept",
    "one_compile": "three chains of four calls compile once",
}

KEEP = 0.75
CALLS = 4
SPLIT_TIER = 2  # the hint tier on splitting the key into one key per use
CONSUMERS = {"random_bits", "random_split"}  # what JAX's key-reuse checker counts as using a key up


# ------------------------------------------------------------------------------------------------ inputs


def draw_x(rng: np.random.Generator) -> np.ndarray:
    """128 to 512 nonzero float32 values, as a vector or a matrix (one shape per run)."""
    shape = [(128,), (200,), (333,), (512,), (16, 8), (8, 40), (24, 21), (32, 16), (4, 128)][rng.integers(9)]
    x = rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 4.0, shape)
    return x.astype(np.float32)


def draw_seeds(rng: np.random.Generator) -> tuple[int, int]:
    first = int(rng.integers(1, 2**31 - 1))
    second = int(rng.integers(1, 2**31 - 1))
    while second == first:
        second = int(rng.integers(1, 2**31 - 1))
    return first, second


# ------------------------------------------------------------------------------------------------ chains


@dataclass
class Chain:
    """Four calls, each given the key the previous call returned; views kept as NumPy copies, keys as they came."""

    start: object
    keys: list = field(default_factory=list)  # the key each call returned
    views: list = field(default_factory=list)  # (view_a, view_b) of each call, NumPy
    bad: list = field(default_factory=list)  # what came back when it was not (view, view, key)

    def next_key(self):
        return self.keys[-1] if self.keys else self.start

    def keep(self, result) -> None:
        if not (isinstance(result, (tuple, list)) and len(result) == 3):
            self.bad.append(result)
            return
        view_a, view_b, new_key = result
        self.keys.append(new_key)
        self.views.append((_numpy(view_a), _numpy(view_b)))


@dataclass
class Chains:
    """The three chains, run one after the other as twelve graded calls: call (c - 1) * 4 + i is call i of chain c."""

    fn: object
    x: np.ndarray
    chains: list
    errors: list = field(default_factory=list)  # (chain, exception) for every call that raised

    def __call__(self, number: int, i: int):
        chain = self.chains[number - 1]
        try:
            result = self.fn(chain.next_key(), self.x)
        except BaseException as exc:
            self.errors.append((number, exc))
            raise
        chain.keep(result)
        return result


def _numpy(value):
    """A NumPy copy of a view, or the value as it came (a tracer, or what is not an array of numbers)."""
    try:
        return np.array(value, dtype=np.float64, copy=True)
    except Exception:
        return value


def key_bits(key) -> np.ndarray | None:
    """The raw bits of a typed key (for comparing two keys), or None (not a key, or its buffer was donated)."""
    try:
        return np.asarray(jax.random.key_data(key)).copy()
    except Exception:
        return None


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    two_views = g.graded(params=2)
    x = draw_x(g.rng)
    s1, s2 = draw_seeds(g.rng)
    # Keys are made before the counted calls (making one compiles). Chain 2's key is a new object with chain 1's seed.
    chains = [Chain(jax.random.key(s1)), Chain(jax.random.key(s1)), Chain(jax.random.key(s2))]
    if g.jaxpr_source is None and not is_compiled(two_views) and hasattr(two_views, "trace"):
        probe = jax.random.key(s1)
        g.jaxpr_source = lambda: two_views.trace(probe, x).jaxpr

    run = Chains(two_views, x, chains)
    with jax.debug_key_reuse(True):
        calls = g.calls(run, [(c, i) for c in (1, 2, 3) for i in range(1, CALLS + 1)], name="two_views")
    if reuse_reported(g, run, calls):
        return
    g.check_ran("runs", calls, _error_advice, tier=SPLIT_TIER)
    if not check_returns(g, chains):
        return
    g.passed("no_reuse", msg("reuse.ok", "three chains of {calls} ran under jax.debug_key_reuse(True): no key was "
                             "used twice, and no used key was passed in again", calls=count("call", CALLS)))
    first, again, other = chains
    check_differ(g, first, other)
    check_fresh_key(g)
    check_deterministic(g, first, again)
    check_values(g, first, x)
    check_compiles(g, calls)


def _error_advice(error):
    if error.type == "TypeError" and "key" in error.message.lower():
        return msg("advice.typed_key", "the key is a typed key (dtype key<fry>): pass it to jax.random functions as "
                   "it is, split it with jax.random.split, and return one of the keys split from it")
    if tracer_error(error, "array", "bool"):
        return msg("advice.jax_random", "draw the masks with jax.random (bernoulli or uniform) inside the function, "
                   "not with NumPy or Python's random")
    return None


def _advice_split():
    return msg("advice.split", "split the key once into three, new_key, key_a, key_b = jax.random.split(key, 3): "
               "draw view A with key_a, view B with key_b, and return new_key")


# ------------------------------------------------------------------------------------------------ the checker


def reuse_reported(g, run: Chains, calls) -> bool:
    """Report no_reuse failed when JAX's checker raised; True then."""
    found = next(((number, e) for number, e in run.errors if type(e).__name__ == "KeyReuseError"), None)
    if found is None:
        return False
    number, error = found
    text = str(error).splitlines()[0].strip()
    index = calls.failed.index if calls.failed is not None else 1
    call = (index - 1) % CALLS + 1
    where = g.lines_calling(r"^(?!\s*def\b).*\w\s*\(\s*key\b", g.function_name)
    common = {"jax": text, "call": call, "chain": number}
    if "Previously-consumed" in text:
        observation = msg("reuse.passed_again", "JAX's key-reuse checker stopped call {call} of chain {chain} (JAX "
                          "says: \"{jax}\"). That key is the one call {prev} returned, and call {prev} had already "
                          "used it (it drew samples from it or split it): handing it on gives the next call the same "
                          "random bits again", prev=max(1, call - 1), **common)
    elif len(where) >= 2:
        observation = msg("reuse.inside_lines", "JAX's key-reuse checker stopped call {call} of chain {chain} (JAX "
                          "says: \"{jax}\"). Inside two_views one key is used more than once (lines {lines} use "
                          "key): a key always gives the same bits, so two draws from it are the same draw",
                          lines=[str(n) for n in where[:3]], **common)
    else:
        observation = msg("reuse.inside", "JAX's key-reuse checker stopped call {call} of chain {chain} (JAX "
                          "says: \"{jax}\"). Inside two_views one key is used more than once: a key always gives "
                          "the same bits, so two draws from it are the same draw", **common)
    g.failed("no_reuse", observation, _advice_split(), tier=SPLIT_TIER)
    return True


# ------------------------------------------------------------------------------------------------ returned keys


def check_returns(g, chains: list) -> bool:
    bad = [b for chain in chains for b in chain.bad]
    if bad:
        g.failed("returns_key", msg("returns.not_triple", "two_views returned {type}; it must return three things, "
                                    "(view_a, view_b, new_key)", type=type_name(bad[0])), _advice_split(),
                 tier=SPLIT_TIER)
        return False
    for i, key in enumerate(chains[0].keys, 1):
        if is_typed_key(key) and getattr(key, "shape", None) == ():
            continue
        dtype, shape = getattr(key, "dtype", None), getattr(key, "shape", None)
        if dtype is not None and np.dtype(dtype) == np.uint32 and shape == (2,):
            observation = msg("returns.legacy", "call {i} returned a uint32[2] array as its new key: a legacy key "
                              "(the raw bits, as jax.random.PRNGKey makes them), not a typed key. The contract asks "
                              "for a typed key: JAX's key-reuse checker only follows typed keys", i=i)
        elif is_typed_key(key):
            observation = msg("returns.key_shape", "call {i} returned keys of shape {shape} as its new key; one key "
                              "(shape ()) is expected", i=i, shape=str(tuple(shape)))
        else:
            observation = msg("returns.not_key", "call {i} returned {type} as its new key; a typed key (made by "
                              "splitting the key it was given) is expected", i=i, type=type_name(key))
        g.failed("returns_key", observation, _advice_split(), tier=SPLIT_TIER)
        return False
    g.passed("returns_key", msg("returns.ok", "every call returned two views and a typed key"))
    return True


def check_fresh_key(g) -> None:
    closed = g.graded_jaxpr()
    if closed is None:
        g.passed("fresh_key", msg("fresh.unknown", "the program could not be traced again to look at the returned "
                                  "key; the other checks cover it"))
        return
    jaxpr = closed.jaxpr if isinstance(closed, ClosedJaxpr) else closed
    returned = jaxpr.outvars[-1] if jaxpr.outvars else None
    if returned is None or not taken_by(jaxpr, CONSUMERS, kind=is_typed_key)(returned):
        g.passed("fresh_key", msg("fresh.ok", "the returned key is not used inside the call"))
        return
    if any(returned is v for v in jaxpr.invars):
        observation = msg("fresh.input", "two_views returns the key it was given, after using it: the next call gets "
                          "the same key and draws the same bits")
    else:
        observation = msg("fresh.used", "the key two_views returns is also used inside the same call (it draws "
                          "samples or is split there): the next call starts from a key whose bits this call already "
                          "drew. JAX's key-reuse checker does not follow keys out of a call, so it stays quiet, but "
                          "in the jaxpr the returned key feeds random_bits or random_split")
    g.failed("fresh_key", observation, _advice_split(), tier=SPLIT_TIER)


# ------------------------------------------------------------------------------------------------ samples


def _mask(view) -> np.ndarray | None:
    return view != 0 if isinstance(view, np.ndarray) else None


def check_differ(g, first: Chain, other: Chain) -> None:
    masks = [(_mask(a), _mask(b)) for a, b in first.views]
    for i, (a, b) in enumerate(masks, 1):
        if a is not None and b is not None and a.shape == b.shape and np.array_equal(a, b):
            g.failed("samples_differ", msg(
                "differ.within", "in call {i}, view A and view B dropped exactly the same elements: both masks came "
                "from the same random bits (one key, or keys derived the same way, used for both)", i=i),
                _advice_split(), tier=SPLIT_TIER)
            return
    related = independence_failure(masks)
    if related is not None:
        return g.failed("samples_differ", related, _advice_split(), tier=SPLIT_TIER)
    flat = [(i, name, m) for i, pair in enumerate(masks, 1) for name, m in zip("AB", pair) if m is not None]
    for j, (i, name, m) in enumerate(flat):
        for i2, name2, m2 in flat[:j]:
            if i2 != i and m.shape == m2.shape and np.array_equal(m, m2):
                g.failed("samples_differ", msg(
                    "differ.between", "view {name} of call {i} dropped exactly the same elements as view {name2} of "
                    "call {i2}: the same random bits came out again (the key handed on repeats, or the masks do not "
                    "come from the key at all)", i=i, name=name, i2=i2, name2=name2), _advice_split(), tier=SPLIT_TIER)
                return
    third = [_mask(v) for v in other.views[0]] if other.views else [None, None]
    if any(m1 is not None and m3 is not None and np.array_equal(m1, m3) for m1, m3 in zip(masks[0], third)):
        g.failed("samples_differ", msg(
            "differ.keys", "started from another key, the first call still dropped exactly the same elements: the "
            "masks do not depend on the key passed in (a key made inside the function, NumPy randomness or a fixed "
            "pattern)"), _advice_split(), tier=SPLIT_TIER)
        return
    g.passed("samples_differ", msg("differ.ok", "all {n} views of the chain dropped different elements, and another "
                                   "start key gave other masks", n=2 * CALLS))


def check_deterministic(g, first: Chain, again: Chain) -> None:
    for i, ((a1, b1), (a2, b2)) in enumerate(zip(first.views, again.views), 1):
        same = all(isinstance(u, np.ndarray) and isinstance(v, np.ndarray) and u.shape == v.shape
                   and np.array_equal(u, v) for u, v in ((a1, a2), (b1, b2)))
        if not same:
            g.failed("deterministic", msg(
                "same.views", "chain 2 started from a new key made from the same seed as chain 1, but its call {i} "
                "returned other views: the randomness does not come from the key alone (NumPy or Python random, a "
                "host callback, a counter kept between calls)", i=i), _advice_split(), tier=SPLIT_TIER)
            return
    for i, (k1, k2) in enumerate(zip(first.keys, again.keys), 1):
        bits1, bits2 = key_bits(k1), key_bits(k2)
        if bits1 is not None and bits2 is not None and not np.array_equal(bits1, bits2):
            g.failed("deterministic", msg(
                "same.keys", "chain 2 started from the same seed as chain 1 and returned the same views, but call "
                "{i} returned another new key: the key handed on must also follow from the key passed in", i=i),
                _advice_split(), tier=SPLIT_TIER)
            return
    g.passed("deterministic", msg("same.ok", "the same start key gave the same {n} views and the same keys",
                                  n=2 * CALLS))


# ------------------------------------------------------------------------------------------------ values


def check_values(g, chain: Chain, x: np.ndarray) -> None:
    scaled = x.astype(np.float64) / KEEP
    fractions = []
    for i, pair in enumerate(chain.views, 1):
        for name, view in zip("AB", pair):
            if not isinstance(view, np.ndarray) or view.shape != x.shape:
                g.failed("values", msg("values.shape", "view {name} of call {i} is {type}; an array of the shape of "
                                       "x, {shape}, is expected", name=name, i=i, type=type_name(view),
                                       shape=str(x.shape)), _advice_split(), tier=SPLIT_TIER)
                return
            kept = view != 0
            if not np.allclose(view[kept], scaled[kept], rtol=1e-5, atol=1e-6):
                if np.allclose(view[kept], x[kept], rtol=1e-5, atol=1e-6):
                    observation = msg("values.unscaled", "view {name} of call {i} keeps elements at their own value; "
                                      "a kept element is divided by 0.75, so that the view's expected value is x",
                                      name=name, i=i)
                else:
                    observation = msg("values.kept_value", "view {name} of call {i} holds values that are neither 0 "
                                      "nor x / 0.75", name=name, i=i)
                g.failed("values", observation, msg("advice.scale", "keep an element as x / 0.75 and drop it as 0: "
                         "jnp.where(keep, x / 0.75, 0.0)"), tier=1)
                return
            fractions.append(float(kept.mean()))
    pooled = float(np.mean(fractions))
    lowest, highest = min(fractions), max(fractions)
    if abs(pooled - KEEP) > 0.08 or lowest < 0.5 or highest > 0.95:
        if abs(pooled - (1 - KEEP)) <= 0.08:
            observation = msg("values.inverted", "the views keep {pct:.0%} of the elements, about 1 in 4: the "
                              "probability 0.75 was used for dropping, not for keeping", pct=pooled)
        else:
            observation = msg("values.fraction", "the views keep {pct:.0%} of the elements on average (from "
                              "{low:.0%} to {high:.0%}); each element is kept with probability 0.75", pct=pooled,
                              low=lowest, high=highest)
        g.failed("values", observation, msg("advice.keep", "draw the keep mask with jax.random.bernoulli(key, 0.75, "
                 "x.shape): True (keep) with probability 0.75"), tier=1)
        return
    refuse_fetching(g, "values", passed=msg("values.ok", "every element was 0 or x / 0.75, and {pct:.0%} were kept",
                                            pct=pooled))


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "three chains, {calls} with one shape of x: {compiles}; expected 1"),
                msg("compiles.ok", "three chains, {calls}: 1 compile", calls=count("call", 3 * CALLS)),
                [when_nothing(msg("compiles.none", "{head}: nothing was compiled"))],
                advice=msg("advice.key_arg", "pass the key as an ordinary argument (not static) and keep returning a "
                           "typed key of the same kind, so every call has the same signature"), tier=SPLIT_TIER)
