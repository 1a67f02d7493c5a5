# expect: pass
# Right: the whole function is jitted and calls pmap inside (pmap then sees tracers, so the values cannot be
# compared and must not be held against it).
import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    return jnp.sum(chunk**2)


@jax.jit
def sum_of_squares(x):
    n = jax.local_device_count()
    rows = jnp.pad(x, (0, (-x.shape[0]) % n)).reshape(n, -1)
    return jnp.sum(jax.pmap(chunk_sum)(rows))
