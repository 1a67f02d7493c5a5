import jax
import jax.numpy as jnp
import numpy as np


def forecast(level, trend, t):
    """Demand at time t: a level plus a trend times t."""
    return trend * t + level


def residual(observed, trend, t):
    """What the trend does not explain: zero where the trend fits the observation exactly."""
    return observed - trend * t


# Fusion changes a result by a few float32 rounding steps of the largest values involved (about 1.2e-7 of them
# each). A real bug changes it by far more. The tolerance is measured against the largest magnitude, not element by
# element: where terms cancel, the eager result can be exactly 0 while the jitted one keeps the rounding error.
RTOL = 1e-5


def close_enough(expected, actual):
    expected = np.asarray(expected, dtype=np.float64)
    actual = np.asarray(actual, dtype=np.float64)
    scale = np.max(np.abs(expected))
    # Written so that a NaN anywhere makes it False: every comparison with NaN is False.
    return bool(np.all(np.abs(actual - expected) <= RTOL * scale))


def test_jit_matches_eager(level, trend, t, observed):
    for fn, args in ((forecast, (level, trend, t)), (residual, (observed, trend, t))):
        assert close_enough(fn(*args), jax.jit(fn)(*args)), f"{fn.__name__}: jit changed the result"
