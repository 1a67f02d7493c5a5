# expect: one_compile
# static via functools.partial and keyword: retraces (and recompiles) for every scale.
import functools

import jax
import jax.numpy as jnp

SCALE = 2.0


@functools.partial(jax.jit, static_argnames=("scale",))
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * scale
