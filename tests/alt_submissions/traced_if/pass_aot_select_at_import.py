# expect: pass
# Compiled ahead of time at import for a float scalar: that compile counts once, in the first graded call, and the
# seven calls reuse it. The result is a 0-d float32.
import jax
import jax.numpy as jnp
from jax import lax


def _heat(delta):
    return lax.select(delta > 0, 1.5 * delta + 2.0, 0.25 * delta)


heat = jax.jit(_heat).lower(1.0).compile()
