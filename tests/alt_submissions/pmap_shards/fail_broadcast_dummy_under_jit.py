# expect: uses_pmap
# The same broadcast under the learner's own jit (pmap sees tracers): one device index mapped, x sent whole.
import jax
import jax.numpy as jnp


@jax.jit
def sum_of_squares(x):
    n = jax.local_device_count()
    share = jax.pmap(lambda i, v: jnp.sum(v**2) / n, in_axes=(0, None))(jnp.arange(n, dtype=jnp.float32), x)
    return jnp.sum(share)
