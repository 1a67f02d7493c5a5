# expect: follows_scale
# Wrong: clears an inner jit's cache on every call, but the grader jits scaled_relu itself, so SCALE is still frozen.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def _impl(x):
    return jnp.maximum(0, x) * SCALE


def scaled_relu(x, scale):
    _impl.clear_cache()
    return _impl(x)
