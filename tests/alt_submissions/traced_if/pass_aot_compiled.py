# expect: pass
# Compiled ahead of time for a float delta; every graded call reuses this one program.
import jax
import jax.numpy as jnp


def _heat(delta):
    return jnp.where(delta > 0, 1.5 * delta + 2.0, 0.25 * delta)


heat = jax.jit(_heat).lower(1.0).compile()
