# expect: values
# Clamps sqrt's input from below with a value far under any real length squared: sqrt never sees 0, and below the
# clamp the slope is 0. But the zero vector's length comes out sqrt(1e-30) = 1e-15, and the statement wants it
# exactly 0: a clamp is an epsilon by another name. (Passed before issue 20, when 1e-7 absolute was allowed.)
import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    return jnp.sqrt(jnp.maximum(sq, 1e-30))
