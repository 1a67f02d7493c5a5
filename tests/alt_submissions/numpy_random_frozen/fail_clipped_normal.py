# expect: normal_noise
# "Safer" noise: standard normal draws clipped to ±1.8, which leaves too few values beyond ±2 (none at all).
import jax
import jax.numpy as jnp

NOISE = 0.1


def add_noise(x, key):
    return x + NOISE * jnp.clip(jax.random.normal(key, x.shape), -1.8, 1.8)
