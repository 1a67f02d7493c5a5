# expect: drawn_from_key
# Folds an extra NumPy random number into the key "for more randomness": that number is drawn while
# tracing, so each new trace (a new process) gives the same key other noise.
import jax
import numpy as np

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    key = jax.random.fold_in(key, np.random.randint(1 << 30))
    return x + NOISE * jax.random.normal(key, x.shape)
