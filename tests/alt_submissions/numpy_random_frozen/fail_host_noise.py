# expect: runs
# Draws on the host from the key's data and hands the noise to a jitted add: but the grader jits
# add_noise, so the key is a tracer here and NumPy cannot read it.
import jax
import numpy as np

NOISE = 0.1


@jax.jit
def _add(x, noise):
    return x + NOISE * noise


def add_noise(x, key):
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)))
    return _add(x, rng.standard_normal(x.shape).astype(np.float32))
