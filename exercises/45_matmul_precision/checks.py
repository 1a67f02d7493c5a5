"""Checks for matmul_precision: project(x, w) = x @ w for float32[512, 512] x and w, graded under jax.jit. The CPU
checks hold three calls against a float64 product; `on_chip` is decided on a TPU by the device executor, which runs
the program exported from the first graded call on its own seeded standard-normal inputs (manifest
[grading.device]) against device_reference.py.

Measured on a TPU v5e (JAX 0.10.2), 512 x 512 standard normal, max|out - ref| / max|ref| against float64, the same
run directly and exported: x @ w 2.5e-3 (DEFAULT: one bfloat16 pass, float32 accumulation); an explicit
Precision.DEFAULT and preferred_element_type=float32 the same (the latter is the output and accumulation type);
Precision.HIGH, "high" in einsum, "tensorfloat32" 1.4e-5 (three passes); "highest", or default_matmul_precision
("float32") inside the function, 1.3e-7 (six passes); a default_matmul_precision("highest") block that ended
before the first call 2.5e-3 (the precision is read when jit traces, and the block is over by then). On XLA:CPU
all of these are 1.1e-6, 0.045 of the values tolerance: only the device tells them apart. Inputs cast to bfloat16
by hand are 2.5e-3 on the CPU too, 95 times the values tolerance.
"""

import numpy as np

from jittrainer.authoring import float32_atol, msg, values_match

CHECKS = {
    "runs": "project runs under jax.jit",
    "values": "returns x @ w, to float32 rounding, on the CPU",
    "on_chip": "on a TPU, the product agrees with float64 to 1e-4 of its largest value",
}

SIZE = 512
CALLS = 3
RTOL = 1e-5  # plus float32_atol of |x| @ |w|
FIX_TIER = 2  # the hint tier that names the precision setting


def draw(rng: np.random.Generator):
    return tuple(rng.standard_normal((SIZE, SIZE)).astype(np.float32) for _ in range(2))


def _mm(a, b):
    # einsum without optimize runs NumPy's own loops: a BLAS matmul's threads spin for seconds on a loaded machine.
    return np.einsum("ij,jk->ik", a.astype(np.float64), b.astype(np.float64), optimize=False)


def precision_advice():
    return msg("advice.precision", "ask for float32 accuracy in the matmul itself, where jit traces it: "
               "jnp.matmul(x, w, precision=\"highest\") (six bfloat16 passes on the TPU), or precision=\"high\" "
               "(three passes: within 1e-4 here, at about half the cost). preferred_element_type only sets the "
               "output type")


def _bfloat16_slip(call, result, cases):
    """A result off by the rounding of a 16-bit type: the products were computed from narrower numbers."""
    x, w = cases[call - 1]
    want = _mm(x, w)
    got = np.asarray(result, np.float64) if np.shape(result) == want.shape else None
    error = None if got is None else float(np.abs(got - want).max() / np.abs(want).max())
    if error is None or not 1e-4 <= error <= 2e-2:
        return None
    return msg("values.bfloat16", "{why}: off by {error:.2g} of its largest value, the error of products computed "
               "from 16-bit numbers (bfloat16 keeps 8 bits of significand, float16 11). A cast to a narrower type "
               "loses those digits on every device, the CPU included", error=error)


def grade(g):
    project = g.graded(params=2)
    cases = [draw(g.rng) for _ in range(CALLS)]
    calls = g.calls(project, cases)  # the first call's program is the one the TPU runs
    g.check_ran("runs", calls)
    values_match(g, "values", calls.results, [_mm(x, w) for x, w in cases], rtol=RTOL,
                 atol=lambda call: float32_atol(_mm(np.abs(cases[call - 1][0]), np.abs(cases[call - 1][1]))),
                 refuse=True, slip=lambda call, result: _bfloat16_slip(call, result, cases),
                 advice=msg("advice.values", "keep float32 inputs and a float32 result: the precision of the "
                            "products is a setting of the matmul, not a cast"), tier=FIX_TIER,
                 ok=msg("values.ok", "all {n} products match float64 to float32 rounding on the CPU", n=CALLS))
    g.on_device("on_chip", advice=precision_advice(), tier=FIX_TIER)
