"""Checks for recompile_storm: 10 batches of 16 ragged sequences; means must be right, computed under jit,
with at most 10 compiles in all."""

from __future__ import annotations

from collections import Counter

import numpy as np

from jittrainer.core.toolkit import compare, plural

CHECKS = {
    "runs": "batch_means returns for every batch",
    "values": "returns the 16 means, in order",
    "reaches_jit": "every sequence is averaged by jit-compiled code",
    "compile_budget": "10 batches compile at most 10 times",
}

BATCHES = 10
ROWS = 16
MAX_LEN = 64
BUDGET = 10

# What a compile of one of JAX's own functions most likely came from: an eager jax.numpy call outside jit.
EAGER_SOURCES = {
    "stage": "jnp.asarray / jnp.array",
    "_pad": "jnp.pad",
    "pad": "jnp.pad",
    "broadcast_in_dim": "jnp.zeros / jnp.ones / jnp.full",
    "iota": "jnp.arange",
    "stack": "jnp.stack",
    "concatenate": "jnp.concatenate",
    "scatter": "x.at[...].set",
    "dynamic_update_slice": "x.at[...].set",
    "convert_element_type": "dtype conversions like .astype",
    "_where": "jnp.where",
    "_mean": "jnp.mean",
    "nanmean": "jnp.nanmean",
    "_reduce_sum": "jnp.sum",
    "_squeeze": "indexing a jax array",
    "squeeze": "indexing a jax array",
    "dynamic_slice": "indexing a jax array, x[i]",
    "unstack": "list(x) or a loop over a jax array",
}


# ------------------------------------------------------------------------------------------------ inputs


def sequence(rng: np.random.Generator, n: int) -> np.ndarray:
    """float32[n] whose values sit well away from 0 (mean 3..8 in size, either sign)."""
    loc = rng.choice([-1.0, 1.0]) * rng.uniform(3.0, 8.0)
    return rng.normal(loc, rng.uniform(0.3, 1.5), n).astype(np.float32)


def make_batch(rng: np.random.Generator) -> list[np.ndarray]:
    """16 sequences. Real data holds exact zeros too: two sequences get one inside, so "length = count of
    nonzero values" is not a way to find the padding (the means stay well away from 0)."""
    seqs = [sequence(rng, int(n)) for n in rng.integers(1, MAX_LEN + 1, ROWS)]
    long_enough = [i for i, seq in enumerate(seqs) if len(seq) >= 4]
    for i in rng.choice(long_enough, size=min(2, len(long_enough)), replace=False):
        seqs[i][rng.integers(1, len(seqs[i]) - 1)] = 0.0
    return seqs


def expected(seqs: list[np.ndarray]) -> np.ndarray:
    return np.array([s.astype(np.float64).mean() for s in seqs])


# ------------------------------------------------------------------------------------------------ jit spy


def setup(g):
    """Spy on jax.jit: every function the learner's code jits (JAX's own too, e.g. jax.jit(jnp.mean)) records
    its array arguments, and its name marks compiles that are the learner's even when JAX gives no explanation."""
    g.spy_jit()


# ------------------------------------------------------------------------------------------ value search


def _haystack(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """All recorded floating arguments of one call, flattened (and, for 2-D and up, also column-wise), separated by
    NaN so that no run spans two arrays; plus a relative tolerance per position from each array's dtype."""
    parts, tols = [], []
    for a in arrays:
        try:
            a = np.asarray(a)
            if a.dtype.kind in "biucOUSM" or a.size == 0:
                continue
            try:
                eps = float(np.finfo(a.dtype).eps)
            except Exception:
                eps = 1e-3
            tol = max(1e-6, 4 * eps)
            flats = [a.astype(np.float64).ravel()]
            if a.ndim >= 2:
                flats.append(np.swapaxes(a, -1, -2).astype(np.float64).ravel())
        except Exception:
            continue
        for flat in flats:
            parts += [flat, np.array([np.nan])]
            tols += [np.full(flat.size, tol), np.array([0.0])]
    if not parts:
        return np.empty(0), np.empty(0)
    return np.concatenate(parts), np.concatenate(tols)


def _contains(hay: np.ndarray, tol: np.ndarray, seq: np.ndarray) -> bool:
    s = seq.astype(np.float64)
    n = s.size
    with np.errstate(invalid="ignore"):
        starts = np.flatnonzero(np.abs(hay - s[0]) <= tol * abs(s[0]) + 1e-12)
    for j in starts[:200]:
        if j + n <= hay.size:
            with np.errstate(invalid="ignore"):
                if np.all(np.abs(hay[j : j + n] - s) <= tol[j : j + n] * np.abs(s) + 1e-12):
                    return True
    return False


def _shapes(arrays: list[np.ndarray], limit: int = 4) -> str:
    counts = Counter(f"{np.asarray(a).dtype}{list(np.shape(a))}" for a in arrays)
    parts = [f"{k} x{v}" if v > 1 else k for k, v in counts.most_common(limit)]
    if len(counts) > limit:
        parts.append(f"and {len(counts) - limit} more shapes")
    return ", ".join(parts)


# ------------------------------------------------------------------------------------------------ advice


def advice(error) -> str:
    text = error.message
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError", "TracerBoolConversionError") or (
        error.type == "IndexError" and "static" in text
    ):
        return (
            "Inside jit a length is a tracer, not a number: slicing x[:n] or range(n) would need a static n, and a "
            "static length compiles once per length. Keep the padded width and mask instead: "
            "jnp.arange(width) < n"
        )
    if error.type in ("ValueError", "TypeError") and (
        "same shape" in text or "inhomogeneous" in text or "with a sequence" in text
    ):
        return (
            "The sequences have different lengths, so they cannot be stacked as they are: pad each one to a "
            "common width on the host first (np.zeros((16, width)) and copy each sequence in)"
        )
    return ""


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    batch_means = g.graded(params=1)
    batches = [make_batch(g.rng) for _ in range(BATCHES)]
    originals = [[s.copy() for s in b] for b in batches]  # the learner may pad or sort the arrays it is given
    wants = [expected(b) for b in originals]
    calls = g.calls(batch_means, [(b,) for b in batches])
    g.check_ran("runs", calls, advice=advice)

    check_values(g, calls.results, originals, wants)
    reached = check_reaches_jit(g, originals)
    check_compiles(g, calls, reached)


def check_values(g, results, originals, wants) -> None:
    for b, (result, seqs, want) in enumerate(zip(results, originals, wants), 1):
        ok, why = compare(result, want, rtol=1e-4, atol=1e-4, what=f"the result for batch {b}")
        if ok:
            continue
        padded = _padding_counted(result, seqs, want) or _zeros_taken_for_padding(result, seqs, want) or _reordered(
            result, want
        )
        g.check("values", False, f"batch {b}: {padded}" if padded else why)
        return
    g.check("values", True, passed=f"all {BATCHES * ROWS} means match")


def _means_of(result, seqs) -> np.ndarray | None:
    """The learner's result as one mean per sequence, or None when it is not that shape."""
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return None
    return got if got.size == len(seqs) else None


def _padding_counted(result, seqs, want) -> str:
    """'sequence 3 (length 17): … divided by 64 …' when a wrong mean is the sum over a padded width."""
    got = _means_of(result, seqs)
    if got is None:
        return ""
    for i, (s, value, right) in enumerate(zip(seqs, got, want), 1):
        if np.isclose(value, right, rtol=1e-4, atol=1e-4) or value == 0 or not np.isfinite(value):
            continue
        width = float(s.astype(np.float64).sum()) / value
        if width > len(s) + 0.5 and abs(width - round(width)) < 0.02:
            return (
                f"sequence {i} has length {len(s)} and mean {right:.5g}, but you returned {value:.5g}: its sum "
                f"divided by {round(width)}, not by {len(s)}. The padding was counted as data; average only the "
                f"real positions (a masked sum divided by the true length)"
            )
        return ""
    return ""


def _zeros_taken_for_padding(result, seqs, want) -> str:
    """When exactly the sequences holding a real 0.0 come out wrong, by the sum over one position fewer."""
    got = _means_of(result, seqs)
    if got is None:
        return ""
    wrong = [i for i, (v, w) in enumerate(zip(got, want)) if not np.isclose(v, w, rtol=1e-4, atol=1e-4)]
    zeros = [i for i, seq in enumerate(seqs) if (seq == 0).any()]
    if not wrong or wrong != zeros:
        return ""
    i = wrong[0]
    return (
        f"sequence {i + 1} holds a real 0.0 among its values, and its mean came out as if it were "
        f"{int((seqs[i] != 0).sum())} long, not {len(seqs[i])}: counting nonzero values mistakes data for padding. "
        "Pass the true lengths (or a mask built from them) to the jitted function"
    )


def _reordered(result, want) -> str:
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return ""
    if got.size == want.size and np.allclose(np.sort(got), np.sort(want), rtol=1e-4, atol=1e-4):
        return "these are the right 16 means but in another order; return them in the order of seqs"
    return ""


def _float_size(arrays) -> int:
    return int(sum(np.size(a) for a in arrays if np.asarray(a).dtype.kind == "f"))


def _largest_float(arrays) -> int:
    return max((int(np.size(a)) for a in arrays if np.asarray(a).dtype.kind == "f"), default=0)


def _reduces(call) -> bool:
    """The jitted call returned far fewer numbers than the largest float array it received — the one holding the
    sequences (16 means from a padded batch, one mean from one padded sequence) — so the averaging happened
    inside it. Handing back the padded data, masked or half-summed, is not averaging."""
    out = sum(call.out_sizes)
    return out <= 1 or 4 * out <= _largest_float(call.arrays)


def check_reaches_jit(g, originals) -> bool:
    spy = g.jit_spy
    missing, passed_through = [], []  # (batch, sequence index): never in a jitted call / only in non-reducing ones
    for b, seqs in enumerate(originals, 1):
        in_batch = [c for c in spy.calls if c.call == b and c.arrays]
        hay, tol = _haystack([a for c in in_batch for a in c.arrays])
        hay_r, tol_r = _haystack([a for c in in_batch if _reduces(c) for a in c.arrays])
        for i, s in enumerate(seqs, 1):
            if hay.size == 0 or not _contains(hay, tol, s):
                missing.append((b, i))
            elif hay_r.size == 0 or not _contains(hay_r, tol_r, s):
                passed_through.append((b, i))
    if not missing and not passed_through:
        return g.check("reaches_jit", True, passed=f"all {BATCHES * ROWS} sequences were averaged by jitted code")
    if not missing:
        b, i = passed_through[0]
        calls_b = [c for c in spy.calls if c.call == b and c.arrays and not _reduces(c)]
        c = max(calls_b, key=lambda c: _float_size(c.arrays))
        message = (
            f"the means were computed outside jit: in batch {b} the sequences went into your jitted function "
            f"{c.function}, but it returned {sum(c.out_sizes)} numbers for the {_largest_float(c.arrays)} values of the "
            f"padded data it received ({_shapes(c.arrays, 2)}), so the "
            "averaging happened afterwards. Average inside the jitted function: it should return the means"
        )
        g.check("reaches_jit", False, message)
        return False
    b, i = missing[0]
    length = len(originals[b - 1][i - 1])
    jitted_calls = [c for c in spy.calls if c.call == b]
    total = BATCHES * ROWS
    if not any(c.call is not None for c in spy.calls):
        message = (
            f"the means were computed outside jit: batch_means never called a jitted function in any of the "
            f"{BATCHES} batches. Do the masked mean inside a function wrapped with jax.jit and pass it the padded "
            f"sequences"
        )
    elif not jitted_calls or not spy.arrays_in(b):
        message = (
            f"the means were computed outside jit: during batch {b} no array reached a jitted function, so "
            f"sequence {i} (length {length}) never did. Pass the padded sequences themselves to your jitted function"
        )
    else:
        message = (
            f"the means were computed outside jit: sequence {i} of batch {b} (length {length}) never reached a "
            f"jitted function, which received only {_shapes(spy.arrays_in(b), 2)}"
            f"{'' if len(missing) == 1 else f' ({len(missing)} of {total} sequences are missing)'}. Pass the padded "
            f"sequences themselves to the jitted function and average them inside it"
        )
    g.check("reaches_jit", False, message)
    return False


def check_compiles(g, calls, reached: bool) -> None:
    total = calls.compiles
    per_batch = [calls.window.compiles_in_call(b) for b in range(1, BATCHES + 1)]
    if total == 0:
        message = (
            f"nothing was compiled during the {BATCHES} batches"
            + (
                ", though the sequences reached jitted code: it was compiled before the first batch (ahead of time?). "
                "Let the first batch do its own compiling"
                if reached
                else ": no jitted function did any work. Compute the means inside a function wrapped with jax.jit"
            )
        )
        g.check("compile_budget", False, message)
        return
    if total <= BUDGET:
        g.check("compile_budget", True, passed=_passed_text(total, per_batch))
        return
    head = f"the {BATCHES} batches compiled {total} times (budget {BUDGET})"
    g.check("compile_budget", False, f"{head}. {_cause(g, calls.reasons())}")


def _cause(g, misses) -> str:
    """The main reason for the compiles, in one or two short sentences."""
    library_jits = g.jit_spy.jitted_names
    counts = Counter(m.function for m in misses)

    def learners(function: str) -> bool:  # JAX explains misses only for functions from the learner's code
        return function in library_jits or any(m.kind != "jax_internal" for m in misses if m.function == function)

    own = {f: n for f, n in counts.items() if learners(f)}
    eager = {f: n for f, n in counts.items() if f not in own}
    parts = []
    if own:
        function, n = max(own.items(), key=lambda kv: kv[1])
        if n > 1:
            mine = [m for m in misses if m.function == function]
            parts.append(f"{function} compiled {plural(n, 'time')}: {_why(g, function, mine)}")
    if eager and (not parts or sum(eager.values()) >= sum(own.values())):
        # the operation the learner wrote first; a dtype conversion is usually inside one of them
        order = sorted(eager, key=lambda f: (eager[f], "convert_element_type" not in f), reverse=True)
        names = list(dict.fromkeys(EAGER_SOURCES.get(_bare(f), _bare(f)) for f in order))
        more = ", …" if len(names) > 2 else ""
        parts.append(
            f"Eager jax.numpy calls outside jit compiled {plural(sum(eager.values()), 'time')} "
            f"({', '.join(names[:2])}{more}), once per new shape: pad with NumPy on the host instead"
        )
    if not parts:
        parts.append(
            "Pad every sequence on the host with NumPy to a few bucket widths (or simply 64) and mask the padding"
        )
    return ". ".join(parts) + "."


def _bare(function: str) -> str:
    return function[4:-1] if function.startswith("jit(") and function.endswith(")") else function


def _why(g, function: str, misses) -> str:
    kinds = {m.kind for m in misses}
    if "new_function" in kinds:
        return (
            "a new jitted function is made on every call (jax.jit inside batch_means), so nothing is reused; jit "
            "once, at module level"
        )
    if "static" in kinds:
        return (
            "a static argument takes a new value each time; keep lengths traced and mask with "
            "jnp.arange(width) < length"
        )
    return _shape_story(g, function)


def _shape_story(g, function: str) -> str:
    """Which axis of the jitted function's input kept changing, from the shapes the jit spy recorded."""
    shapes = []
    for c in g.jit_spy.calls:
        if c.call is not None and function in (f"jit({c.function})", c.function):
            floats = [np.shape(a) for a in c.arrays if np.asarray(a).dtype.kind == "f"]
            if floats:
                shapes.append(max(floats, key=lambda sh: int(np.prod(sh))))
    generic = (
        "every new sequence length is a new input shape. Pad to a few fixed widths (64, or powers of two) and mask"
    )
    if not shapes or len({len(sh) for sh in shapes}) != 1:
        return generic
    ndim = len(shapes[0])
    varying = [ax for ax in range(ndim) if len({sh[ax] for sh in shapes}) > 1]
    if ndim == 2 and len(varying) >= 1:
        sizes = [sorted({sh[ax] for sh in shapes}) for ax in range(2)]
        few = [ax for ax in range(2) if len(sizes[ax]) <= 3]
        if len(varying) == 2 and few:
            fixed = few[0]
            other = 1 - fixed
            return (
                f"axis {fixed} is bucketed ({_values(sizes[fixed])}), but axis {other} keeps changing "
                f"({_values(sizes[other])}), the number of sequences per group. Fix it too: pad every group to "
                f"{ROWS} rows, masking the empty ones"
            )
        if len(varying) == 1:
            ax = varying[0]
            return (
                f"its input's axis {ax} took {len(sizes[ax])} sizes ({_values(sizes[ax])}), one shape each. Keep that "
                "axis at a few fixed sizes and mask"
            )
    return generic


def _values(values: list[int], limit: int = 5) -> str:
    shown = ", ".join(map(str, values[:limit]))
    return shown + (", …" if len(values) > limit else "")


def _passed_text(total: int, per_batch: list[int]) -> str:
    text = f"{plural(total, 'compile')} over {BATCHES} batches (budget {BUDGET})"
    if per_batch[0] == total:
        return f"{text}: batch 1 compiled, the other {BATCHES - 1} reused it"
    busy = sum(1 for n in per_batch if n)
    if busy == BATCHES:
        return (
            f"{text}, but every batch compiled: a new shape (or a new function) per batch is still a storm, "
            f"only a slower one. Fixed bucket sizes would compile once or a few times and then never again"
        )
    return f"{text}: {busy} of {BATCHES} batches compiled something; fewer bucket sizes would compile less"
