# expect: pass
import jax
import jax.numpy as jnp


@jax.jit
def heat(delta):
    d = jnp.asarray(delta, jnp.float32)
    return jnp.piecewise(d, [d > 0], [lambda v: 1.5 * v + 2.0, lambda v: 0.25 * v])
