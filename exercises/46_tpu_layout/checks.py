"""Checks for tpu_layout: keys(x, w) = x @ w for float32 x[32, 64, 768] and w[768, 768], returned as one float32
array of any shape whose row-major order is that of (x @ w).reshape(32, 64, 12, 64), graded under jax.jit. The CPU
checks hold three calls against a float64 product; `on_chip` is decided on a TPU by the device executor, which runs
the program exported from the first graded call on its own seeded standard-normal inputs (manifest
[grading.device]) against device_reference.py, in row-major order (any_shape), and reads the result's bytes from
memory_analysis() of the program compiled there (max_output_factor).

Measured on a TPU v5e (JAX 0.10.2), float32 results, memory_analysis().output_size_in_bytes / logical bytes: a TPU
keeps an array's two minor dimensions in tiles of 8 x 128 and pads each up: (32, 12, 64, 64) 2.0x, (64, 50, 50)
2.24x, (1024, 10) 1.6x, (2, 3, 5, 7) 18.3x; (32, 64, 768) 1.0x, (1024, 1024) and (1024, 1000) about 1.0x, a flat
(160000,) 1.005x; (4096, 3) and (3, 4096) both 1.33x (the chip chose which dimension fills the 128 lanes; so does
(1024, 10)'s 1.6x). On the CPU memory_analysis() reports the logical size for every shape: only the chip tells
them apart. The starter's (32, 64, 12, 64) has no dimension that is a multiple of 128, so some tile is half empty
whatever the layout; the verdict names the factor the chip measured.
"""

from itertools import permutations

import jax
import numpy as np

from jittrainer.authoring import float32_atol, msg, type_of, values_match

CHECKS = {
    "runs": "keys runs under jax.jit",
    "values": "returns the keys as one float32 array, in the row-major order of (x @ w).reshape(32, 64, 12, 64), "
              "on the CPU",
    "on_chip": "on a TPU, the result takes at most 1.25 times its logical size, with the right values",
}

BATCH, POSITIONS, MODEL, HEADS, DIM = 32, 64, 768, 12, 64
SHAPE = (BATCH, POSITIONS, HEADS, DIM)  # the keys as (batch, position, head, dim)
SIZE = BATCH * POSITIONS * MODEL  # 1,572,864
CALLS = 3
RTOL = 1e-5  # plus float32_atol of |x| @ |w|
FIX_TIER = 2  # the hint tier that names the tile and the shape to store


def draw(rng: np.random.Generator):
    x = rng.standard_normal((BATCH, POSITIONS, MODEL)).astype(np.float32)
    w = (rng.standard_normal((MODEL, MODEL)) / np.sqrt(MODEL)).astype(np.float32)
    return x, w


def _mm(a, b):
    # einsum without optimize: NumPy's own route, no BLAS thread pool spinning on a loaded machine.
    return np.einsum("bpm,mk->bpk", a.astype(np.float64), b.astype(np.float64), optimize=False)


def layout_advice():
    return msg("advice.layout", "keep the last dimension of what you return a multiple of 128 (and the one before "
               "it a multiple of 8): return x @ w as it comes, (32, 64, 768), or as (2048, 768), with the heads "
               "folded into the last dimension. Where attention reads the cache, view it per head with "
               ".reshape(32, 64, 12, 64) inside that program: a reshape that keeps the row-major order moves no "
               "value")


def values_advice():
    return msg("advice.values", "return the keys themselves: float32, one array, and between the product and "
               "what you return only reshapes, which never change the row-major order (a transpose or a "
               "moveaxis does)")


def _one_array(result) -> bool:
    return type(result) is np.ndarray or (isinstance(result, jax.Array) and not isinstance(result, jax.core.Tracer))


def _axes(order) -> object:
    names = [msg("axis.batch", "batch"), msg("axis.position", "position"), msg("axis.head", "head"),
             msg("axis.dim", "dim")]
    return msg("axes.order", "{a}, {b}, {c}, {d}", **{k: names[a] for k, a in zip("abcd", order)})


def _order_slip(i: int, result: np.ndarray, want: np.ndarray, atol: np.ndarray):
    """Call i's result read as the keys with the axes (batch, position, head, dim) in another order, when one fits."""
    for order in permutations(range(4)):
        if order == (0, 1, 2, 3):
            continue
        moved = np.transpose(want, order).reshape(-1)
        if np.allclose(result.reshape(-1), moved, rtol=RTOL, atol=np.transpose(atol, order).reshape(-1)):
            return msg("values.order", "the result of call {i} holds the keys in another order: ({order}) where the "
                       "contract asks for (batch, position, head, dim). A reshape keeps the row-major order; a "
                       "transpose (or moveaxis, swapaxes, an einsum that writes the axes in another order) moves the "
                       "values, and the result is another array", i=i, order=_axes(order))
    return None


def _form(i: int, result, want: np.ndarray):
    """What is wrong with the form of call i's result (not one array, another dtype, another number of values),
    or None when it is one float32 array of SIZE values."""
    what = msg("what.call", "the result of call {i}", i=i)
    if isinstance(result, (tuple, list)):
        parts = sorted({type_of(r) for r in result})
        return msg("form.several", "{what} is a {kind} of {n} values ({types}). The contract asks for one float32 "
                   "array holding all 1,572,864 keys", what=what, kind=type(result).__name__, n=len(result),
                   types=", ".join(parts[:3]) + (", …" if len(parts) > 3 else ""))
    if not _one_array(result):
        return msg("form.not_array", "{what} is {type}; expected one float32 array holding the 1,572,864 keys",
                   what=what, type=type_of(result))
    dtype = np.dtype(result.dtype).name
    if dtype != "float32":
        return msg("form.dtype", "{what} is {type}: the keys are float32 values, and a {dtype} array holds other "
                   "numbers (rounded to {dtype}, or of another kind). Fewer bytes per value is another result, not "
                   "a smaller copy of this one", what=what, type=type_of(result), dtype=dtype)
    size = int(np.prod(result.shape, dtype=np.int64))
    if size == SIZE:
        return None
    base = msg("form.size", "{what} is {type}: {n} values where the keys are 1,572,864 (32 · 64 · 768)", what=what,
               type=type_of(result), n=f"{size:,}")
    if size == 2 * SIZE:
        got = np.asarray(result, np.float64).reshape(BATCH, POSITIONS, HEADS, 2 * DIM)
        scale = float(np.abs(want).max())
        if np.allclose(got[..., :DIM], want, rtol=1e-3, atol=1e-3 * scale) and not np.any(got[..., DIM:]):
            return msg("form.padded", "{base}: each head's 64 values followed by 64 zeros. The zeros are values of "
                       "the result, counted in its logical size: the padding the chip would add is now in the array "
                       "itself, and the cache is as large as before", base=base)
    return base


def grade(g):
    keys = g.graded(params=2)
    cases = [draw(g.rng) for _ in range(CALLS)]  # the first call's shapes are the program the TPU runs
    calls = g.calls(keys, cases)
    g.check_ran("runs", calls)
    wants = [_mm(x, w).reshape(SHAPE) for x, w in cases]
    atols = [float32_atol(_mm(np.abs(x), np.abs(w))).reshape(SHAPE) for x, w in cases]
    wrong = next((why for i, (result, want) in enumerate(zip(calls.results, wants), 1)
                  if (why := _form(i, result, want)) is not None), None)
    if wrong is not None:
        g.failed("values", wrong, values_advice(), tier=FIX_TIER)
    else:
        results = [np.asarray(r, np.float64).reshape(SHAPE) for r in calls.results]

        values_match(g, "values", results, wants, rtol=RTOL, atol=lambda i: atols[i - 1], refuse=True,
                     what=lambda i: msg("what.row_major", "the result of call {i}, read in row-major order as "
                                        "(batch, position, head, dim),", i=i),
                     slip=lambda i, result: _order_slip(i, result, wants[i - 1], atols[i - 1]),
                     advice=values_advice(), tier=FIX_TIER,
                     ok=msg("values.ok", "all {n} results hold the keys in row-major order, to float32 rounding, on "
                            "the CPU", n=CALLS))
    g.on_device("on_chip", advice=layout_advice(), tier=FIX_TIER)
