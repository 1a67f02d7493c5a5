# expect: pass
# Splits the key and draws float32 standard normals from one half; the tails are a standard normal's.
import jax
import jax.numpy as jnp

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    _, sub = jax.random.split(key)
    return x + NOISE * jax.random.normal(sub, x.shape, dtype=jnp.float32)
