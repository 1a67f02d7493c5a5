"""Checks for recompile_storm: 30 batches of 16 ragged sequences, each batch with a longest length no other batch
has. The means must be right, computed from the data by jitted code (proved by running the jitted calls again with
every sequence shifted), and the 30 batches may compile at most 8 times: buckets fit, one compile per batch cannot."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from jittrainer.authoring import (as_floats, at_line, bare_name, count, eager_source, msg, places_of, refuse_fetching,
                                  shift_rerun, shortened, split_compiles, tracer_error, values_match)
CHECKS = {
    "runs": "batch_means returns for every batch",
    "values": "returns the 16 means, in order",
    "reaches_jit": "every mean is computed from the data by jitted code",
    "compile_budget": "30 batches compile at most 8 times",
}

BATCHES = 30
ROWS = 16
MAX_LEN = 64
BUDGET = 8
MOVE_RTOL = 1e-3  # a mean must move by its shift c (a sum by n * c) within this relative tolerance
PAD_TIER = 2  # the hint tier on padding with NumPy, masking and dividing by the true lengths

# ------------------------------------------------------------------------------------------------ inputs


def longest_lengths(rng: np.random.Generator) -> list[int]:
    """One longest length per batch, all different: 1 and 64 always, 28 more from 2..63, in random order. Padding
    each batch to its own longest sequence (or jitting anew per batch) therefore compiles on every batch."""
    lengths = np.concatenate([[1, MAX_LEN], rng.choice(np.arange(2, MAX_LEN), BATCHES - 2, replace=False)])
    rng.shuffle(lengths)
    return [int(n) for n in lengths]


def sequence(rng: np.random.Generator, n: int) -> np.ndarray:
    """float32[n] whose values sit well away from 0 (mean 3..8 in size, either sign)."""
    loc = rng.choice([-1.0, 1.0]) * rng.uniform(3.0, 8.0)
    return rng.normal(loc, rng.uniform(0.3, 1.5), n).astype(np.float32)


def make_batch(rng: np.random.Generator, longest: int) -> list[np.ndarray]:
    """16 sequences with lengths from 1 to ``longest``, one of them exactly ``longest``. Real data holds exact zeros
    too: two sequences get one inside, so "length = count of nonzero values" does not find the padding."""
    lengths = rng.integers(1, longest + 1, ROWS)
    lengths[rng.integers(ROWS)] = longest
    seqs = [sequence(rng, int(n)) for n in lengths]
    long_enough = [i for i, seq in enumerate(seqs) if len(seq) >= 4]
    for i in rng.choice(long_enough, size=min(2, len(long_enough)), replace=False):
        seqs[i][rng.integers(1, len(seqs[i]) - 1)] = 0.0
    return seqs


def shifts(rng: np.random.Generator) -> np.ndarray:
    """A different shift per sequence (2..33), added to its values when the jitted calls are run again."""
    return (rng.permutation(ROWS) + 1) * 2.0 + rng.uniform(0.1, 0.9, ROWS)


def expected(seqs: list[np.ndarray]) -> np.ndarray:
    return np.array([s.astype(np.float64).mean() for s in seqs])


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    batch_means = g.graded(params=1)
    batches = [make_batch(g.rng, n) for n in longest_lengths(g.rng)]
    originals = [[s.copy() for s in b] for b in batches]  # the learner may pad or sort the arrays it is given
    wants = [expected(b) for b in originals]
    shift_list = [shifts(g.rng) for _ in batches]
    calls = g.calls(batch_means, [(b,) for b in batches])
    g.check_ran("runs", calls, _error_advice, tier=PAD_TIER)

    values_match(g, "values", calls.results, wants, rtol=1e-4, atol=1e-4,
                 what=lambda b: msg("what.batch", "the result for batch {b}", b=b),
                 slip=lambda b, result: _value_slip(g, b, result, originals[b - 1], wants[b - 1]),
                 advice=msg("advice.masked_mean", "sum only the real positions of each row (a mask from "
                            "jnp.arange(width) < length) and divide by that sequence's own length"), tier=PAD_TIER,
                 ok=msg("values.ok", "all {n} means match", n=BATCHES * ROWS))
    check_reaches_jit(g, originals, wants, shift_list)
    check_compiles(g, calls, originals)


def _error_advice(error):
    text = error.message
    if tracer_error(error, "int", "bool") or (error.type == "IndexError" and "static" in text):
        return msg("advice.traced_length", "inside jit a length is a tracer, not a number: keep the padded width "
                   "and mask with jnp.arange(width) < n instead of slicing x[:n] (a static n would compile once "
                   "per length)")
    unstackable = ("same shape", "inhomogeneous", "with a sequence")  # NumPy's words for rows of other lengths
    if error.type in ("ValueError", "TypeError") and any(words in text for words in unstackable):
        return msg("advice.pad_first", "sequences of different lengths cannot be stacked as they are: copy each one "
                   "into a row of np.zeros((16, width)) on the host first")
    if error.type == "StopIteration" or "could not broadcast" in text:
        return msg("advice.width_fits", "every length from 1 to 64 needs a width that holds it: the largest bucket "
                   "must be at least 64, and a sequence as long as a bucket fits that bucket")
    return None


# ------------------------------------------------------------------------------------------------ values


def _value_slip(g, b: int, result, seqs, want):
    """A known slip that explains a wrong result, in words, or None."""
    got = as_floats(result, (len(seqs),))  # one number per sequence
    if got is None or not np.all(np.isfinite(got)):
        return None
    wrong = np.flatnonzero(~np.isclose(got, want, rtol=1e-4, atol=1e-4)).tolist()
    if not wrong:
        return None
    values = np.concatenate([s.astype(np.float64) for s in seqs])
    total = values.size
    if np.ptp(got) <= 1e-4 * max(1.0, abs(got[0])) and got[0] != 0:
        divisor = values.sum() / got[0]
        if abs(divisor - total) < 0.02:
            return msg("values.batch_mean", "batch {b}: every sequence got the same value, {value:.5g}, the mean of "
                       "all {total} values of the batch taken together, not one mean per sequence", b=b,
                       value=got[0], total=total)
        if abs(divisor - round(divisor)) < 0.02:
            return msg("values.same_value", "batch {b}: every sequence got the same value, {value:.5g}, the sum of "
                       "the whole batch divided by {divisor}, not one mean per sequence", b=b, value=got[0],
                       divisor=int(round(divisor)))
    zeros = [i for i, s in enumerate(seqs) if (s == 0).any()]
    if zeros and wrong == zeros:
        i = wrong[0]
        return msg("values.nonzero", "batch {b}: sequence {i} holds a real 0.0 among its {n} values, and its mean "
                   "came out as if it were {nonzero} long: counting the nonzero values to find the length mistakes "
                   "data for padding", b=b, i=i + 1, n=len(seqs[i]), nonzero=int((seqs[i] != 0).sum()))
    if np.allclose(np.sort(got), np.sort(want), rtol=1e-4, atol=1e-4):
        return msg("values.order", "batch {b}: these are the right 16 means but in another order; the statement "
                   "asks for them in the order of seqs", b=b)
    i = wrong[0]
    n, value = len(seqs[i]), float(got[i])
    divisor = float(seqs[i].astype(np.float64).sum()) / value if value else 0.0  # 0: nothing to divide
    if divisor < 0.5 or abs(divisor - round(divisor)) > 0.02:
        return None
    d = int(round(divisor))
    common = {"b": b, "i": i + 1, "n": n, "mean": float(want[i]), "value": value, "d": d}
    if d == total and d != n:
        return msg("values.batch_total", "batch {b}: sequence {i} has length {n} and mean {mean:.5g}, but you "
                   "returned {value:.5g}: its sum divided by {d}, the total length of all 16 sequences in the batch, "
                   "not by its own length {n}", **common)
    if d > n and d in _widths_in(g, b):
        return msg("values.padding", "batch {b}: sequence {i} has length {n} and mean {mean:.5g}, but you returned "
                   "{value:.5g}: its sum divided by {d}, the width of the padded rows you passed to jit, not by {n}. "
                   "The {pad} padding positions were counted as data", pad=d - n, **common)
    if d in (n - 1, n + 1):
        return msg("values.off_by_one", "batch {b}: sequence {i} has length {n} and mean {mean:.5g}, but you "
                   "returned {value:.5g}: its sum divided by {d}, an off-by-one length", **common)
    if d > n:
        return msg("values.too_wide", "batch {b}: sequence {i} has length {n} and mean {mean:.5g}, but you returned "
                   "{value:.5g}: its sum divided by {d}, not by {n}, as if {pad} positions past its end (padding) "
                   "were data", pad=d - n, **common)
    return None


def _widths_in(g, b: int) -> set[int]:
    """Every axis size of the float arrays passed to jitted functions during batch b."""
    return {int(size) for c in g.jit_spy.calls if c.call == b for a in c.arrays
            if a.dtype.kind == "f" for size in a.shape}


# ------------------------------------------------------------------------------------------ computed under jit


@dataclass
class Seen:
    """One jitted call of a batch, and where each sequence of the batch sits among its array arguments."""

    call: object  # JitCall
    slots: dict[int, list[tuple[int, np.ndarray]]]  # sequence -> [(array, flat indices)]: see places_of

    @property
    def out_size(self) -> int:
        return int(sum(self.call.out_sizes))

    @property
    def reduces(self) -> bool:
        """A few numbers per sequence it received come back (means, or sums and counts), not the padded data."""
        return bool(self.slots) and self.out_size <= 2 * len(self.slots) + 2


def _moved(delta: np.ndarray, c: float, n: int) -> bool:
    """Some output moved by c (the mean of the shifted sequence) or by n * c (its sum)."""
    return bool(np.isclose(np.reshape(delta, (-1, 1)), [c, n * c], rtol=MOVE_RTOL, atol=0).any())


def check_reaches_jit(g, originals, wants, shift_list) -> bool:
    spy = g.jit_spy
    if not any(c.call is not None for c in spy.calls):
        return g.failed("reaches_jit", msg(
            "jit.never", "batch_means called no jitted function (one made with jax.jit, or compiled ahead of time) "
            "in any of the {n} batches: the means were computed outside jit", n=BATCHES), _advice_jit(), tier=PAD_TIER)
    for b, (seqs, want, c) in enumerate(zip(originals, wants, shift_list), 1):
        seen = [Seen(call, places_of(call.arrays, seqs)) for call in spy.calls if call.call == b and call.arrays]
        proven: set[int] = set()
        reruns: dict[int, tuple] = {}
        for k, s in enumerate(seen):
            if not s.reduces or set(s.slots) <= proven:
                continue
            reruns[k] = (delta, _) = shift_rerun(g, s.call, s.slots, c)
            if delta is not None:
                proven |= {i for i in s.slots if _moved(delta, c[i], len(seqs[i]))}
            if len(proven) == len(seqs):
                break
        if len(proven) < len(seqs):
            i = min(set(range(len(seqs))) - proven)
            return g.failed("reaches_jit", _not_proven(b, i, seqs, want, c, seen, reruns), _advice_jit(),
                            tier=PAD_TIER)
    return refuse_fetching(g, "reaches_jit", passed=msg(
        "jit.ok", "all {n} means came out of jitted code and followed the data: run again with each sequence shifted, "
        "every mean moved with it", n=BATCHES * ROWS))


def _advice_jit():
    return msg("advice.jit", "pass the padded sequences and their lengths to one jitted function and compute the "
               "masked sums and the division inside it, so that it returns the 16 means")


def _holds_means(seen: Seen, want: np.ndarray) -> bool:
    """The call received the batch's means, computed before it (as NumPy computes them, in float32 or float64)."""
    values = np.concatenate([a.astype(np.float64).ravel() for a in seen.call.arrays if a.dtype.kind == "f"] or
                            [np.empty(0)])
    return bool(values.size) and all(np.any(np.isclose(values, m, rtol=1e-5, atol=0)) for m in want)


def _shapes(arrays) -> str:
    counts = Counter(f"{a.dtype}{list(a.shape)}" for a in arrays)
    return shortened([f"{k} ×{v}" if v > 1 else k for k, v in counts.most_common()], 3)


def _not_proven(b, i, seqs, want, c, seen: list[Seen], reruns: dict[int, tuple]):
    n = len(seqs[i])
    common = {"b": b, "i": i + 1, "n": n}
    holding = [k for k, s in enumerate(seen) if i in s.slots]
    if not seen:
        return msg("jit.batch_without", "during batch {b} no array reached a jitted function, so sequence {i} "
                   "(length {n}) was averaged outside jit", **common)
    if not holding:
        means_in = next((s for s in seen if _holds_means(s, want)), None)
        if means_in is not None:
            return msg("jit.got_means", "in batch {b} your jitted function {function} received the 16 means, "
                       "already computed, instead of the sequences: sequence {i} (length {n}) never reached jitted "
                       "code, so it was averaged outside jit", function=means_in.call.function, **common)
        return msg("jit.missing", "sequence {i} of batch {b} (length {n}) never reached a jitted function: the "
                   "jitted calls of that batch received only {shapes}, and none holds its values as one contiguous run",
                   shapes=_shapes([a for s in seen for a in s.call.arrays]), **common)
    reducing = [k for k in holding if seen[k].reduces]
    if not reducing:
        s = max((seen[k] for k in holding), key=lambda s: s.out_size)
        return msg("jit.handed_back", "in batch {b} the sequences went into your jitted function {function}, but it "
                   "returned {out} numbers for the {size} values it received ({shapes}): it handed the data back, so "
                   "the averaging happened outside jit", function=s.call.function, out=s.out_size,
                   size=sum(a.size for a in s.call.arrays if a.dtype.kind == "f"), shapes=_shapes(s.call.arrays),
                   **common)
    k = reducing[0]
    s, (delta, error) = seen[k], reruns.get(k, (None, ""))
    function = s.call.function
    if delta is None:
        return msg("jit.rerun_failed", "in batch {b} sequence {i} (length {n}) reached your jitted function "
                   "{function}, but running it again with changed values failed ({error}), so the grader cannot "
                   "tell that its result comes from the data", function=function,
                   error=error or "outputs of another shape", **common)
    if _holds_means(s, want):
        return msg("jit.means_passed_through", "in batch {b} your jitted function {function} received the "
                   "sequences and also their 16 means, computed before the call, and returned those means: run "
                   "again with {c:.4g} added to every value of sequence {i} (each sequence shifted by its own "
                   "amount), its mean did not move with it. The data went into jit, but the averaging happened "
                   "outside it", function=function, c=c[i], **common)
    if not np.any(np.abs(delta) > 1e-6):
        return msg("jit.no_follow", "in batch {b} sequence {i} (length {n}) reached your jitted function "
                   "{function}, but its result does not depend on the values: run again with {c:.4g} added to every "
                   "value of that sequence (each sequence shifted by its own amount), none of its outputs changed, so "
                   "what it returns was computed elsewhere", function=function, c=c[i], **common)
    if n == 1:
        return msg("jit.wrong_follow_one", "in batch {b} sequence {i} (length 1) reached your jitted function "
                   "{function}, but none of its outputs is that sequence's mean: run again with {c:.4g} added to its "
                   "value (each sequence shifted by its own amount), its outputs changed, but none by {c:.4g}",
                   function=function, c=c[i], **common)
    return msg("jit.wrong_follow", "in batch {b} sequence {i} (length {n}) reached your jitted function {function}, "
               "but none of its outputs is that sequence's mean: run again with {c:.4g} added to every value of that "
               "sequence (each sequence shifted by its own amount), its outputs changed, but none by {c:.4g} (as its "
               "mean would) nor by {sum:.4g} (as its sum would)", function=function, c=c[i], sum=n * c[i], **common)


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls, originals) -> None:
    if calls.compiles <= BUDGET:
        g.passed("compile_budget", _passed_text(calls))
    else:
        g.failed("compile_budget", *_cause(g, calls, originals), tier=PAD_TIER)


def _passed_text(calls):
    total = calls.compiles
    aot = len(calls.window.aot)
    per_batch = [calls.compiles_in_call(b) for b in range(1, BATCHES + 1)]
    busy = sum(1 for n in per_batch if n)
    common = {"compiles": count("compile", total), "batches": BATCHES, "budget": BUDGET}
    if aot and aot == total:
        return msg("budget.ok_aot", "{compiles} over {batches} batches (at most {budget}), all made ahead of time "
                   "before the first batch", **common)
    if aot:
        return msg("budget.ok_some_aot", "{compiles} over {batches} batches (at most {budget}), {aot} of them made "
                   "ahead of time before the first batch", aot=aot, **common)
    if per_batch[0] == total:
        return msg("budget.ok_once", "{compiles} over {batches} batches (at most {budget}): batch 1 compiled, the "
                   "other {rest} reused it", rest=BATCHES - 1, **common)
    return msg("budget.ok_buckets", "{compiles} over {batches} batches (at most {budget}): {busy} batches met a "
               "bucket size not seen before, the other {rest} reused compiled programs", busy=busy,
               rest=BATCHES - busy, **common)


def _cause(g, calls, originals):
    """The main reason for the compiles, as (observation, advice)."""
    misses = calls.reasons()
    # JAX explains misses only for functions from the learner's code
    split = split_compiles(misses, lambda f: f in g.jit_spy.jitted_names or any(
        m.kind not in ("jax_internal",) for m in misses if m.function == f))
    head = msg("budget.head", "the {batches} batches compiled {times} (at most {budget})", batches=BATCHES,
               times=count("time", calls.compiles), budget=BUDGET)
    if split.eager_first:
        return (msg("budget.eager", "{head}: {eager} of them are jax.numpy operations run eagerly, outside any "
                    "jitted function ({names}), and each one compiles again for every new input shape: the "
                    "storm moved into the padding", head=head, eager=sum(split.eager.values()),
                    names=split.eager_names(eager_source)),
                msg("advice.numpy_pad", "pad with NumPy on the host (np.zeros and slice assignment, or np.pad) and "
                    "hand JAX only the padded arrays"))
    if split.top is None:
        return (msg("budget.unexplained", "{head}; JAX gave no reason for them", head=head), _advice_buckets())
    function, n = split.top, split.own[split.top]
    kinds = {m.kind for m in misses if m.function == function}
    common = {"head": head, "function": bare_name(function), "times": count("time", n)}
    if "new_function" in kinds:
        return (at_line(g.lines_calling(r"\bjit\s*\(", g.function_name), msg(
            "budget.new_function_line", "{head}: {function} compiled {times} because line {line} makes a new jitted "
            "function inside batch_means on every call, and a new function starts with an empty cache", **common),
            msg("budget.new_function", "{head}: {function} compiled {times} because a new jitted function is made on "
                "every call, and a new function starts with an empty cache", **common)),
            msg("advice.jit_once", "make the jitted function once, at module level (a decorator or a global), and "
                "call that same function from batch_means"))
    if "static" in kinds:
        return (msg("budget.static", "{head}: {function} compiled {times} because a static argument took a new "
                    "value each time ({why}); a static value is part of the cache key", why=calls.why_compiled(limit=1),
                    **common),
                msg("advice.traced", "keep the lengths an ordinary (traced) array argument and mask with "
                    "jnp.arange(width) < length, so only the padded width decides the shape"))
    return _shape_story(g, function, common, originals)


def _advice_buckets():
    return msg("advice.buckets", "pad every row to one of a few fixed widths chosen in advance (64 alone, powers of "
               "two, or multiples of 8) and mask the padding")


def _shape_story(g, function: str, common: dict, originals):
    """Which axis of the jitted function's input kept changing, from the shapes the jit spy recorded."""
    shapes, longest = [], []
    for c in g.jit_spy.calls:
        if c.call is not None and function in (f"jit({c.function})", c.function):
            floats = [a.shape for a in c.arrays if a.dtype.kind == "f"]
            if floats:
                shapes.append(max(floats, key=lambda sh: int(np.prod(sh))))
                longest.append(max(len(s) for s in originals[c.call - 1]))
    ndim = len(shapes[0]) if shapes and len({len(sh) for sh in shapes}) == 1 else 0  # 0: no one rank to compare
    sizes = [sorted({sh[ax] for sh in shapes}) for ax in range(ndim)]
    varying = [ax for ax in range(ndim) if len(sizes[ax]) > 1]
    for ax in varying:
        if all(sh[ax] == n for sh, n in zip(shapes, longest)):
            return (msg("budget.batch_longest", "{head}: {function} compiled {times} because its input is padded to "
                        "each batch's own longest sequence ({sizes}), and every batch's longest length is one no "
                        "earlier batch had: one new shape, one compile, per batch", sizes=shortened(sizes[ax], 6),
                        **common), _advice_buckets())
    if ndim == 2 and len(varying) == 2:
        few = [ax for ax in range(2) if len(sizes[ax]) <= 4]
        if few:
            fixed, other = few[0], 1 - few[0]
            return (msg("budget.two_axes", "{head}: {function} compiled {times}; axis {fixed} of its input is "
                        "bucketed ({fixed_sizes}), but axis {other} keeps changing ({other_sizes}), the number of "
                        "sequences in a group", fixed=fixed, other=other, fixed_sizes=shortened(sizes[fixed], 6),
                        other_sizes=shortened(sizes[other], 6), **common),
                    msg("advice.full_groups", "pad every group to 16 rows too, masking the empty ones (or put all "
                        "16 sequences in one padded array)"))
    if ndim == 1 and varying:
        return (msg("budget.lengths", "{head}: {function} compiled {times}; its input took {k} different lengths "
                    "({sizes}), and every new length is a new shape, so it compiled once for each",
                    k=len(sizes[0]), sizes=shortened(sizes[0], 6), **common), _advice_buckets())
    if len(varying) == 1:
        ax = varying[0]
        return (msg("budget.one_axis", "{head}: {function} compiled {times}; axis {axis} of its input took "
                    "{k} different sizes ({sizes}), one compile each", axis=ax, k=len(sizes[ax]),
                    sizes=shortened(sizes[ax], 6), **common), _advice_buckets())
    return (msg("budget.shapes", "{head}: {function} compiled {times}, once for every new input shape", **common),
            _advice_buckets())
