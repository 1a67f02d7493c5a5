import jax
import jax.numpy as jnp


def forecast(level, trend, t):
    """Demand at time t: a level plus a trend times t."""
    return trend * t + level


def residual(observed, trend, t):
    """What the trend does not explain: zero where the trend fits the observation exactly."""
    return observed - trend * t


def close_enough(expected, actual):
    """True when `actual` (a jitted result) is `expected` (the eager result) up to float32 rounding; False when it
    is really different."""
    # TODO: bit-for-bit equality. It held while everything ran eagerly; since the model is jitted, this
    # regression test fails although nothing is wrong.
    return bool(jnp.all(expected == actual))


def test_jit_matches_eager(level, trend, t, observed):
    for fn, args in ((forecast, (level, trend, t)), (residual, (observed, trend, t))):
        assert close_enough(fn(*args), jax.jit(fn)(*args)), f"{fn.__name__}: jit changed the result"


# Not graded: a scratch run (F6 in the app, `jittrainer run jit_numerics` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    t = jnp.asarray(rng.uniform(0, 100, 128), jnp.float32)
    trend = jnp.asarray(rng.uniform(-3, 3, 128), jnp.float32)
    level = jnp.asarray(rng.uniform(-300, 300, 128), jnp.float32)
    observed = trend * t  # the trend explains these observations exactly
    test_jit_matches_eager(level, trend, t, observed)
    print("the jitted model matches the eager one")
