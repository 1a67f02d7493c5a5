# expect: values
# Guards sqrt's input but forgets the outer where: the stand-in leaks out as the zero vector's length.
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    return jnp.sqrt(jnp.where(sq > 0, sq, 1.0))
