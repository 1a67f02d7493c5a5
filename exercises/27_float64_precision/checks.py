"""Checks for float64_precision: four calls, each with 512 float64 Unix timestamps (seconds, microsecond
resolution, from 1e9 to 2e9) whose gaps range from 0 (simultaneous events) through microseconds to hours.

Without 64-bit types, jit converts the float64 NumPy input to float32 at its boundary, silently: near 1.7e9 s the
float32 numbers are 128 s apart, so the gaps come out as 0 or multiples of 128 (precise), and the result is float32
(float64). Both 64-bit switches are accepted: the scoped jax.enable_x64 around the jitted call, or the global
jax_enable_x64 flag set at import (each grade runs in its own process, so the flag affects this grade only). The
gaps must come from jitted code that receives the timestamps (computed_in_jit): the recorded jitted calls are run
again with every timestamp moved by its own small amount, and the gaps must move by the differences of those
amounts.
"""

import jax
import numpy as np

from jittrainer.authoring import (as_floats, compare, is_tracer, msg, one_compile, refuse_beside_jit, refuse_fetching,
                                  rerun, when_eager, when_new_function)

CHECKS = {
    "runs": "gaps returns for every call",
    "precise": "every gap is right to the microsecond",
    "float64": "the gaps come back as float64",
    "computed_in_jit": "the gaps are computed by jitted code from the timestamps",
    "one_compile": "four calls of one length compile once",
}

N = 512
CALLS = 4
ATOL = 1e-6  # seconds: the timestamps' own resolution
X64_TIER = 2  # the hint tier that names jax.enable_x64 and jax_enable_x64
GAP_KINDS = ("same", "micro", "sub", "sec", "long")
GAP_WEIGHTS = (0.05, 0.15, 0.40, 0.37, 0.03)
X64_WARNING = "Explicitly requested dtype float64"


# -- graded values ---------------------------------------------------------------------------------------------


def make_gaps(rng: np.random.Generator) -> np.ndarray:
    kinds = rng.choice(len(GAP_KINDS), N - 1, p=GAP_WEIGHTS)
    lows = np.array([0.0, -6.0, -3.0, 0.0, 3.5])
    highs = np.array([0.0, -3.0, 0.0, 2.8, 4.9])
    gaps = 10.0 ** rng.uniform(lows[kinds], highs[kinds])
    gaps[kinds == 0] = 0.0
    gaps = np.round(gaps * 1e6) / 1e6
    gaps[(kinds == 1) & (gaps == 0)] = 1e-6
    return gaps


def make_times(rng: np.random.Generator, start: float) -> np.ndarray:
    t = start + np.concatenate([[0.0], np.cumsum(make_gaps(rng))])
    return np.round(t * 1e6) / 1e6  # microseconds since 1970 fit a float64 exactly enough (2e15 < 2**53)


def starts(rng: np.random.Generator) -> list[float]:
    """One start near 1e9, one near 2e9 (the ends of the range), two anywhere between, in random order."""
    picks = [rng.uniform(1.0e9, 1.05e9), rng.uniform(1.95e9, 1.99e9), rng.uniform(1.05e9, 1.95e9),
             rng.uniform(1.05e9, 1.95e9)]
    rng.shuffle(picks)
    return [float(round(p)) for p in picks]


def expected(t: np.ndarray) -> np.ndarray:
    return np.diff(t)  # two float64 numbers within a factor of 2 of each other subtract exactly


def _quantum(got: np.ndarray) -> float:
    """The largest power of two (from 2**12 down to 2**-30) that every nonzero gap is a whole multiple of; 0 if none:
    differences of float32 numbers of one size are multiples of their spacing."""
    nonzero = got[got != 0]
    if nonzero.size == 0:
        return 0.0
    for k in range(12, -31, -1):
        q = 2.0 ** k
        if np.all(np.mod(nonzero, q) == 0):
            return q
    return 0.0


def _dtype_of(result) -> str:
    dtype = getattr(result, "dtype", None)
    if dtype is None and isinstance(result, (list, tuple)) and result:
        dtype = getattr(result[0], "dtype", None)
    return str(dtype) if dtype is not None else type(result).__name__


# -- advice ----------------------------------------------------------------------------------------------------


def x64_advice():
    return msg("advice.x64", "turn 64-bit types on where this computation runs: call the jitted function inside "
               "with jax.enable_x64(True): ..., or set jax.config.update(\"jax_enable_x64\", True) at the top of your "
               "file")


def runs_advice(error):
    if error.type in ("ModuleNotFoundError", "ImportError", "AttributeError") and "x64" in error.message:
        return msg("advice.where_x64", "the switch is jax.enable_x64 (a context manager, top-level since JAX 0.8) "
                   "or the config flag jax_enable_x64; jax.experimental.enable_x64 is gone")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    gaps = g.graded(params=1)
    times = [make_times(g.rng, s) for s in starts(g.rng)]
    originals = [t.copy() for t in times]  # the learner may change the arrays it is given
    shifts = g.rng.uniform(-0.5, 0.5, N)
    calls = g.calls(gaps, [(t,) for t in times])
    g.check_ran("runs", calls, runs_advice, tier=X64_TIER)

    _check_precise(g, calls, originals)
    _check_float64(g, calls)
    _check_in_jit(g, originals[0], shifts)
    _check_compiles(g, calls)


def _x64_warning(calls) -> str:
    """JAX's truncation warning, as it reads, up to the end of its first sentence."""
    text = next((w for w in calls.warnings if X64_WARNING in w), "")
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text


def _check_precise(g, calls, originals) -> None:
    for call, (t, result) in enumerate(zip(originals, calls.results), 1):
        want = expected(t)
        got = as_floats(result, (N - 1,))
        if got is None:
            ok, why = compare(result, want, what=msg("what.call", "the result of call {call}", call=call))
            g.failed("precise", why, x64_advice(), tier=X64_TIER)
            return
        close = np.isclose(got, want, rtol=0.0, atol=ATOL)
        if close.all():
            continue
        wrong = np.flatnonzero(~close)
        under_a_second = [j for j in wrong if 0 < want[j] < 1.0]  # the telling kind: lost entirely in float32
        i = int(under_a_second[0]) if under_a_second else int(wrong[0])
        common = {"call": call, "i": i + 1, "got": float(got[i]) + 0.0, "want": float(want[i]),
                  "bad": int((~close).sum()), "total": N - 1}
        truncated = expected(t.astype(np.float32).astype(np.float64))
        rescaled = expected((t - t[0]).astype(np.float32).astype(np.float64))
        warning = _x64_warning(calls)
        env = g.lines_calling(r"JAX_ENABLE_X64")
        if np.allclose(got, truncated, rtol=0.0, atol=1e-3):
            spacing = float(np.spacing(np.float32(t[-1])))
            if env:
                observation = msg(
                    "precise.env_line", "gap {i} of call {call} came out {got:.6g} s where {want:.6f} s was "
                    "expected ({bad} of {total} gaps are wrong): the timestamps became float32 on their way into "
                    "jit, where neighbouring numbers near {t:.3g} are {spacing:g} s apart. Line {line} sets "
                    "JAX_ENABLE_X64 in the environment, but JAX reads that variable once, when it is imported, and "
                    "it was imported before your file ran", spacing=spacing, t=float(t[-1]), line=env[0], **common)
            elif warning:
                observation = msg(
                    "precise.warned", "gap {i} of call {call} came out {got:.6g} s where {want:.6f} s was expected "
                    "({bad} of {total} gaps are wrong): the timestamps became float32, where neighbouring numbers "
                    "near {t:.3g} are {spacing:g} s apart. Asking for float64 is not enough while 64-bit types are "
                    "off; JAX said so: \"{warning}\"", spacing=spacing, t=float(t[-1]), warning=warning, **common)
            else:
                observation = msg(
                    "precise.float32", "gap {i} of call {call} came out {got:.6g} s where {want:.6f} s was expected "
                    "({bad} of {total} gaps are wrong, most of them 0 or a multiple of {spacing:g} s): the float64 "
                    "timestamps were converted to float32 on their way into jit, silently, and near {t:.3g} "
                    "neighbouring float32 numbers are {spacing:g} s apart", spacing=spacing, t=float(t[-1]),
                    **common)
        elif np.allclose(got, rescaled, rtol=0.0, atol=1e-3):
            observation = msg(
                "precise.rescaled", "gap {i} of call {call} came out {got:.6g} s where {want:.6f} s was expected "
                "({bad} of {total} gaps are wrong): subtracting the first timestamp on the host keeps the numbers "
                "smaller, but they still become float32 in jit, which keeps only about 7 significant digits: over "
                "a span of {span:.3g} s that is not enough for microseconds", span=float(t[-1] - t[0]), **common)
        elif _quantum(got) >= 2.0 ** -12:
            observation = msg(
                "precise.quantized", "gap {i} of call {call} came out {got:.6g} s where {want:.6f} s was expected "
                "({bad} of {total} gaps are wrong), and every gap is a multiple of {q:g} s: the timestamps were "
                "float32 when they were subtracted, and float32 numbers of their size (after any shift) lie {q:g} s "
                "apart or more", q=_quantum(got), **common)
        else:
            observation = msg("precise.wrong", "gap {i} of call {call} came out {got:.9g} s where {want:.6f} s was "
                              "expected ({bad} of {total} gaps are wrong)", **common)
        g.failed("precise", observation, x64_advice(), tier=X64_TIER)
        return
    g.passed("precise", msg("precise.ok", "all {n} gaps are right to the microsecond", n=CALLS * (N - 1)))


def _check_float64(g, calls) -> None:
    for call, result in enumerate(calls.results, 1):
        dtype = _dtype_of(result)
        if dtype == "float64":
            continue
        warning = _x64_warning(calls)
        if warning:
            observation = msg("float64.warned", "call {call} returned {dtype}, not float64; JAX warned: "
                              "\"{warning}\"", call=call, dtype=dtype, warning=warning)
        else:
            observation = msg("float64.other", "call {call} returned {dtype}, not float64: with 64-bit types off, "
                              "JAX computes and returns float32 whatever dtype its input had", call=call,
                              dtype=dtype)
        g.failed("float64", observation, x64_advice(), tier=X64_TIER)
        return
    g.passed("float64", msg("float64.ok", "every call returned float64"))


# -- computed under jit ----------------------------------------------------------------------------------------


def _is_times(leaf) -> bool:
    return (isinstance(leaf, (np.ndarray, jax.Array)) and not is_tracer(leaf) and tuple(leaf.shape) == (N,)
            and np.dtype(leaf.dtype).kind == "f")


def _moved_gaps(g, call, shift: np.ndarray) -> np.ndarray | None:
    """The gaps (the output of N - 1 numbers, float64) the call returns when run again with every float array of N
    values moved by ``shift`` (float64, on the host); None when it returns none, or raised."""
    def move(leaf):
        if _is_times(leaf):
            return np.asarray(leaf, dtype=np.float64) + shift
        return leaf

    outputs = rerun(g, call, *jax.tree_util.tree_map(move, (call.args, call.kwargs))).outputs
    return next((leaf for leaf in outputs or [] if tuple(leaf.shape) == (N - 1,)), None)


def _check_in_jit(g, t, shift) -> None:
    candidates = [c for c in g.jit_spy.calls if c.call == 1 and any(_is_times(leaf) for leaf in
                                                                     jax.tree_util.tree_leaves((c.args, c.kwargs)))]
    advice = msg("advice.in_jit", "pass the timestamps themselves to the jitted function and subtract there, "
                 "t[1:] - t[:-1], with 64-bit types on")
    if not candidates:
        g.failed("computed_in_jit", msg(
            "in_jit.none", "during call 1 no jitted function received the 512 timestamps: the gaps were computed "
            "outside jit (on the host), and jit saw at most the finished numbers"), advice)
        return
    want = np.diff(shift)
    for call in candidates:
        try:  # rerun catches what the call raises; reading the arguments again may fail too (a donated buffer)
            with jax.enable_x64(True):
                before, after = _moved_gaps(g, call, np.zeros(N)), _moved_gaps(g, call, shift)
        except Exception:
            continue
        if before is not None and after is not None and np.allclose(after - before, want, rtol=0.0, atol=1e-5):
            if not refuse_beside_jit(g, "computed_in_jit", [call], lambda: g.graded_function(t.copy()), what="t",
                                     graded="gaps", advice=advice):
                refuse_fetching(g, "computed_in_jit", advice=advice, passed=msg(
                    "in_jit.ok", "run again with every timestamp moved, the jitted function's gaps moved by exactly "
                    "the differences"))
            return
    g.failed("computed_in_jit", msg(
        "in_jit.static", "a jitted function received the timestamps during call 1, but when it was run again with "
        "every timestamp moved by its own small amount (up to half a second), its gaps did not move by the "
        "differences of those amounts: the gaps are not computed there from the timestamps"), advice)


def _check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "{calls} with 512 timestamps each gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused for every call"), [
        when_new_function(advice=msg("advice.jit_once", "jit the gap function once, at module level, and call it "
                                     "inside the 64-bit block")),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program"),
                   msg("advice.inside", "keep the work inside the jitted function, which compiles once"))])
