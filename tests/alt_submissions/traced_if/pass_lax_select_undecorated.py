# expect: pass
# Not jitted here: the grader wraps it in jax.jit, and delta is traced there.
import jax.numpy as jnp
from jax import lax


def heat(delta):
    d = jnp.asarray(delta, jnp.float32)
    return lax.select(d > 0, 1.5 * d + 2.0, 0.25 * d)
