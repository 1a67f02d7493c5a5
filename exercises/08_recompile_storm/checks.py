"""Checks for recompile_storm: 10 batches of 16 ragged sequences; means must be right, computed under jit,
with at most 10 compiles in all."""

from __future__ import annotations

from collections import Counter

import jax
import numpy as np

from jittrainer.core.toolkit import compare, plural

CHECKS = {
    "runs": "batch_means returns for every batch",
    "values": "returns the 16 means, in order",
    "reaches_jit": "every sequence reaches jit-compiled code",
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
    "convert_element_type": "a dtype conversion, e.g. inside jnp.pad, jnp.asarray or .astype",
    "_where": "jnp.where",
    "_mean": "jnp.mean",
    "nanmean": "jnp.nanmean",
    "_reduce_sum": "jnp.sum",
    "_squeeze": "indexing or .at[...] on a jax array",
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
    return [sequence(rng, int(n)) for n in rng.integers(1, MAX_LEN + 1, ROWS)]


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
        padded = _padding_counted(result, seqs, want) or _reordered(result, want)
        g.check("values", False, f"batch {b}: {padded}" if padded else why)
        return
    g.check("values", True, passed=f"all {BATCHES * ROWS} means match")


def _padding_counted(result, seqs, want) -> str:
    """'sequence 3 (length 17): … divided by 64 …' when a wrong mean is the sum over a padded width."""
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return ""
    if got.size != len(seqs):
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


def _reordered(result, want) -> str:
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return ""
    if got.size == want.size and np.allclose(np.sort(got), np.sort(want), rtol=1e-4, atol=1e-4):
        return "these are the right 16 means but in another order; return them in the order of seqs"
    return ""


def check_reaches_jit(g, originals) -> bool:
    spy = g.jit_spy
    missing = []  # (batch, sequence index)
    for b, seqs in enumerate(originals, 1):
        hay, tol = _haystack(spy.arrays_in(b))
        for i, s in enumerate(seqs, 1):
            if hay.size == 0 or not _contains(hay, tol, s):
                missing.append((b, i))
    if not missing:
        return g.check("reaches_jit", True, passed=f"all {BATCHES * ROWS} sequences were passed to jitted code")
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
            f"jitted function — in batch {b} your jitted functions received only {_shapes(spy.arrays_in(b))}"
            f"{'' if len(missing) == 1 else f' ({len(missing)} of {total} sequences are missing)'}. Pass the padded "
            f"sequences themselves to the jitted function and average them inside it"
        )
    g.check("reaches_jit", False, message)
    return False


def check_compiles(g, calls, reached: bool) -> None:
    total = calls.compiles
    per_batch = [calls.window.compiles_in_call(b) for b in range(1, BATCHES + 1)]
    if total == 0:
        if reached:
            message = (
                f"nothing was compiled during the {BATCHES} batches, though the sequences reached jitted code: "
                f"everything was compiled before the first batch (a warm-up at import?). The grader counts the "
                f"compiles of the graded calls, so let the first batch do its own compiling"
            )
        else:
            message = (
                f"nothing was compiled during the {BATCHES} batches: no jitted function did any work. Compute the "
                f"means inside a function wrapped with jax.jit"
            )
        g.check("compile_budget", False, message)
        return
    if total <= BUDGET:
        g.check("compile_budget", True, passed=_passed_text(total, per_batch))
        return
    running = np.cumsum(per_batch)
    first = int(np.argmax(running > BUDGET)) + 1
    head = f"the {BATCHES} batches compiled {total} times, and the budget is {BUDGET}: "
    if first == 1:
        head += f"batch 1 alone compiled {per_batch[0]} times"
    else:
        head += f"batch {first} took the count past it"
    parts = _by_function(calls.reasons(), g.jit_spy.jitted_names)
    advice_text = (
        "Pad every sequence on the host with NumPy to a few bucket sizes (the next power of two, or simply 64) and "
        "mask the padding, so a handful of shapes serve every batch."
    )
    g.check("compile_budget", False, f"{head}. {' '.join(parts)} {advice_text}")


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


def _by_function(misses, library_jits: set[str], limit: int = 3) -> list[str]:
    counts = Counter(m.function for m in misses)
    own, eager = [], []
    for function, count in counts.most_common():
        mine = [m for m in misses if m.function == function]
        if function in library_jits or any(m.kind != "jax_internal" for m in mine):
            own.append((function, count, mine))
        else:
            eager.append((function, count))
    repeated = [entry for entry in own if entry[1] > 1]  # a function compiled once is no storm
    parts = [f"{fn} compiled {plural(count, 'time')}: {_why(mine)}." for fn, count, mine in repeated[:limit]]
    if len(repeated) > limit:
        parts.append(f"({plural(len(repeated) - limit, 'other jitted function')} compiled more than once too.)")
    if eager:
        shown = []
        for function, count in eager[:limit]:
            name = function[4:-1] if function.startswith("jit(") and function.endswith(")") else function
            source = EAGER_SOURCES.get(name)
            shown.append(f"{function} {plural(count, 'time')}" + (f" ({source})" if source else ""))
        if len(eager) > limit:
            shown.append(f"{plural(len(eager) - limit, 'other')}")
        parts.append(
            "Eager jax.numpy calls outside jit compile too, once for every new input shape: "
            + ", ".join(shown)
            + ". Do that work on the host with NumPy (np.zeros, slice assignment, np.pad) instead."
        )
    return parts


def _why(misses) -> str:
    if all(m.kind == "jax_internal" for m in misses):  # jax.jit of a JAX function (jnp.mean): JAX does not explain those
        return (
            "jax.jit of a JAX function compiles once for every new input shape, and every new sequence length is a "
            "new shape"
        )
    later = [m for m in misses if m.kind not in ("jax_internal", "first")]
    example = (later or misses)[0]
    reason = example.reason.split("; ")
    reason = reason[0] + ("; …" if len(reason) > 1 else "")
    where = f" (batch {example.call}: {reason})" if example.call else f" ({reason})"
    if "new function object" in reason:
        return (
            "it is a new function object each time (jax.jit of a lambda or a function defined inside "
            "batch_means), so nothing compiled before can be reused; create the jitted function once, at module "
            f"level (batch {example.call}: a new function object)"
        )
    if "static argument" in reason:
        return (
            "every new static value is a new compile; keep lengths traced and mask with jnp.arange(width) < length"
            + where
        )
    if "changed from" in reason or "new shape" in reason:
        return "every new sequence length is a new input shape, and every new shape is a new compile" + where
    return reason
