import jax
import numpy as np

NOISE = 0.1  # the noise's standard deviation


@jax.jit
def add_noise(x, key):
    # TODO: np.random draws these numbers once, while JAX traces add_noise, and the compiled
    # program keeps them as a constant: every call adds the same "noise", whatever its key.
    noise = np.random.normal(size=x.shape)
    return x + NOISE * noise
