# expect: pass
# Inverse-CDF sampling from uniform draws of the key: sqrt(2) * erfinv(2u - 1) is standard normal, tails included.
import jax
import jax.numpy as jnp

NOISE = 0.1


def add_noise(x, key):
    u = jax.random.uniform(key, x.shape, minval=-1.0, maxval=1.0)
    u = jnp.clip(u, -1.0 + 1e-7, 1.0 - 1e-7)
    return x + NOISE * jnp.sqrt(2.0) * jax.scipy.special.erfinv(u)
