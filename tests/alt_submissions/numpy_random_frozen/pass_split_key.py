# expect: pass
# Splits the key first (a habit worth having), then draws from one of the subkeys.
import jax
import jax.numpy as jnp

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    _, sub = jax.random.split(key)
    return x + NOISE * jax.random.normal(sub, x.shape, dtype=jnp.float32)
