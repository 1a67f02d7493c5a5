# expect: follows_scale
# Issue case: written for the scales the old statement published (2.0, 3.0, 0.5): it snaps scale to the nearest
# of them. One compile, SCALE untouched, right for those three values only; drawn scales expose it.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    snapped = jnp.where(scale > 2.5, 3.0, jnp.where(scale > 1.25, 2.0, 0.5))
    return jnp.maximum(0, x) * snapped
