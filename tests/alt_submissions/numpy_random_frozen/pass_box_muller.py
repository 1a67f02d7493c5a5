# expect: pass
# Builds normal numbers from two uniform draws (Box-Muller), each from its own subkey.
import jax
import jax.numpy as jnp

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    k1, k2 = jax.random.split(key)
    u1 = jax.random.uniform(k1, x.shape, minval=jnp.finfo(jnp.float32).tiny, maxval=1.0)
    u2 = jax.random.uniform(k2, x.shape)
    z = jnp.sqrt(-2.0 * jnp.log(u1)) * jnp.cos(2.0 * jnp.pi * u2)
    return x + NOISE * z
