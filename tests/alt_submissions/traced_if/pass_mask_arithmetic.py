# expect: pass
# Branch-free: a 0/1 mask blends the two formulas.
import jax
import jax.numpy as jnp


def _heat(delta):
    on = (delta > 0).astype(jnp.float32)
    return on * (1.5 * delta + 2.0) + (1.0 - on) * (0.25 * delta)


heat = jax.jit(_heat)
